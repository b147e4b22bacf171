// A short, stable fingerprint for file names (the token cache, the recent ids of a tenant).

/** 64-bit FNV-1a of the UTF-8 text, as 16 hex digits: a short, stable, non-cryptographic fingerprint. */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}
