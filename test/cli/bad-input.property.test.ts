// Bad input, generated: thousands of bad values for the arguments and flags of every command (ids,
// types, JSON, numbers, unicode, huge strings) always end in exit 2 with a message naming the flag or
// argument, never a stack trace, and never a request at the sandbox. Run in-process through main()
// with captured streams (thousands of processes would take minutes); a sample goes through the
// built binary in test/e2e/bad-input.test.ts.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { main } from '../../src/main.js';
import { buildProgram } from '../../src/commands/index.js';
import { createDeps } from '../../src/cli/factory.js';
import { checkDomain } from '../../src/config/domain.js';
import { FaultSpecSchema } from '../../src/sandbox/faults.js';
import { EVENT_TYPES } from '../../src/schemas/constants.js';
import { Capture, stdinOf } from '../helpers/capture.js';
import { credentialsEnv, tempConfigDir } from '../helpers/cli.js';
import { recordRun } from '../helpers/sweep.js';
import { captureIO } from '../helpers/deps.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const config = tempConfigDir();
afterAll(() => config.cleanup());
const MISSING = join(config.dir, 'no-such-dir', 'file.json');

function env(): NodeJS.ProcessEnv {
  return { IDM_CONFIG_DIR: config.dir, ...credentialsEnv(sandbox()) };
}

/** `idm <args>` in-process; bounded, so that a value the generators wrongly think bad cannot hang the suite. */
async function idm(args: string[]) {
  const stdin = stdinOf();
  const stdout = new Capture();
  const stderr = new Capture();
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    main(['node', 'idm', ...args], { stdin, stdout, stderr }, env()),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`idm ${args.join(' ')} did not finish`)), 60_000))),
  ]).finally(() => clearTimeout(timer));
  recordRun(`idm ${args.join(' ').slice(0, 200)} (in-process)`, stdout.text, stderr.text);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The property every bad value must have. `names` are the flag or argument the message must name. */
async function rejected(args: string[], names: string | string[]) {
  const before = sandbox().requests.length;
  const result = await idm(args);
  const shown = `idm ${JSON.stringify(args).slice(0, 300)} -> ${result.code}: ${result.stderr.slice(0, 300)}`;
  expect(result.code, shown).toBe(2);
  expect(result.stdout, shown).toBe('');
  expect(result.stderr, shown).toMatch(/^Error: /);
  expect(result.stderr, shown).not.toMatch(/\n\s+at |Unexpected error/);
  const wanted = Array.isArray(names) ? names : [names];
  expect(wanted.some((name) => result.stderr.toLowerCase().includes(name.toLowerCase())), shown).toBe(true);
  expect(sandbox().requests.length, `${shown}: a request reached the sandbox`).toBe(before);
}

const RUNS = { numRuns: 250 };

// ---- value generators --------------------------------------------------------------------------

/** Anything a user might type or paste: ASCII, full unicode (also lone surrogates), control
 * characters, whitespace, numbers in odd notations, JSON, and the occasional huge string. */
const anyText = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[\s\u00a0\u2003\u3000\ufeff]*$/) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '-1', '0', '1e3', '0x10', '１２', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', '"x"', '٣', '²') },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer({ min: 10_000, max: 200_000 })).map(([s, n]) => s.repeat(Math.ceil(n / s.length))) },
);

/** Command-line arguments cannot hold NUL (the kernel cuts them there); in-process they could. */
const arg = (a: fc.Arbitrary<string>) => a.map((s) => s.replace(/\0/g, ''));

const wholeInRange = (min: number, max: number) => (v: string) => /^\d+$/.test(v.trim()) && Number(v.trim()) >= min && Number(v.trim()) <= max;
const positiveSeconds = (v: string) => /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0 && Number(v) <= 86_400;
const notA = (valid: (v: string) => boolean) => arg(anyText).filter((v) => !valid(v));

const isJsonObject = (text: string) => {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};
const isJsonArray = (text: string) => {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
};

// ---- the properties ------------------------------------------------------------------------------

describe('bad values always give exit 2, the flag named, nothing sent', () => {
  it('streams list --take (not a whole number from 1 to 100)', async () => {
    await fc.assert(fc.asyncProperty(notA(wholeInRange(1, 100)), (take) => rejected(['streams', 'list', `--take=${take}`], '--take')), RUNS);
  });

  it('streams list --from (empty or only whitespace)', async () => {
    await fc.assert(fc.asyncProperty(fc.stringMatching(/^[ \t\n\r\u00a0\u2003\u3000\ufeff]*$/), (from) => rejected(['streams', 'list', `--from=${from}`], '--from')), RUNS);
  });

  it('global --timeout and --max-wait (not seconds from 0 to a day)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('--timeout', '--max-wait'), notA(positiveSeconds), (flag, value) => rejected([`${flag}=${value}`, 'streams', 'list'], flag)),
      RUNS,
    );
  });

  it('streams test <stream-id> (not 26 characters)', async () => {
    await fc.assert(
      fc.asyncProperty(arg(anyText).filter((id) => id.trim().length !== 26 && !id.startsWith('-')), (id) => rejected(['streams', 'test', id, '--event-type', 'user.created'], 'stream id')),
      RUNS,
    );
  });

  it('streams test <stream-id> of 26 characters that are not all printable ASCII (unicode, controls, lone surrogates)', async () => {
    const odd = fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 5 }), fc.constantFrom('\ud800', '\udfff', '\u0000', '\u00e9', ' ', '\u200b'));
    const id = fc.tuple(odd, fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789') })).map(([bad, rest]) => `est_${bad}${rest}`.padEnd(26, 'x').slice(0, 26));
    await fc.assert(
      fc.asyncProperty(id.filter((i) => !/^[\x21-\x7e]+$/.test(i.trim()) && i.trim().length === 26), (i) => rejected(['streams', 'test', i, '--event-type', 'user.created'], 'stream id')),
      RUNS,
    );
  });

  it('streams test --event-type (not an event type)', async () => {
    await fc.assert(
      fc.asyncProperty(arg(anyText).filter((t) => !(EVENT_TYPES as readonly string[]).includes(t)), (type) => rejected(['streams', 'test', 'est_demoInboxBearer0000000', `--event-type=${type}`], '--event-type')),
      RUNS,
    );
  });

  it('streams test --data (not JSON, or JSON that is not an object)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(arg(anyText), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))).filter((d) => !isJsonObject(d)),
        (data) => rejected(['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', `--data=${data}`], '--data'),
      ),
      RUNS,
    );
  });

  it('streams test --data-file (missing), and --data with --data-file', async () => {
    await rejected(['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data-file', MISSING], '--data-file');
    await rejected(['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data', '{}', '--data-file', MISSING], ['--data', '--data-file']);
  });

  it('provisioning create <connection-id> (empty, spaces, slashes, ? or #)', async () => {
    // What the command refuses (src/commands/provisioning/create.ts): blank, a space, /, ? or #, or a
    // character that is not printable ASCII.
    const bad = fc.oneof(
      fc.stringMatching(/^[ \t\n\u00a0\u3000]*$/),
      fc.tuple(arg(anyText), fc.constantFrom(' ', '/', '?', '#', '\t', '\n', '/../', ' con_x ', '\ud800', '\u00e9', '\u0007'), arg(anyText)).map(([a, b, c]) => `x${a}${b}${c}x`),
    );
    await fc.assert(fc.asyncProperty(bad.filter((id) => !id.startsWith('-')), (id) => rejected(['provisioning', 'create', id], 'connection id')), RUNS);
  });

  it('provisioning create --mapping (no "=", or an empty side)', async () => {
    const bad = fc.oneof(
      arg(anyText).filter((m) => !m.includes('=')),
      fc.tuple(fc.stringMatching(/^\s*$/), arg(anyText).filter((m) => !m.includes('='))).map(([blank, other]) => `${blank}=${other}`),
      fc.tuple(arg(anyText).filter((m) => !m.includes('=')), fc.stringMatching(/^\s*$/)).map(([other, blank]) => `${other}=${blank}`),
    );
    await fc.assert(fc.asyncProperty(bad, (mapping) => rejected(['provisioning', 'create', 'con_googleAppsDemo01', `--mapping=${mapping}`], '--mapping')), RUNS);
  });

  it('provisioning create --sync-groups (not all, off or selected) and --mapping-file (missing)', async () => {
    await fc.assert(
      fc.asyncProperty(arg(anyText).filter((g) => !['all', 'off', 'selected'].includes(g)), (groups) => rejected(['provisioning', 'create', 'con_googleAppsDemo01', `--sync-groups=${groups}`], '--sync-groups')),
      RUNS,
    );
    await rejected(['provisioning', 'create', 'con_googleAppsDemo01', '--mapping-file', MISSING], '--mapping-file');
  });

  it('login --domain (not a host or https URL; http only for loopback)', async () => {
    const domains = fc.oneof(
      arg(anyText),
      fc.webUrl().map((u) => u.replace(/^https:/, 'http:')),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(fc.constantFrom('ftp://', 'file://', 'http://user:pw@', 'javascript:'), fc.domain()).map(([s, d]) => `${s}${d}`),
    );
    await fc.assert(
      fc.asyncProperty(domains.filter((d) => typeof checkDomain(d) === 'string' && !d.startsWith('-')), (domain) =>
        rejected(['login', `--domain=${domain}`, '--client-id', 'abc', '--client-secret-file', MISSING], '--domain'),
      ),
      RUNS,
    );
  });

  it('login --client-id (not 1-256 printable characters), --auth-method, --signing-alg, --client-secret', async () => {
    await fc.assert(
      fc.asyncProperty(arg(anyText).filter((id) => !/^[\x21-\x7e]{1,256}$/.test(id)), (id) => rejected(['login', '--domain', sandbox().url, `--client-id=${id}`], '--client-id')),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('--auth-method', '--signing-alg'), arg(anyText).filter((v) => !['post', 'basic', 'private_key_jwt', 'RS256', 'RS384', 'PS256', 'ES256'].includes(v)), (flag, value) =>
        rejected(['login', '--domain', sandbox().url, '--client-id', 'abc', `${flag}=${value}`], flag),
      ),
      RUNS,
    );
    // A secret as a flag's value is refused whatever it is, and never echoed.
    await fc.assert(
      fc.asyncProperty(arg(anyText), async (secret) => {
        await rejected(['login', '--domain', sandbox().url, '--client-id', 'abc', `--client-secret=${secret}`], '--client-secret');
      }),
      { numRuns: 50 },
    );
  });

  it('completion <shell> (not bash, zsh or fish)', async () => {
    await fc.assert(
      fc.asyncProperty(arg(anyText).filter((s) => !['bash', 'zsh', 'fish'].includes(s) && !s.startsWith('-')), (shell) => rejected(['completion', shell], ['shell', 'argument'])),
      RUNS,
    );
  });

  it('sandbox start --port, --streams, --token-lifetime, --delivery-timeout, --rate-limit, --fault, --seed', async () => {
    const flags = fc.oneof(
      notA(wholeInRange(0, 65_535)).map((v) => ['--port', v] as const),
      notA(wholeInRange(0, 1_000_000)).map((v) => ['--streams', v] as const),
      notA(wholeInRange(1, 2_592_000)).map((v) => ['--token-lifetime', v] as const),
      notA(wholeInRange(1, 600_000)).map((v) => ['--delivery-timeout', v] as const),
      notA((v) => {
        const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(v);
        return Boolean(m && Number(m[1]) >= 1 && Number(m[2]) > 0);
      }).map((v) => ['--rate-limit', v] as const),
      fc
        .oneof(arg(anyText), fc.json(), fc.record({ kind: arg(anyText), status: fc.anything(), count: fc.anything() }, { requiredKeys: [] }).map((o) => JSON.stringify(o)))
        .filter((v) => {
          try {
            return !FaultSpecSchema.safeParse(JSON.parse(v)).success;
          } catch {
            return true;
          }
        })
        .map((v) => ['--fault', v] as const),
    );
    await fc.assert(fc.asyncProperty(flags, ([flag, value]) => rejected(['sandbox', 'start', `${flag}=${value}`], flag)), RUNS);
    await rejected(['sandbox', 'start', '--seed', MISSING], 'seed');
  });

  it('unknown flags are named', async () => {
    // Every long flag of the tree, so that a generated name is never a real one.
    const known = new Set<string>();
    const visit = (command: Command) => {
      for (const option of command.options) if (option.long) known.add(option.long);
      command.commands.forEach(visit);
    };
    visit(await buildProgram(createDeps(captureIO().io, () => ({ json: false, color: false, input: false, debug: false }))));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(['streams', 'list'], ['streams', 'test', 'est_demoInboxBearer0000000'], ['login'], ['provisioning', 'create'], ['sandbox', 'start'], ['completion', 'bash']),
        fc.stringMatching(/^[a-z][a-z0-9-]{1,30}$/).map((name) => `--${name}`),
        async (command, flag) => {
          fc.pre(!known.has(flag) && !known.has(flag.replace(/^--no-/, '--')));
          await rejected([...command, flag], flag);
        },
      ),
      RUNS,
    );
  });
});
