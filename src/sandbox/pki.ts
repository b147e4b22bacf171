// The sandbox's certificates: a certificate authority of its own, the server certificate of
// `--https` (127.0.0.1 and localhost) and the client certificate of `--mtls`, each signed by that
// CA; and the self-signed certificate of the webhook inbox. EC keys: generated in milliseconds,
// where RSA would slow every start. selfsigned (its dependency) is loaded only when one is made.
import { createHash, X509Certificate } from 'node:crypto';

export interface Pem {
  cert: string;
  key: string;
}

const VALID_DAYS = 825; // the longest lifetime clients accept for a server certificate
const SERVER_NAMES = [{ type: 7 as const, ip: '127.0.0.1' }, { type: 2 as const, value: 'localhost' }];

async function generator() {
  // selfsigned is CommonJS: node names its exports, a bundle may put them under `default`.
  const selfsigned = (await import('selfsigned')) as typeof import('selfsigned') & { default?: typeof import('selfsigned') };
  return selfsigned.generate ?? selfsigned.default!.generate;
}

function validity(days: number) {
  // A minute back, to tolerate a little clock skew between the sandbox and its clients.
  return { notBeforeDate: new Date(Date.now() - 60_000), notAfterDate: new Date(Date.now() + days * 86_400_000) };
}

/** A new certificate authority. */
export async function createCa(commonName = 'idm sandbox CA'): Promise<Pem> {
  const generate = await generator();
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...validity(VALID_DAYS),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * A certificate signed by `ca` (or self-signed without one): for a server at 127.0.0.1 and
 * localhost, or for a client named `commonName`.
 */
export async function issueCertificate(ca: Pem | undefined, use: 'server' | 'client', commonName = use === 'server' ? '127.0.0.1' : 'idm sandbox client'): Promise<Pem> {
  const generate = await generator();
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...validity(use === 'server' ? VALID_DAYS : 365),
    ...(ca ? { ca: { cert: ca.cert, key: ca.key } } : {}),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', ...(use === 'server' ? { serverAuth: true } : { clientAuth: true }) },
      ...(use === 'server' ? [{ name: 'subjectAltName' as const, altNames: SERVER_NAMES }] : []),
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** How long before it expires a kept certificate is made anew at start: a run may last a day. */
const RENEW_BEFORE_MS = 86_400_000;

/**
 * Whether a certificate kept by --state-dir can serve this run: not expired, nor expiring within a
 * day, and signed by `issuer` when one is given (a renewed CA signs none of the old certificates).
 */
export function stillValid(certPem: string, issuer?: Pem, now = Date.now()): boolean {
  const cert = new X509Certificate(certPem);
  if (Date.parse(cert.validTo) - now < RENEW_BEFORE_MS) return false;
  return issuer === undefined || cert.verify(new X509Certificate(issuer.cert).publicKey);
}

/** SHA-256 of a certificate's DER, as upper-case hex pairs joined by colons (what openssl x509 -fingerprint -sha256 prints). */
export function fingerprintOf(cert: string | Buffer): string {
  const der = typeof cert === 'string' ? new X509Certificate(cert).raw : cert;
  return createHash('sha256')
    .update(der)
    .digest('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');
}

/** A fingerprint as given in a seed (any case, colons optional) in the form of fingerprintOf, or undefined. */
export function normalizeFingerprint(text: string): string | undefined {
  const hex = text.replace(/:/g, '').toUpperCase();
  return /^[0-9A-F]{64}$/.test(hex) ? hex.replace(/(..)(?!$)/g, '$1:') : undefined;
}
