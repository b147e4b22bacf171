// idm sandbox start: runs the local tenant (src/sandbox, loaded only here) in the foreground until
// SIGINT or SIGTERM. It prints the tenant's URLs and its two clients; each client's secret and private
// key also go to 0600 files, so that `idm login --client-secret-file` can take them. With --json the
// same is one JSON object on one line, for scripts that read the first line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { IdmError, UsageError } from '../../core/errors.js';
import { shellCommand } from '../../core/text.js';
import { examples } from '../../cli/help.js';
import { parseChoice, parseIntegerInRange } from '../../cli/parse.js';
import type { FaultSpec, Sandbox, SandboxClient } from '../../sandbox/types.js';

export interface SandboxStartOptions {
  port: number;
  /** Test deliveries: async (as the service) or sync (delivered before the answer). */
  delivery?: 'async' | 'sync';
  /** Waits before the retries of a delivery after a connection error (ms). */
  retryDelays?: number[];
  seedFile?: string;
  streams?: number;
  tokenLifetime?: number;
  rateLimit?: { limit: number; refillPerSecond: number };
  /** Parsed JSON, checked against the fault schema when the sandbox loads. */
  faults: unknown[];
}

export function sandboxStartCommand(deps: Deps, run = sandboxStartRun): Command {
  return new Command('start')
    .description('Run a local tenant on 127.0.0.1 until interrupted (Ctrl-C); prints its URL and client credentials')
    .option('--port <n>', 'port of the tenant; 0 picks a free one', parseIntegerInRange('--port', 0, 65_535), 0)
    .option('--seed <file>', 'JSON seed: streams, connections, token lifetime, rate limit (default: the demo seed)')
    .option('--streams <n>', 'also generate this many streams (pagination, benchmarks)', parseIntegerInRange('--streams', 0, 1_000_000))
    .option('--token-lifetime <seconds>', 'lifetime of issued access tokens (default 86400)', parseIntegerInRange('--token-lifetime', 1, 2_592_000))
    .option('--rate-limit <limit/per-second>', 'token bucket: size/refill per second, e.g. 50/10 (default 10000/10000)', parseRateLimit)
    .addOption(new Option('--delivery <mode>', 'test deliveries: async (as the service: 202 pending, then attempts) or sync (delivered before the answer)').argParser(parseChoice('--delivery', ['async', 'sync'] as const)))
    .option('--retry-delays <ms,...>', 'waits before the retries of a failed delivery, in ms (default 1000,2000,4000, as the service)', parseDelays)
    .option('--fault <json>', 'inject a fault, e.g. \'{"kind":"status","status":503,"count":2}\' (repeatable)', collectFault)
    .addHelpText(
      'after',
      `${examples([
        'idm sandbox start  # the demo data, a free port',
        'idm sandbox start --port 4010 --streams 10000',
        'idm sandbox start --json > sandbox.json &  # scripts: JSON on the first line',
        'idm sandbox start --seed seed.json --token-lifetime 60 --rate-limit 5/1',
        'idm sandbox start --fault \'{"kind":"status","status":502,"path":"/api/v2","count":1}\'',
      ])}${examples(
        ['idm login --domain <url> --client-id <admin client id> --client-secret-file <admin secret file>', 'curl <url>/sandbox/inbox  # what the HTTPS webhook inbox received'],
        'Then, in another terminal (start prints the url, ids and files):',
      )}
See README: Sandbox, for the seed format, control endpoints and fault switches.
`,
    )
    .action((flags: Omit<SandboxStartOptions, 'seedFile' | 'faults'> & { seed?: string; fault?: unknown[] }) =>
      run(
        {
          port: flags.port,
          delivery: flags.delivery,
          retryDelays: flags.retryDelays,
          seedFile: flags.seed,
          streams: flags.streams,
          tokenLifetime: flags.tokenLifetime,
          rateLimit: flags.rateLimit,
          faults: flags.fault ?? [],
        },
        deps,
      ),
    );
}

function parseDelays(value: string): number[] {
  const delays = value.split(',').map((part) => part.trim());
  if (delays.length === 0 || delays.length > 10 || !delays.every((part) => /^\d{1,7}$/.test(part))) {
    throw new InvalidArgumentError('--retry-delays must be up to 10 whole numbers of milliseconds, comma-separated, e.g. 1000,2000,4000.');
  }
  return delays.map(Number);
}

function parseRateLimit(value: string): { limit: number; refillPerSecond: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  const limit = Number(match?.[1]);
  const refillPerSecond = Number(match?.[2]);
  if (!match || limit < 1 || !(refillPerSecond > 0)) {
    throw new InvalidArgumentError('--rate-limit must be SIZE/PER_SECOND, e.g. 50/10 (a bucket of 50 requests refilled at 10 per second).');
  }
  return { limit, refillPerSecond };
}

function collectFault(value: string, previous: unknown[] = []): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('--fault must be a JSON object, e.g. \'{"kind":"status","status":503}\'.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidArgumentError('--fault must be a JSON object, e.g. \'{"kind":"status","status":503}\'.');
  }
  return [...previous, parsed];
}

function readSeed(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the seed file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The seed file ${file} is not JSON: ${(error as Error).message}.`, 'See README: Sandbox (seed format).');
  }
}

interface ClientFiles {
  clientSecretFile: string;
  privateKeyFile: string;
}

/** Each client's secret and private key in 0600 files of a fresh 0700 directory. */
function writeClientFiles(sandbox: Sandbox): { dir: string; files: Record<'admin' | 'reader', ClientFiles> } {
  const dir = mkdtempSync(join(tmpdir(), 'idm-sandbox-'));
  const write = (client: SandboxClient): ClientFiles => {
    const clientSecretFile = join(dir, `${client.name}.secret`);
    const privateKeyFile = join(dir, `${client.name}.pem`);
    writeFileSync(clientSecretFile, `${client.clientSecret}\n`, { mode: 0o600 });
    writeFileSync(privateKeyFile, client.privateKeyPem, { mode: 0o600 });
    return { clientSecretFile, privateKeyFile };
  };
  return { dir, files: { admin: write(sandbox.clients.admin), reader: write(sandbox.clients.reader) } };
}

/** Few enough lines to read: the seeded streams (not the generated ones) and the connections, with their ids. */
function dataLines(sandbox: Sandbox): string[] {
  const seeded = sandbox.seededStreams();
  const total = sandbox.stats().streams;
  const shown = seeded.slice(0, 8);
  const idWidth = Math.max(0, ...shown.map((stream) => stream.id.length));
  const connections = sandbox.connections();
  const connectionWidth = Math.max(0, ...connections.map((connection) => connection.id.length));
  const strategyWidth = Math.max(0, ...connections.map((connection) => connection.strategy.length));
  const others = total - shown.length;
  const more = shown.length === 0 ? ' (idm streams list)' : others > 0 ? ` (the ${shown.length} below and ${others} more: idm streams list)` : '';
  return [
    `Streams        ${total}${more}`,
    ...shown.map((stream) => `  ${stream.id.padEnd(idWidth)}  ${stream.name}`),
    `Connections    ${connections.length}`,
    ...connections.map(
      (connection) => `  ${connection.id.padEnd(connectionWidth)}  ${connection.strategy.padEnd(strategyWidth)}  provisioning ${connection.provisioning}`,
    ),
  ];
}

export async function sandboxStartRun(options: SandboxStartOptions, deps: Deps): Promise<void> {
  const seed = options.seedFile === undefined ? undefined : readSeed(options.seedFile);
  const [{ startSandbox, SeedError }, { FaultSpecSchema }, { describeIssues }] = await Promise.all([
    import('../../sandbox/index.js'),
    import('../../sandbox/faults.js'),
    import('../../schemas/index.js'),
  ]);
  const faults = options.faults.map((raw, index) => {
    const result = FaultSpecSchema.safeParse(raw);
    if (!result.success) throw new UsageError(`--fault number ${index + 1} is not valid: ${describeIssues(result.error)}.`, 'See README: Sandbox (faults).');
    return result.data as FaultSpec;
  });
  const { debug } = deps.globals();
  const { output } = deps;
  const json = output.json;

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port: options.port,
      seed,
      streams: options.streams,
      tokenLifetime: options.tokenLifetime,
      rateLimit: options.rateLimit,
      faults,
      delivery: options.delivery,
      retryDelaysMs: options.retryDelays,
      // Only with --debug: a script that never reads stderr must not block the sandbox on a full pipe.
      onRequest: debug ? (r) => deps.io.err(`${new Date(r.at).toISOString()} ${r.method} ${r.url} ${r.status || 'no answer'}\n`) : undefined,
    });
  } catch (error) {
    if (error instanceof SeedError) throw new UsageError(`${error.message}${options.seedFile ? ` (in ${options.seedFile})` : ''}.`, 'See README: Sandbox (seed format).');
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new IdmError(`Port ${options.port} on 127.0.0.1 is already in use.`, { hint: 'Choose another with --port, or --port 0 for a free one.', code: 'port_in_use' });
    }
    throw error;
  }

  const { dir, files } = writeClientFiles(sandbox);
  try {
    const stats = sandbox.stats();
    const client = (name: 'admin' | 'reader') => {
      const { clientId, clientSecret, scopes, signingAlg } = sandbox.clients[name];
      return { clientId, clientSecret, scopes, signingAlg, ...files[name] };
    };
    if (json) {
      // One line, so that a script can read the first line and parse it.
      const summary = {
        url: sandbox.url,
        apiUrl: sandbox.apiUrl,
        tokenUrl: sandbox.tokenUrl,
        audience: `${sandbox.apiUrl}/`,
        inboxUrl: sandbox.inboxUrl,
        controlUrl: `${sandbox.url}/sandbox`,
        stateDir: dir,
        pid: process.pid,
        streams: stats.streams,
        connections: sandbox.connections(),
        clients: { admin: client('admin'), reader: client('reader') },
      };
      deps.io.out(`${JSON.stringify(summary)}\n`);
    } else {
      const lines = [
        `Tenant         ${sandbox.url}`,
        `API            ${sandbox.apiUrl}   (audience ${sandbox.apiUrl}/)`,
        `Token URL      ${sandbox.tokenUrl}`,
        `Webhook inbox  ${sandbox.inboxUrl}   (received: ${sandbox.url}/sandbox/inbox)`,
        `Control        ${sandbox.url}/sandbox`,
        '',
        ...dataLines(sandbox),
        '',
      ];
      for (const name of ['admin', 'reader'] as const) {
        const c = client(name);
        lines.push(
          `Client ${name}`,
          `  client id    ${c.clientId}`,
          `  secret       ${c.clientSecret}`,
          `  secret file  ${c.clientSecretFile}`,
          `  private key  ${c.privateKeyFile}   (private_key_jwt, ${c.signingAlg})`,
          `  scopes       ${c.scopes.join(' ')}`,
          '',
        );
      }
      for (const line of lines.join('\n').trimEnd().split('\n')) output.line(line);
      output.note('');
      output.note(`Try: ${shellCommand(['idm', 'login', '--domain', sandbox.url, '--client-id', sandbox.clients.admin.clientId, '--client-secret-file', files.admin.clientSecretFile])}`);
      output.note('');
      output.note('Running until Ctrl-C.');
    }
    // Runs until stopped (Ctrl-C, SIGTERM, SIGHUP): that is how it ends, not a failure.
    const { signal } = deps.io;
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (!json) output.note('Sandbox stopped.');
}
