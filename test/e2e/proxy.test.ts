// HTTPS_PROXY, HTTP_PROXY and NO_PROXY through the built idm: an https sandbox reached through a
// CONNECT tunnel (TLS to the tenant inside it, the tenant's certificate checked), an http one through
// absolute-form requests, the token request through the proxy too, NO_PROXY going direct, and proxy
// credentials. The sandboxes are on loopback, which idm never proxies: IDM_PROXY_LOOPBACK=1 (for
// idm's own tests only) lets it. The variables' parsing is in test/api/proxy.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { credentialsEnv, runIdm, spawnIdm, tempConfigDir } from '../helpers/cli.js';
import { refusingPort } from '../helpers/ports.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { recordSandboxSecrets, recordSecrets } from '../helpers/sandbox.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

let ca: TestCa;
let secure: Sandbox;
let plain: Sandbox;
let mutual: Sandbox;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  ca = await makeTestCa();
  recordSecrets([ca.server.key, ca.client.key]);
  [secure, plain, mutual] = await Promise.all([startSandbox({ tls: ca.server }), startSandbox(), startSandbox({ tls: ca.server, mtls: 'handshake' })]);
  for (const sandbox of [secure, plain, mutual]) recordSandboxSecrets(sandbox);
});
afterAll(async () => {
  await secure?.close();
  await plain?.close();
  await mutual?.close();
  ca?.cleanup();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxy(options: Parameters<typeof startProxy>[0] = {}): Promise<TestProxy> {
  const started = await startProxy(options);
  cleanups.push(() => started.close());
  return started;
}

/** `idm streams list` against `tenant` in a fresh config directory (so a token is asked for), with `env`. */
function list(tenant: Sandbox, env: Record<string, string>, args: string[] = []) {
  const config = tempConfigDir();
  cleanups.push(config.cleanup);
  return runIdm(['streams', 'list', '--take', '1', ...args], { configDir: config.dir, env: { ...credentialsEnv(tenant), IDM_CA_FILE: ca.caFile, IDM_PROXY_LOOPBACK: '1', ...env } });
}

const authority = (tenant: Sandbox) => new URL(tenant.url).host;

describe('HTTPS_PROXY', () => {
  it('carries an https tenant through a CONNECT tunnel to its host and port, the token request too; TLS is to the tenant (its certificate checked by --ca-file)', async () => {
    const through = await proxy();
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^est_\w{22}\t/);
    expect(through.seen.length).toBeGreaterThan(0);
    expect(through.seen.every((seen) => seen.method === 'CONNECT' && seen.target === authority(secure))).toBe(true);
    expect(through.tunnelled()).toBeGreaterThan(0);
  });

  it('keeps mutual TLS with the tenant inside the tunnel: a tls_client_auth client gets its token and lists', async () => {
    const through = await proxy();
    const client = mutual.clients.mtls!;
    const [certFile, keyFile] = [join(ca.dir, 'mtls.crt'), join(ca.dir, 'mtls.key')];
    writeFileSync(certFile, client.certPem);
    writeFileSync(keyFile, client.keyPem, { mode: 0o600 });
    const result = await list(mutual, {
      HTTPS_PROXY: through.url,
      IDM_CLIENT_ID: client.clientId,
      IDM_CLIENT_SECRET: '',
      IDM_AUTH_METHOD: 'tls_client_auth',
      IDM_CLIENT_CERT: certFile,
      IDM_CLIENT_KEY: keyFile,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(through.seen.length).toBeGreaterThan(0);
    expect(through.seen.every((seen) => seen.method === 'CONNECT' && seen.target === authority(mutual))).toBe(true);
  });

  it('the lower-case https_proxy wins over HTTPS_PROXY', async () => {
    const [upper, lower] = [await proxy(), await proxy()];
    const result = await list(secure, { HTTPS_PROXY: upper.url, https_proxy: lower.url });
    expect(result.code).toBe(0);
    expect(upper.seen).toEqual([]);
    expect(lower.seen.length).toBeGreaterThan(0);
  });

  it('sends the credentials of the proxy URL as Proxy-Authorization: Basic on the CONNECT', async () => {
    const through = await proxy({ credentials: 'alice:s3cret@pass' });
    const result = await list(secure, { HTTPS_PROXY: `http://alice:s3cret%40pass@127.0.0.1:${through.port}` });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(through.seen[0]).toEqual({ method: 'CONNECT', target: authority(secure), proxyAuthorization: `Basic ${Buffer.from('alice:s3cret@pass').toString('base64')}` });
  });

  it('sends a User-Agent on the CONNECT: a proxy whose policy refuses a CONNECT without one lets idm through', async () => {
    const through = await proxy({ requireUserAgent: true });
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(through.seen[0]!.method).toBe('CONNECT');
  });

  it('an https:// proxy: TLS to the proxy (its certificate checked), then the CONNECT tunnel and TLS to the tenant inside it', async () => {
    const through = await proxy({ tls: ca.server, credentials: 'alice:s3cret' });
    const result = await list(secure, { HTTPS_PROXY: `https://alice:s3cret@127.0.0.1:${through.port}` });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^est_\w{22}\t/);
    expect(through.seen[0]).toEqual({ method: 'CONNECT', target: authority(secure), proxyAuthorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}` });
    // An http tenant through it too (absolute-form requests over TLS to the proxy).
    const plainThrough = await list(plain, { HTTP_PROXY: through.url.replace('https://', 'https://alice:s3cret@') });
    expect(plainThrough.code).toBe(0);
    expect(through.seen.at(-1)!.method).toBe('GET');
  });

  it('an https:// proxy whose certificate is not trusted: exit 1 naming the proxy, nothing reaches the tenant', async () => {
    const other = await makeTestCa('another CA');
    cleanups.push(() => other.cleanup());
    recordSecrets([other.server.key, other.client.key]);
    const through = await proxy({ tls: other.server });
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not get an access token: the TLS certificate of the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) could not be verified (UNABLE_TO_VERIFY_LEAF_SIGNATURE).`);
    // IDM_CA_FILE is given (the tenant's CA): it did not sign this one, so giving it is not the fix.
    expect(result.stderr).toContain("The certificate authority idm was given (--ca-file, IDM_CA_FILE or the profile's CA file) did not sign it: give the certificate of the authority that did; verification is never turned off.");
    // A certificate refused once is refused again: not retried.
    expect(result.stderr).not.toContain('trying again');
    expect(through.seen).toEqual([]);
  });

  it('a proxy that inspects TLS (a certificate signed by its own CA): the hint names the proxy and its CA, with or without --ca-file', async () => {
    const inspector = await makeTestCa('an inspecting proxy CA');
    cleanups.push(() => inspector.cleanup());
    recordSecrets([inspector.server.key, inspector.client.key]);
    const through = await proxy({ intercept: inspector.server });
    const withCa = await list(secure, { HTTPS_PROXY: through.url });
    expect(withCa.code).toBe(1);
    expect(withCa.stderr).toBe(
      `Error: Could not get an access token: the TLS certificate of ${authority(secure)} could not be verified (UNABLE_TO_VERIFY_LEAF_SIGNATURE).\n` +
        `The certificate authority idm was given (--ca-file, IDM_CA_FILE or the profile's CA file) did not sign it: give the certificate of the authority that did (that of the proxy 127.0.0.1:${through.port} (HTTPS_PROXY), if it inspects TLS); verification is never turned off.\n`,
    );
    const withoutCa = await list(secure, { HTTPS_PROXY: through.url, IDM_CA_FILE: '' });
    expect(withoutCa.code).toBe(1);
    expect(withoutCa.stderr).toContain(
      `If the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) inspects TLS, it signs the certificates it presents with its own certificate authority: give that authority's certificate with --ca-file PATH (IDM_CA_FILE, or NODE_EXTRA_CA_CERTS), as for a tenant that uses a private one; verification is never turned off.\n`,
    );
  });

  // It was 'could not be verified', with 'trust it with --ca-file' whatever the cause: here the
  // authority is trusted already, and the fix is the proxy's name.
  it('an https:// proxy whose certificate is for another name: exit 1, the names it holds and the variable to check', async () => {
    const other = await makeTestCa('a proxy CA', { dnsName: 'proxy.example' });
    cleanups.push(() => other.cleanup());
    recordSecrets([other.server.key, other.client.key]);
    const both = join(other.dir, 'both-cas.pem');
    writeFileSync(both, `${ca.caPem}\n${other.caPem}`);
    const through = await proxy({ tls: other.server });
    const result = await list(secure, { HTTPS_PROXY: through.url, IDM_CA_FILE: both });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the TLS certificate of the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) is not for that name (it is for proxy.example) (ERR_TLS_CERT_ALTNAME_INVALID).\n` +
        'Check HTTPS_PROXY: give the proxy by a name its certificate holds; --ca-file does not change this, and verification is never turned off.\n',
    );
    expect(through.seen).toEqual([]);
  });

  // It was 'the TLS certificate of the proxy … could not be verified', with the fix for a CA: the
  // proxy's certificate was trusted, and it was idm's that the proxy wanted.
  it('an https:// proxy that wants a client certificate: exit 1 saying so, not that its certificate could not be verified', async () => {
    const through = await proxy({ tls: ca.server, clientCa: ca.caPem });
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^Error: Could not get an access token: the proxy 127\\.0\\.0\\.1:${through.port} \\(HTTPS_PROXY\\) refused the TLS connection: it wants a client certificate \\(ERR_SSL_\\w+_ALERT_\\w+\\)\\.\n`),
    );
    expect(result.stderr).toContain('idm presents a client certificate (--client-cert) to the tenant only, never to a proxy: give a proxy that does not ask for one in HTTPS_PROXY');
    expect(result.stderr).not.toContain('could not be verified');
    expect(through.seen).toEqual([]);
    // On TLS 1.2 the alert comes as EPROTO with OpenSSL's words: it was 'could not reach the proxy: write EPROTO 80…', asked three times.
    const tls12 = await proxy({ tls: ca.server, clientCa: ca.caPem, maxVersion: 'TLSv1.2' });
    const old = await list(secure, { HTTPS_PROXY: tls12.url }, ['--max-wait', '1']);
    expect(old.code).toBe(1);
    expect(old.stderr).toBe(
      `Error: Could not get an access token: the proxy 127.0.0.1:${tls12.port} (HTTPS_PROXY) refused the TLS connection: most likely, it wants a client certificate (sslv3 alert handshake failure).\n` +
        'idm presents a client certificate (--client-cert) to the tenant only, never to a proxy: give a proxy that does not ask for one in HTTPS_PROXY, or run a local proxy that presents it for you; or, if 127.0.0.1 is reached without the proxy, add it to NO_PROXY.\n',
    );
  });

  it('https:// for a proxy that speaks plain HTTP: exit 1 saying so and to give http://; not asked again, no OpenSSL text', async () => {
    const through = await proxy();
    const result = await list(secure, { HTTPS_PROXY: through.url.replace('http://', 'https://') }, ['--max-wait', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) does not speak TLS on that port (the TLS handshake was answered in plain text).\n` +
        'Give it as http://HOST:PORT in HTTPS_PROXY: a proxy is most often reached over plain HTTP, https:// tenants too (their TLS goes through its tunnel); https:// is for a proxy that itself speaks TLS.\n',
    );
  });

  it('is not used for a host NO_PROXY lists: the proxy sees nothing', async () => {
    const through = await proxy();
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${new URL(secure.url).port}`, '*']) {
      const result = await list(secure, { HTTPS_PROXY: through.url, NO_PROXY: noProxy });
      expect(result.code, noProxy).toBe(0);
    }
    expect(through.seen).toEqual([]);
  });

  it('is never used for a loopback tenant (idm sandbox) without the tests\' switch', async () => {
    const through = await proxy();
    const result = await list(secure, { HTTPS_PROXY: through.url, IDM_PROXY_LOOPBACK: '' });
    expect(result.code).toBe(0);
    expect(through.seen).toEqual([]);
  });
});

describe('HTTP_PROXY', () => {
  it('carries an http tenant as absolute-form requests to the proxy, the token request first', async () => {
    const through = await proxy();
    const result = await list(plain, { HTTP_PROXY: through.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^est_\w{22}\t/);
    expect(through.seen.map((seen) => `${seen.method} ${seen.target.replace(/\?.*/, '')}`)).toEqual([`POST ${plain.url}/oauth/token`, `GET ${plain.url}/api/v2/event-streams`]);
  });

  // The TLS to an https:// proxy was taken as the tenant's once the TCP connection was up: 'the TLS
  // certificate of 127.0.0.1:PORT (the tenant)', or 'give the domain as http://…', which it was.
  it('an https:// proxy whose TLS fails (an untrusted certificate, plain HTTP on that port): the proxy is named, not the http tenant', async () => {
    const other = await makeTestCa('another CA');
    cleanups.push(() => other.cleanup());
    recordSecrets([other.server.key, other.client.key]);
    const untrusted = await proxy({ tls: other.server });
    const refused = await list(plain, { HTTP_PROXY: untrusted.url, IDM_CA_FILE: '' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `Error: Could not get an access token: the TLS certificate of the proxy 127.0.0.1:${untrusted.port} (HTTP_PROXY) could not be verified (UNABLE_TO_VERIFY_LEAF_SIGNATURE).\n` +
        'If the proxy uses a private certificate authority, give its certificate with --ca-file PATH (IDM_CA_FILE, or NODE_EXTRA_CA_CERTS); verification is never turned off.\n',
    );
    const plainProxy = await proxy();
    const notTls = await list(plain, { HTTP_PROXY: plainProxy.url.replace('http://', 'https://') }, ['--max-wait', '1']);
    expect(notTls.code).toBe(1);
    expect(notTls.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${plainProxy.port} (HTTP_PROXY) does not speak TLS on that port (the TLS handshake was answered in plain text).\n`);
    expect([...untrusted.seen, ...plainProxy.seen]).toEqual([]);
  });
});

// idm login at a terminal asked the method and the secret, then refused the proxy variable (exit 2)
// at its token request: the secret typed for nothing, to be typed again once the variable was fixed.
describe.skipIf(!hasTmux && !process.env.CI)('a proxy variable idm cannot use, at idm login in a terminal', () => {
  it('is refused (exit 2) once the domain is known, before the method or the secret is asked', async () => {
    const config = tempConfigDir();
    cleanups.push(config.cleanup);
    const term = Terminal.start(['login', '--domain', plain.url, '--client-id', plain.clients.admin.clientId], {
      configDir: config.dir,
      env: { IDM_PROXY_LOOPBACK: '1', HTTP_PROXY: 'socks5://alice:s3cret@127.0.0.1:1080' },
    });
    cleanups.push(() => term.close());
    expect(await term.exitCode()).toBe(2);
    const screen = term.screen();
    expect(screen).toContain('HTTP_PROXY names a proxy idm cannot use: socks5:// proxies are not supported');
    expect(screen).not.toContain('How does the client authenticate?');
    expect(screen).not.toContain('s3cret');
  });

  // The check came after the Client ID was asked: a domain given (or typed) and no client id, the
  // client id was asked for nothing.
  it('is refused as soon as the domain is given or typed, before the client id is asked', async () => {
    const env = { IDM_PROXY_LOOPBACK: '1', HTTP_PROXY: 'socks5://alice:s3cret@127.0.0.1:1080' };
    const config = tempConfigDir();
    cleanups.push(config.cleanup);
    const given = Terminal.start(['login', '--domain', plain.url], { configDir: config.dir, env });
    cleanups.push(() => given.close());
    expect(await given.exitCode()).toBe(2);
    expect(given.screen()).toContain('HTTP_PROXY names a proxy idm cannot use: socks5:// proxies are not supported');
    expect(given.screen()).not.toContain('Client ID');
    const typed = Terminal.start(['login'], { configDir: config.dir, env });
    cleanups.push(() => typed.close());
    await typed.waitFor('Tenant domain');
    typed.type(plain.url);
    typed.keys('Enter');
    expect(await typed.exitCode()).toBe(2);
    expect(typed.screen()).toContain('HTTP_PROXY names a proxy idm cannot use: socks5:// proxies are not supported');
    expect(typed.screen()).not.toContain('Client ID');
    for (const term of [given, typed]) expect(term.screen()).not.toContain('s3cret');
  });
});

// curl reads ALL_PROXY when HTTPS_PROXY is unset; idm, as Go, does not: a network failure of a tenant
// reached directly said 'Check the domain and your network connection', never that the proxy the
// user had set was not used.
describe('ALL_PROXY', () => {
  it('is not read: a tenant out of reach directly says so, for a SOCKS proxy and an http:// one, never quoting its value', async () => {
    const port = await refusingPort();
    cleanups.push(() => port.close());
    const tenant = { url: `https://127.0.0.1:${port.port}`, clients: secure.clients };
    const socks = await list(tenant as Sandbox, { ALL_PROXY: 'socks5h://alice:s3cret@127.0.0.1:1080' }, ['--max-wait', '1']);
    expect(socks.code).toBe(1);
    expect(socks.stderr).toContain(`could not reach 127.0.0.1:${port.port}: the connection was refused (ECONNREFUSED).`);
    expect(socks.stderr).toContain('ALL_PROXY is set, but idm does not read it, and a SOCKS proxy is not supported: it connected directly; give an HTTP proxy in HTTPS_PROXY to go through one.');
    const http = await list(tenant as Sandbox, { all_proxy: 'http://alice:s3cret@127.0.0.1:3128' }, ['--max-wait', '1', '--debug']);
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('(all_proxy is set, but idm does not read it: connecting directly; HTTPS_PROXY is the one it reads)');
    expect(http.stderr).toContain('all_proxy is set, but idm does not read it: it connected directly; set HTTPS_PROXY to the same proxy to go through it.');
    for (const result of [socks, http]) expect(result.stderr).not.toContain('s3cret');
    // Not said when HTTPS_PROXY is set (that proxy is used), nor for a host NO_PROXY lists.
    const listed = await list(tenant as Sandbox, { ALL_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: '127.0.0.1' }, ['--max-wait', '1']);
    expect(listed.code).toBe(1);
    expect(listed.stderr).not.toContain('ALL_PROXY');
  });

  it('is not said when the tenant is reached: the run is as without it', async () => {
    const result = await list(secure, { ALL_PROXY: 'socks5://127.0.0.1:1080' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('a proxy that refuses, or cannot be reached', () => {
  const PASSWORD = 'pr0xy-pa55word';
  const basic = (credentials: string) => Buffer.from(credentials).toString('base64');

  it('407 without credentials: exit 1 naming the proxy and the variable to put them in; not asked again', async () => {
    const through = await proxy({ credentials: `alice:${PASSWORD}` });
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) asks for credentials (407 Proxy Authentication Required).\n` +
        `Give them in HTTPS_PROXY as http://USER:PASSWORD@HOST:PORT; or, if 127.0.0.1 is reached without the proxy, add it to NO_PROXY.\n`,
    );
    expect(through.seen).toHaveLength(1);
  });

  it('407 with wrong credentials, with --debug: says they were refused; neither they nor their Basic value are ever on stderr', async () => {
    const through = await proxy({ credentials: 'alice:right' });
    const result = await list(secure, { HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${through.port}` }, ['--debug']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`(through the proxy 127.0.0.1:${through.port}, from HTTPS_PROXY: a CONNECT tunnel)`);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) refused its credentials (407 Proxy Authentication Required).`);
    expect(result.stderr).toContain('Check the user name and password in HTTPS_PROXY');
    expect(through.seen[0]!.proxyAuthorization).toBe(`Basic ${basic(`alice:${PASSWORD}`)}`);
    for (const secret of [PASSWORD, basic(`alice:${PASSWORD}`), `alice:${PASSWORD}`]) expect(result.stderr).not.toContain(secret);
  });

  it('407 offering only schemes idm cannot answer (Negotiate, NTLM): says so and what to do, with or without credentials', async () => {
    // A quoted comma, and a Basic inside a quoted string, are no challenge of their own.
    const through = await proxy({ credentials: `alice:${PASSWORD}`, authenticate: 'Negotiate, NTLM realm="corp, Basic x"' });
    for (const proxyUrl of [through.url, `http://alice:wrong@127.0.0.1:${through.port}`]) {
      const result = await list(secure, { HTTPS_PROXY: proxyUrl });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) asks for Negotiate or NTLM authentication, which idm does not support: it sends Basic only, with the user and password of the proxy URL (407 Proxy Authentication Required).\n` +
          'Have the proxy accept Basic, or run a local proxy that authenticates to it for you (such as cntlm or px) and give that one in HTTPS_PROXY; or, if 127.0.0.1 is reached without the proxy, add it to NO_PROXY.\n',
      );
    }
    expect(through.seen).toHaveLength(2);
  });

  it('the right credentials with --debug: the list works and stderr names the proxy without them', async () => {
    const through = await proxy({ credentials: `alice:${PASSWORD}` });
    const result = await list(plain, { HTTP_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${through.port}` }, ['--debug']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`(through the proxy 127.0.0.1:${through.port}, from HTTP_PROXY)`);
    for (const secret of [PASSWORD, basic(`alice:${PASSWORD}`)]) expect(result.stderr).not.toContain(secret);
    expect(through.seen.every((seen) => seen.proxyAuthorization === `Basic ${basic(`alice:${PASSWORD}`)}`)).toBe(true);
  });

  it('407 from the proxy of a plain-HTTP tenant is the proxy\'s, not a 407 of the tenant', async () => {
    const through = await proxy({ credentials: `alice:${PASSWORD}` });
    const result = await list(plain, { HTTP_PROXY: through.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTP_PROXY) asks for credentials (407 Proxy Authentication Required).`);
  });

  it('403 on the CONNECT: exit 1, the proxy refused to connect to the tenant; not asked again', async () => {
    const through = await proxy({ refuse: 403 });
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) refused to connect to ${authority(secure)} (403 Forbidden).`);
    expect(result.stderr).toContain('Check HTTPS_PROXY');
    expect(through.seen).toHaveLength(1);
  });

  it('--debug traces the CONNECT and the proxy\'s answer with its headers (what a refusal says of itself), Proxy-Authorization masked', async () => {
    const through = await proxy({ refuse: 403 });
    const result = await list(secure, { HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${through.port}` }, ['--debug']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`> CONNECT ${authority(secure)} (to the proxy 127.0.0.1:${through.port})\n> host: ${authority(secure)}\n> user-agent: idm/`);
    expect(result.stderr).toContain('> proxy-authorization: Basic [redacted]\n');
    expect(result.stderr).toMatch(/\n< 403 \(\d+ ms, the proxy's answer\)\n(< [^\n]+\n)*< via: 1\.1 test-proxy\n/);
    for (const secret of [PASSWORD, basic(`alice:${PASSWORD}`)]) expect(result.stderr).not.toContain(secret);
    // A tunnel opened: its 200 too, once for the token request and the list that share it.
    const open = await proxy();
    const ok = await list(secure, { HTTPS_PROXY: open.url }, ['--debug']);
    expect(ok.code).toBe(0);
    expect(ok.stderr.match(/\n< 200 \(\d+ ms, the proxy's answer\)\n/g)).toHaveLength(1);
  });

  it('502 on the CONNECT: the proxy could not connect to the tenant; asked again (a network failure), each notice naming the proxy', async () => {
    const through = await proxy({ refuse: 502 });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--max-wait', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) could not connect to ${authority(secure)} (502 Bad Gateway).`);
    expect(result.stderr).toContain(`Check the domain (can the proxy reach ${authority(secure)}?) and try again later`);
    expect(result.stderr).toContain(`The proxy 127.0.0.1:${through.port} answered 502 at ${authority(secure)}`);
    expect(through.seen.length).toBeGreaterThan(1);
  });

  // A proxy's 429 was reported at once as a refusal ('Check HTTPS_PROXY (is it the proxy for this
  // network?)'), and its 503's Retry-After was not read: asked again within a second, twice.
  it('429 on the CONNECT with Retry-After: waited out and asked again, for a POST too (the tenant never saw it); then exit 5 (rate limited, as the service\'s own 429) saying the proxy limits requests', async () => {
    const through = await proxy({ refuse: 429, retryAfter: '1' });
    const config = tempConfigDir();
    cleanups.push(config.cleanup);
    const args = ['streams', 'create', '--name', 'through-a-busy-proxy', '--webhook', 'https://hooks.example.com/idm', '--auth', 'bearer', '--event-type', 'user.created', '--max-wait', '30'];
    const result = await runIdm(args, {
      configDir: config.dir,
      env: { IDM_DOMAIN: secure.url, IDM_ACCESS_TOKEN: 'a-token-never-sent', IDM_WEBHOOK_SECRET: 'a-webhook-secret', IDM_CA_FILE: ca.caFile, IDM_PROXY_LOOPBACK: '1', HTTPS_PROXY: through.url },
    });
    expect(result.code).toBe(5);
    expect(through.seen).toHaveLength(3);
    expect(result.stderr).toContain(`The proxy 127.0.0.1:${through.port} answered 429 at ${authority(secure)} (create an event stream): trying again in`);
    expect(result.stderr).toContain(
      `Error: Could not create an event stream: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) is limiting requests (429 Too Many Requests).\n` +
        `Tried 3 times. Try again later; or, if 127.0.0.1 is reached without the proxy, add it to NO_PROXY.\n`,
    );
    expect(result.stderr).not.toContain('may have been created');
  });

  it('503 on the CONNECT with a Retry-After beyond --max-wait: not asked again sooner, and the hint says what the proxy asked', async () => {
    const through = await proxy({ refuse: 503, retryAfter: '120' });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--max-wait', '5']);
    expect(result.code).toBe(1);
    expect(through.seen).toHaveLength(1);
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) could not connect to ${authority(secure)} (503 Service Unavailable).\n` +
        'The proxy asked to be tried again in 120 s (Retry-After), longer than what is left of --max-wait (5 s of 5 s); run again after that, or allow a longer wait with --max-wait SECONDS. ' +
        `Check the domain (can the proxy reach ${authority(secure)}?) and try again later; or, if 127.0.0.1 is reached without the proxy, add it to NO_PROXY.\n`,
    );
  });

  it('408 on the CONNECT: asked again (transient), exit 1 naming the proxy', async () => {
    const through = await proxy({ refuse: 408 });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--max-wait', '30']);
    expect(result.code).toBe(1);
    expect(through.seen).toHaveLength(3);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) gave up waiting for the CONNECT to ${authority(secure)} (408 Request Timeout).\n`);
  });

  it('a proxy that cannot be reached: exit 1 naming it (not the tenant) and what to check', async () => {
    const port = await refusingPort();
    cleanups.push(() => port.close());
    const result = await list(secure, { https_proxy: `http://alice:${PASSWORD}@127.0.0.1:${port.port}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not get an access token: could not reach the proxy 127.0.0.1:${port.port} (https_proxy): the connection was refused (ECONNREFUSED).`);
    expect(result.stderr).toContain("Check https_proxy (the proxy's host and port) and NO_PROXY, then try again.");
    // Each retry notice names the proxy as the one out of reach, not the tenant.
    expect(result.stderr).toContain(`The proxy 127.0.0.1:${port.port} could not be reached (the connection was refused) at ${authority(secure)} (get an access token): trying again in`);
    expect(result.stderr).not.toContain(PASSWORD);
  });

  it('a proxy that takes the connection and closes it, or answers what is not HTTP: says so (not "could not reach"), and what to check', async () => {
    // http:// for a proxy that speaks TLS: it closes the connection at the plain-text CONNECT.
    const tls = await proxy({ tls: ca.server });
    const closed = await list(secure, { HTTPS_PROXY: tls.url.replace('https://', 'http://') }, ['--max-wait', '1']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${tls.port} (HTTPS_PROXY) closed the connection without answering the CONNECT (ECONNRESET).`);
    expect(closed.stderr).toContain(`Check HTTPS_PROXY: is 127.0.0.1:${tls.port} an HTTP proxy? One that speaks TLS is given as https://HOST:PORT; a SOCKS proxy is not supported.`);
    expect(closed.stderr).not.toContain('could not reach');
    expect(closed.stderr).not.toContain('could not be reached');
    const garbage = await proxy({ raw: 'SSH-2.0-OpenSSH_9.6\r\n' });
    const result = await list(secure, { HTTPS_PROXY: garbage.url }, ['--max-wait', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${garbage.port} (HTTPS_PROXY) answered the CONNECT with something that is not HTTP (HPE_INVALID_CONSTANT).`);
    expect(result.stderr).toContain(`The proxy 127.0.0.1:${garbage.port} answered with something that is not HTTP at ${authority(secure)} (get an access token): trying again in`);
    expect(result.stderr).not.toContain('Parse Error');
  });

  it('a proxy that opens the tunnel (200) and answers in plain text inside it: says the proxy may be the one, not that the tenant speaks no HTTPS', async () => {
    const through = await proxy({ raw: 'HTTP/1.1 200 Connection Established\r\n\r\nHTTP/1.1 403 Forbidden\r\nContent-Type: text/html\r\n\r\n<html>Blocked by policy</html>' });
    const result = await list(secure, { HTTPS_PROXY: through.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the TLS handshake with ${authority(secure)} through the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) was answered in plain text.\n` +
        `Check the domain and its port (the tenant's address is served over HTTPS); if they are right, the answer is the proxy's, sent in the tunnel it had opened: check HTTPS_PROXY and whether the proxy lets you reach ${authority(secure)}.\n`,
    );
  });

  // It was 'could not reach HOST: the connection was reset', with 'check your network connection':
  // the proxy that had closed the tunnel was never named.
  it('a proxy that opens the tunnel (200) and closes it at once: names the proxy and what to check; asked again', async () => {
    const through = await proxy({ raw: 'HTTP/1.1 200 Connection Established\r\n\r\n' });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--max-wait', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The connection was reset in the tunnel of the proxy 127.0.0.1:${through.port} at ${authority(secure)} (get an access token): trying again in`);
    expect(result.stderr).toContain(
      `Error: Could not get an access token: could not reach ${authority(secure)} through the proxy 127.0.0.1:${through.port} (HTTPS_PROXY): the connection was reset (ECONNRESET).\n` +
        `Tried 3 times. The proxy opened a tunnel to ${authority(secure)}, then the tunnel closed before the request got through: check that the proxy lets you reach ${authority(secure)} (HTTPS_PROXY), then try again; or, if 127.0.0.1 is reached without the proxy, add it to NO_PROXY.\n`,
    );
  });

  it('a proxy that takes the CONNECT and never answers: the timeout names the proxy, not the tenant', async () => {
    const through = await proxy({ silent: true });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--timeout', '1', '--max-wait', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not get an access token: the proxy 127.0.0.1:${through.port} (HTTPS_PROXY) did not answer within 1 s (asked to connect to ${authority(secure)}).`);
    expect(result.stderr).toContain("Check HTTPS_PROXY (the proxy's host and port) and NO_PROXY; or allow longer with --timeout SECONDS (IDM_TIMEOUT).");
    expect(through.seen[0]).toEqual({ method: 'CONNECT', target: authority(secure) });
  });

  // Each CONNECT a request gave up on stayed open until the run ended: a proxy that hangs held every
  // attempt's connection (and a slot of its own limits) through the retries.
  it('a CONNECT still unanswered when its request runs out of time is closed then, before the next attempt, not when the run ends', async () => {
    const through = await proxy({ silent: true });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--timeout', '1', '--max-wait', '30']);
    expect(result.code).toBe(1);
    expect(through.seen).toHaveLength(3);
    // How many CONNECTs the proxy had seen when each one's connection closed: the attempt's own.
    expect(await Promise.all([0, 1].map((index) => through.closed(index)))).toEqual([1, 2]);
  });

  // A tunnel that opened but carries nothing: the TLS connection inside it is ended with the request.
  it('a tunnel opened (200) that never carries is closed when its request runs out of time, before the next attempt', async () => {
    const through = await proxy({ deadTunnel: true });
    const result = await list(secure, { HTTPS_PROXY: through.url }, ['--timeout', '1', '--max-wait', '30']);
    expect(result.code).toBe(1);
    expect(through.seen).toHaveLength(3);
    expect(await Promise.all([0, 1].map((index) => through.closed(index)))).toEqual([1, 2]);
  });

  it('a tunnel opened (200) that never carries: a POST out of time was never sent, so no "may have been created" and it is asked again', async () => {
    const through = await proxy({ deadTunnel: true });
    const config = tempConfigDir();
    cleanups.push(config.cleanup);
    const args = ['streams', 'create', '--name', 'through-a-dead-tunnel', '--webhook', 'https://hooks.example.com/idm', '--auth', 'bearer', '--event-type', 'user.created', '--timeout', '1', '--max-wait', '1'];
    const result = await runIdm(args, {
      configDir: config.dir,
      env: { IDM_DOMAIN: secure.url, IDM_ACCESS_TOKEN: 'a-token-never-sent', IDM_WEBHOOK_SECRET: 'a-webhook-secret', IDM_CA_FILE: ca.caFile, IDM_PROXY_LOOPBACK: '1', HTTPS_PROXY: through.url },
    });
    expect(result.code).toBe(1);
    // The proxy whose tunnel carried nothing is named (it was '… did not answer within 1 s. Try again').
    expect(result.stderr).toContain(
      `Error: Could not create an event stream: ${authority(secure)} did not answer within 1 s through the proxy 127.0.0.1:${through.port} (HTTPS_PROXY): the request did not get through the tunnel it had opened.\n` +
        `Tried 3 times. Check that the proxy lets you reach ${authority(secure)} (HTTPS_PROXY), then try again; or allow longer with --timeout SECONDS (IDM_TIMEOUT).\n`,
    );
    expect(result.stderr).not.toContain('may have been created');
    // Asked again: each attempt a CONNECT of its own.
    expect(through.seen.length).toBeGreaterThan(1);
  });

  it('Ctrl-C while a proxy holds the CONNECT unanswered: idm stops at once (exit 130)', async () => {
    const through = await proxy({ silent: true });
    const config = tempConfigDir();
    cleanups.push(config.cleanup);
    const run = spawnIdm(['streams', 'list'], { configDir: config.dir, env: { ...credentialsEnv(secure), IDM_CA_FILE: ca.caFile, IDM_PROXY_LOOPBACK: '1', HTTPS_PROXY: through.url } });
    await through.seenCount(1);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
  });

  it('a malformed or unsupported proxy variable: exit 2 naming it, its value (and password) never quoted, nothing sent', async () => {
    const result = await list(secure, { HTTPS_PROXY: `socks5://alice:${PASSWORD}@127.0.0.1:1080` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: HTTPS_PROXY names a proxy idm cannot use: socks5:\/\/ proxies are not supported/);
    expect(result.stderr).not.toContain(PASSWORD);
    // A '/' of the password left as it is: the message says to percent-encode it, not that a path is not allowed.
    const unencoded = await list(secure, { HTTPS_PROXY: `http://alice:12/${PASSWORD}@127.0.0.1:3128` });
    expect(unencoded.code).toBe(2);
    expect(unencoded.stderr).toBe(
      'Error: HTTPS_PROXY is not a valid proxy URL: a character of its user name or password must be percent-encoded.\n' +
        'Give it as http://USER:PASSWORD@HOST:PORT with / as %2F, # as %23, ? as %3F, @ as %40 and % as %25 in the user name and password.\n',
    );
  });
});
