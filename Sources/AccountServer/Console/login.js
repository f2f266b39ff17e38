// Signing in: nickname or email and password (POST /auth/login), then the authenticator or a
// recovery code (POST /auth/mfa/verify); or a passkey alone (webauthn.js), which proves
// possession and the person's verification at once. Then a check that the account may operate.
// A session opened without a second factor, or by an account that is not an operator, is logged
// out again at once and the person told what to do.

import * as api from './api.js';
import { t } from './i18n.js';
import { errorBox, field, fill, h, heading } from './dom.js';
import * as webauthn from './webauthn.js';

/** Draws the sign-in screen into `main`; calls `signedIn()` once an operator's session is held. */
export function render(main, { signedIn, notice }) {
  let challenge = null; // the mfa_required problem: { mfa_token, methods }
  let useRecovery = false;
  let error = notice || null;
  let note = null; // a quiet word, not an error (a passkey prompt closed without one)
  let busy = false;
  let focusPasskey = false;

  const identifier = h('input', { id: 'login-identifier', name: 'username', autocomplete: 'username', required: true, autocapitalize: 'none', spellcheck: 'false' });
  const password = h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });

  /** The way in without a password, under the form (or why this page cannot offer it). */
  const passkeyPart = (id) => (webauthn.available()
    ? h('div', { class: 'alternative' },
      h('p', { class: 'or' }, t('login.or')),
      h('button', { type: 'button', id, class: 'passkey', disabled: busy, onclick: submitPasskey, 'aria-describedby': `${id}-help` }, t('login.passkey')),
      h('p', { class: 'help', id: `${id}-help` }, t('login.passkeyHelp')))
    : h('p', { class: 'fine', id: 'passkey-unavailable' }, t('login.passkeyUnavailable')));

  const draw = () => {
    const box = error ? errorBox(error, 'login-error') : null;
    const quiet = note ? h('div', { class: 'notice', role: 'status', id: 'login-note' }, h('p', {}, note)) : null;
    if (!challenge) {
      fill(main, h('section', { class: 'card narrow' },
        heading(t('login.title')),
        h('p', {}, t('login.intro')),
        box, quiet,
        h('form', { id: 'login-form', novalidate: true, onsubmit: submitPassword },
          field(t('login.identifier'), identifier),
          field(t('login.password'), password),
          h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'login-submit', disabled: busy }, t('login.submit')))),
        passkeyPart('passkey-submit')));
    } else {
      const code = useRecovery
        ? h('input', { id: 'login-code', name: 'recovery_code', autocomplete: 'off', required: true, autocapitalize: 'none', spellcheck: 'false' })
        : h('input', { id: 'login-code', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6', required: true });
      const canRecover = (challenge.methods || []).includes('recovery_code');
      fill(main, h('section', { class: 'card narrow' },
        heading(t('login.codeTitle')),
        h('p', {}, t('login.codeIntro')),
        box, quiet,
        h('form', { id: 'code-form', novalidate: true, onsubmit: (event) => submitCode(event, code) },
          field(useRecovery ? t('login.recoveryCode') : t('login.code'), code),
          h('div', { class: 'actions' },
            h('button', { type: 'submit', class: 'primary', id: 'code-submit', disabled: busy }, t('login.verify')),
            canRecover ? h('button', { type: 'button', class: 'link', id: 'code-switch', onclick: () => { useRecovery = !useRecovery; error = null; note = null; draw(); } },
              useRecovery ? t('login.useCode') : t('login.useRecovery')) : null,
            h('button', { type: 'button', class: 'link', id: 'code-restart', onclick: () => { challenge = null; error = null; note = null; draw(); } }, t('login.back')))),
        passkeyPart('code-passkey')));
    }
    const passkeyButton = main.querySelector('button.passkey');
    const first = (focusPasskey && passkeyButton) || main.querySelector('[aria-invalid="true"]') || main.querySelector('input');
    focusPasskey = false;
    if (first) first.focus();
  };

  const invalid = (input, message) => {
    input.setAttribute('aria-invalid', 'true');
    error = message;
    note = null;
    draw();
  };

  /** Holds `pair` and asks the admin gate whether it may operate: `true` when it may; otherwise
   * the session is closed again and `error` says why. */
  async function admit(pair) {
    api.begin(pair);
    try {
      await api.call('GET', '/admin/api/audit?limit=1');
      return true;
    } catch (refusal) {
      let hasPasskey = false;
      if (refusal.code === 'second_factor_required') {
        // Opened with the password alone: an account that holds a passkey is pointed to it.
        try { hasPasskey = ((await api.call('GET', '/auth/passkeys')).passkeys || []).length > 0; } catch { /* say the general words */ }
      }
      await api.end();
      if (refusal.code === 'admin_required') error = t('login.notOperator');
      else if (refusal.code === 'second_factor_required') error = hasPasskey && webauthn.available() ? t('login.usePasskey') : t('login.enrol');
      else error = refusal;
      focusPasskey = hasPasskey;
      return false;
    }
  }

  async function submitPassword(event) {
    event.preventDefault();
    if (busy) return;
    for (const input of [identifier, password]) input.removeAttribute('aria-invalid');
    if (!identifier.value.trim()) return invalid(identifier, `${t('login.identifier')}: ${t('login.required')}`);
    if (!password.value) return invalid(password, `${t('login.password')}: ${t('login.required')}`);
    busy = true;
    note = null;
    try {
      const pair = await api.send('POST', '/auth/login', { body: { login: identifier.value.trim(), password: password.value } });
      // A password alone is no second factor: the gate refuses it, and says whether the account
      // is an operator at all.
      if (await admit(pair)) {
        busy = false;
        signedIn();
        return;
      }
    } catch (failure) {
      if (failure.code === 'mfa_required' && failure.problem.mfa_token) {
        challenge = failure.problem;
        error = null;
      } else {
        error = failure;
      }
    }
    password.value = '';
    busy = false;
    draw();
  }

  async function submitCode(event, input) {
    event.preventDefault();
    if (busy) return;
    const value = input.value.replace(/\s+/g, '');
    if (!useRecovery && !/^[0-9]{6}$/.test(value)) return invalid(input, t('login.codeFormat'));
    if (!value) return invalid(input, t('login.required'));
    busy = true;
    note = null;
    try {
      const body = useRecovery ? { mfa_token: challenge.mfa_token, recovery_code: value } : { mfa_token: challenge.mfa_token, code: value };
      const pair = await api.send('POST', '/auth/mfa/verify', { body });
      busy = false;
      if (await admit(pair)) {
        signedIn();
        return;
      }
      challenge = null;
    } catch (failure) {
      busy = false;
      // A spent or expired mfa token cannot be answered again: start over.
      if (['code_expired', 'too_many_attempts'].includes(failure.code)) challenge = null;
      error = failure;
    }
    draw();
  }

  /** A passkey alone: the browser's prompt, then the server's check. Closing the prompt is no
   * error: the form comes back with a quiet word and the focus on the passkey button. */
  async function submitPasskey() {
    if (busy) return;
    busy = true;
    error = null;
    note = null;
    for (const button of main.querySelectorAll('button')) button.disabled = true;
    try {
      const pair = await webauthn.signIn();
      busy = false;
      if (await admit(pair)) {
        signedIn();
        return;
      }
      challenge = null;
    } catch (failure) {
      busy = false;
      if (failure instanceof api.ApiError) {
        error = failure;
      } else if (failure?.name === 'NotAllowedError' || failure?.name === 'AbortError') {
        note = t('login.passkeyCancelled');
        focusPasskey = true;
      } else if (failure?.name === 'SecurityError') {
        error = t('login.passkeyAddress', { origin: location.origin });
      } else {
        error = t('login.passkeyFailed', { name: failure?.name || String(failure) });
      }
    }
    busy = false;
    draw();
  }

  draw();
}
