// idm api <METHOD> <PATH>: any management call with the profile's token, retries and exit codes (like
// `gh api`). Everything is checked before anything is sent: the method, the path (api/path.ts
// rawPath: below /api/v2, no dot segments, no other host), the query keys, and the body (valid JSON,
// and none with GET). The answer's JSON goes to stdout whether --json is given or not; an error
// status keeps its exit code, and with --json its body is printed on stdout too.
import { existsSync, statSync } from 'node:fs';
import { Argument, Command, InvalidArgumentError } from 'commander';
import type { HttpMethod } from '../../api/client.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../../core/json-depth.js';
import type { RawRequest } from '../../api/management/index.js';
import { RAW_METHODS } from '../../api/management/raw.js';
import { rawPath } from '../../api/path.js';
import type { Deps } from '../../cli/factory.js';
import { examples, paragraph } from '../../cli/help.js';
import { once, repeatable } from '../../cli/parse.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { notOneOf } from '../../cli/suggest.js';
import { hasUnsafeCharacters, preview, shellCommand, shellQuote } from '../../core/text.js';
import { parseJson, readFileOrStdin } from '../../io/input.js';
import { ID_SHAPES } from '../../schemas/ids.js';

export interface ApiOptions {
  method: HttpMethod;
  /** Below /api/v2, checked (rawPath). */
  path: string;
  query: Array<[string, string]>;
  /** --data as given: JSON, `@FILE` or `@-`. */
  data?: string;
  paginate: boolean;
}

const STREAM = ID_SHAPES.stream.example;

function parseMethod(value: string): HttpMethod {
  const method = value.toUpperCase() as HttpMethod;
  if (RAW_METHODS.includes(method)) return method;
  throw new InvalidArgumentError(notOneOf('<method>', RAW_METHODS, value, `${RAW_METHODS.join(', ')} (any case)`));
}

const QUERY_KEY = /^[A-Za-z0-9_.[\]-]{1,128}$/;

/** --query KEY=VALUE, repeatable (a key given twice is sent twice); the value is sent percent-encoded. */
function parseQuery(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const at = value.indexOf('=');
  if (at < 0) throw new InvalidArgumentError(`--query takes KEY=VALUE, not "${preview(value)}".`);
  const key = value.slice(0, at);
  if (!QUERY_KEY.test(key)) throw new InvalidArgumentError(`--query: the key "${preview(key)}" may hold only letters, digits, _ . - [ ] (1 to 128).`);
  if (hasUnsafeCharacters(value)) throw new InvalidArgumentError(`--query ${key}: the value holds control or invisible characters.`);
  return [...previous, [key, value.slice(at + 1)]];
}

const isMethod = (word: string | undefined): boolean => word !== undefined && RAW_METHODS.includes(word.toUpperCase() as HttpMethod);

/** `Give the method before the path, e.g. idm api GET /event-streams.`, for a path given first. */
function methodFirst(path: string, method = 'GET'): string {
  // A path with a control or invisible character (a zero-width space pasted with it) is refused
  // as a path: a command that quotes it would be refused, or, copied as shown (escaped), ask for another path.
  const example = hasUnsafeCharacters(path) ? `${shellCommand(['idm', 'api', method])} PATH (the path given holds a control or invisible character: type it again without it)` : shellCommand(['idm', 'api', method, path]);
  return `error: Give the method before the path, e.g. ${example}.`;
}

/**
 * `idm api /event-streams`, gh api's habit of leaving the method out, is told to give the method
 * first; commander alone would say the path is missing, which the user has just given. So is
 * `idm api /event-streams GET`, the two in the other order, which it would refuse as a method.
 */
class ApiCommand extends Command {
  missingArgument(name: string): never {
    const [first] = this.args;
    if (name === 'path' && first !== undefined && !isMethod(first)) this.error(methodFirst(first), { code: 'commander.missingArgument' });
    return this.error(`error: missing required argument '${name}'`, { code: 'commander.missingArgument' });
  }

  override error(message: string, options?: { code?: string; exitCode?: number }): never {
    const [first, second] = this.args;
    if (options?.code === 'commander.invalidArgument' && message.includes("for argument 'method'") && first !== undefined && !isMethod(first) && isMethod(second)) {
      return super.error(methodFirst(first, second!.toUpperCase()), options);
    }
    return super.error(message, options);
  }
}

export function apiCommand(deps: Deps, run = apiRun): Command {
  return new ApiCommand('api')
    .description("Call any management endpoint with the profile's token (like gh api)")
    .addArgument(new Argument('<method>', 'the HTTP method, in any case').choices(RAW_METHODS).argParser(parseMethod))
    .addArgument(new Argument('<path>', 'below /api/v2, such as /event-streams (a leading /api/v2 is dropped)').argParser(rawPath))
    .option('--data <json>', 'the request body: JSON, @FILE, or @- for stdin (not with GET)', once('--data', undefined, { secret: true }))
    .option('--query <key=value>', 'a query parameter, sent percent-encoded (repeatable)', repeatable(parseQuery))
    .option('--paginate', 'GET: follow `next` to the last page and print the pages merged')
    .addHelpText(
      'after',
      () => `\n${paragraph(
        'The answer is printed on stdout as JSON (indented), with or without --json; a 204 prints nothing. An error status exits with its code (401 and 403: 4, 429: 5, others: 1); with --json its body is printed on stdout too. POST and PATCH are sent again only when the service cannot have acted on them.',
      )}\n${examples([
        'idm api GET /event-streams --query take=5',
        "idm api GET /event-streams --paginate --query take=100 | jq '.eventStreams | length'",
        'idm api POST /event-streams --data @stream.json',
        `echo '{"status":"disabled"}' | idm api PATCH /event-streams/${STREAM} --data @-`,
        'idm api PUT "/connections/$CON/directory-provisioning/synchronized-groups" --data @groups.json',
        `idm api DELETE /event-streams/${STREAM}`,
      ])}`,
    )
    .action((method: HttpMethod, path: string, flags: { data?: string; query?: Array<[string, string]>; paginate?: boolean }) =>
      run({ method, path, query: flags.query ?? [], data: flags.data, paginate: Boolean(flags.paginate) }, deps),
    );
}

/** The body of --data: JSON given, or read from a file or stdin; checked before anything is sent. */
async function readData(data: string, deps: Deps): Promise<unknown> {
  const source = data === '@-' ? '--data @- (stdin)' : data.startsWith('@') ? `--data ${data}` : '--data';
  const hint = "Pipe the JSON in, or give --data '{…}' or --data @FILE.";
  if (data === '@-' && deps.io.stdinIsTTY) throw new UsageError('--data @- reads stdin, which is a terminal here.', hint);
  if (data === '@') throw new UsageError('--data @ names no file.', 'Give --data @FILE, or @- for stdin.');
  const text = data.startsWith('@') ? await readFileOrStdin('--data', data.slice(1), deps.io, 'json', { hint: tildeHint(data.slice(1)) ?? hint }) : data;
  if (text.trim() === '') throw new UsageError(`${source} is empty: the body must be JSON.`);
  // A body may hold a secret (a webhook's token): a syntax error names its place, never its text.
  const body = parseJson(source, text, meantAsSource(data) ?? "Strings and property names take double quotes; for example: --data '{\"name\":\"x\"}'.");
  if (nestsDeeper(body)) throw new UsageError(`${source} nests more than ${MAX_JSON_DEPTH} levels deep.`);
  return body;
}

/**
 * `--data @~/body.json`: no shell expands a ~ that follows the @, so idm looks for a directory named
 * `~`. When there is none, the hint says how to name the home directory.
 */
function tildeHint(path: string): string | undefined {
  if (!(path === '~' || path.startsWith('~/')) || existsSync(path)) return undefined;
  const rest = path.slice(1);
  // Quoted as typed only when nothing in it means something to a shell inside double quotes.
  return /^[\w./@%+=:,~ -]*$/.test(rest) ? `No shell expands the ~ after @: give --data "@$HOME${rest}".` : 'No shell expands the ~ after @: write $HOME in its place.';
}

/**
 * The fix for an inline --data that is no JSON because it was meant as the body's source: `-` (stdin,
 * as for other tools) or the name of a file, without the `@`. A name is quoted only when it names a
 * file: any other value may be a secret.
 */
function meantAsSource(data: string): string | undefined {
  if (data === '-') return 'To read the body from stdin, give --data @-.';
  if (data.startsWith('@') || data.length > 256 || hasUnsafeCharacters(data)) return undefined;
  try {
    if (statSync(data).isFile()) return `To send the content of the file ${data}, give --data ${shellQuote(`@${data}`)}.`;
  } catch {
    // no such file: the value is meant as JSON
  }
  return undefined;
}

export async function apiRun(options: ApiOptions, deps: Deps): Promise<void> {
  const { method, path, query, data, paginate } = options;
  if (data !== undefined && method === 'GET') throw new UsageError('GET takes no body: --data goes with POST, PATCH, PUT or DELETE.', 'Give GET parameters with --query KEY=VALUE.');
  if (paginate && method !== 'GET') throw new UsageError(`--paginate follows the pages of a GET, not of a ${method}.`);
  const request: RawRequest = { method, path, query, ...(data === undefined ? {} : { body: await readData(data, deps) }) };
  const { raw } = await deps.api();
  let body: unknown;
  try {
    body = paginate ? await raw.all(request) : (await raw.call(request)).body;
  } catch (error) {
    // The service's answer is data: with --json it is printed as for a success, and the error follows on stderr.
    if (deps.output.json && error instanceof ApiError && error.status !== undefined && error.body !== undefined) deps.output.printJson(error.body);
    throw error;
  }
  if (body !== undefined) deps.output.printJson(body);
}
