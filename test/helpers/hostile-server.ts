// What the security tests share: idm run in process through main() with captured streams (TTY or
// not), and a hostile HTTP server on 127.0.0.1 (a fake server, ./fake-server.ts) that answers
// whatever a test tells it to.
import { main } from '../../src/main.js';
import { Capture, stdinOf } from './capture.js';
import { credentialsEnv, tempConfigDir, withoutSpinner } from './cli.js';
import { fakeServer, type Seen } from './fake-server.js';
import { recordRun, recordSecrets } from './sweep.js';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs idm in process. `tty`: stdout, stderr and stdin are terminals (prompts are still refused: no keyboard). */
export async function idm(argv: string[], options: { env: Record<string, string | undefined>; tty?: boolean; stdin?: string; columns?: number }): Promise<Result> {
  const stdout = new Capture(Boolean(options.tty), options.columns);
  const stderr = new Capture(Boolean(options.tty), options.columns);
  const stdin = stdinOf(options.stdin);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const code = await main(['node', 'idm', ...argv], { stdin, stdout, stderr }, env);
  recordRun(`idm ${argv.join(' ').slice(0, 200)}`, stdout.text, stderr.text);
  recordSecrets([options.env.IDM_CLIENT_SECRET, options.env.IDM_PRIVATE_KEY, options.env.IDM_ACCESS_TOKEN]);
  // The spinner (idm's own live line, drawn when a request is slow) is not what these tests look for.
  return { code, stdout: stdout.text, stderr: withoutSpinner(stderr.text) };
}

/** A fresh directory (a config dir, or a home for files), removed by its cleanup. */
export const tempDir = tempConfigDir;

export type { Seen };

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
}

/** A token answer whose access token looks like a JWT. */
export function tokenBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = Buffer.from(JSON.stringify({ scope: 'read:event_streams update:event_streams create:directory_provisionings read:directory_provisionings' })).toString('base64url');
  return { access_token: `eyJhbGciOiJub25lIn0.${payload}.hostile-signature-0123456789`, token_type: 'Bearer', expires_in: 3600, ...extra };
}

/**
 * A hostile server: `answer(request)` decides every answer; the token endpoint answers a token
 * unless `answer` handles it. Records every request.
 */
export async function hostileServer(answer: (request: Seen) => Answer | 'stall' | undefined) {
  const stalled: Array<(reply: Answer) => void> = [];
  const server = await fakeServer((request, res) => {
    const send = (reply: Answer) => {
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
      res.end(text);
    };
    const reply = answer(request);
    if (reply === 'stall') stalled.push(send);
    else send(reply ?? (request.url.startsWith('/oauth/token') ? { body: tokenBody() } : { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not found' } }));
  });
  const { url, seen } = server;
  return {
    url,
    seen,
    /** Answers every stalled request (or leaves them to close()). */
    release: (reply: Answer) => stalled.splice(0).forEach((send) => send(reply)),
    stalledCount: () => stalled.length,
    /** Requests to the management interface (not the token endpoint). */
    api: () => seen.filter((request) => request.url.startsWith('/api/v2')),
    /** Environment for idm: this server as the tenant, a client secret from the environment. */
    env: (configDir: string, extra: Record<string, string | undefined> = {}) => ({
      IDM_CONFIG_DIR: configDir,
      ...credentialsEnv(url, { clientId: 'hostile-client', clientSecret: 'hostile-client-secret-0123456789' }),
      ...extra,
    }),
    close: server.close,
  };
}

/**
 * Characters a terminal may act on, that no text mode of idm may print raw: C0 controls other than
 * newline (and tab where it separates TSV columns), DEL, C1 controls, bidi and zero-width
 * characters, line and paragraph separators.
 */
export function unsafeCharacters(text: string, options: { tabs?: boolean; colour?: boolean } = {}): string[] {
  // With colour on, the palette's own SGR sequences (ESC [ n m) are the one allowed escape.
  const plain = options.colour ? text.replace(/\x1b\[[0-9;]*m/g, '') : text;
  const found = plain.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]|\t/g) ?? [];
  return found.filter((char) => !(options.tabs && char === '\t')).map((char) => `U+${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Root is needed to act as another user or to mount a small file system; the tests that need it say so. */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
