// Without any settings, a command that fails or only reads leaves none behind: no idm/ directory
// under XDG_CONFIG_HOME (or IDM_CONFIG_DIR), no parent made for it. Only a change that is made
// (login, profiles use of a profile that exists) creates the settings directory.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/cli.js';

describe('no settings: failing or read-only commands create none', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'idm-xdg-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it.each([
    [['profiles', 'use', 'nope'], 4],
    [['profiles', 'remove', 'nope'], 4],
    [['logout', '--profile', 'nope'], 4],
    [['profiles', 'list'], 0],
    [['profiles', 'list', '--json'], 0],
    [['auth', 'status'], 4],
    [['completion', '--values', 'profiles'], 0],
    [['completion', '--values', 'streams'], 0],
  ])('idm %j under XDG_CONFIG_HOME: exit %i, and XDG_CONFIG_HOME stays empty', async (args, code) => {
    const result = await runInProcess(args, { configDir: join(home, 'unused'), env: { IDM_CONFIG_DIR: undefined, XDG_CONFIG_HOME: home } });
    expect(result.code).toBe(code);
    expect(readdirSync(home)).toEqual([]);
  });

  it('IDM_CONFIG_DIR with missing parents: profiles use nope makes none of them', async () => {
    const result = await runInProcess(['profiles', 'use', 'nope'], { configDir: join(home, 'a', 'b', 'idm') });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('There is no profile named "nope".');
    expect(existsSync(join(home, 'a'))).toBe(false);
  });
});
