// The layering of src/ (../shared/design/architecture.md): imports run one way, main → commands →
// cli → api / auth / config → output → io → core, the sandbox apart. The workplace's checker says
// which import breaks it; this keeps it saying none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHECKER = fileURLToPath(new URL('../../shared/tools/layers.mjs', import.meta.url));

describe('layers', () => {
  it.skipIf(!existsSync(CHECKER))('no import of src/ runs upward, sideways or in a cycle', () => {
    const result = spawnSync(process.execPath, [CHECKER, 'src'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stdout).toMatch(/^layers ok: /m);
    expect(result.status, result.stdout).toBe(0);
  });
});
