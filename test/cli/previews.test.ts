// A long value that a usage error quotes back is cut in one style (core/text.ts preview): its first
// 40 characters, then how many more. A pasted screenful never pushes the point of the message away.
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess, tempConfigDir } from '../helpers/cli.js';

const { dir, cleanup } = tempConfigDir();
afterAll(cleanup);

const long = (start: string) => `${start}${'q'.repeat(100 - start.length)}`;

describe('long values in usage errors: the first 40 characters, then how many more', () => {
  it.each<[string, string[], string]>([
    ['a stream id', ['streams', 'show', long('est_')], long('est_')],
    ['a profile name', ['--profile', long('!'), 'streams', 'list'], long('!')],
    ['a command', ['streams', long('z')], long('z')],
    ["idm api's --query", ['api', 'GET', '/event-streams', '--query', long('k')], long('k')],
    ["a segment of idm api's path", ['api', 'GET', `/event-streams/${long('%zz')}`], long('%zz')],
  ])('%s', async (_name, args, value) => {
    const result = await runInProcess(args, { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${value.slice(0, 40)}… (60 more characters)`);
    expect(result.stderr).not.toContain(value.slice(0, 41));
  });
});

describe('an emoji at the cut of a preview', () => {
  it('is left out whole, not split into a half shown escaped (\\ud83d), and what is left out is counted in characters', async () => {
    const value = `${'a'.repeat(39)}😀xyz`;
    const result = await runInProcess(['streams', 'show', value], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Not a stream id: "${'a'.repeat(39)}… (4 more characters)".`);
    expect(result.stderr).not.toMatch(/\\ud83d|\ud83d/);
  });
});

describe('a value refused for not being one of a list is quoted only when it is a near miss of one (else it may be a token)', () => {
  it.each<[string, string[], string, string]>([
    ["idm api's method", ['api', long('Y'), '/event-streams'], long('Y'), 'Error: <method> must be one of: GET, POST, PATCH, PUT, DELETE (any case).\n'],
    ['a choice', ['completion', long('sh')], long('sh'), 'Error: <shell> must be one of: bash, zsh, fish.\n'],
    ['a near miss', ['completion', 'zhs'], 'zhs', 'Error: <shell> must be one of: bash, zsh, fish, not "zhs".\n'],
    ['a word far from every choice', ['completion', 'tcsh'], 'tcsh', 'Error: <shell> must be one of: bash, zsh, fish.\n'],
  ])('%s', async (_name, args, value, first) => {
    const result = await runInProcess(args, { configDir: dir });
    expect(result.code).toBe(2);
    expect(`${result.stderr.split('\n')[0]}\n`).toBe(first);
    if (value.length > 24) expect(result.stderr).not.toContain(value.slice(0, 10));
  });
});
