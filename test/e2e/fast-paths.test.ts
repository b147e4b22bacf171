// bin/idm.js answers `idm --version`, `idm --help` and what a TAB runs (`idm completion --values`)
// without loading the CLI. These tests hold their output equal to what the full CLI prints, so the
// shortcuts can never drift from it.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a64 } from '../../src/core/hash.js';
import { BIN, runIdm, tempConfigDir } from '../helpers/cli.js';

describe('fast paths of bin/idm.js', () => {
  const { dir: configDir, cleanup } = tempConfigDir();
  afterAll(cleanup);
  // Something for a TAB to offer: two profiles, and the ids of a last listing.
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ defaultProfile: 'prod', profiles: { prod: { domain: 'https://prod.example.com', clientId: 'c1', authMethod: 'post' }, dev: { domain: 'https://dev.example.com', clientId: 'c2', authMethod: 'post' } } }));
  mkdirSync(join(configDir, 'cache'));
  // Those of the default profile's tenant (config/recent.ts: recent-<kind>-<FNV-1a of its base URL>.txt).
  writeFileSync(join(configDir, 'cache', `recent-streams-${fnv1a64('https://prod.example.com')}.txt`), 'est_demoInboxBearer0000000\nest_demoAction000000000000\n');

  it.each([
    [['--help'], ['--no-color', '--help']],
    [['-h'], ['--no-color', '--help']],
    [['--version'], ['--no-color', '--version']],
    [['-V'], ['--no-color', '--version']],
    [['completion', '--profiles'], ['--no-color', 'completion', '--profiles']],
    [['completion', '--values', 'profiles'], ['--no-color', 'completion', '--values', 'profiles']],
    [['completion', '--values', 'streams'], ['--no-color', 'completion', '--values', 'streams']],
  ])('%j prints exactly what the full CLI prints for %j', async (fast, full) => {
    const [quick, slow] = await Promise.all([runIdm(fast, { configDir }), runIdm(full, { configDir })]);
    expect(quick.code).toBe(0);
    expect(slow.code).toBe(0);
    expect(quick.stderr).toBe('');
    expect(quick.stdout).toBe(slow.stdout);
    expect(quick.stdout.length).toBeGreaterThan(4);
  });

  it('a kind --values does not know goes to the full CLI: a usage error', async () => {
    const result = await runIdm(['completion', '--values', 'nope'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--values must be one of: profiles, streams, connections, strategies, named-streams.');
  });

  it.each([['--help'], ['--version'], ['completion', '--values', 'streams']])(
    '%j into a pipe that is already closed (| head -c 0): exit 0, nothing on stderr',
    async (...args) => {
      // The reading end is closed before idm can write: its write meets EPIPE, which is no error.
      const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, IDM_CONFIG_DIR: configDir }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
  );

  it('wraps help at 80 columns whatever the terminal width', async () => {
    const result = await runIdm(['streams', 'list', '--help'], { configDir, env: { COLUMNS: '200', IDM_FORCE_TTY: 'stdout' } });
    expect(result.code).toBe(0);
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
