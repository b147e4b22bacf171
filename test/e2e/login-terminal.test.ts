// idm login in a real pseudo-terminal (tmux): the prompts, arrow keys in the method list, the masked
// secret, a mistyped secret asked again (three tries, keeping what was typed before it), and Ctrl-C
// at a prompt (exit 130). Skipped where tmux is not installed (CI installs it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

const run = hasTmux || Boolean(process.env.CI);
const sandbox = useSandbox();
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** `idm login` in a new terminal with an empty config directory; returns it and the directory. */
function login(env: Record<string, string> = {}, columns?: number): { term: Terminal; dir: string } {
  const { dir, cleanup } = tempConfigDir();
  const term = Terminal.start(['login'], { configDir: dir, env, columns });
  cleanups.push(() => term.close(), cleanup);
  return { term, dir };
}

/** Domain and client id, up to the list of methods; returns the screen then. */
async function upToMethod(term: Terminal): Promise<string> {
  await term.waitFor('Tenant domain');
  term.type(sandbox().url);
  term.keys('Enter');
  await term.waitFor('Client ID');
  term.type(sandbox().clients.admin.clientId);
  term.keys('Enter');
  return term.waitFor('How does the client authenticate?');
}

/** Domain, client id and the method (post, or basic one Down away), up to the secret prompt. */
async function upToSecret(term: Terminal, method: 'post' | 'basic' = 'post'): Promise<void> {
  await upToMethod(term);
  if (method === 'basic') term.keys('Down');
  term.keys('Enter');
  await term.waitFor(SECRET_PROMPT);
}

/** The secret prompt (not the method list's "Client secret, sent in ..."). */
const SECRET_PROMPT = /Client secret(?!,)/;

const tokenRequests = (from: number) => sandbox().requests.slice(from).filter((r) => r.path === '/oauth/token');

describe.skipIf(!run)('idm login in a pseudo-terminal', () => {
  it('prompts for domain, client id, method (arrow keys) and a masked secret, then saves the profile', async () => {
    const { term, dir } = login();
    const { clientId, clientSecret } = sandbox().clients.admin;
    await upToSecret(term, 'basic');
    term.type(clientSecret);
    term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    const screen = term.screen();
    expect(screen).toMatch(/Logged in to 127\.0\.0\.1:\d+ as client \w+ \(profile "default", the default; basic\)/);
    expect(screen).toContain('*'.repeat(8)); // the secret, masked
    expect(screen).not.toContain(clientSecret);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toEqual({ domain: sandbox().url, clientId, authMethod: 'basic' });
  });

  it('the masked secret cannot be shown: no "toggle visibility", and Ctrl-T reveals nothing', async () => {
    const { term } = login();
    const { clientSecret } = sandbox().clients.admin;
    await upToSecret(term);
    term.type(clientSecret.slice(0, -1));
    term.keys('C-t');
    term.type(clientSecret.slice(-1));
    await term.waitFor('*'.repeat(clientSecret.length));
    expect(term.screen()).not.toContain('toggle visibility');
    expect(term.screen()).not.toContain(clientSecret.slice(0, 8));
    term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    expect(term.screen()).not.toContain(clientSecret.slice(0, 8));
  });

  it('a client id pasted with an invisible character (a zero-width space from a web page) is refused naming it, then taken without it', async () => {
    const { term, dir } = login();
    const { clientId } = sandbox().clients.admin;
    await term.waitFor('Tenant domain');
    term.type(sandbox().url);
    term.keys('Enter');
    await term.waitFor('Client ID');
    term.type(`${clientId.slice(0, 4)}\u200b${clientId.slice(4)}`);
    term.keys('Enter');
    await term.waitFor('A client id must be printable ASCII without spaces: character 5 is U+200B.');
    term.keys('C-u');
    term.type(`${clientId}ü`);
    term.keys('Enter');
    await term.waitFor(`character ${clientId.length + 1} is "ü" (U+00FC).`);
    term.keys('C-u');
    term.type(clientId);
    term.keys('Enter');
    await term.waitFor('How does the client authenticate?');
    term.keys('Enter');
    await term.waitFor(SECRET_PROMPT);
    term.type(sandbox().clients.admin.clientSecret);
    term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    expect(term.screen()).not.toContain('no spaces)');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.clientId).toBe(clientId);
  });

  it('a refused secret is asked for again, keeping the rest; the right one then logs in', async () => {
    const { term, dir } = login();
    const from = sandbox().requests.length;
    await upToSecret(term);
    term.type('a-wrong-secret-of-enough-length');
    term.keys('Enter');
    await term.waitFor('try again (2 of 3)');
    await term.waitFor(SECRET_PROMPT, 2);
    term.type(sandbox().clients.admin.clientSecret);
    term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    expect(term.screen()).toContain('(profile "default", the default; post)');
    expect(term.screen().match(/Tenant domain/g)).toHaveLength(1); // nothing asked twice but the secret
    expect(tokenRequests(from).map((r) => r.status)).toEqual([401, 200]);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.clientId).toBe(sandbox().clients.admin.clientId);
  });

  it('three refused secrets: exit 4, the service error, nothing saved', async () => {
    const { term, dir } = login();
    const from = sandbox().requests.length;
    await upToSecret(term);
    for (let n = 1; n <= 3; n++) {
      await term.waitFor(SECRET_PROMPT, n);
      term.type(`wrong-secret-number-${n}-of-three`);
      term.keys('Enter');
    }
    expect(await term.exitCode()).toBe(4);
    expect(term.screen()).toContain('Could not get an access token: Client authentication failed (401 invalid_client).');
    expect(tokenRequests(from)).toHaveLength(3);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('a key file typed as ~/… at the prompt is read from the home directory, as the shell would (private_key_jwt)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'idm-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(join(home, 'admin.pem'), sandbox().clients.admin.privateKeyPem, { mode: 0o600 });
    const { term, dir } = login({ HOME: home });
    await upToMethod(term);
    term.keys('Down', 'Down', 'Enter');
    await term.waitFor('Private key file (PEM)');
    term.type('~/admin.pem');
    term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    expect(term.screen()).toContain('private_key_jwt).');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toMatchObject({ authMethod: 'private_key_jwt' });
  });

  it('an http:// tenant: tls_client_auth is shown but cannot be chosen, so no certificate is asked for in vain', async () => {
    const { term, dir } = login();
    const screen = await upToMethod(term);
    expect(screen).toMatch(/mutual TLS \(tls_client_auth\) needs an https:\/\/ domain, and 127\.0\.0\.1:\d+ is plain HTTP/);
    term.keys('Down', 'Down', 'Down', 'Enter');
    await term.waitFor('cannot be selected');
    term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
    expect(term.screen()).not.toContain('Client certificate file');
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('at 80 columns the methods are one line each: why tls_client_auth cannot be chosen is said in fewer words', async () => {
    const { term } = login({}, 80);
    await upToMethod(term);
    const rows = term.rows();
    const at = rows.findIndex((row) => row.includes('How does the client authenticate?'));
    expect(rows.slice(at + 1, at + 6)).toEqual([
      '❯ Client secret, sent in the request body (post)',
      '  Client secret, sent as HTTP Basic (basic)',
      '  Private key: a signed JWT assertion (private_key_jwt)',
      '- Client certificate: mutual TLS (tls_client_auth) needs an https:// domain',
      '',
    ]);
    term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
  });

  for (const [method, downs, answer, next] of [
    ['post', 0, 'client secret (post)', SECRET_PROMPT],
    ['private_key_jwt', 2, 'private key (private_key_jwt)', 'Private key file (PEM)'],
  ] as const) {
    it(`at 80 columns the chosen method (${method}) is said in short on the question's row, not the whole choice wrapped onto a second row`, async () => {
      const { term } = login({}, 80);
      await upToMethod(term);
      term.keys(...Array<string>(downs).fill('Down'), 'Enter');
      await term.waitFor(next);
      const rows = term.rows();
      const at = rows.findIndex((row) => row.includes('How does the client authenticate?'));
      expect(rows[at]).toBe(`✔ How does the client authenticate? ${answer}`);
      expect(rows[at + 1]).toMatch(next);
      term.keys('C-c');
      expect(await term.exitCode()).toBe(130);
    });
  }

  it('Ctrl-C while a prompt checks a FIFO typed at it (no writer yet): exit 130 at once, not when a writer comes', async () => {
    const fifos = mkdtempSync(join(tmpdir(), 'idm-fifo-'));
    cleanups.push(() => rmSync(fifos, { recursive: true, force: true }));
    const fifo = join(fifos, 'key.pem');
    execFileSync('mkfifo', [fifo]);
    const { term, dir } = login();
    await upToMethod(term);
    term.keys('Down', 'Down', 'Enter');
    await term.waitFor('Private key file (PEM)');
    term.type(fifo);
    term.keys('Enter'); // the check now waits for the FIFO's writer
    term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('in CI (CI=true) a terminal is no reason to ask: a missing value is the usage error naming the flags, at once (exit 2)', async () => {
    const { term, dir } = login({ CI: 'true' });
    expect(await term.exitCode()).toBe(2);
    const screen = term.screen();
    expect(screen).not.toContain('Tenant domain');
    expect(screen).toContain('Missing --domain, --client-id, --client-secret-file (or --private-key-file).');
    // At a terminal, "only at a terminal" alone would puzzle: the reason is named.
    expect(screen.replace(/\n/g, '')).toContain('idm login cannot ask here (CI is set):');
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
    // CI=false is not CI: the prompt comes.
    const { term: local } = login({ CI: 'false' });
    await local.waitFor('Tenant domain');
  });

  it('--no-input at a terminal: the usage error names --no-input as why nothing was asked', async () => {
    const { dir, cleanup } = tempConfigDir();
    const term = Terminal.start(['streams', 'delete', 'est_demoInboxBearer0000000', '--no-input'], { configDir: dir, env: {} });
    cleanups.push(() => term.close(), cleanup);
    expect(await term.exitCode()).toBe(2);
    expect(term.screen().replace(/\n/g, '')).toContain('Deleting stream est_demoInboxBearer0000000 needs --yes when idm cannot ask (--no-input).');
  });

  it('Escape at a prompt cancels as Ctrl-C does (exit 130, nothing saved); an arrow or Alt-b typed there first does not', async () => {
    const { term, dir } = login();
    await term.waitFor('Tenant domain');
    term.type('tenant.example.org');
    term.keys('M-b', 'Left'); // the sequences Escape starts: a word back, a character back
    term.type('x');
    await term.waitFor('tenant.examplex.org');
    term.keys('Escape');
    expect(await term.exitCode()).toBe(130);
    const rows = term.rows().filter((row) => row.trim() !== '');
    expect(rows).toEqual(['✖ Tenant domain (host or https:// URL) (cancelled)', 'Error: Interrupted.']);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('Escape at the secret prompt, part of a secret typed: exit 130, nothing sent or saved', async () => {
    const { term, dir } = login();
    await upToSecret(term);
    const before = sandbox().requests.length;
    term.type('half-a-secr');
    await term.waitFor('*'.repeat(11));
    term.keys('Escape');
    expect(await term.exitCode()).toBe(130);
    expect(term.screen()).toContain('✖ Client secret (cancelled)');
    expect(term.screen()).not.toContain('half-a-secr');
    expect(tokenRequests(before)).toEqual([]);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('a private key pasted at the secret prompt is refused there, saying what it is, and nothing of it is sent as the secret', async () => {
    const { term, dir } = login();
    const { clientSecret, privateKeyPem } = sandbox().clients.admin;
    await upToSecret(term);
    const before = sandbox().requests.length;
    term.type(privateKeyPem); // pasted: its lines end in line feeds, each an Enter
    await term.waitFor('That is a PEM key or certificate, not a client secret.');
    expect(term.screen()).not.toContain('-----BEGIN');
    expect(tokenRequests(before)).toEqual([]);
    term.keys('C-u');
    term.type(clientSecret);
    term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    expect(tokenRequests(before)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default).toMatchObject({ authMethod: 'post' });
  });

  it('Ctrl-C at a prompt exits 130 and saves nothing', async () => {
    const { term, dir } = login();
    await term.waitFor('Tenant domain');
    term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
    expect(term.screen()).not.toMatch(/\n\s+at /);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });
});
