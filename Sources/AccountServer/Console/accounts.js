// The account search: a prefix of the nickname or address, filters (verified, second factor,
// disabled, created between two days), the table of GET /admin/api/users and keyset paging. The
// last search is kept while the page is open, so coming back from an account shows it again.

import * as api from './api.js';
import { dateTime, plural, t } from './i18n.js';
import { remember } from './audit.js';
import { errorBox, field, fill, flag, h, heading, select, table } from './dom.js';

const state = {
  filters: { q: '', verified: '', mfa: '', disabled: '', from: '', until: '', limit: '25' },
  cursors: [null], // the `after` of each page seen; the last one is the page shown
  page: null,
  error: null,
};

/** The API query for the filters and the page's cursor. */
function searchQuery(filters, after) {
  // Days are UTC days; "until" includes its whole day.
  const day = (text, add) => {
    if (!text) return '';
    const date = new Date(`${text}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) return '';
    date.setUTCDate(date.getUTCDate() + add);
    return date.toISOString().replace('.000Z', 'Z');
  };
  return api.query({
    q: filters.q.trim(), verified: filters.verified, mfa: filters.mfa, disabled: filters.disabled,
    created_after: day(filters.from, 0), created_before: day(filters.until, 1), limit: filters.limit, after,
  });
}

async function load() {
  try {
    state.page = await api.call('GET', `/admin/api/users${searchQuery(state.filters, state.cursors[state.cursors.length - 1])}`);
    state.error = null;
  } catch (error) {
    state.page = null;
    state.error = error;
  }
}

/** Draws the search into `main`, running the last search (the newest accounts at first) again. */
export async function render(main) {
  if (!state.page) fill(main, heading(t('search.title')), h('p', { class: 'loading' }, t('app.loading')));
  await load();
  draw(main);
}

function draw(main, focusResults = false) {
  const filters = state.filters;
  const yesNo = (id) => select(id, [['', t('common.any')], ['true', t('common.yes')], ['false', t('common.no')]], filters[id.replace('search-', '')]);
  const q = h('input', { id: 'search-q', type: 'search', value: filters.q, autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
  const verified = yesNo('search-verified');
  const mfa = yesNo('search-mfa');
  const disabled = yesNo('search-disabled');
  const from = h('input', { id: 'search-from', type: 'date', value: filters.from });
  const until = h('input', { id: 'search-until', type: 'date', value: filters.until });
  const limit = select('search-limit', ['10', '25', '50', '100'].map((n) => [n, n]), filters.limit);

  const submit = async (event) => {
    event.preventDefault();
    state.filters = { q: q.value, verified: verified.value, mfa: mfa.value, disabled: disabled.value, from: from.value, until: until.value, limit: limit.value };
    state.cursors = [null];
    await load();
    draw(main, true);
  };
  const clear = async () => {
    state.filters = { q: '', verified: '', mfa: '', disabled: '', from: '', until: '', limit: filters.limit };
    state.cursors = [null];
    await load();
    draw(main);
  };
  const turn = async (forward) => {
    if (forward) state.cursors.push(state.page.next);
    else state.cursors = [null];
    await load();
    draw(main, true);
  };

  const users = state.page?.users || [];
  for (const user of users) remember(user.id, user.username);
  const results = h('section', { class: 'card', 'aria-labelledby': 'results-heading', id: 'results' },
    h('h2', { id: 'results-heading', tabindex: '-1' }, t('search.results')),
    errorBox(state.error, 'search-error'),
    state.page ? h('p', { class: 'fine', id: 'results-count' }, plural('search.count', users.length)) : null,
    state.page ? table({ text: t('search.results'), hidden: true }, [
      { label: t('col.nickname'), cell: (u) => h('a', { href: `#/accounts/${encodeURIComponent(u.id)}`, class: 'account-link' }, u.username) },
      { label: t('col.email'), cell: (u) => h('span', { class: 'address' }, u.email) },
      { label: t('col.mbti'), cell: (u) => u.mbti },
      { label: t('col.verified'), cell: (u) => flag(u.email_verified) },
      { label: t('col.mfa'), cell: (u) => flag(u.mfa_enabled) },
      { label: t('col.disabled'), cell: (u) => (u.disabled ? h('span', { class: 'badge alert' }, t('state.disabled')) : flag(false)) },
      { label: t('col.admin'), cell: (u) => (u.is_admin ? h('span', { class: 'badge info' }, t('state.operator')) : '') },
      { label: t('col.created'), cell: (u) => h('time', { datetime: u.created_at }, dateTime(u.created_at)) },
      { label: t('col.lastLogin'), cell: (u) => (u.last_login_at ? h('time', { datetime: u.last_login_at }, dateTime(u.last_login_at)) : t('common.never')) },
    ], users, { id: 'accounts-table', empty: t(state.page.next ? 'search.stretch' : 'search.empty') }) : null,
    h('div', { class: 'actions pager' },
      state.cursors.length > 1 ? h('button', { type: 'button', id: 'first-page', onclick: () => turn(false) }, t('common.first')) : null,
      state.page?.next ? h('button', { type: 'button', id: 'next-page', onclick: () => turn(true) }, t('common.next')) : null));

  fill(main,
    heading(t('search.title')),
    h('form', { class: 'card search', id: 'search-form', role: 'search', novalidate: true, onsubmit: submit },
      h('div', { class: 'grid' },
        h('div', { class: 'wide' }, field(t('search.query'), q, t('search.queryHelp'))),
        field(t('search.verified'), verified),
        field(t('search.mfa'), mfa),
        field(t('search.disabled'), disabled),
        field(t('search.createdAfter'), from),
        field(t('search.createdBefore'), until),
        field(t('search.pageSize'), limit)),
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', id: 'search-submit' }, t('search.submit')),
        h('button', { type: 'button', class: 'quiet', id: 'search-clear', onclick: clear }, t('search.clear')))),
    results);
  const target = focusResults ? document.getElementById('results-heading') : main.querySelector('.screen-title');
  target?.focus();
}

