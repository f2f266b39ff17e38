// One account (GET /admin/api/users/{id}): profile, sessions, passkeys, second factor and recent
// security events, and the operator's actions, each asking for the reason and a confirmation.

import * as api from './api.js';
import { dateTime, has, number, t } from './i18n.js';
import { announce, confirmWithReason, errorBox, fill, flag, h, heading, table } from './dom.js';
import { remember } from './audit.js';

/** Draws account `id` into `main`; `leave()` goes back to the search (after a deletion). */
export async function render(main, id, { leave }) {
  fill(main, heading(t('acct.profile')), h('p', { class: 'loading' }, t('app.loading')));
  let details;
  try {
    details = await api.call('GET', `/admin/api/users/${encodeURIComponent(id)}`);
  } catch (error) {
    fill(main, backLink(), heading(t('acct.profile')),
      error.code === 'not_found' ? h('p', { class: 'notice', role: 'alert', id: 'account-error' }, t('acct.notFound')) : errorBox(error, 'account-error'));
    return;
  }
  const user = details.user;
  remember(user.id, user.username);
  const factor = details.second_factor || { totp: false, recovery_codes_left: 0 };
  const act = (action, { danger = true, mustTick } = {}) => h('button', {
    type: 'button', class: danger ? 'danger' : '', id: `action-${action}`,
    onclick: () => confirmWithReason({
      title: `${t(`action.${action}`)}: ${user.username}`,
      text: t(`confirm.${action}`, { name: user.username }),
      submitLabel: t(`action.${action}`),
      danger,
      mustTick,
      perform: (reason) => api.call('POST', `/admin/api/users/${encodeURIComponent(user.id)}/${action}`, { reason }),
      done: (result) => {
        announce(t(`done.${action}`, { name: user.username, count: number(result?.ended ?? 0) }), { carry: action === 'delete' });
        if (action === 'delete') leave();
        else render(main, id, { leave });
      },
    }),
  }, t(`action.${action}`));

  const badges = h('p', { class: 'badges', id: 'account-state' },
    user.disabled ? h('span', { class: 'badge alert', id: 'state-disabled' }, t('state.disabled')) : h('span', { class: 'badge on', id: 'state-active' }, t('state.active')),
    user.email_verified ? null : h('span', { class: 'badge warn' }, t('state.unverified')),
    user.is_admin ? h('span', { class: 'badge info' }, t('state.operator')) : null);

  const profileRows = [
    [t('acct.id'), h('code', {}, user.id)],
    [t('col.email'), h('span', { class: 'address' }, user.email)],
    [t('col.mbti'), user.mbti],
    [t('col.verified'), flag(user.email_verified)],
    [t('col.created'), dateTime(user.created_at)],
    [t('col.lastLogin'), user.last_login_at ? dateTime(user.last_login_at) : t('common.never')],
    user.disabled ? [t('acct.disabledAt'), dateTime(user.disabled_at)] : null,
    'apple_linked' in user ? [t('acct.apple'), flag(user.apple_linked)] : null,
  ].filter(Boolean);

  fill(main,
    backLink(),
    h('div', { class: 'screen-head start' }, heading(user.username), badges),
    h('div', { class: 'columns' },
      h('section', { class: 'card', 'aria-labelledby': 'profile-heading', id: 'profile' },
        h('h2', { id: 'profile-heading' }, t('acct.profile')),
        h('dl', { class: 'pairs' }, profileRows.map(([label, value]) => h('div', {}, h('dt', {}, label), h('dd', {}, value))))),
      h('section', { class: 'card', 'aria-labelledby': 'actions-heading', id: 'actions' },
        h('h2', { id: 'actions-heading' }, t('acct.actions')),
        h('div', { class: 'action-list' },
          user.disabled ? act('enable', { danger: false }) : act('disable'),
          act('end-sessions', { danger: false }),
          user.email_verified ? null : act('resend-verification', { danger: false }),
          factor.totp ? act('remove-second-factor', { danger: false }) : null,
          act('delete', { mustTick: t('confirm.deleteCheck') }))),
      h('section', { class: 'card', 'aria-labelledby': 'factor-heading', id: 'second-factor' },
        h('h2', { id: 'factor-heading' }, t('acct.secondFactor')),
        h('dl', { class: 'pairs' },
          h('div', {}, h('dt', {}, t('acct.totp')), h('dd', {}, flag(factor.totp, t('acct.on'), t('acct.off')))),
          h('div', {}, h('dt', {}, t('acct.recoveryLeft')), h('dd', {}, number(factor.recovery_codes_left))))),
      h('section', { class: 'card', 'aria-labelledby': 'passkeys-heading', id: 'passkeys' },
        h('h2', { id: 'passkeys-heading' }, t('acct.passkeys')),
        table({ text: t('acct.passkeys'), hidden: true }, [
          { label: t('col.name'), cell: (p) => p.name || t('common.unknown') },
          { label: t('col.added'), cell: (p) => dateTime(p.created_at) },
          { label: t('col.lastUsed'), cell: (p) => dateTime(p.last_used_at) },
        ], details.passkeys || [], { id: 'passkeys-table', empty: t('acct.noPasskeys') }))),
    h('section', { class: 'card', 'aria-labelledby': 'sessions-heading', id: 'sessions' },
      h('h2', { id: 'sessions-heading' }, `${t('acct.sessions')} (${number((details.sessions || []).length)})`),
      table({ text: t('acct.sessions'), hidden: true }, [
        { label: t('col.device'), cell: (s) => s.device_name || t('common.unknown') },
        { label: t('col.address'), cell: (s) => (s.client_address ? h('span', { class: 'address' }, s.client_address) : t('common.unknown')) },
        { label: t('col.started'), cell: (s) => dateTime(s.created_at) },
        { label: t('col.lastUsed'), cell: (s) => dateTime(s.last_used_at) },
      ], details.sessions || [], { id: 'sessions-table', empty: t('acct.noSessions') })),
    h('section', { class: 'card', 'aria-labelledby': 'events-heading', id: 'events' },
      h('h2', { id: 'events-heading' }, t('acct.events')),
      table({ text: t('acct.events'), hidden: true }, [
        { label: t('col.at'), cell: (e) => h('time', { datetime: e.at }, dateTime(e.at)) },
        { label: t('col.event'), cell: (e) => h('span', { class: /failed|disabled|removed/.test(e.type) ? 'event warn' : 'event' }, has(`event.${e.type}`) ? t(`event.${e.type}`) : e.type) },
        { label: t('col.address'), cell: (e) => (e.client_address ? h('span', { class: 'address' }, e.client_address) : t('common.unknown')) },
        { label: t('col.device'), cell: (e) => e.device_name || t('common.unknown') },
      ], details.events || [], { id: 'events-table', empty: t('acct.noEvents') })));
  main.querySelector('.screen-title')?.focus();
}

function backLink() {
  return h('p', { class: 'back' }, h('a', { href: '#/accounts', id: 'back-to-accounts' }, `← ${t('acct.back')}`));
}
