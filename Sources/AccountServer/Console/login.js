// Signing in: nickname or email and password (POST /auth/login), then the authenticator or a
// recovery code (POST /auth/mfa/verify), then a check that the account may operate. A session
// opened without a second factor, or by an account that is not an operator, is logged out again
// at once and the person told what to do.

import * as api from './api.js';
import { t } from './i18n.js';
import { errorBox, field, fill, h, heading } from './dom.js';

/** Draws the sign-in screen into `main`; calls `signedIn()` once an operator's session is held. */
export function render(main, { signedIn, notice }) {
  let challenge = null; // the mfa_required problem: { mfa_token, methods }
  let useRecovery = false;
  let error = notice || null;
  let busy = false;

  const identifier = h('input', { id: 'login-identifier', name: 'username', autocomplete: 'username', required: true, autocapitalize: 'none', spellcheck: 'false' });
  const password = h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });

  const draw = () => {
    const box = error ? errorBox(error, 'login-error') : null;
    if (!challenge) {
      fill(main, h('section', { class: 'card narrow' },
        heading(t('login.title')),
        h('p', {}, t('login.intro')),
        box,
        h('form', { id: 'login-form', novalidate: true, onsubmit: submitPassword },
          field(t('login.identifier'), identifier),
          field(t('login.password'), password),
          h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'login-submit', disabled: busy }, t('login.submit'))))));
    } else {
      const code = useRecovery
        ? h('input', { id: 'login-code', name: 'recovery_code', autocomplete: 'off', required: true, autocapitalize: 'none', spellcheck: 'false' })
        : h('input', { id: 'login-code', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6', required: true });
      const canRecover = (challenge.methods || []).includes('recovery_code');
      fill(main, h('section', { class: 'card narrow' },
        heading(t('login.codeTitle')),
        h('p', {}, t('login.codeIntro')),
        box,
        h('form', { id: 'code-form', novalidate: true, onsubmit: (event) => submitCode(event, code) },
          field(useRecovery ? t('login.recoveryCode') : t('login.code'), code),
          h('div', { class: 'actions' },
            h('button', { type: 'submit', class: 'primary', id: 'code-submit', disabled: busy }, t('login.verify')),
            canRecover ? h('button', { type: 'button', class: 'link', id: 'code-switch', onclick: () => { useRecovery = !useRecovery; error = null; draw(); } },
              useRecovery ? t('login.useCode') : t('login.useRecovery')) : null,
            h('button', { type: 'button', class: 'link', id: 'code-restart', onclick: () => { challenge = null; error = null; draw(); } }, t('login.back'))))));
    }
    const first = main.querySelector('[aria-invalid="true"]') || main.querySelector('input');
    if (first) first.focus();
  };

  const invalid = (input, message) => {
    input.setAttribute('aria-invalid', 'true');
    error = message;
    draw();
  };

  async function submitPassword(event) {
    event.preventDefault();
    if (busy) return;
    for (const input of [identifier, password]) input.removeAttribute('aria-invalid');
    if (!identifier.value.trim()) return invalid(identifier, `${t('login.identifier')}: ${t('login.required')}`);
    if (!password.value) return invalid(password, `${t('login.password')}: ${t('login.required')}`);
    busy = true;
    try {
      const pair = await api.send('POST', '/auth/login', { body: { login: identifier.value.trim(), password: password.value } });
      // A session without a second factor cannot operate: the gate says whether the account is an
      // operator at all; either way the session is closed again and the person told what to do.
      api.begin(pair);
      let refusal = '';
      try { await api.call('GET', '/admin/api/audit?limit=1'); } catch (gate) { refusal = gate.code; }
      await api.end();
      error = refusal === 'admin_required' ? t('login.notOperator') : t('login.enrol');
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
    try {
      const body = useRecovery ? { mfa_token: challenge.mfa_token, recovery_code: value } : { mfa_token: challenge.mfa_token, code: value };
      api.begin(await api.send('POST', '/auth/mfa/verify', { body }));
      // The gate itself says whether this account may operate.
      await api.call('GET', '/admin/api/audit?limit=1');
      busy = false;
      signedIn();
      return;
    } catch (failure) {
      busy = false;
      if (api.current()) {
        await api.end();
        challenge = null;
        error = failure.code === 'admin_required' ? t('login.notOperator') : failure;
      } else {
        // A spent or expired mfa token cannot be answered again: start over.
        if (['code_expired', 'too_many_attempts'].includes(failure.code)) challenge = null;
        error = failure;
      }
    }
    draw();
  }

  draw();
}
