// Where idm keeps its files. One directory (mode 0700):
//   config.json          profiles and the default profile (written under config.json.lock)
//   credentials/<p>.json a profile's client secret or private key (0600)
//   tokens/<hash>.json   cached access tokens per (domain, client, audience) (0600)
//   tokens/<hash>.lock   held by the one process that is fetching that token
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { expandHome, preview, shellQuote } from '../core/text.js';

export function configDir(env: NodeJS.ProcessEnv): string {
  const own = env.IDM_CONFIG_DIR;
  // Set where no shell expands `~` (a Dockerfile's ENV, a systemd unit, a CI file's env:, a .env
  // file): `~/x` is the home directory's, as a shell would have made it, never a directory named `~`
  // in the current one (the secrets written into a checkout, and another settings directory in each).
  if (own) {
    // `~alice/x`: another user's home, which only the passwd database knows (and NSS may ask a
    // network service for it): refused, never a directory named `~alice` made in the current one.
    if (own.startsWith('~') && own !== '~' && !own.startsWith('~/')) {
      throw new ConfigError(
        `IDM_CONFIG_DIR (${preview(own)}) starts with ~NAME, which idm does not expand (only ~ and ~/, your home directory).`,
        `Set it to the path written out (/home/NAME/… on Linux, /Users/NAME/… on macOS), or to ${shellQuote(`./${own}`)} for a directory of that name here.`,
      );
    }
    return expandHome(own, homedir());
  }
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'idm');
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.config'), 'idm');
}

export function configFile(dir: string): string {
  return join(dir, 'config.json');
}

/** Profile names become file names: a safe alphabet, checked on write and on read. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function credentialsDir(dir: string): string {
  return join(dir, 'credentials');
}

export function credentialsFile(dir: string, profile: string): string {
  return join(credentialsDir(dir), `${profile}.json`);
}

export function tokensDir(dir: string): string {
  return join(dir, 'tokens');
}
