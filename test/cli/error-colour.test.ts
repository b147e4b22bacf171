// "Error:" is red at a colour terminal for every error, a usage error found while parsing (before
// any command runs) as much as an API error; never with --no-color, NO_COLOR, or piped.
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess, tempConfigDir } from '../helpers/cli.js';

const { dir, cleanup } = tempConfigDir();
afterAll(cleanup);

const RED_ERROR = '\x1b[31mError:\x1b[39m ';
const idm = (args: string[], options: { tty: boolean; env?: Record<string, string> }) => runInProcess(args, { configDir: dir, ...options });

describe('the colour of "Error:"', () => {
  it.each([
    ['a flag value refused by its parser', ['streams', 'list', '--take', '0'], '--take must be from 1 to 100, not 0.'],
    ['an unknown flag', ['streams', 'list', '--nope'], 'Unknown flag --nope.'],
    ['an unknown command', ['streamz'], "Unknown command 'streamz'"],
    ['no credentials (found when the command runs)', ['streams', 'list'], 'Not logged in'],
  ])('%s: red at a colour terminal', async (_name, args, message) => {
    const result = await idm(args, { tty: true });
    expect(result.stderr).toContain(`${RED_ERROR}${message}`);
  });

  it.each([
    ['--no-color', ['streams', 'list', '--take', '0', '--no-color'], {}, true],
    ['--no-color before the command', ['--no-color', 'streams', 'list', '--take', '0'], {}, true],
    ['NO_COLOR', ['streams', 'list', '--take', '0'], { NO_COLOR: '1' }, true],
    ['piped', ['streams', 'list', '--take', '0'], {}, false],
  ])('a usage error with %s: no colour', async (_name, args, env, tty) => {
    const result = await idm(args, { tty, env });
    expect(result.stderr).toMatch(/^Error: --take must be from 1 to 100, not 0\.\n/);
    expect(result.stderr).not.toContain('\x1b[');
  });
});
