// What one client-credentials token request sends, for each way a client authenticates
// (../shared/spec/wire-facts.md, "Token endpoint"): the secret in the form body (post), as HTTP Basic
// (basic), a signed assertion (private_key_jwt), or nothing but the client id, the certificate of the
// TLS handshake being the proof (tls_client_auth). The request lists every encoding of the secret
// it carries, so that they are masked before anything is traced.
import type { Tenant } from '../config/domain.js';
import type { ClientCredentials } from '../config/resolve.js';
import { UsageError } from '../core/errors.js';
import { USER_AGENT } from '../core/version.js';

export interface TokenRequest {
  url: URL;
  headers: Record<string, string>;
  /** application/x-www-form-urlencoded */
  body: string;
  /** The secret in every form this request carries it (raw, form-encoded, Basic, the assertion). */
  secrets: string[];
}

/** The management audience of a tenant: its base URL plus `/api/v2/` (with the slash). */
export function audienceOf(tenant: Tenant): string {
  return `${tenant.base}/api/v2/`;
}

function formEncode(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

export async function buildTokenRequest(tenant: Tenant, client: ClientCredentials): Promise<TokenRequest> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, audience: audienceOf(tenant) });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': USER_AGENT };
  const secrets: string[] = [];
  if (client.authMethod === 'tls_client_auth') {
    // The client certificate, presented in the TLS handshake, is the proof: the form names the client only.
  } else if (client.authMethod === 'private_key_jwt') {
    const { makeClientAssertion } = await import('./assertion.js'); // node:crypto, only to sign
    const assertion = makeClientAssertion({ clientId: client.clientId, audience: `${tenant.base}/`, privateKeyPem: client.privateKeyPem ?? '', alg: client.signingAlg, fixAlg: client.fixSigningAlg });
    secrets.push(assertion);
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    form.set('client_assertion', assertion);
  } else {
    const secret = client.clientSecret ?? '';
    // interface.md (and wire-facts.md): the Base64 of `<client_id>:<client_secret>` as they are, as
    // curl -u sends it; not form-encoded first (RFC 6749 2.3.1), which changes a secret holding
    // `+`, `/`, `=` or `%` into one the service does not know. Masked whatever the method: a server
    // quoting it would give the secret away all the same.
    const credentials = Buffer.from(`${client.clientId}:${secret}`).toString('base64');
    secrets.push(secret, formEncode(secret), credentials);
    if (client.authMethod === 'basic') {
      // The colon separates the id from the secret (RFC 7617): an id holding one cannot be told apart.
      if (client.clientId.includes(':')) throw new UsageError(`The client id ${JSON.stringify(client.clientId)} holds a colon, which HTTP Basic cannot carry (it separates the id from the secret).`, 'Send the secret in the form body instead: --auth-method post (IDM_AUTH_METHOD=post).');
      headers.authorization = `Basic ${credentials}`;
    } else {
      form.set('client_secret', secret);
    }
  }
  return { url: new URL('/oauth/token', tenant.base), headers, body: form.toString(), secrets };
}
