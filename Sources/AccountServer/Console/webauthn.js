// Signing in with a passkey (WebAuthn): the server's request options, JSON with base64url
// fields, turned into what navigator.credentials.get() takes, and the browser's assertion turned
// back into the JSON form the server reads (AuthenticationResponseJSON). Written here with no
// library, so the page loads nothing from anywhere else and works in browsers without
// PublicKeyCredential.parseRequestOptionsFromJSON().

import * as api from './api.js';

/** Whether this browser can use a passkey on this page: WebAuthn present, in a secure context
 * (an https address, or localhost). */
export function available() {
  return Boolean(window.isSecureContext && window.PublicKeyCredential && navigator.credentials?.get);
}

/** The bytes of base64url text (unpadded as WebAuthn's JSON writes it; padding tolerated).
 * Throws a TypeError on anything else. */
export function fromBase64url(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new TypeError('not base64url');
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (base64.length % 4 === 1) throw new TypeError('not base64url');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

/** Unpadded base64url of an ArrayBuffer or a view of one. */
export function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = '';
  // In slices, so a long buffer never passes too many arguments at once.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `publicKey` for navigator.credentials.get() from PublicKeyCredentialRequestOptionsJSON. */
export function requestOptions(json) {
  const publicKey = { challenge: fromBase64url(json.challenge), userVerification: json.userVerification || 'required' };
  if (json.rpId) publicKey.rpId = json.rpId;
  if (json.timeout) publicKey.timeout = json.timeout;
  if (json.allowCredentials?.length) {
    publicKey.allowCredentials = json.allowCredentials.map((credential) => ({
      type: credential.type, id: fromBase64url(credential.id), ...(credential.transports ? { transports: credential.transports } : {}),
    }));
  }
  return publicKey;
}

/** AuthenticationResponseJSON of the credential get() gave. */
export function assertionJSON(credential) {
  const response = credential.response;
  const json = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
    },
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
  };
  if (response.userHandle && response.userHandle.byteLength) json.response.userHandle = toBase64url(response.userHandle);
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  return json;
}

/** The whole ceremony: options from the server (a new single-use challenge), the browser's
 * passkey prompt, the assertion checked by the server. Resolves to the login's token pair.
 * Throws ApiError for a reply of the server, the browser's DOMException for the prompt
 * (`NotAllowedError` when the person cancelled, it timed out or the device has no passkey here;
 * `SecurityError` when this page's address does not fit the server's RP id). */
export async function signIn() {
  const options = await api.send('POST', '/auth/passkeys/login/options');
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  if (!credential) throw new DOMException('no credential', 'NotAllowedError');
  return api.send('POST', '/auth/passkeys/login', { body: { credential: assertionJSON(credential) } });
}
