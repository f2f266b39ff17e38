// Calls to this server's API: the operator's tokens (held in this page's memory only, never in
// storage or cookies, so a reload means signing in again), one refresh when the access token has
// expired, and every error turned into an ApiError carrying the problem+json reply.

import { language, t } from './i18n.js';

/** An error reply (or no reply at all: `status` 0), with the problem's `code` and texts. */
export class ApiError extends Error {
  constructor(status, problem, requestId, retryAfter) {
    super(problem?.detail || problem?.title || (status ? t('error.unexpected', { status }) : t('error.network')));
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code || '';
    this.requestId = requestId || '';
    this.retryAfter = retryAfter || '';
  }

  /** The error in words for the operator: the server's text (in the console's language), the
   * fields it refused, when to retry, and the request id to find it in the log. */
  words() {
    const parts = [];
    const title = this.problem.title;
    const detail = this.problem.detail;
    if (title && detail && title !== detail) parts.push(`${title}: ${detail}`);
    else parts.push(this.message);
    for (const [field, errors] of Object.entries(this.problem.errors || {})) {
      for (const error of errors) parts.push(`${field}: ${error.message || error.code}`);
    }
    if (this.retryAfter) parts.push(t('error.retryAfter', { seconds: this.retryAfter }));
    return parts.join(' ');
  }
}

let session = null; // { access, refresh, user }
let refreshing = null;
const listeners = new Set();

/** The signed-in operator (`{ access, refresh, user }`), or null. */
export function current() { return session; }

/** Holds a token pair from a login or a refresh. */
export function begin(pair) {
  session = { access: pair.access, refresh: pair.refresh, user: pair.user };
}

/** Forgets the tokens (after telling the server, when `logout`). */
export async function end({ logout = true } = {}) {
  const ending = session;
  session = null;
  if (logout && ending) {
    try { await send('POST', '/auth/logout', { token: ending.access }); } catch { /* gone already */ }
  }
}

/** Called with no argument when the session can no longer be refreshed. */
export function onSessionLost(listener) { listeners.add(listener); }

/** One request to this origin; JSON in and out. Throws ApiError on any reply but 2xx/304. */
export async function send(method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json, application/problem+json', 'Accept-Language': language() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit', cache: 'no-store', redirect: 'error', referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new ApiError(0, null);
  }
  const type = response.headers.get('Content-Type') || '';
  let parsed = null;
  if (type.includes('json')) {
    try { parsed = await response.json(); } catch { parsed = null; }
  }
  if (!response.ok) {
    throw new ApiError(response.status, parsed, response.headers.get('X-Request-Id'), response.headers.get('Retry-After'));
  }
  return parsed ?? {};
}

/** An operator call with the session's access token; one refresh and retry when it expired. */
export async function call(method, path, body) {
  if (!session) throw new ApiError(401, { code: 'token_invalid', detail: t('login.ended') });
  try {
    return await send(method, path, { body, token: session.access });
  } catch (error) {
    if (error.status !== 401 || !session) throw error;
    await refresh();
    return send(method, path, { body, token: session.access });
  }
}

/** Trades the refresh token for a new pair (one trade at a time); on failure the session is lost. */
async function refresh() {
  if (!refreshing) {
    const token = session.refresh;
    refreshing = send('POST', '/auth/refresh', { body: { refresh: token } })
      .then((pair) => { begin(pair); })
      .catch((error) => {
        session = null;
        for (const listener of listeners) listener();
        throw new ApiError(401, { code: error.code, detail: t('login.ended') });
      })
      .finally(() => { refreshing = null; });
  }
  return refreshing;
}

/** A query string from the non-empty values of `fields`. */
export function query(fields) {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== '') parameters.set(name, value);
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}
