// The audit log (GET /admin/api/audit): every operator action, newest first, keyset paged.

import * as api from './api.js';
import { dateTime, has, t } from './i18n.js';
import { errorBox, fill, h, heading, table } from './dom.js';

/** Draws the audit log into `main`, from its newest page. */
export async function render(main) {
  const cursors = [null];
  const show = async (focusTable) => {
    let page = null;
    let error = null;
    try {
      page = await api.call('GET', `/admin/api/audit${api.query({ limit: 50, after: cursors[cursors.length - 1] })}`);
    } catch (failure) {
      error = failure;
    }
    const events = page?.events || [];
    fill(main,
      heading(t('audit.title')),
      errorBox(error, 'audit-error'),
      page ? h('section', { class: 'card' }, table({ text: t('audit.title'), hidden: true }, [
        { label: t('col.at'), cell: (e) => h('time', { datetime: e.at }, dateTime(e.at)) },
        { label: t('col.actor'), cell: (e) => actor(e.actor) },
        { label: t('col.action'), cell: (e) => h('span', { class: 'action', 'data-action': e.action }, has(`audit.${e.action}`) ? t(`audit.${e.action}`) : e.action) },
        { label: t('col.target'), cell: (e) => (e.target_id ? h('a', { href: `#/accounts/${encodeURIComponent(e.target_id)}` }, h('code', {}, e.target_id.slice(0, 8))) : t('common.unknown')) },
        { label: t('col.reason'), cell: (e) => e.reason || t('common.unknown') },
        { label: t('col.request'), cell: (e) => (e.request_id ? h('code', { class: 'fine' }, e.request_id) : t('common.unknown')) },
      ], events, { id: 'audit-table', empty: t('audit.empty') }),
      h('div', { class: 'actions pager' },
        cursors.length > 1 ? h('button', { type: 'button', id: 'audit-first', onclick: () => { cursors.splice(1); show(true); } }, t('common.first')) : null,
        page.next ? h('button', { type: 'button', id: 'audit-next', onclick: () => { cursors.push(page.next); show(true); } }, t('common.next')) : null)) : null);
    const target = focusTable ? main.querySelector('table, .empty') : main.querySelector('.screen-title');
    if (target) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
    }
  };
  fill(main, heading(t('audit.title')), h('p', { class: 'loading' }, t('app.loading')));
  await show(false);
}

/** `account:<id>` as a link to that account, `cli:<name>` as the command line's name. */
function actor(text) {
  if (text.startsWith('account:')) {
    const id = text.slice('account:'.length);
    return h('a', { href: `#/accounts/${encodeURIComponent(id)}` }, h('code', {}, id.slice(0, 8)));
  }
  if (text.startsWith('cli:')) return t('audit.cli', { name: text.slice('cli:'.length) });
  return text;
}
