// --ca-file, --client-cert and --client-key (or IDM_CA_FILE, IDM_CLIENT_CERT, IDM_CLIENT_KEY): read
// and checked before the first request, so that a wrong file is a usage error naming it (exit 2),
// not a failed handshake blamed on the server. Every certificate block must parse, the key must be
// readable without a passphrase, and the certificate must belong to the key. The CA is added to
// Node's own roots; verification is never turned off. The key is a secret: never quoted or printed.
import { UsageError } from '../core/errors.js';
import { checkPem, readTextFile } from '../io/input.js';
import type { TlsMaterial } from './http.js';

export interface TlsFiles {
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** `signal` stops the read of a file that waits for its writer (a FIFO). */
export async function loadTls(files: TlsFiles, signal?: AbortSignal): Promise<TlsMaterial | undefined> {
  const { caFile, clientCert, clientKey } = files;
  if (caFile === undefined && clientCert === undefined && clientKey === undefined) return undefined;
  if ((clientCert === undefined) !== (clientKey === undefined)) {
    throw new UsageError(
      `${clientCert === undefined ? '--client-key' : '--client-cert'} needs ${clientCert === undefined ? '--client-cert' : '--client-key'} too.`,
      'Mutual TLS takes both: the certificate (--client-cert, IDM_CLIENT_CERT) and its private key (--client-key, IDM_CLIENT_KEY).',
    );
  }
  const crypto = process.getBuiltinModule('node:crypto');
  const certificates = async (flag: string, path: string): Promise<string[]> => {
    const hint = 'Give the path of a PEM certificate file.';
    const text = checkPem(flag, path, await readTextFile(flag, path, 'certificate', { hint, signal }), 'certificate', hint);
    const blocks = text.match(PEM_BLOCK) ?? [];
    blocks.forEach((block, index) => {
      try {
        new crypto.X509Certificate(block);
      } catch {
        throw new UsageError(`${flag}: certificate ${index + 1} in ${path} is not a valid certificate.`, hint);
      }
    });
    if (blocks.length === 0) throw new UsageError(`${flag}: ${path} holds no complete PEM certificate.`, hint);
    return blocks;
  };
  const material: TlsMaterial = {};
  if (caFile !== undefined) {
    const { rootCertificates } = process.getBuiltinModule('node:tls');
    material.ca = [...rootCertificates, ...(await certificates('--ca-file (IDM_CA_FILE)', caFile))];
  }
  if (clientCert !== undefined && clientKey !== undefined) {
    const chain = await certificates('--client-cert (IDM_CLIENT_CERT)', clientCert);
    const cert = chain[0]!;
    const keyFlag = '--client-key (IDM_CLIENT_KEY)';
    const keyHint = 'Give the path of the PEM private key of --client-cert (unencrypted).';
    const keyPem = checkPem(keyFlag, 'the file it names', await readTextFile(keyFlag, clientKey, 'secret', { hint: keyHint, signal }), 'private key', keyHint);
    let key;
    try {
      key = crypto.createPrivateKey(keyPem);
    } catch (error) {
      // OpenSSL asks for a passphrase and, with none to give, reports "interrupted or cancelled".
      const encrypted = /ENCRYPTED/.test(keyPem) || (error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE' || /encrypted|passphrase|decrypt/i.test((error as Error).message);
      throw new UsageError(`${keyFlag}: the key cannot be read${encrypted ? ': it is encrypted' : ''}.`, encrypted ? 'Give an unencrypted key (openssl pkey -in KEY -out PLAIN).' : keyHint);
    }
    if (!new crypto.X509Certificate(cert).checkPrivateKey(key)) {
      throw new UsageError(`--client-cert (IDM_CLIENT_CERT) and --client-key (IDM_CLIENT_KEY) do not belong together: ${clientCert} is not the certificate of that key.`, 'Give the certificate and the key made together.');
    }
    material.cert = chain.join('\n'); // the certificate, then any intermediates
    material.key = keyPem;
  }
  return material;
}
