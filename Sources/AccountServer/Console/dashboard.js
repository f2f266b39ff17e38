// The dashboard: totals of the last 24 hours and the charts of GET /admin/api/figures, per hour
// for 24 hours and per day for 30 days, each also readable as a table.

import * as api from './api.js';
import { draw } from './charts.js';
import { bucketText, number, t } from './i18n.js';
import { errorBox, fill, h, heading, table } from './dom.js';

/** Draws the dashboard into `main`. */
export async function render(main) {
  fill(main, heading(t('dash.title')), h('p', { class: 'loading' }, t('app.loading')));
  let figures;
  try {
    figures = await api.call('GET', '/admin/api/figures');
  } catch (error) {
    fill(main, heading(t('dash.title')), errorBox(error, 'dashboard-error'),
      h('button', { type: 'button', onclick: () => render(main) }, t('common.retry')));
    return;
  }
  const hourly = figures.hourly || [];
  const daily = figures.daily || [];
  const total = (key) => hourly.reduce((sum, bucket) => sum + key(bucket), 0);
  const tiles = [
    ['signups', t('dash.signups'), total((b) => b.signups)],
    ['succeeded', t('dash.succeeded'), total((b) => b.logins.succeeded)],
    ['failed', t('dash.failed'), total((b) => b.logins.failed)],
    ['mfa', t('dash.mfaRequired'), total((b) => b.logins.mfa_required)],
    ['refused', t('dash.refused'), total((b) => b.logins.refused)],
    ['refreshes', t('dash.refreshes'), total((b) => b.refreshes)],
    ['codes', t('dash.codesSent'), total((b) => b.codes_sent)],
  ];
  const section = (id, titleText, buckets, unit) => {
    const range = titleText;
    const signups = h('div', { class: 'chart-box', id: `${id}-signups-box` });
    const logins = h('div', { class: 'chart-box', id: `${id}-logins-box` });
    const element = h('section', { class: 'card', 'aria-labelledby': `${id}-heading` },
      h('h2', { id: `${id}-heading` }, `${titleText} (${t('common.utc')})`),
      h('div', { class: 'charts' },
        h('figure', {}, h('figcaption', {}, t('dash.signups'), legend([['signups', t('dash.signups')]])), signups),
        h('figure', {}, h('figcaption', {}, t('dash.logins'),
          legend([['succeeded', t('dash.succeeded')], ['failed', t('dash.failed')]])), logins)),
      h('details', {}, h('summary', {}, t('dash.asTable')),
        table({ text: titleText, hidden: true }, [
          { label: t('dash.start'), cell: (b) => bucketText(b.start, unit) },
          { label: t('dash.signups'), cell: (b) => number(b.signups), class: 'number' },
          { label: t('dash.succeeded'), cell: (b) => number(b.logins.succeeded), class: 'number' },
          { label: t('dash.failed'), cell: (b) => number(b.logins.failed), class: 'number' },
          { label: t('dash.mfaRequired'), cell: (b) => number(b.logins.mfa_required), class: 'number' },
          { label: t('dash.refused'), cell: (b) => number(b.logins.refused), class: 'number' },
          { label: t('dash.refreshes'), cell: (b) => number(b.refreshes), class: 'number' },
          { label: t('dash.codesSent'), cell: (b) => number(b.codes_sent), class: 'number' },
        ], [...buckets].reverse(), { id: `${id}-table` })));
    return { element, draw: () => {
      draw(signups, { id: `${id}-signups`, kind: 'signups', buckets, unit, title: t('dash.signupsChart', { range }) });
      draw(logins, { id: `${id}-logins`, kind: 'logins', buckets, unit, title: t('dash.loginsChart', { range }) });
    } };
  };
  const sections = [section('hourly', t('dash.hourly'), hourly, 'hour'), section('daily', t('dash.daily'), daily, 'day')];
  fill(main,
    h('div', { class: 'screen-head' }, heading(t('dash.title')),
      h('button', { type: 'button', class: 'quiet', id: 'dashboard-reload', onclick: () => render(main) }, t('dash.reload'))),
    h('section', { class: 'tiles', 'aria-label': t('dash.totals24') },
      h('h2', { class: 'visually-hidden' }, t('dash.totals24')),
      h('p', { class: 'fine tiles-note' }, t('dash.totals24')),
      h('dl', { id: 'totals' }, tiles.map(([key, label, value]) =>
        h('div', { class: `tile tile-${key}` }, h('dt', {}, label), h('dd', { 'data-key': key }, number(value)))))),
    sections.map((part) => part.element),
    h('p', { class: 'fine' }, t('dash.updated', { time: new Date().toLocaleString(document.documentElement.lang) })));
  for (const part of sections) part.draw();
}

function legend(entries) {
  return h('span', { class: 'legend' }, entries.map(([key, label]) =>
    h('span', { class: 'legend-item' }, h('span', { class: `swatch swatch-${key}`, 'aria-hidden': 'true' }), label)));
}
