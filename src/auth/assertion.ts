// The client assertion for private_key_jwt: a JWT signed with the client's private key, made fresh
// for every token request (unique jti, valid one minute). node:crypto only.
import { createPrivateKey, randomUUID, sign, constants, type KeyObject } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { privateKeyBlock } from '../io/input.js';
import type { SigningAlg } from '../config/methods.js';

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function loadPrivateKey(pem: string, what = 'The private key'): KeyObject {
  try {
    return createPrivateKey(privateKeyBlock(pem));
  } catch (error) {
    // PKCS#8 (BEGIN ENCRYPTED PRIVATE KEY) and PKCS#1 (Proc-Type: 4,ENCRYPTED) alike: said as such,
    // with the way out, as --client-key says it (api/tls.ts); never a passphrase prompt.
    if (/ENCRYPTED/.test(pem) || (error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE') {
      throw new UsageError(`${what} is encrypted: idm cannot use a key that needs a passphrase.`, 'Give an unencrypted key (openssl pkey -in KEY -out PLAIN, PLAIN readable by you alone).');
    }
    throw new UsageError(`${what} is not a readable PEM private key.`, 'Give an unencrypted PKCS#8 or PKCS#1 PEM file.');
  }
}

/** The algorithm to use with a key when none was chosen: ES256 for EC keys, RS256 for RSA. */
export function defaultAlgFor(key: KeyObject): SigningAlg {
  return key.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256';
}

/**
 * Why no assertion the service takes (RS256, RS384, PS256 with an RSA key; ES256 with an EC P-256
 * key) can be signed with `key`, or undefined: an Ed25519 key, or an EC key on another curve, whose
 * ES256 signature no verifier accepts (a 401 that would blame the secret).
 */
export function unusableKey(key: KeyObject): string | undefined {
  const type = key.asymmetricKeyType;
  if (type === 'rsa' || type === 'rsa-pss') return undefined;
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'prime256v1' ? undefined : `an EC key on the curve ${curve ?? '(unknown)'}, and ES256 needs P-256 (prime256v1)`;
  }
  // `a dsa key`, `an ed25519 key`: the article as the type's name is read.
  return `${type === 'dsa' ? 'a' : 'an'} ${type ?? 'unknown'} key, and private_key_jwt signs with an RSA key (RS256, RS384, PS256) or an EC P-256 key (ES256)`;
}

export const UNUSABLE_KEY_HINT = 'Give an RSA or EC P-256 private key (openssl genpkey -algorithm RSA, or openssl ecparam -name prime256v1 -genkey), and register its public key for the client.';

/** Checks that `alg` can be made with `key` (an EC key cannot sign RS256 and so on). */
export function checkAlgMatchesKey(key: KeyObject, alg: SigningAlg): string | undefined {
  const type = key.asymmetricKeyType;
  if (alg === 'ES256' && type !== 'ec') return `ES256 needs an EC (P-256) key, not ${type}`;
  if (alg !== 'ES256' && type !== 'rsa' && type !== 'rsa-pss') return `${alg} needs an RSA key, not ${type}`;
  return undefined;
}

/** `fixAlg`: the hint when the key cannot make `alg` (where it was chosen: IDM_SIGNING_ALG, or the profile). */
export function makeClientAssertion(options: { clientId: string; audience: string; privateKeyPem: string; alg?: SigningAlg; fixAlg?: string; now?: number }): string {
  const key = loadPrivateKey(options.privateKeyPem);
  const unusable = unusableKey(key);
  if (unusable) throw new UsageError(`Cannot sign the client assertion: the private key is ${unusable}.`, UNUSABLE_KEY_HINT);
  const alg = options.alg ?? defaultAlgFor(key);
  const problem = checkAlgMatchesKey(key, alg);
  if (problem) throw new UsageError(`Cannot sign the client assertion: ${problem}.`, options.fixAlg ?? 'Choose another --signing-alg (IDM_SIGNING_ALG), or another key.');
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const header = base64url(JSON.stringify({ alg, typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ iss: options.clientId, sub: options.clientId, aud: options.audience, iat, exp: iat + 60, jti: randomUUID() }),
  );
  const input = `${header}.${payload}`;
  const digest = alg === 'RS384' ? 'sha384' : 'sha256';
  const signature =
    alg === 'PS256'
      ? sign(digest, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST })
      : alg === 'ES256'
        ? sign(digest, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
        : sign(digest, Buffer.from(input), key);
  return `${input}.${base64url(signature)}`;
}

export { peekClaims } from './jwt.js';
