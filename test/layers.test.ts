// The layering of src/ (README, "Development"): imports run one way, main → commands → cli → api /
// auth / config → output → io → core, schemas beside core, the sandbox apart. scripts/layers.mjs,
// part of the repository, says which import breaks it; this keeps it saying none, shows on a tree of
// every kind of break that it finds each one, and that it agrees with the workplace's checker
// (../shared/tools/layers.mjs) wherever that one is present.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHECKER = join(ROOT, 'scripts', 'layers.mjs');
const SHARED = fileURLToPath(new URL('../../shared/tools/layers.mjs', import.meta.url));

function check(checker: string, src: string) {
  const result = spawnSync(process.execPath, [checker, src], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A src/ tree holding one import of every kind the rule forbids, and some it allows. */
const BROKEN: Record<string, string> = {
  'core/a.ts': "import { b } from '../io/b.js';", // upward, and with io/b.ts a cycle
  'io/b.ts': "import { a } from '../core/a.js';",
  'api/c.ts': "export { d } from '../cli/d.js';", // upward (a re-export)
  'cli/d.ts': "export const d = () => import('../commands/i.js');", // upward (a dynamic import)
  'config/e.ts': "import type { F } from '../auth/f.js';", // sideways the wrong way
  'auth/f.ts': "import { e } from '../config/e.js';", // sideways, allowed
  'schemas/s.ts': 'export const s = 1;',
  'sandbox/g.ts': "import { b } from '../io/b.js';\nimport { s } from '../schemas/s.js';", // io: not for the sandbox
  'output/h.ts': "import { g } from '../sandbox/g.js';", // only commands start the sandbox
  'commands/i.ts': "import { g } from '../sandbox/g.js';\nimport { c } from '../api/c.js';", // both allowed
};

const dir = mkdtempSync(join(tmpdir(), 'idm-layers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const broken = join(dir, 'src');
for (const [path, text] of Object.entries(BROKEN)) {
  mkdirSync(dirname(join(broken, path)), { recursive: true });
  writeFileSync(join(broken, path), `${text}\n`);
}

describe('scripts/layers.mjs', () => {
  it('src/: no import runs upward, sideways or in a cycle', () => {
    const result = check(CHECKER, 'src');
    expect(result.stdout).toMatch(/^layers ok: \d+ files, \d+ folder-to-folder imports, none upward or in a cycle\n$/);
    expect(result.status, result.stdout).toBe(0);
  });

  it('a tree with every kind of break: each one named, exit 1', () => {
    const result = check(CHECKER, broken);
    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('10 layering problem(s) in 10 files');
    expect(lines.slice(0, -1).sort()).toEqual([
      'cycle between api/ and cli/',
      'cycle between auth/ and config/',
      'cycle between cli/ and commands/',
      'cycle between core/ and io/',
      'only commands start the sandbox: output/h.ts imports sandbox/g.js',
      'sandbox may use core and schemas only: sandbox/g.ts imports io/b.js',
      'sideways (config -> auth): config/e.ts imports auth/f.js',
      'upward (api -> cli): api/c.ts imports cli/d.js',
      'upward (cli -> commands): cli/d.ts imports commands/i.js',
      'upward (core -> io): core/a.ts imports io/b.js',
    ]);
  });

  it('no such directory: exit 2', () => {
    const result = check(CHECKER, join(dir, 'none'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('none');
  });

  it.skipIf(!existsSync(SHARED))("agrees with the workplace's checker on src/ and on the broken tree", () => {
    for (const src of ['src', broken]) {
      const ours = check(CHECKER, src);
      const theirs = check(SHARED, src);
      expect(ours.stdout).toBe(theirs.stdout);
      expect(ours.status).toBe(theirs.status);
    }
  });
});
