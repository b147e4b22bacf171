// vitest setupFiles: the loopback guard (./loopback-guard.mjs) in this worker and, through
// NODE_OPTIONS, in every process it starts (idm by spawnIdm, runBash, tmux, scripts); after each
// test, a connection it refused anywhere fails that test, naming the host.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach } from 'vitest';
import { blocked } from './loopback-guard.mjs';

const guard = pathToFileURL(fileURLToPath(new URL('./loopback-guard.mjs', import.meta.url))).href;
const log = join(tmpdir(), `idm-loopback-guard-${process.pid}.log`);
process.env.LOOPBACK_GUARD_LOG = log;
if (!(process.env.NODE_OPTIONS ?? '').includes(guard)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${guard}`.trim();

afterEach(() => {
  // Lines of this process are in `blocked` already.
  const children = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line && !line.startsWith(`${process.pid} `)).join('\n') : '';
  const here = blocked.splice(0);
  if (children) writeFileSync(log, '');
  if (here.length > 0 || children) {
    throw new Error(`The test tried to connect beyond loopback (refused by test/helpers/loopback-guard.mjs): ${[...here, ...children.split('\n').filter(Boolean)].join(', ')}`);
  }
});
afterAll(() => rmSync(log, { force: true }));
