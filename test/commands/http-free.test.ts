// Commands speak to the typed management client (src/api/management/), never HTTP (issue 10, "A
// command file no longer contains a path, a scope or an HTTP status"): no status compared or used as
// a hint's key, no path of the management interface, no scope named (the client's `scopes` name
// them). A static look at src/commands/**, comments left out; it shows on samples that it can fail.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMANDS = join(ROOT, 'src', 'commands');

/** The statuses an HTTP answer has (not every three-digit number: a length limit of 256 is not one). */
const STATUS = '(?:20[0-8]|226|30[0-8]|4[0-5]\\d|5[01]\\d)';
const COMPARE = '(?:[=!]==?|[<>]=?)';

const RULES: ReadonlyArray<{ what: string; pattern: RegExp; except?: string }> = [
  { what: 'an HTTP status compared', pattern: new RegExp(`${COMPARE}\\s*${STATUS}\\b(?![.\\d_])|\\b${STATUS}\\s*${COMPARE}`) },
  { what: 'a status compared', pattern: /\bstatus(?:Code)?\s*(?:[=!]==?|[<>]=?)\s*\d/ },
  // A hint's key (`{ 409: '…' }`); prose such as "429: 5" in a help text is left alone.
  { what: 'an HTTP status as a case or a key', pattern: new RegExp(`\\bcase\\s+${STATUS}\\b|[{,]\\s*${STATUS}\\s*:\\s*[^\\d\\s]`) },
  // `idm api` takes a path of the management interface as its argument: its help shows some.
  { what: 'a path of the management interface', pattern: /['"`]\/api\/v2\/[a-z]|['"`]\/(?:event-streams|connections)\b/, except: 'api/index.ts' },
  { what: 'a scope', pattern: /\b(?:read|create|update|delete):[a-z_]{3,}/ },
  { what: 'the table of scopes', pattern: /\bSCOPES\b/ },
  { what: "an answer's error built", pattern: /\b(?:badAnswer|errorFromAnswer)\(|\bnew ApiError\(/ },
];

/** The code of a file without its comments (whole-line `//` and `/* … *\/` blocks): words about HTTP are allowed there. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line))
    .join('\n');
}

/** What breaks a rule in `text` (the file `file`, below src/commands/), line by line. */
function problems(text: string, file = ''): string[] {
  const found: string[] = [];
  code(text)
    .split('\n')
    .forEach((line, index) => {
      for (const rule of RULES) if (rule.except !== file && rule.pattern.test(line)) found.push(`${index + 1}: ${rule.what}: ${line.trim()}`);
    });
  return found;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

describe('command files speak to the typed client, not HTTP', () => {
  it('no command file compares a status, names a management path or a scope', () => {
    const all = files(COMMANDS);
    expect(all.length).toBeGreaterThan(20);
    const found = all.flatMap((file) => problems(readFileSync(file, 'utf8'), relative(COMMANDS, file).split('\\').join('/')).map((problem) => `${relative(ROOT, file)}:${problem}`));
    expect(found).toEqual([]);
  });

  it.each([
    ["if (error instanceof ApiError && error.status === 404) return;", 'an HTTP status compared'],
    ['if (answer.status !== 2) throw error;', 'a status compared'],
    ['if (404 === code) return;', 'an HTTP status compared'],
    ["hints: { 409: 'Wait.' },", 'an HTTP status as a case or a key'],
    ['case 403:', 'an HTTP status as a case or a key'],
    ['const path = `/event-streams/${id}`;', 'a path of the management interface'],
    ["await fetch('/api/v2/connections');", 'a path of the management interface'],
    ["if (status >= 500) retry();", 'a status compared'],
    ["if (error.status >= 400 && error.status < 500) return;", 'an HTTP status compared'],
    ["if (!scopes.includes('read:event_streams')) warn();", 'a scope'],
    ['note(`lacks ${SCOPES.readStream}`);', 'the table of scopes'],
    ["throw api.client.badAnswer({ method: 'POST', path: '', action: 'send' }, 202, 'no id');", "an answer's error built"],
  ])('finds %s', (line, what) => {
    expect(problems(line).join('\n')).toContain(what);
  });

  it('leaves alone what is not HTTP: comments, counts, ids in examples', () => {
    const text = [
      '// a 404 here means the stream is gone (read:event_streams)',
      '/** GET /event-streams answers 200 */',
      "if (words.length === 2) break;",
      "if (id.length > 256) throw new UsageError('too long');",
      "help('An error status exits with its code (401 and 403: 4, 429: 5, others: 1).');",
      "const every = data.scale === 3600 ? 'hourly' : 'daily';",
      "examples(['idm api GET /event-streams', 'idm sandbox start --fault \\'{\"path\":\"/api/v2\",\"status\":503}\\''])",
      "note(`Cannot read the stream's subscriptions (${streams.scopes.read} missing).`);",
    ].join('\n');
    expect(problems(text)).toEqual([]);
  });
});
