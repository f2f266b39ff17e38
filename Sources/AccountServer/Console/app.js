// The console's entry: the header (navigation, language, sign-out), the screens by the URL's
// fragment (#/dashboard, #/accounts, #/accounts/{id}, #/audit) and the sign-in in front of them.

import * as api from './api.js';
import { language, languages, setLanguage, t } from './i18n.js';
import { h, leftScreen } from './dom.js';
import * as login from './login.js';
import * as dashboard from './dashboard.js';
import * as accounts from './accounts.js';
import * as account from './account.js';
import * as audit from './audit.js';

const main = document.getElementById('main');
let loginNotice = null;

/** The header's words in the current language, and what it shows for the session. */
function drawChrome() {
  const signedIn = Boolean(api.current());
  document.title = t('app.name');
  document.getElementById('brand-name').textContent = t('app.name');
  document.getElementById('skip-link').textContent = t('app.skip');
  const nav = document.getElementById('nav');
  nav.hidden = !signedIn;
  nav.setAttribute('aria-label', t('nav.label'));
  for (const link of nav.querySelectorAll('a')) link.textContent = t(`nav.${link.dataset.screen}`);
  const switcher = document.getElementById('language');
  const other = languages.find((code) => code !== language());
  switcher.textContent = t('app.language');
  switcher.lang = other;
  switcher.setAttribute('aria-label', t('app.languageName'));
  const signOut = document.getElementById('sign-out');
  signOut.hidden = !signedIn;
  signOut.textContent = t('app.signOut');
  const operator = document.getElementById('operator');
  operator.hidden = !signedIn;
  operator.textContent = signedIn ? t('app.signedInAs', { name: api.current().user?.username ?? '' }) : '';
}

/** The screen the fragment names: `{ name, id? }`. */
function route() {
  const path = location.hash.replace(/^#\/?/, '');
  const [screen, id] = path.split('/');
  if (screen === 'accounts' && id) return { name: 'account', id: decodeURIComponent(id) };
  if (['dashboard', 'accounts', 'audit'].includes(screen)) return { name: screen };
  return { name: 'dashboard' };
}

/** Draws the screen for the fragment (the sign-in while nobody is signed in) in a fresh view, so
 * an answer that comes after the operator moved on draws nowhere. */
function show() {
  drawChrome();
  const view = h('div', { class: 'view' });
  main.replaceChildren(view);
  if (!api.current()) {
    const notice = loginNotice;
    loginNotice = null;
    login.render(view, { signedIn: show, notice });
    return;
  }
  const current = route();
  for (const link of document.querySelectorAll('#nav a')) {
    const active = link.dataset.screen === current.name || (current.name === 'account' && link.dataset.screen === 'accounts');
    if (active) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (current.name === 'dashboard') dashboard.render(view);
  else if (current.name === 'accounts') accounts.render(view);
  else if (current.name === 'account') account.render(view, current.id, { leave: () => { location.hash = '#/accounts'; } });
  else audit.render(view);
}

document.getElementById('language').addEventListener('click', () => {
  setLanguage(languages.find((code) => code !== language()));
  show();
});
document.getElementById('sign-out').addEventListener('click', async () => {
  await api.end();
  leftScreen();
  loginNotice = t('login.signedOut');
  show();
});
api.onSessionLost(() => {
  loginNotice = t('login.ended');
  show();
});
document.getElementById('skip-link').addEventListener('click', (event) => {
  // The fragment names screens, so the skip link moves the focus instead of the fragment.
  event.preventDefault();
  (main.querySelector('.screen-title') || main).focus();
});
window.addEventListener('hashchange', () => {
  leftScreen();
  show();
});

setLanguage(language());
show();
