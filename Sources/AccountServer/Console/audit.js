// The audit log (GET /admin/api/audit): every operator action, newest first, keyset paged. The
// reply names operators and accounts by id; the log shows their nicknames, from what the page has
// loaded already (the operator signed in, the search, an account's page) or looked up once each
// (GET /admin/api/users/{id}), a bounded number a page.

import * as api from './api.js';
import { dateTime, has, t } from './i18n.js';
import { errorBox, fill, h, heading, table } from './dom.js';

/** Nicknames by account id: a nickname, or null for an account that is gone. */
const nicknames = new Map();
/** Lookups under way, by id, so an id is asked for once however many rows name it. */
const asking = new Map();
/** Accounts the log says were deleted: never looked up (there is nothing to find). */
const deleted = new Set();
const keep = 500;
const lookupsPerPage = 20;

/** Notes the nickname of account `id` (the search and the account page tell it). */
export function remember(id, name) {
  if (!id || typeof name !== 'string') return;
  nicknames.delete(id);
  nicknames.set(id, name);
  if (nicknames.size > keep) nicknames.delete(nicknames.keys().next().value);
}

/** The nicknames of `ids` not known yet, at most `lookupsPerPage` of them, asked for together. */
async function lookUp(ids) {
  const signedIn = api.current()?.user;
  if (signedIn?.id) remember(signedIn.id, signedIn.username);
  const wanted = [...new Set(ids)].filter((id) => id && !nicknames.has(id) && !deleted.has(id)).slice(0, lookupsPerPage);
  await Promise.all(wanted.map((id) => {
    if (!asking.has(id)) {
      asking.set(id, api.call('GET', `/admin/api/users/${encodeURIComponent(id)}`)
        .then((details) => remember(id, details.user.username))
        .catch((error) => {
          if (error.code === 'not_found') {
            nicknames.set(id, null);
          }
        })
        .finally(() => asking.delete(id)));
    }
    return asking.get(id);
  }));
}

const accountOf = (actor) => (actor.startsWith('account:') ? actor.slice('account:'.length) : null);

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
    for (const e of events) if (e.action === 'account_deleted' && e.target_id) deleted.add(e.target_id);
    await lookUp(events.flatMap((e) => [accountOf(e.actor), e.target_id]));
    fill(main,
      heading(t('audit.title')),
      errorBox(error, 'audit-error'),
      page ? h('section', { class: 'card' }, table({ text: t('audit.title'), hidden: true }, [
        { label: t('col.at'), cell: (e) => h('time', { datetime: e.at }, dateTime(e.at)) },
        { label: t('col.actor'), cell: (e) => actor(e.actor) },
        { label: t('col.action'), cell: (e) => h('span', { class: 'action', 'data-action': e.action }, has(`audit.${e.action}`) ? t(`audit.${e.action}`) : e.action) },
        { label: t('col.target'), cell: (e) => (e.target_id ? account(e.target_id) : t('common.unknown')) },
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

/** A link to account `id`: its nickname where known, else the id's first 8 characters. */
function account(id) {
  const name = nicknames.get(id);
  return h('a', { href: `#/accounts/${encodeURIComponent(id)}`, class: 'account-name', title: id },
    name ? name : h('code', {}, id.slice(0, 8)));
}

/** `account:<id>` as a link to that account, `cli:<name>` as the command line's name. */
function actor(text) {
  const id = accountOf(text);
  if (id) return account(id);
  if (text.startsWith('cli:')) return t('audit.cli', { name: text.slice('cli:'.length) });
  return text;
}
