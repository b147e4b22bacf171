// JSON Web Tokens with node:crypto only: the sandbox signs access tokens (RS256) and verifies client
// assertions (RS256, RS384 or PS256 with an RSA key of the client, ES256 with an EC P-256 one).
import { constants, sign, verify, type KeyObject } from 'node:crypto';

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

const ALGORITHMS: Record<string, { hash: string; pss?: true; ecdsa?: true }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  PS256: { hash: 'sha256', pss: true },
  ES256: { hash: 'sha256', ecdsa: true },
};

/** The algorithms a client's public key can verify: ES256 for an EC P-256 key, the RSA ones otherwise. */
export function algorithmsFor(key: KeyObject): readonly string[] {
  if (key.asymmetricKeyType === 'ec') return key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? ['ES256'] : [];
  return ['RS256', 'RS384', 'PS256'];
}

function keyFor(alg: string, key: KeyObject) {
  if (ALGORITHMS[alg]?.pss) return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
  // JWS carries an ECDSA signature as r || s (RFC 7518 3.4), not DER.
  if (ALGORITHMS[alg]?.ecdsa) return { key, dsaEncoding: 'ieee-p1363' as const };
  return key;
}

export function signJwt(payload: Record<string, unknown>, key: KeyObject, header: Record<string, unknown> = {}): string {
  const alg = typeof header.alg === 'string' ? header.alg : 'RS256';
  const spec = ALGORITHMS[alg];
  if (!spec) throw new Error(`unsupported algorithm ${alg}`);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${encode({ alg, typ: 'JWT', ...header })}.${encode(payload)}`;
  const signature = sign(spec.hash, Buffer.from(signingInput), keyFor(alg, key));
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** The parts of a compact JWT, or undefined when it is not one. Nothing is verified here. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown;
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!isObject(header) || !isObject(payload)) return undefined;
    return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2]!, 'base64url') };
  } catch {
    return undefined;
  }
}

/** True when the token's algorithm is one of `allowed` and its signature verifies with `key`. */
export function verifyJwtSignature(jwt: DecodedJwt, key: KeyObject, allowed: readonly string[]): boolean {
  const alg = jwt.header.alg;
  if (typeof alg !== 'string' || !allowed.includes(alg) || !ALGORITHMS[alg]) return false;
  try {
    return verify(ALGORITHMS[alg]!.hash, Buffer.from(jwt.signingInput), keyFor(alg, key), jwt.signature);
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
