// --ca-file, --client-cert and --client-key (or IDM_CA_FILE, IDM_CLIENT_CERT, IDM_CLIENT_KEY): read
// and checked before the first request, so that a wrong file is a usage error naming it (exit 2),
// not a failed handshake blamed on the server. Every certificate block must parse, the key must be
// readable without a passphrase, and the certificate must belong to the key. The CA is added to
// Node's own roots; verification is never turned off. The key is a secret: never quoted or printed.
import { UsageError } from '../core/errors.js';
import { checkPem, keyFileName, privateKeyBlock, readTextFile } from '../io/input.js';
import type { TlsMaterial } from './http.js';

export interface TlsFiles {
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  /** How messages name each file, where it is not its flag's (a profile's stored file). */
  names?: { caFile?: string; clientCert?: string; clientKey?: string };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The PEM certificates in the file at `path`, each one parsed (a chain: the certificate first).
 * `flag` names the file in messages: a flag, or how a prompt asked for it. `signal` stops the read
 * of a file that waits for its writer (a FIFO).
 */
export async function readCertificates(flag: string, path: string, signal?: AbortSignal): Promise<string[]> {
  const { X509Certificate } = process.getBuiltinModule('node:crypto');
  const hint = 'Give the path of a PEM certificate file.';
  const text = checkPem(flag, path, await readTextFile(flag, path, 'certificate', { hint, signal }), 'certificate', hint);
  const blocks = text.match(PEM_BLOCK) ?? [];
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new UsageError(`${flag}: certificate ${index + 1} in ${path} is not a valid certificate.`, hint);
    }
  });
  if (blocks.length === 0) throw new UsageError(`${flag}: ${path} holds no complete PEM certificate.`, hint);
  return blocks;
}

/** Where a client certificate and its key come from: paths, and how messages name them. */
export interface ClientCertificateFiles {
  cert: { flag: string; path: string };
  key: { flag: string; path: string };
}

/**
 * The client certificate (with any intermediates) and its private key, read and checked: the key
 * unencrypted, and the key of the certificate. The key's content is never quoted, nor its path when
 * it looks like a key pasted in its place (io/input.ts readTextFile).
 */
export async function readClientCertificate({ cert, key }: ClientCertificateFiles, signal?: AbortSignal): Promise<{ cert: string; key: string }> {
  const { X509Certificate, createPrivateKey } = process.getBuiltinModule('node:crypto');
  const chain = await readCertificates(cert.flag, cert.path, signal);
  const keyHint = 'Give the path of the PEM private key of the certificate (unencrypted).';
  const keyPem = privateKeyBlock(checkPem(key.flag, keyFileName(key.path), await readTextFile(key.flag, key.path, 'secret', { hint: keyHint, signal, keyFile: true }), 'private key', keyHint));
  let privateKey;
  try {
    privateKey = createPrivateKey(keyPem);
  } catch (error) {
    // OpenSSL asks for a passphrase and, with none to give, reports "interrupted or cancelled".
    const encrypted = /ENCRYPTED/.test(keyPem) || (error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE' || /encrypted|passphrase|decrypt/i.test((error as Error).message);
    throw new UsageError(`${key.flag}: the key cannot be read${encrypted ? ': it is encrypted' : ''}.`, encrypted ? 'Give an unencrypted key (openssl pkey -in KEY -out PLAIN).' : keyHint);
  }
  if (!new X509Certificate(chain[0]!).checkPrivateKey(privateKey)) {
    throw new UsageError(`${key.flag}: that key does not belong to the certificate in ${cert.path}.`, 'Give the certificate and the key made together.');
  }
  return { cert: chain.join('\n'), key: keyPem }; // the certificate, then any intermediates
}

/**
 * The certificates of NODE_EXTRA_CA_CERTS, which Node added to its roots when the process started: a
 * `ca` of its own replaces those roots, and tls.rootCertificates holds only the bundled ones, so they
 * are read again (a corporate proxy's CA must keep working beside --ca-file). A file Node could not
 * read was already warned about by Node; nothing more is said.
 */
function extraCaCertificates(): string[] {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return [];
  try {
    return process.getBuiltinModule('node:fs').readFileSync(path, 'utf8').match(PEM_BLOCK) ?? [];
  } catch {
    return [];
  }
}

/** `signal` stops the read of a file that waits for its writer (a FIFO). */
export async function loadTls(files: TlsFiles, signal?: AbortSignal): Promise<TlsMaterial | undefined> {
  const { caFile, clientCert, clientKey, names = {} } = files;
  if (caFile === undefined && clientCert === undefined && clientKey === undefined) return undefined;
  if ((clientCert === undefined) !== (clientKey === undefined)) {
    throw new UsageError(
      `${clientCert === undefined ? '--client-key' : '--client-cert'} needs ${clientCert === undefined ? '--client-cert' : '--client-key'} too.`,
      'Mutual TLS takes both: the certificate (--client-cert, IDM_CLIENT_CERT) and its private key (--client-key, IDM_CLIENT_KEY).',
    );
  }
  const material: TlsMaterial = {};
  if (caFile !== undefined) {
    const { rootCertificates } = process.getBuiltinModule('node:tls');
    material.ca = [...rootCertificates, ...extraCaCertificates(), ...(await readCertificates(names.caFile ?? '--ca-file (IDM_CA_FILE)', caFile, signal))];
  }
  if (clientCert !== undefined && clientKey !== undefined) {
    Object.assign(
      material,
      await readClientCertificate(
        { cert: { flag: names.clientCert ?? '--client-cert (IDM_CLIENT_CERT)', path: clientCert }, key: { flag: names.clientKey ?? '--client-key (IDM_CLIENT_KEY)', path: clientKey } },
        signal,
      ),
    );
  }
  return material;
}
