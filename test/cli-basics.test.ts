import { afterEach, describe, expect, it } from 'vitest';
import { runIdm, tempConfigDir } from './helpers/cli.js';

describe('idm as a process', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((cleanup) => cleanup()));
  const config = () => {
    const { dir, cleanup } = tempConfigDir();
    dirs.push(cleanup);
    return dir;
  };

  it('prints the version from package.json and exits 0', async () => {
    const result = await runIdm(['--version'], { configDir: config() });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(result.stderr).toBe('');
  });

  it('lists the exit-code table in --help', async () => {
    const result = await runIdm(['--help'], { configDir: config() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Exit codes:');
    expect(result.stdout).toMatch(/130\s+interrupted/);
  });

  it('reports an unknown option as a usage error (exit 2) on stderr only', async () => {
    const result = await runIdm(['streams', 'list', '--bogus'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Unknown option '--bogus'");
  });

  it('with --json, reports a usage error as one JSON object on stderr', async () => {
    const result = await runIdm(['--json', 'streams', 'nope'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2 } });
  });
});
