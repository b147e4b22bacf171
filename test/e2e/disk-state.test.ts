// What idm finds on disk that it did not write, through the built binary against the sandbox: lock
// files no idm process holds (a symlink, text that is not a lock), the directories it writes secrets
// into, and the settings it reads back.
import { chmodSync, chownSync, existsSync, lutimesSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialsEnv, runBash, runIdm } from '../helpers/cli.js';
import { useConfigDirs } from '../helpers/deps.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const configDir = useConfigDirs();

const HOUR_AGO = new Date(Date.now() - 3_600_000);

function login(dir: string, profile = 'p') {
  const { url, clients } = sandbox();
  return runIdm(['login', '--profile', profile, '--domain', url, '--client-id', clients.admin.clientId, '--client-secret-file', '-'], { configDir: dir, input: `${clients.admin.clientSecret}\n` });
}

describe('a lock file no idm process holds is broken, never waited on', () => {
  // Each was waited on for the whole 2 minutes, then blamed on "another idm process": every save failed.
  it.each([
    ['a dangling symlink', (lock: string, dir: string) => symlinkSync(join(dir, 'nowhere'), lock)],
    ['a symlink to a file of words (never read as a holder, the file left alone)', (lock: string, dir: string) => {
      writeFileSync(join(dir, 'target.txt'), 'a b c d e f\n');
      symlinkSync(join(dir, 'target.txt'), lock);
    }],
    ['a file of words that is not a lock', (lock: string) => writeFileSync(lock, 'hello this is not a lock\n')],
  ])('config.json.lock as %s, an hour old: login saves the profile', async (_name, plant) => {
    const dir = configDir();
    const lock = join(dir, 'config.json.lock');
    plant(lock, dir);
    const target = join(dir, 'target.txt');
    const pointsToFile = existsSync(target); // the lock is a symlink to it: it must be left alone
    lutimesSync(lock, HOUR_AGO, HOUR_AGO);
    const result = await login(dir);
    expect(result.stderr).not.toContain('locked');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.p.clientId).toBe(sandbox().clients.admin.clientId);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(target)).toBe(pointsToFile);
    if (pointsToFile) expect(readFileSync(target, 'utf8')).toBe('a b c d e f\n');
  });

  it('a token lock that is a dangling symlink: the token is fetched under the lock and cached', async () => {
    const dir = configDir();
    expect((await login(dir)).code).toBe(0);
    const tokens = join(dir, 'tokens');
    const [cached] = readdirSync(tokens).filter((name) => name.endsWith('.json'));
    const file = join(tokens, cached!);
    const lock = `${file.slice(0, -'.json'.length)}.lock`;
    writeFileSync(file, '{}\n'); // damaged: a token must be fetched
    symlinkSync(join(dir, 'nowhere'), lock);
    lutimesSync(lock, HOUR_AGO, HOUR_AGO);
    const issued = sandbox().tokensIssued();
    const result = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(sandbox().tokensIssued() - issued).toBe(1);
    expect(JSON.parse(readFileSync(file, 'utf8')).accessToken).toEqual(expect.any(String));
    expect(existsSync(lock)).toBe(false);
  });
});

describe('the credentials directory, where the secrets go, is held to the rules of the settings directory', () => {
  // It was never checked: the secret was written into a directory every user can write (or a symlink to one).
  const cases: Array<[string, (dir: string) => string]> = [
    ['others can write into it (0777)', (dir: string) => {
      mkdirSync(join(dir, 'credentials'));
      chmodSync(join(dir, 'credentials'), 0o777);
      return 'other users can write into it (mode 777)';
    }],
    ['a symlink to a directory others can write into', (dir: string) => {
      mkdirSync(join(dir, 'shared'));
      chmodSync(join(dir, 'shared'), 0o777);
      symlinkSync(join(dir, 'shared'), join(dir, 'credentials'));
      return 'other users can write into it (mode 777)';
    }],
  ];
  if (isRoot) {
    cases.push(['it belongs to another user', (dir: string) => {
      mkdirSync(join(dir, 'credentials'), { mode: 0o700 });
      chownSync(join(dir, 'credentials'), 65534, 65534);
      return 'it belongs to another user (uid 65534)';
    }]);
  }
  it.each(cases)('%s: login refuses before anything is sent or written (exit 2)', async (_name, plant) => {
    const dir = configDir();
    const problem = plant(dir);
    const issued = sandbox().tokensIssued();
    const result = await login(dir);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`idm will not write into ${join(dir, 'credentials')}: ${problem}.`);
    expect(result.stderr).not.toContain('Unexpected error');
    expect(sandbox().tokensIssued()).toBe(issued);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    const secrets = existsSync(join(dir, 'shared')) ? join(dir, 'shared') : join(dir, 'credentials');
    expect(readdirSync(secrets)).toEqual([]);
  });
});

describe('a write the file system cuts short (ulimit -f here; a disk that fills up during the write alike)', () => {
  it('config.json: login fails naming the file and the cause (exit 2), and config.json is left whole, as it was', async () => {
    // One write() that the limit cut short was renamed into place: login said it had logged in, and
    // config.json, cut at 1 KB, was no JSON any more: every profile was lost.
    const dir = configDir();
    const { url, clients } = sandbox();
    const profiles = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`team${i}`, { domain: url, clientId: clients.reader.clientId, authMethod: 'post' }]));
    const before = JSON.stringify({ defaultProfile: 'team0', profiles }, undefined, '\t');
    expect(before.length).toBeGreaterThan(1536);
    writeFileSync(join(dir, 'config.json'), before, { mode: 0o600 });
    const secret = join(configDir(), 'secret');
    writeFileSync(secret, clients.admin.clientSecret);
    // bash counts ulimit -f in blocks of 1024 bytes: a file grows to 1 KB, and no further.
    const result = await runBash(`ulimit -f 1; idm login --profile p --domain ${url} --client-id ${clients.admin.clientId} --client-secret-file ${secret}`, { cwd: configDir(), configDir: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`Could not write ${join(dir, 'config.json')}: the file is too large;`);
    expect(result.stderr).not.toContain('Logged in');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([]);
  });
});

describe('a settings change that fails part way: the secrets it wrote go back as they were', () => {
  it('login of a profile for another client, config.json cut short by ulimit -f: the profile keeps its own secret, and works', async () => {
    // The new client's secret was left in credentials/p.json beside the old client id and domain
    // (sent there, refused), and the error said 'nothing was changed'.
    const dir = configDir();
    const { url, clients } = sandbox();
    const profiles = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`team${i}`, { domain: url, clientId: clients.reader.clientId, authMethod: 'post' }]));
    const before = JSON.stringify({ defaultProfile: 'p', profiles: { p: { domain: url, clientId: clients.reader.clientId, authMethod: 'post' }, ...profiles } }, undefined, '\t');
    writeFileSync(join(dir, 'config.json'), before, { mode: 0o600 });
    mkdirSync(join(dir, 'credentials'), { mode: 0o700 });
    const secretBefore = `${JSON.stringify({ clientSecret: clients.reader.clientSecret })}\n`;
    writeFileSync(join(dir, 'credentials', 'p.json'), secretBefore, { mode: 0o600 });
    const secret = join(configDir(), 'secret');
    writeFileSync(secret, clients.admin.clientSecret);
    const result = await runBash(`ulimit -f 1; idm login --profile p --domain ${url} --client-id ${clients.admin.clientId} --client-secret-file ${secret}`, { cwd: configDir(), configDir: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`Could not write ${join(dir, 'config.json')}: the file is too large; nothing was changed.`);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(dir, 'credentials', 'p.json'), 'utf8')).toBe(secretBefore);
    expect(readdirSync(join(dir, 'credentials'))).toEqual(['p.json']);
    const list = await runIdm(['streams', 'list', '--profile', 'p', '--take', '1'], { configDir: dir });
    expect(list.code, list.stderr).toBe(0);
  });

  it('a credentials file idm cannot read (over the 4 MB it reads of one, garbage) is replaced by login as before: nothing to put back, nothing refused', async () => {
    const dir = configDir();
    mkdirSync(join(dir, 'credentials'), { mode: 0o700 });
    writeFileSync(join(dir, 'credentials', 'p.json'), Buffer.alloc(5 * 1024 * 1024, 0x61), { mode: 0o600 });
    const result = await login(dir, 'p');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'p.json'), 'utf8'))).toEqual({ clientSecret: sandbox().clients.admin.clientSecret, clientId: sandbox().clients.admin.clientId });
  });
});

describe('the directories idm makes are 0700 whatever the umask', () => {
  // mkdir takes the umask off the mode: under umask 177 (set by scripts before they write secrets, so
  // that files are 0600) they were 0600, which their own user cannot enter: login failed, after its
  // token request, with 'permission denied' (root enters any directory: the modes show it here).
  it('login under umask 177: the settings directory, its parent made with it, credentials/ and tokens/', async () => {
    const base = configDir();
    const dir = join(base, 'home', 'idm');
    const { url, clients } = sandbox();
    const secret = join(base, 'secret');
    writeFileSync(secret, clients.admin.clientSecret);
    const result = await runBash(`umask 177; idm login --domain ${url} --client-id ${clients.admin.clientId} --client-secret-file ${secret}`, { cwd: base, configDir: dir });
    expect(result.code, result.stderr).toBe(0);
    for (const made of [join(base, 'home'), dir, join(dir, 'credentials'), join(dir, 'tokens')]) expect([made, (statSync(made).mode & 0o777).toString(8)]).toEqual([made, '700']);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('sandbox start under umask 177: its temporary directory, where it writes the secrets and keys', async () => {
    const base = configDir();
    const script = 'umask 177; idm sandbox start --port 0 --json > sb.json & pid=$!; until [ -s sb.json ] || ! kill -0 $pid 2>/dev/null; do sleep 0.1; done; ' +
      'dir=$(sed -n \'s/.*"stateDir":"\\([^"]*\\)".*/\\1/p\' sb.json); stat -c %a "$dir"; kill -INT $pid; wait $pid';
    const result = await runBash(script, { cwd: base, configDir: join(base, 'config') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('700\n');
  });
});

describe('IDM_CONFIG_DIR set where no shell expands ~ (a Dockerfile ENV, a systemd unit, a CI file)', () => {
  it('~/… is in the home directory: login writes there, and a later command from another directory finds it; no directory named ~ is made', async () => {
    // It made ./~/… in the current directory: the secret written into a checkout, and each directory its own settings.
    const base = configDir();
    const home = join(base, 'home');
    const work = join(base, 'work');
    const elsewhere = join(base, 'elsewhere');
    for (const made of [home, work, elsewhere]) mkdirSync(made);
    const { url, clients } = sandbox();
    const env = { IDM_CONFIG_DIR: '~/.idm', HOME: home };
    const result = await runIdm(['login', '--domain', url, '--client-id', clients.admin.clientId, '--client-secret-file', '-'], { configDir: base, env, cwd: work, input: `${clients.admin.clientSecret}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(work)).toEqual([]);
    expect(readdirSync(join(home, '.idm', 'credentials'))).toEqual(['default.json']);
    const list = await runIdm(['profiles', 'list', '--json'], { configDir: base, env, cwd: elsewhere });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(clients.admin.clientId);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('~NAME/… (another home, which idm does not expand): refused before anything is asked or sent (exit 2), naming the fix; no directory named ~NAME is made', async () => {
    // It made ./~root/idm in the current directory and wrote the secret there, each directory its own settings.
    const base = configDir();
    const work = join(base, 'work');
    mkdirSync(work);
    const { url, clients } = sandbox();
    const env = { IDM_CONFIG_DIR: '~root/idm' };
    const result = await runIdm(['login', '--domain', url, '--client-id', clients.admin.clientId, '--client-secret-file', '-'], { configDir: base, env, cwd: work, input: `${clients.admin.clientSecret}\n` });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "Error: IDM_CONFIG_DIR (~root/idm) starts with ~NAME, which idm does not expand (only ~ and ~/, your home directory).\nSet it to the path written out (/home/NAME/… on Linux, /Users/NAME/… on macOS), or to './~root/idm' for a directory of that name here.\n",
    );
    expect(readdirSync(work)).toEqual([]);
    for (const args of [['profiles', 'list'], ['streams', 'list']]) {
      const other = await runIdm(args, { configDir: base, env, cwd: work });
      expect([args, other.code, other.stderr]).toEqual([args, 2, result.stderr]);
    }
  });
  it('a relative IDM_CONFIG_DIR starting with a dash: the mv each settings error prints runs as printed (mv --), moving the file out of the way', async () => {
    // A symlink for config.json, a file where the settings directory goes or above it, printed 'mv PATH PATH.bak'
    // without '--': mv read '-cfg/config.json' as options and refused to run.
    const base = configDir();
    const work = join(base, 'work');
    mkdirSync(join(work, '-cfg'), { recursive: true, mode: 0o700 });
    chmodSync(join(work, '-cfg'), 0o700);
    writeFileSync(join(work, 'victim.json'), '{}\n');
    symlinkSync(join(work, 'victim.json'), join(work, '-cfg', 'config.json'));
    writeFileSync(join(work, '-file'), 'not a directory\n');
    writeFileSync(join(work, '-above'), 'not a directory\n');
    const { url, clients } = sandbox();
    const login = (dir: string) => runIdm(['login', '--domain', url, '--client-id', clients.admin.clientId, '--client-secret-file', '-'], { configDir: base, env: { IDM_CONFIG_DIR: dir }, cwd: work, input: `${clients.admin.clientSecret}\n` });
    for (const [dir, moved] of [['-cfg', '-cfg/config.json'], ['-file', '-file'], ['-above/idm', '-above']] as const) {
      const result = await login(dir);
      expect(result.code, result.stderr).toBe(2);
      const mv = /mv (?:-- )?\S+ \S+\.bak/.exec(result.stderr)?.[0];
      expect(mv, result.stderr).toBe(`mv -- ${moved} ${moved}.bak`);
      const ran = spawnSync('sh', ['-c', mv!], { cwd: work, encoding: 'utf8' });
      expect([ran.status, ran.stderr]).toEqual([0, '']);
      expect(existsSync(join(work, `${moved}.bak`))).toBe(true);
    }
  });
});

/** strace can trace here (installed, and ptrace allowed). */
const hasStrace = spawnSync('strace', ['-f', '-o', '/dev/null', 'true'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasStrace)('what login writes is on the disk before it is renamed into place (strace)', () => {
  it('the secret (credentials/<profile>.json) as config.json: fsync-ed before the rename, so a power cut cannot leave the profile with an empty secret file', async () => {
    const dir = configDir();
    const base = configDir();
    const { url, clients } = sandbox();
    const secret = join(base, 'secret');
    writeFileSync(secret, clients.admin.clientSecret);
    const log = join(base, 'strace.log');
    const result = await runBash(`strace -f -y -e trace=fsync,rename,renameat,renameat2 -o ${log} idm login --domain ${url} --client-id ${clients.admin.clientId} --client-secret-file ${secret}`, { cwd: base, configDir: dir });
    expect(result.code, result.stderr).toBe(0);
    const calls = readFileSync(log, 'utf8').split('\n').filter((line) => /fsync\(|rename/.test(line) && !line.includes('resumed>'));
    for (const file of [join(dir, 'credentials', 'default.json'), join(dir, 'config.json')]) {
      const synced = calls.findIndex((line) => line.includes(`fsync(`) && line.includes(`<${file}.tmp-`));
      const renamed = calls.findIndex((line) => /rename/.test(line) && line.includes(`"${file}"`));
      expect([file, synced >= 0, renamed > synced]).toEqual([file, true, true]);
    }
  });
});

describe('the temporary files of settings writes a killed idm left', () => {
  it('are removed by the next settings change (logout here): the copy of the secret among them is not left on disk', async () => {
    const dir = configDir();
    expect((await login(dir)).code).toBe(0);
    const secret = readFileSync(join(dir, 'credentials', 'p.json'), 'utf8');
    // As an idm killed (kill -9) between writing and renaming them leaves them.
    const leftovers = [join(dir, 'credentials', 'p.json.tmp-4242-mi3x0q1a2b3c4d5'), join(dir, 'config.json.tmp-4242-mi3x0q1a9z8y7x6'), join(dir, 'config.json.tmp-1764340000a1b2c3')];
    for (const file of leftovers) writeFileSync(file, secret, { mode: 0o600 });
    writeFileSync(join(dir, 'notes.txt.tmp-1'), 'mine\n');
    const logout = await runIdm(['logout', '--profile', 'p'], { configDir: dir });
    expect(logout.code, logout.stderr).toBe(0);
    for (const file of leftovers) expect([file, existsSync(file)]).toEqual([file, false]);
    expect(readdirSync(join(dir, 'credentials'))).toEqual([]);
    expect(readFileSync(join(dir, 'notes.txt.tmp-1'), 'utf8')).toBe('mine\n');
  });

  it('a token\'s are removed with it by logout (and by the next token written there): no copy of the token is left', async () => {
    const dir = configDir();
    expect((await login(dir)).code).toBe(0);
    const tokens = join(dir, 'tokens');
    const [cached] = readdirSync(tokens).filter((name) => name.endsWith('.json'));
    const token = readFileSync(join(tokens, cached!), 'utf8');
    writeFileSync(join(tokens, `${cached}.tmp-4242-mi3x0q1a2b3c4d5`), token, { mode: 0o600 });
    const logout = await runIdm(['logout', '--profile', 'p'], { configDir: dir });
    expect(logout.code, logout.stderr).toBe(0);
    expect(readdirSync(tokens)).toEqual([]);
    writeFileSync(join(tokens, `${cached}.tmp-4242-mi3x0q1a9z8y7x6`), token, { mode: 0o600 });
    expect((await login(dir)).code).toBe(0);
    expect(readdirSync(tokens)).toEqual([cached]);
  });
});

describe('settings read back from config.json', () => {
  it('a signing algorithm idm does not know (rs256 written by hand): exit 2 naming the file and profile, no token asked', async () => {
    // It was sent in the assertion's header as written, refused (401), and the hint blamed the key.
    const dir = configDir();
    const { url, clients } = sandbox();
    mkdirSync(join(dir, 'credentials'), { mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ defaultProfile: 'p', profiles: { p: { domain: url, clientId: clients.admin.clientId, authMethod: 'private_key_jwt', signingAlg: 'rs256' } } }), { mode: 0o600 });
    writeFileSync(join(dir, 'credentials', 'p.json'), JSON.stringify({ privateKeyPem: clients.admin.privateKeyPem }), { mode: 0o600 });
    const issued = sandbox().tokensIssued();
    const result = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`The settings file ${join(dir, 'config.json')} has an unknown signing algorithm in profile "p" (one of RS256, RS384, PS256, ES256, or none).`);
    expect(result.stdout).toBe('');
    expect(sandbox().tokensIssued()).toBe(issued);
  });
});

describe('the text of files and stdin: UTF-8, a byte order mark dropped', () => {
  const BOM = '\ufeff';
  const webhook = ['--webhook', 'https://127.0.0.1:9/hook', '--auth', 'bearer', '--event-type', 'user.created'];
  const credentials = () => ({ IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: sandbox().clients.admin.clientId, IDM_CLIENT_SECRET: sandbox().clients.admin.clientSecret });
  const created = (name: string) =>
    sandbox()
      .requests.filter((request) => request.method === 'POST' && request.path === '/api/v2/event-streams')
      .map((request) => JSON.parse(request.body) as { name: string; destination: { configuration: { webhook_authorization: { token?: string } } } })
      .find((body) => body.name === name);

  it('a --from-file body saved with a BOM (Notepad, PowerShell) is read as its JSON', async () => {
    // JSON.parse refused it: 'not valid JSON: at line 1, column 1', a character no editor shows.
    const dir = configDir();
    const file = join(dir, 'body.json');
    const body = { name: 'bom-body', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://127.0.0.1:9/hook', webhook_authorization: { method: 'bearer', token: 'bom-body-token-0123' } } } };
    writeFileSync(file, `${BOM}${JSON.stringify(body, null, 2).replace(/\n/g, '\r\n')}\r\n`);
    const result = await runIdm(['streams', 'create', '--from-file', file, '--json'], { configDir: dir, env: credentials() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).name).toBe('bom-body');
  });

  it.each([
    ['a file', (dir: string) => {
      writeFileSync(join(dir, 'token.txt'), `${BOM}bom-file-token-0123\r\n`);
      return { args: ['--secret-file', join(dir, 'token.txt')], input: undefined };
    }],
    ['stdin', () => ({ args: ['--secret-file', '-'], input: `${BOM}bom-file-token-0123\n` })],
  ])('a webhook secret with a BOM, from %s: sent without it', async (from, make) => {
    // The BOM was sent as the token's first character: no delivery could ever match it.
    const dir = configDir();
    const { args, input } = make(dir);
    const name = `bom-secret-${from === 'stdin' ? 'stdin' : 'file'}`;
    const result = await runIdm(['streams', 'create', '--name', name, ...webhook, ...args], { configDir: dir, env: credentials(), input });
    expect(result.code, result.stderr).toBe(0);
    expect(created(name)?.destination.configuration.webhook_authorization.token).toBe('bom-file-token-0123');
  });

  it.each([
    ['--from-file', (file: string) => ['streams', 'create', '--from-file', file], (file: string) => `--from-file: ${file} is not UTF-8 text (line 2).`],
    ['--data @FILE', (file: string) => ['api', 'POST', '/event-streams', '--data', `@${file}`], (file: string) => `--data: ${file} is not UTF-8 text (line 2).`],
    ['--secret-file', (file: string) => ['streams', 'create', '--name', 'latin1', ...webhook, '--secret-file', file], () => '--secret-file: the file is not UTF-8 text (line 2).'],
    ['--client-secret-file', (file: string) => ['login', '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, '--client-secret-file', file], () => '--client-secret-file: the file is not UTF-8 text (line 2).'],
  ])('%s holding Latin-1 (not UTF-8): exit 2 naming the line, nothing sent', async (_flag, args, message) => {
    // Decoded with U+FFFD in place of each such byte, and sent: a name or secret that was not the file's.
    const dir = configDir();
    const file = join(dir, 'latin1.txt');
    writeFileSync(file, Buffer.concat([Buffer.from('{\n"name": "Gr'), Buffer.from([0xfc, 0xdf]), Buffer.from('e"}\n')]));
    const before = sandbox().requests.length;
    const result = await runIdm(args(file), { configDir: dir, env: credentials() });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message(file));
    expect(result.stderr).toContain('Save it as UTF-8');
    expect(result.stderr).not.toMatch(/Gr|\ufffd/);
    expect(result.stdout).toBe('');
    expect(sandbox().requests.length).toBe(before);
  });
});

describe('a flag that reads one input, given twice', () => {
  const credentials = () => ({ IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: sandbox().clients.admin.clientId, IDM_CLIENT_SECRET: sandbox().clients.admin.clientSecret });

  it('--data twice: exit 2 without quoting either body (one may hold a webhook secret), nothing sent', async () => {
    const body = JSON.stringify({ name: 'x', destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://127.0.0.1:9/h', webhook_authorization: { method: 'bearer', token: 'twice-given-token-0123' } } } });
    const before = sandbox().requests.length;
    const result = await runIdm(['api', 'POST', '/event-streams', '--data', body, '--data', '{}'], { configDir: configDir(), env: credentials() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--data is given twice: give it once.');
    expect(result.stderr).not.toContain('twice-given-token');
    expect(sandbox().requests.length).toBe(before);
  });
});

describe('a file flag given twice with two files: exit 2, nothing read or sent (the last one silently won)', () => {
  const credentials = () => ({ IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: sandbox().clients.admin.clientId, IDM_CLIENT_SECRET: sandbox().clients.admin.clientSecret });
  const webhook = ['--name', 'twice', '--webhook', 'https://127.0.0.1:9/h', '--auth', 'bearer', '--event-type', 'user.created'];
  it.each([
    [['streams', 'create', '--from-file', 'a.json', '--from-file', 'b.json'], '--from-file is given twice (a.json and b.json): give it once.'],
    [['streams', 'create', ...webhook, '--secret-file', 'old-token.txt', '--secret-file', 'new-token.txt'], '--secret-file is given twice: give it once.'],
    [['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data-file', 'a.json', '--data-file', 'b.json'], '--data-file is given twice (a.json and b.json): give it once.'],
    [['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data', '{"old":1}', '--data', '{"new":2}'], '--data is given twice: give it once.'],
    [['--ca-file', 'a.pem', 'streams', 'list', '--ca-file', 'b.pem'], '--ca-file is given twice: give it once.'],
    [['login', '--domain', 'http://127.0.0.1:9', '--client-id', 'x', '--client-secret-file', 'old.txt', '--client-secret-file', 'new.txt'], '--client-secret-file is given twice: give it once.'],
    [['login', '--domain', 'http://127.0.0.1:9', '--client-id', 'x', '--private-key-file', 'old.pem', '--private-key-file', 'new.pem'], '--private-key-file is given twice: give it once.'],
  ])('%j', async (args, message) => {
    const before = sandbox().requests.length;
    const dir = configDir();
    const result = await runIdm(args, { configDir: dir, env: credentials(), cwd: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/old|new/);
    expect(result.stdout).toBe('');
    expect(sandbox().requests.length).toBe(before);
  });
});

describe('IDM_CONFIG_DIR naming a file (`IDM_CONFIG_DIR=$(mktemp)`, where mktemp -d was meant)', () => {
  it('exit 2 naming the file in the way and the fix, not "ENOTDIR. Check its owner and permissions"; nothing sent', async () => {
    const file = join(configDir(), 'tmp.Ab12Cd');
    writeFileSync(file, '');
    const before = sandbox().requests.length;
    for (const dir of [file, join(file, 'idm')]) {
      const result = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentialsEnv(sandbox()) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: Cannot read ${join(dir, 'config.json')}: ${file} is a file, not a directory.\nSet IDM_CONFIG_DIR to a directory (mktemp -d makes one), or move the file away: mv -- ${file} ${file}.bak\n`);
    }
    const { url, clients } = sandbox();
    const login = await runIdm(['login', '--domain', url, '--client-id', clients.admin.clientId, '--client-secret-file', '-'], { configDir: join(file, 'idm'), input: `${clients.admin.clientSecret}\n` });
    expect(login.code, login.stderr).toBe(2);
    expect(login.stderr).toBe(`Error: idm will not write into ${join(file, 'idm')}: ${file} is a file, not a directory.\nRun: mv -- ${file} ${file}.bak, or set IDM_CONFIG_DIR to a directory (mktemp -d makes one)\n`);
    expect(sandbox().requests.length).toBe(before);
  });
});

describe.skipIf(!isRoot)('login into a settings directory it cannot write (a read-only home, as another user)', () => {
  const NOBODY = 65534;
  const readOnly = (exists: boolean) => {
    const root = configDir();
    chmodSync(root, 0o755);
    const home = join(root, 'home');
    mkdirSync(home, { mode: 0o500 });
    chownSync(home, NOBODY, NOBODY);
    if (!exists) return join(home, '.config', 'idm');
    const dir = join(home, 'idm');
    mkdirSync(dir, { mode: 0o500 });
    chownSync(dir, NOBODY, NOBODY);
    return dir;
  };

  it.each([
    ['its own directory, mode 0500', true],
    ['a directory it would create under one it cannot write', false],
  ])('%s: exit 2 naming the directory before the secret is sent (no token spent on a login that cannot be saved)', async (_name, exists) => {
    const dir = readOnly(exists);
    const { url, clients } = sandbox();
    const issued = sandbox().tokensIssued();
    const result = await runIdm(['login', '--domain', url, '--client-id', clients.admin.clientId, '--client-secret-file', '-'], { configDir: dir, uid: NOBODY, input: `${clients.admin.clientSecret}\n` });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      exists
        ? `Error: Could not write ${join(dir, 'config.json')}: permission denied; nothing was changed.\nMake ${dir} writable by you (idm keeps it 0700), or set IDM_CONFIG_DIR to a directory of your own.\n`
        : `Error: Could not write ${join(dir, '..')}: permission denied; nothing was changed.\nMake ${join(dir, '..', '..')} writable by you, or set IDM_CONFIG_DIR to a directory of your own.\n`,
    );
    expect(sandbox().tokensIssued()).toBe(issued);
  });

  it('a listing whose settings directory cannot be made (a HOME not writable, a container run as another user): it works, and the warning\'s fix is another directory, not a chmod of one that does not exist', async () => {
    const dir = readOnly(false);
    const result = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir, uid: NOBODY, env: credentialsEnv(sandbox(), 'reader') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^est_\w{22}\t/);
    expect(result.stderr).toBe(
      `Warning: The token cache in ${join(dir, 'tokens')} cannot be used (EACCES): this run gets a token of its own.\n` +
        `Set IDM_CONFIG_DIR to a directory of your own: ${join(dir, '..', '..')} is not writable by you, so ${dir} cannot be made.\n`,
    );
  });
});
