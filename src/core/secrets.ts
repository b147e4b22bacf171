// Secrets at least this long are masked by value wherever they appear in idm's output (a shorter
// one would mask half of every line); idm refuses shorter client secrets.
export const MIN_SECRET_LENGTH = 4;

/** Whether `text` holds a PEM block (a certificate or a key), so that it is never quoted back. */
export function looksLikePem(text: string): boolean {
  return /-----BEGIN [A-Z0-9 ]+-----/.test(text);
}
