// Secrets at least this long are masked by value wherever they appear in idm's output (a shorter
// one would mask half of every line); idm refuses shorter client secrets.
export const MIN_SECRET_LENGTH = 4;

/** Whether `text` holds a PEM block (a certificate or a key), so that it is never quoted back. */
export function looksLikePem(text: string): boolean {
  return /-----BEGIN [A-Z0-9 ]+-----/.test(text);
}

/**
 * `url` with the password of its user info replaced by `***` (`https://user:***@host/path`): a
 * webhook URL stored by another tool may carry one, and a table or a field list is no place for it.
 * Anything else is returned as it is.
 */
export function withoutUrlPassword(url: string): string {
  // To the last @ of the authority, as a URL parser splits it: a password may hold a raw @.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#]*@/i, '$1:***@');
}
