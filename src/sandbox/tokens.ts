// The token endpoint (client-credentials grant; client secret in the body, HTTP Basic, or a
// private-key JWT assertion) and the verification of the access tokens it issues.
import { randomUUID, timingSafeEqual, X509Certificate } from 'node:crypto';
import { SCOPES } from '../schemas/constants.js';
import { apiError, isJsonType, json, Reply, tokenError } from './http.js';
import { algorithmsFor, decodeJwt, signJwt, verifyJwtSignature } from './jwt.js';
import { fingerprintOf } from './pki.js';
import type { RegisteredClient, Tenant } from './tenant.js';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** A client assertion may live at most this long (wire-facts.md). */
const MAX_ASSERTION_LIFETIME = 300;
/** Clock skew tolerated on `iat`/`nbf` of assertions. */
const SKEW = 30;

export interface TokenRequest {
  headers: Record<string, string>;
  body: string;
  /** The certificate the TLS client presented in the handshake (mtls `handshake`), and whether the sandbox's CA signed it. */
  peer?: { der: Buffer; verified: boolean };
}

/** A client certificate as presented: its DER and whether a CA the tenant trusts verified it. */
interface PresentedCertificate {
  certificate: X509Certificate;
  verified: boolean;
}

/** Reads the form (or JSON) body into single-valued parameters. */
function readParams(request: TokenRequest): Map<string, string> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const params = new Map<string, string>();
  if (type === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(request.body)) {
      if (params.has(name)) throw tokenError(400, 'invalid_request', `Parameter ${name} is included more than once.`);
      params.set(name, value);
    }
    return params;
  }
  if (isJsonType(type)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(request.body);
    } catch {
      throw tokenError(400, 'invalid_request', 'The request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw tokenError(400, 'invalid_request', 'The request body must be an object.');
    }
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string') params.set(name, value);
      else if (typeof value === 'number' || typeof value === 'boolean') params.set(name, String(value));
      else throw tokenError(400, 'invalid_request', `Parameter ${name} must be a string.`);
    }
    return params;
  }
  throw tokenError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded (or application/json).');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The tenant's base URL in both host forms its certificate names, 127.0.0.1 and localhost: a client
 * may reach it by either, and asks for the audience (and signs assertions for the issuer) in that form.
 */
function bases(tenant: Tenant): string[] {
  return [tenant.url, tenant.url.replace('://127.0.0.1:', '://localhost:')];
}

const authenticationFailed = (detail?: string) =>
  tokenError(401, 'invalid_client', detail ? `Client authentication failed: ${detail}` : 'Client authentication failed');

interface BasicCredentials {
  id: string;
  secret: string;
  /**
   * The same two parts form-urlencoded-decoded, when that changes them: what a client that
   * form-encodes them first (RFC 6749 2.3.1) meant. Never accepted (the service reads the header as
   * interface.md has it), only named in the 401, so that such a client is told why.
   */
  formDecoded?: { id: string; secret: string };
}

/**
 * An HTTP Basic header: the client id and secret as they are, the Base64 of
 * `<client_id>:<client_secret>` (interface.md, wire-facts.md; what curl -u and most clients send).
 */
function parseBasic(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) throw tokenError(400, 'invalid_request', 'The Authorization header must be "Basic base64(client_id:client_secret)".');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw tokenError(400, 'invalid_request', 'The Authorization header must be "Basic base64(client_id:client_secret)".');
  const unescape = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  const raw = { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  const formDecoded = { id: unescape(raw.id), secret: unescape(raw.secret) };
  return formDecoded.id === raw.id && formDecoded.secret === raw.secret ? raw : { ...raw, formDecoded };
}

function verifyAssertion(tenant: Tenant, assertion: string, clientIdParam: string | undefined, now: number): RegisteredClient {
  const jwt = decodeJwt(assertion);
  if (!jwt) throw authenticationFailed('client_assertion is not a JSON Web Token');
  const { iss, sub, aud, exp, iat, nbf, jti } = jwt.payload;
  if (typeof iss !== 'string' || iss !== sub) throw authenticationFailed('the assertion needs iss and sub equal to the client id');
  if (clientIdParam !== undefined && clientIdParam !== iss) throw authenticationFailed('client_id differs from the assertion issuer');
  const client = tenant.clients.get(iss);
  if (!client?.publicKeys?.length) throw authenticationFailed();
  // wire-facts.md: "RS256, RS384, PS256 or ES256", each with a key of its kind registered for the client.
  if (!client.publicKeys.some((key) => verifyJwtSignature(jwt, key, algorithmsFor(key)))) throw authenticationFailed('invalid assertion signature');
  const audiences = Array.isArray(aud) ? aud : [aud];
  const accepted = bases(tenant).flatMap((base) => [`${base}/`, `${base}/oauth/token`, `${base}/oauth/token/`]);
  if (!audiences.some((value) => typeof value === 'string' && accepted.includes(value))) {
    throw authenticationFailed(`the assertion audience must be ${tenant.issuer}`);
  }
  if (typeof exp !== 'number') throw authenticationFailed('the assertion has no exp');
  if (exp <= now) throw authenticationFailed('the assertion has expired');
  const issuedAt = typeof iat === 'number' ? iat : now;
  if (issuedAt > now + SKEW) throw authenticationFailed('the assertion was issued in the future');
  if (exp - Math.min(issuedAt, now) > MAX_ASSERTION_LIFETIME) {
    throw authenticationFailed('the assertion must expire at most 5 minutes after it was issued');
  }
  if (typeof nbf === 'number' && nbf > now + SKEW) throw authenticationFailed('the assertion is not valid yet');
  if (typeof jti !== 'string' || jti === '') throw authenticationFailed('the assertion has no jti');
  for (const [seen, seenExp] of tenant.usedAssertionIds) if (seenExp <= now) tenant.usedAssertionIds.delete(seen);
  const key = `${iss}\u0000${jti}`;
  if (tenant.usedAssertionIds.has(key)) throw authenticationFailed('the assertion jti has already been used');
  tenant.usedAssertionIds.set(key, exp);
  return client;
}

/**
 * The client certificate of a token request, when mutual TLS is on: from the handshake, or from the
 * headers an edge network forwards after its own handshake (interface.md, Authentication).
 */
function presentedCertificate(tenant: Tenant, request: TokenRequest): PresentedCertificate | undefined {
  if (tenant.mtls?.mode === 'handshake') {
    return request.peer ? { certificate: new X509Certificate(request.peer.der), verified: request.peer.verified } : undefined;
  }
  if (tenant.mtls?.mode !== 'edge') return undefined;
  const { headers } = request;
  const apiKey = headers['cname-api-key'];
  if (apiKey === undefined || !sameSecret(apiKey, tenant.mtls.edgeKey)) throw authenticationFailed('the edge did not send the cname-api-key of this tenant');
  const forwarded = headers['client-certificate'];
  if (forwarded === undefined) return undefined;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(decodeURIComponent(forwarded));
  } catch {
    throw authenticationFailed('the client-certificate header holds no URL-encoded PEM certificate');
  }
  const status = headers['client-certificate-ca-verified'];
  if (status === undefined) throw authenticationFailed('the edge did not send client-certificate-ca-verified');
  return { certificate, verified: status === 'SUCCESS' };
}

/** The client whose registered certificate was presented: a CA-verified one, or a self-signed one. */
function certificateClient(tenant: Tenant, clientId: string, presented: PresentedCertificate | undefined): RegisteredClient {
  if (!presented) throw authenticationFailed('no client certificate was presented');
  const client = tenant.clients.get(clientId);
  const { certificate, verified } = presented;
  if (!client?.certificateFingerprints?.includes(fingerprintOf(certificate.raw))) {
    throw authenticationFailed('the client certificate is not registered for this client');
  }
  // Not checkIssued: OpenSSL wants keyCertSign for that, which a client certificate has no reason to carry.
  const selfSigned = certificate.subject === certificate.issuer && certificate.verify(certificate.publicKey);
  if (!verified && !selfSigned) throw authenticationFailed('the client certificate could not be verified');
  return client;
}

function authenticateClient(tenant: Tenant, params: Map<string, string>, request: TokenRequest, now: number): RegisteredClient {
  const { headers } = request;
  const basic = parseBasic(headers.authorization);
  const usesSecret = params.has('client_secret');
  const usesAssertion = params.has('client_assertion') || params.has('client_assertion_type');
  const methods = [basic !== undefined, usesSecret, usesAssertion].filter(Boolean).length;
  if (methods > 1) throw tokenError(400, 'invalid_request', 'Use only one client authentication method.');
  const clientId = params.get('client_id');

  if (usesAssertion) {
    if (params.get('client_assertion_type') !== ASSERTION_TYPE) {
      throw tokenError(400, 'invalid_request', `client_assertion_type must be ${ASSERTION_TYPE}.`);
    }
    const assertion = params.get('client_assertion');
    if (!assertion) throw tokenError(400, 'invalid_request', 'Missing required parameter: client_assertion');
    return verifyAssertion(tenant, assertion, clientId, now);
  }
  const given = basic ?? (usesSecret && clientId !== undefined ? { id: clientId, secret: params.get('client_secret')! } : undefined);
  if (!given) {
    if (clientId === undefined) throw tokenError(400, 'invalid_request', 'Missing required parameter: client_id');
    if (tenant.mtls) return certificateClient(tenant, clientId, presentedCertificate(tenant, request));
    throw authenticationFailed('mutual TLS is off in this sandbox, so a client id alone (tls_client_auth) is not enough: send the client secret or a client assertion');
  }
  if (basic && clientId !== undefined && basic.id !== clientId && basic.formDecoded?.id !== clientId) {
    throw tokenError(400, 'invalid_request', 'client_id differs from the one in the Authorization header.');
  }
  const matches = ({ id, secret }: { id: string; secret: string }) => {
    const client = tenant.clients.get(id);
    return client?.clientSecret !== undefined && sameSecret(secret, client.clientSecret) ? client : undefined;
  };
  const client = matches(given);
  if (client) return client;
  // Refused as on the service, which reads the header as it is; the sandbox says why.
  if (basic?.formDecoded && matches(basic.formDecoded)) {
    throw authenticationFailed('the Authorization header holds the client id and secret form-encoded (RFC 6749 2.3.1); send the Base64 of <client_id>:<client_secret> as they are');
  }
  throw authenticationFailed();
}

/** POST /oauth/token */
export function tokenEndpoint(tenant: Tenant, request: TokenRequest): Reply {
  const params = readParams(request);
  const grantType = params.get('grant_type');
  if (grantType === undefined) throw tokenError(400, 'invalid_request', 'Missing required parameter: grant_type');
  if (grantType !== 'client_credentials') throw tokenError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);
  const now = Math.floor(Date.now() / 1000);
  const client = authenticateClient(tenant, params, request, now);

  const audience = params.get('audience');
  if (audience === undefined) {
    throw tokenError(403, 'access_denied', 'No audience parameter was provided, and no default audience has been configured');
  }
  const base = bases(tenant).find((one) => audience === `${one}/api/v2/`);
  if (base === undefined) throw tokenError(403, 'access_denied', `Service not found: ${audience}`);

  // A requested scope narrows the token to what is both asked and granted.
  const requested = params.get('scope')?.split(' ').filter(Boolean);
  const scopes = requested ? client.scopes.filter((scope) => requested.includes(scope)) : client.scopes;
  const scope = scopes.join(' ');
  const accessToken = signJwt(
    {
      // In the host form the client used: an SDK checks the issuer against the domain it was given.
      iss: `${base}/`,
      sub: `${client.clientId}@clients`,
      aud: audience,
      iat: now,
      exp: now + tenant.tokenLifetime,
      scope,
      gty: 'client-credentials',
      azp: client.clientId,
      jti: randomUUID(),
    },
    tenant.signing.privateKey,
    { kid: tenant.signing.kid },
  );
  tenant.tokensIssued += 1;
  return json(
    200,
    { access_token: accessToken, token_type: 'Bearer', expires_in: tenant.tokenLifetime, scope },
    { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  );
}

/** Checks the bearer token of a management request and the scope of its operation; throws the 401/403. */
export function authorize(tenant: Tenant, authorization: string | undefined, scope: string | readonly string[]): void {
  if (authorization === undefined || authorization === '') throw apiError(401, 'Missing authentication');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw apiError(401, 'Bad HTTP authentication header format');
  const jwt = decodeJwt(match[1]!);
  if (!jwt) throw apiError(401, 'Invalid token.');
  if (!verifyJwtSignature(jwt, tenant.signing.publicKey, ['RS256'])) {
    throw apiError(401, 'Invalid signature received for JSON Web Token validation.');
  }
  const { iss, aud, exp, scope: granted } = jwt.payload;
  const forms = bases(tenant);
  if (!forms.some((base) => iss === `${base}/`)) throw apiError(401, 'Invalid token.');
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!forms.some((base) => audiences.includes(`${base}/api/v2/`))) throw apiError(401, `Bad audience: ${audiences.join(' ')}`);
  if (typeof exp !== 'number' || exp <= Date.now() / 1000) {
    throw apiError(401, 'Expired token received for JSON Web Token validation.');
  }
  const scopes = typeof granted === 'string' ? granted.split(' ') : [];
  const accepted = typeof scope === 'string' ? [scope] : scope;
  if (!accepted.some((one) => scopes.includes(one))) throw apiError(403, `Insufficient scope; expected any of: ${accepted.join(', ')}.`, 'insufficient_scope');
}

/** Every scope an operation of the sandbox needs: what the `admin` client is granted. */
export const ALL_SCOPES: readonly string[] = [...new Set(Object.values(SCOPES))];
