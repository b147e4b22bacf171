// Writes completions/idm.{bash,zsh,fish} from the command tree of the built CLI: each file is what
// `idm completion <shell>` prints. `npm run completions` builds first, then runs this.
// With --check, writes nothing and exits 1 when a committed file differs (test/commands/completion does the same).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
// The scripts do not depend on the environment, but keep a developer's IDM_* settings out anyway.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('IDM_')));
let stale = 0;
for (const shell of ['bash', 'zsh', 'fish']) {
  const text = execFileSync(process.execPath, ['bin/idm.js', 'completion', shell], { cwd: root, env, encoding: 'utf8' });
  const file = `completions/idm.${shell}`;
  if (check) {
    let current = '';
    try {
      current = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      console.error(`${file} is stale: run npm run completions`);
      stale += 1;
    }
  } else {
    writeFileSync(new URL(`../${file}`, import.meta.url), text);
    console.error(`wrote ${file}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
