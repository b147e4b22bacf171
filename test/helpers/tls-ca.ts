// A throwaway certificate authority for the TLS tests: a CA, a server certificate for 127.0.0.1 and a
// client certificate, each signed by it, written as PEM files into a private temporary directory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCa {
  dir: string;
  caPem: string;
  caFile: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string; certFile: string; keyFile: string };
  cleanup(): void;
}

/** What the server certificate is for, and when (default: 127.0.0.1, valid from now for a year). */
export interface ServerCertOptions {
  /** A DNS name instead of the IP address 127.0.0.1 (a certificate for another host). */
  dnsName?: string;
  notBeforeDate?: Date;
  notAfterDate?: Date;
}

export async function makeTestCa(name = 'idm test CA', serverCert: ServerCertOptions = {}): Promise<TestCa> {
  const selfsigned = (await import('selfsigned')) as typeof import('selfsigned') & { default?: typeof import('selfsigned') };
  const generate = selfsigned.generate ?? selfsigned.default!.generate;
  const base = { keyType: 'ec' as const, algorithm: 'sha256' as const };
  const ca = await generate([{ name: 'commonName', value: name }], {
    ...base,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const signedBy = { key: ca.private, cert: ca.cert };
  const [server, client] = await Promise.all([
    generate([{ name: 'commonName', value: serverCert.dnsName ?? '127.0.0.1' }], {
      ...base,
      ca: signedBy,
      notBeforeDate: serverCert.notBeforeDate,
      notAfterDate: serverCert.notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [serverCert.dnsName ? { type: 2, value: serverCert.dnsName } : { type: 7, ip: '127.0.0.1' }] },
      ],
    }),
    generate([{ name: 'commonName', value: 'idm-test-client' }], {
      ...base,
      ca: signedBy,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', clientAuth: true },
      ],
    }),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'idm-tls-'));
  const file = (fileName: string, text: string) => {
    const path = join(dir, fileName);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  return {
    dir,
    caPem: ca.cert,
    caFile: file('ca.pem', ca.cert),
    server: { cert: server.cert, key: server.private },
    client: { cert: client.cert, key: client.private, certFile: file('client.pem', client.cert), keyFile: file('client.key', client.private) },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
