// Secrets at least this long are masked by value wherever they appear in idm's output (a shorter
// one would mask half of every line); idm refuses shorter client secrets.
export const MIN_SECRET_LENGTH = 4;

/** Whether `text` holds a PEM block (a certificate or a key), so that it is never quoted back. */
export function looksLikePem(text: string): boolean {
  return /-----BEGIN [A-Z0-9 ]+-----/.test(text);
}

/**
 * `url` with its whole user info replaced by `***` (`https://***@host/path`): a webhook URL stored
 * by another tool may carry `user:password@` or a bare `TOKEN@` (very often a token), and a table
 * or a field list is no place for either. Anything else is returned as it is.
 */
export function withoutUrlUserInfo(url: string): string {
  // To the last @ of the authority, as a URL parser splits it: a password may hold a raw @.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** No access token of the interface comes near this (a JWT of a few KB); servers refuse larger headers. */
export const MAX_ACCESS_TOKEN_CHARS = 16_384;

/**
 * Why `token` cannot be an access token idm sends (`Authorization: Bearer <token>`), or undefined:
 * a token is visible ASCII (RFC 6750 b64token, read tolerantly) of a bounded size. A token with a
 * line break, a control or a non-ASCII character cannot go in a header, and a huge one is refused by
 * every server: cached, either would break every run until it expired. The words never quote it.
 */
export function accessTokenProblem(token: string): string | undefined {
  if (token.length > MAX_ACCESS_TOKEN_CHARS) return `an access_token of ${token.length} characters (at most ${MAX_ACCESS_TOKEN_CHARS})`;
  if (!/^[\x21-\x7e]+$/.test(token)) return 'an access_token that holds spaces, control or non-ASCII characters';
  return undefined;
}
