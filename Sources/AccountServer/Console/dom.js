// Small helpers to build the screens: elements, tables that turn into cards on a phone, the
// reason-and-confirm dialog (focus kept inside, Escape closes it) and the status line.

import { t } from './i18n.js';

/** An element: `h('a', { href: '#/x', class: 'y', onclick: f }, 'text', child)`. Text is never parsed as HTML. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `element` holds. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** The screen's heading, focusable so a new screen can take the focus (screen readers read it). */
export function heading(text, level = 1) {
  return h(`h${level}`, { tabindex: '-1', class: 'screen-title' }, text);
}

/** An error shown in words (role alert), or nothing. */
export function errorBox(error, id) {
  if (!error) return null;
  const words = typeof error === 'string' ? error : error.words();
  const requestId = typeof error === 'string' ? '' : error.requestId;
  return h('div', { class: 'notice error', role: 'alert', id },
    h('p', {}, words),
    requestId ? h('p', { class: 'fine' }, t('error.request', { id: requestId })) : null);
}

/** A table with a caption; on narrow screens each row becomes a card labelled by the column names.
 * `columns`: `[{ label, cell: (row) => content, class? }]`. */
export function table(caption, columns, rows, { id, empty } = {}) {
  if (!rows.length) return h('p', { class: 'empty', id }, empty || t('common.none'));
  return h('div', { class: 'table-wrap' },
    h('table', { id, class: 'data' },
      h('caption', { class: caption.hidden ? 'visually-hidden' : '' }, caption.text ?? caption),
      h('thead', {}, h('tr', {}, columns.map((column) => h('th', { scope: 'col', class: column.class }, column.label)))),
      h('tbody', {}, rows.map((row) => h('tr', {},
        columns.map((column) => h('td', { 'data-label': column.label, class: column.class }, column.cell(row))))))));
}

/** A yes/no badge. */
export function flag(value, yes = t('common.yes'), no = t('common.no')) {
  return h('span', { class: value ? 'badge on' : 'badge off' }, value ? yes : no);
}

/** A `<label>` and its field, with an optional help line. */
export function field(label, control, help) {
  const helpId = help ? `${control.id}-help` : undefined;
  if (helpId) control.setAttribute('aria-describedby', helpId);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control,
    help ? h('p', { class: 'help', id: helpId }, help) : null);
}

/** A select of `[value, label]` pairs. */
export function select(id, options, value) {
  return h('select', { id, name: id }, options.map(([optionValue, label]) =>
    h('option', { value: optionValue, selected: optionValue === value }, label)));
}

let statusTimer = null;
let carried = false;

/** Says `text` in the status line (read out by screen readers) for a few seconds. The line belongs
 * to the screen it was said on and goes when the operator moves to another (`leftScreen`), unless
 * `carry` keeps it over the next move, for an action that itself leaves the screen (a deletion). */
export function announce(text, { carry = false } = {}) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.classList.add('shown');
  carried = carry;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => { status.classList.remove('shown'); }, 6000);
}

/** The operator moved to another screen: the status line of the one left goes with it. */
export function leftScreen() {
  if (carried) {
    carried = false;
    return;
  }
  clearTimeout(statusTimer);
  const status = document.getElementById('status');
  status.classList.remove('shown');
  status.textContent = '';
}

const focusable = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The focusable elements inside `root`, in tab order, visible ones only. */
function focusables(root) {
  return [...root.querySelectorAll(focusable)].filter((element) => !element.closest('[hidden]') && element.getClientRects().length);
}

/** Asks for a reason (1–500 characters) and a confirmation in the modal dialog, then runs
 * `perform(reason)` and, once the dialog has closed, `done(its result)`. Focus stays inside the
 * dialog; Escape or Cancel closes it and gives the focus back. An error of `perform` is shown in
 * the dialog, which stays open. */
export function confirmWithReason({ title, text, submitLabel, danger = true, mustTick, perform, done }) {
  const dialog = document.getElementById('dialog');
  const form = document.getElementById('dialog-form');
  const reason = document.getElementById('dialog-reason');
  const help = document.getElementById('dialog-reason-help');
  const errorLine = document.getElementById('dialog-error');
  const tickRow = document.getElementById('dialog-confirm-row');
  const tick = document.getElementById('dialog-confirm');
  const submit = document.getElementById('dialog-submit');
  const cancel = document.getElementById('dialog-cancel');
  const opener = document.activeElement;

  document.getElementById('dialog-title').textContent = title;
  document.getElementById('dialog-text').textContent = text;
  document.getElementById('dialog-reason-label').textContent = t('confirm.reason');
  reason.value = '';
  reason.removeAttribute('aria-invalid');
  const counter = () => { help.textContent = t('confirm.reasonHelp', { count: reason.value.length }); };
  counter();
  tickRow.hidden = !mustTick;
  tick.checked = false;
  document.getElementById('dialog-confirm-label').textContent = mustTick || '';
  errorLine.hidden = true;
  submit.textContent = submitLabel;
  submit.className = danger ? 'danger' : 'primary';
  submit.disabled = false;
  cancel.textContent = t('common.cancel');

  const showError = (words) => {
    errorLine.textContent = words;
    errorLine.hidden = false;
  };
  const close = () => {
    dialog.close();
  };
  const onSubmit = async (event) => {
    event.preventDefault();
    const value = reason.value.trim();
    if (!value || value.length > 500) {
      reason.setAttribute('aria-invalid', 'true');
      showError(t('confirm.reasonRequired'));
      reason.focus();
      return;
    }
    if (mustTick && !tick.checked) {
      showError(t('confirm.checkRequired'));
      tick.focus();
      return;
    }
    submit.disabled = true;
    let result;
    try {
      result = await perform(value);
    } catch (error) {
      submit.disabled = false;
      showError(error.words ? error.words() : String(error));
      submit.focus();
      return;
    }
    close();
    if (done) done(result);
  };
  const onKey = (event) => {
    if (event.key !== 'Tab') return;
    const items = focusables(dialog);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  const onClose = () => {
    form.removeEventListener('submit', onSubmit);
    dialog.removeEventListener('keydown', onKey);
    reason.removeEventListener('input', counter);
    cancel.removeEventListener('click', close);
    if (opener && opener.isConnected) opener.focus();
  };
  form.addEventListener('submit', onSubmit);
  dialog.addEventListener('keydown', onKey);
  reason.addEventListener('input', counter);
  cancel.addEventListener('click', close);
  dialog.addEventListener('close', onClose, { once: true });
  dialog.showModal();
  reason.focus();
}
