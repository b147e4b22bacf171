// Client authentication methods and assertion algorithms: plain values, so that flag parsing and
// completions can use them without loading the settings code.
// tls_client_auth: mutual TLS, the client's certificate presented in the handshake and no secret.
export const AUTH_METHODS = ['post', 'basic', 'private_key_jwt', 'tls_client_auth'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const SIGNING_ALGS = ['RS256', 'RS384', 'PS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** A client id as idm takes it (--client-id, IDM_CLIENT_ID, the prompt): printable ASCII, no spaces. */
export const CLIENT_ID = /^[\x21-\x7e]{1,256}$/;
