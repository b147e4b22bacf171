// The completion scripts: generated from the command tree (the committed files must match what idm
// prints), and the zsh and fish ones accepted by their shells. The bash one is exercised in a real
// bash, which runs the built idm, in test/e2e/completion.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SHELLS } from '../../../src/commands/completion/index.js';
import { runInProcess, tempConfigDir } from '../../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const { dir: configDir, cleanup } = tempConfigDir();
afterAll(cleanup);

function has(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

describe('idm completion', () => {
  for (const shell of SHELLS) {
    it(`prints the committed completions/idm.${shell} (run npm run completions when this fails)`, async () => {
      const result = await runInProcess(['completion', shell], { configDir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(readFileSync(join(ROOT, `completions/idm.${shell}`), 'utf8'));
    });
  }

  it('rejects an unknown shell as a usage error (exit 2), printing nothing on stdout', async () => {
    const result = await runInProcess(['completion', 'powershell'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    // The choices named; the value itself only when it is a near miss of one (it may be a token).
    expect(result.stderr).toMatch(/^Error: <shell> must be one of: bash, zsh, fish\.\n/);
  });

  it('without a shell, is a usage error naming the choices', async () => {
    const result = await runInProcess(['completion'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/bash\|zsh\|fish/);
  });

  it('lists nothing for --profiles when there is no config, and exits 0', async () => {
    const result = await runInProcess(['completion', '--profiles'], { configDir: join(configDir, 'none') });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });
});

describe('syntax of the zsh and fish scripts', () => {
  it.skipIf(!has('zsh') && !process.env.CI)('zsh -n accepts completions/idm.zsh', () => {
    const result = spawnSync('zsh', ['-n', join(ROOT, 'completions/idm.zsh')], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!has('fish') && !process.env.CI)('fish --no-execute accepts completions/idm.fish', () => {
    const result = spawnSync('fish', ['--no-execute', join(ROOT, 'completions/idm.fish')], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
