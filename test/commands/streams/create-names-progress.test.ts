// idm streams create at a terminal reads every page of the tenant's streams (the names in use) before
// its first question. Page after page, each request too quick for its own spinner, a large tenant was
// seconds of silence: from the second page on a status line says what is read and why, erased before
// the question. A tenant of one page shows none (its one request has the spinner of every request).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRun } from '../../../src/commands/streams/create.js';
import { CancelledError, IdmError } from '../../../src/core/errors.js';
import { DEFAULT_SEED } from '../../../src/sandbox/index.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { credentialsEnv, tempConfigDir } from '../../helpers/cli.js';
import { captureIO, testDeps } from '../../helpers/deps.js';
import { useSandbox, type Sandbox } from '../../helpers/sandbox.js';

const many = useSandbox({ streams: 250 });
const few = useSandbox({ streams: 3 });
/** A tenant at its limit: as many streams as it may have. */
const full = useSandbox({ maxStreams: DEFAULT_SEED.streams.length });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempConfigDir()));
afterEach(() => cleanup());

const ERASE = '\r\x1b[K';
const STATUS = /Reading the names of the tenant's streams, to refuse one in use \((\d+) streams so far\)…/g;

/** createRun with no flags at a terminal: what stderr held when the first question was asked (then cancelled there). */
async function atFirstQuestion(sandbox: Sandbox, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const captured = captureIO({ tty: true, env: { IDM_CONFIG_DIR: dir, ...credentialsEnv(sandbox), ...env } });
  let shown: string | undefined;
  const prompter = {
    input: async () => {
      shown = captured.stderr();
      throw new CancelledError('stopped at the first question');
    },
  } as unknown as Prompter;
  const deps = testDeps(captured, {}, prompter);
  await expect(createRun({}, deps)).rejects.toBeInstanceOf(CancelledError);
  await deps.close();
  expect(shown).toBeDefined();
  return shown!;
}

describe('streams create at a terminal: reading the names in use', () => {
  it('a tenant of three pages: a status line from the second page on, counting, erased before the question', async () => {
    const stderr = await atFirstQuestion(many());
    expect([...stderr.matchAll(STATUS)].map((match) => match[1])).toEqual(['100', '200']);
    // Erased: nothing is left on the question's line.
    expect(stderr.endsWith(ERASE)).toBe(true);
  });

  it('a tenant of one page: nothing', async () => {
    expect(await atFirstQuestion(few())).not.toMatch(STATUS);
  });

  it('TERM=dumb (no live line): nothing, no line per page either', async () => {
    expect(await atFirstQuestion(many(), { TERM: 'dumb' })).not.toMatch(STATUS);
  });
});

// The service's 409 to a create says "the limit OR the name" (wire-facts.md). At a terminal idm has
// read every name first and refused one in use: the hint led with "the name is taken" all the same.
describe('streams create at a terminal: a 409 after the names were read', () => {
  async function refused(sandbox: Sandbox, options: { name?: string }): Promise<IdmError> {
    const captured = captureIO({ tty: true, env: { IDM_CONFIG_DIR: dir, ...credentialsEnv(sandbox) } });
    const prompter = {
      input: async () => 'a-free-name',
      checkbox: async () => ['user.created'],
    } as unknown as Prompter;
    const deps = testDeps(captured, {}, prompter);
    try {
      const error = await createRun({ ...options, action: 'act_1' }, deps).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(IdmError);
      return error as IdmError;
    } finally {
      await deps.close();
    }
  }

  it('the name asked for, or given and checked: the hint leads with the limit', async () => {
    for (const options of [{}, { name: 'another-free-name' }]) {
      const error = await refused(full(), options);
      expect(error.exitCode).toBe(1);
      expect(error.hint).toBe('The tenant likely has as many streams as its plan allows: delete one you no longer need. (The name was free when idm read the names; if a stream took it since, choose another.)');
    }
  });
});
