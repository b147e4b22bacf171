// bin/idm.js answers `idm --version` and `idm --help` from text rendered at build time. These tests
// hold that text equal to what the full CLI prints, so the shortcut can never drift from it.
import { afterAll, describe, expect, it } from 'vitest';
import { runIdm, tempConfigDir } from '../helpers/cli.js';

describe('fast paths of bin/idm.js', () => {
  const { dir: configDir, cleanup } = tempConfigDir();
  afterAll(cleanup);

  it.each([
    [['--help'], ['--no-color', '--help']],
    [['-h'], ['--no-color', '--help']],
    [['--version'], ['--no-color', '--version']],
    [['-V'], ['--no-color', '--version']],
  ])('%j prints exactly what the full CLI prints for %j', async (fast, full) => {
    const [quick, slow] = await Promise.all([runIdm(fast, { configDir }), runIdm(full, { configDir })]);
    expect(quick.code).toBe(0);
    expect(slow.code).toBe(0);
    expect(quick.stderr).toBe('');
    expect(quick.stdout).toBe(slow.stdout);
    expect(quick.stdout.length).toBeGreaterThan(4);
  });

  it('wraps help at 80 columns whatever the terminal width', async () => {
    const result = await runIdm(['streams', 'list', '--help'], { configDir, env: { COLUMNS: '200', IDM_FORCE_TTY: 'stdout' } });
    expect(result.code).toBe(0);
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
