// A reader that went away before idm wrote (`idm 2>&1 | head -1`, `idm streams list | head -1`):
// the pipe is closed, and the exit code is what the run's outcome was. A success stays 0 (the reader
// has all it wanted); a failure keeps its own code, though its words could not be written: under
// `set -o pipefail` a script must see it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBash, tempConfigDir } from '../helpers/cli.js';

describe('a closed pipe keeps the exit code', () => {
  const { dir: configDir, cleanup } = tempConfigDir();
  const cwd = mkdtempSync(join(tmpdir(), 'idm-pipe-'));
  afterAll(() => {
    cleanup();
    rmSync(cwd, { recursive: true, force: true });
  });

  /**
   * `idm ARGS` writing into a pipe whose reader has closed it already (deterministically: idm starts
   * once the reader has closed its end), stderr into the same pipe (`2>&1`) or not; idm's exit code.
   */
  async function closedPipe(args: string, both: boolean): Promise<number> {
    const script = `set -o pipefail
rm -f closed
{ until [ -e closed ]; do sleep 0.02; done; idm ${args}; echo $? > code; } ${both ? '2>&1' : '2>/dev/null'} | { exec 0<&-; : > closed; }
cat code`;
    const result = await runBash(script, { cwd, configDir });
    return Number(result.stdout.trim());
  }

  it.each([
    ['', 2], // no command: the usage, written by commander into the closed pipe
    ['streams', 2],
    ['streams nope', 2],
    ['streams list --limit nope', 2],
    ['streams list', 4], // no credentials
    ['--no-color completion bash', 0],
    ['profiles list', 0],
  ])('idm %s 2>&1 into a closed pipe: exit %i', async (args, code) => {
    expect(await closedPipe(args, true)).toBe(code);
  });

  it.each([
    ['--no-color completion bash', 0],
    ['streams nope', 2],
    ['streams list', 4],
  ])('idm %s into a closed pipe (stdout alone): exit %i', async (args, code) => {
    expect(await closedPipe(args, false)).toBe(code);
  });
});
