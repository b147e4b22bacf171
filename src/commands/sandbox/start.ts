// idm sandbox start: runs the local tenant (src/sandbox, loaded only here) in the foreground until
// SIGINT or SIGTERM. It prints the tenant's URLs and its clients; each client's secret and private
// key (and the sandbox's CA, with --mtls the client certificate) also go to 0600 files, so that
// `idm login --client-secret-file` can take them. They live in a temporary directory removed at the
// end, or with --state-dir in that directory, beside the saved tenant. With --json the same is one
// JSON object on one line, for scripts that read the first line.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFileReplacing } from '../../core/dirs.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { Redactor } from '../../api/redact.js';
import { fsProblem, IdmError, UsageError } from '../../core/errors.js';
import { shellCommand, shellQuote } from '../../core/text.js';
import { examples } from '../../cli/help.js';
import { once, parseChoice, parseIntegerInRange, parsePath, repeatable } from '../../cli/parse.js';
import { checkPem, parseJson, readTextFile, typedPath } from '../../io/input.js';
import { safeJson } from '../../io/safe.js';
import { wrapWords } from '../../output/width.js';
import type { StreamLimitError } from '../../sandbox/index.js';
import { MAX_DELIVERY_TIMEOUT_MS, type FaultSpec, type Sandbox, type SandboxCertificateClient, type SandboxClient, type SandboxOptions } from '../../sandbox/types.js';

export interface SandboxStartOptions {
  /** Undefined: a free port, or the saved one with --state-dir. */
  port?: number;
  /** HTTPS with a certificate of the sandbox's own CA, or the user's (tlsCert, tlsKey). */
  https?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  /** Mutual-TLS client authentication: a handshake of the sandbox's own, or an edge's headers. */
  mtls?: 'handshake' | 'edge';
  stateDir?: string;
  /** Test deliveries: async (as the service) or sync (delivered before the answer). */
  delivery?: 'async' | 'sync';
  /** Waits before the retries of a delivery after a connection error (ms). */
  retryDelays?: number[];
  /** How long one webhook attempt waits for an answer (ms). */
  deliveryTimeout?: number;
  seedFile?: string;
  streams?: number;
  tokenLifetime?: number;
  rateLimit?: { limit: number; refillPerSecond: number };
  /** The most streams the tenant holds: a create beyond it answers 409. */
  maxStreams?: number;
  /** Parsed JSON, checked against the fault schema when the sandbox loads. */
  faults: unknown[];
}

export function sandboxStartCommand(deps: Deps, run = sandboxStartRun): Command {
  return new Command('start')
    .description('Run a local tenant on 127.0.0.1 until Ctrl-C or SIGTERM; prints its URL and client credentials')
    .option('--port <n>', 'port of the tenant (default: a free one, or the saved one with --state-dir)', once('--port', parseIntegerInRange('--port', 0, 65_535)))
    .option('--https', 'serve the tenant over HTTPS, with a certificate of a CA the sandbox makes (prints the CA file to trust)')
    .option('--tls-cert <path>', 'serve HTTPS with this PEM server certificate (for 127.0.0.1) instead of one the sandbox makes (implies --https)', once('--tls-cert'))
    .option('--tls-key <path>', 'the PEM private key of --tls-cert', once('--tls-key', undefined, { secret: true }))
    .option('--mtls', 'with --https: mutual-TLS client authentication for an extra client (tls_client_auth; prints its certificate)')
    .addOption(new Option('--mtls-edge', 'mutual TLS as behind an edge network: trust its client-certificate headers instead of a handshake').conflicts('mtls'))
    // Not empty: '' would be the current directory, which would get the clients' secrets and keys.
    .option('--state-dir <dir>', 'keep the tenant (clients, keys, CA, data) in this directory and load it at the next start', once('--state-dir', parsePath('--state-dir', 'directory')))
    .option('--seed <file>', 'JSON seed: streams, connections, token lifetime, rate limit (default: the demo seed)', once('--seed'))
    .option('--streams <n>', 'also generate this many streams (pagination, benchmarks)', once('--streams', parseIntegerInRange('--streams', 0, 1_000_000)))
    .option('--token-lifetime <seconds>', 'lifetime of issued access tokens (default 86400)', once('--token-lifetime', parseIntegerInRange('--token-lifetime', 1, 2_592_000)))
    .option('--rate-limit <limit/per-second>', 'token bucket: size/refill per second, e.g. 50/10 (default 10000/10000)', once('--rate-limit', parseRateLimit, { shown: ({ limit, refillPerSecond }) => `${limit}/${refillPerSecond}` }))
    .option('--max-streams <n>', 'the most streams the tenant holds: a create beyond it answers 409, as on a plan\'s limit (default: no limit)', once('--max-streams', parseIntegerInRange('--max-streams', 1, 1_000_000)))
    .addOption(new Option('--delivery <mode>', 'test deliveries: async (as the service: 202 pending, then attempts) or sync (delivered before the answer)').choices(['async', 'sync']).argParser(once('--delivery', parseChoice('--delivery', ['async', 'sync']))))
    .option('--retry-delays <ms,...>', 'waits before the retries of a failed delivery, in ms (default 1000,2000,4000, as the service)', once('--retry-delays', parseDelays, { shown: (delays) => delays.join(',') }))
    .option('--delivery-timeout <ms>', 'how long a webhook attempt waits for an answer before it fails, in ms (default 3000, as the service)', once('--delivery-timeout', parseIntegerInRange('--delivery-timeout', 1, MAX_DELIVERY_TIMEOUT_MS)))
    .option('--fault <json>', 'inject a fault, e.g. \'{"kind":"status","status":503,"count":2}\' (repeatable)', repeatable(collectFault))
    .addHelpText(
      'after',
      () => `${examples([
        'idm sandbox start  # the demo data, a free port',
        'idm sandbox start --port 4010 --streams 10000',
        'idm sandbox start --json > sandbox.json &  # scripts: JSON on the first line (kill %1 stops it)',
        'idm sandbox start --seed seed.json --token-lifetime 60 --rate-limit 5/1',
        'idm sandbox start --fault \'{"kind":"status","status":502,"path":"/api/v2","count":1}\'',
        'idm sandbox start --https --state-dir ~/.idm-sandbox  # the official SDKs need HTTPS; the same clients after a restart',
        'idm sandbox start --https --mtls  # a client that authenticates with a certificate',
      ])}${examples(
        [
          'idm login --domain "$(jq -r .url sandbox.json)" --client-id "$(jq -r .clients.admin.clientId sandbox.json)" --client-secret-file "$(jq -r .clients.admin.clientSecretFile sandbox.json)"',
          'curl "$(jq -r .controlUrl sandbox.json)/inbox"  # what the HTTPS webhook inbox received',
        ],
        'Then, in the same directory, once sandbox.json has its line:',
      )}
See README: Sandbox, for the seed format, control endpoints and fault switches.
`,
    )
    .action((flags: Omit<SandboxStartOptions, 'seedFile' | 'faults' | 'mtls'> & { seed?: string; fault?: unknown[]; mtls?: boolean; mtlsEdge?: boolean }) =>
      run(
        {
          port: flags.port,
          https: flags.https,
          tlsCert: flags.tlsCert,
          tlsKey: flags.tlsKey,
          mtls: flags.mtls ? 'handshake' : flags.mtlsEdge ? 'edge' : undefined,
          stateDir: flags.stateDir,
          delivery: flags.delivery,
          retryDelays: flags.retryDelays,
          deliveryTimeout: flags.deliveryTimeout,
          seedFile: flags.seed,
          streams: flags.streams,
          tokenLifetime: flags.tokenLifetime,
          rateLimit: flags.rateLimit,
          maxStreams: flags.maxStreams,
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

async function readSeed(file: string, signal: AbortSignal): Promise<unknown> {
  // Read and parsed as every file idm is given: a missing file in words, never the file's text.
  return parseJson(`--seed ${file}`, await readTextFile('--seed', file, 'seed', { signal }), 'See README: Sandbox (seed format).');
}

interface ClientFiles {
  clientSecretFile: string;
  privateKeyFile: string;
}

interface SandboxFiles {
  clients: Record<'admin' | 'reader', ClientFiles>;
  /** The CA to trust for the tenant's certificate (--https, when the sandbox made that certificate). */
  caFile?: string;
  /** The CA that signed the mtls client's certificate (--mtls, --mtls-edge): the same CA, in the same file. */
  clientCaFile?: string;
  /** The mtls client's certificate and key (--mtls, --mtls-edge). */
  mtls?: { certFile: string; keyFile: string };
}

/**
 * Each client's secret and private key, the CA and the mtls client's certificate and key, in 0600
 * files of `dir`; one that cannot be written (a directory in its place, no room) is said with its path.
 */
function writeSandboxFiles(sandbox: Sandbox, dir: string, hint: string): SandboxFiles {
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    try {
      // Never through a symlink planted there: a new file renamed over the name.
      writeFileReplacing(path, text);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new IdmError(`Cannot write ${path}: ${fsProblem(error) ?? 'the write failed'}${code ? ` (${code})` : ''}.`, { hint, code: 'state_unwritable', cause: error });
    }
    return path;
  };
  // The secret alone, no newline: `curl --data-urlencode client_secret@FILE` sends the file as it is.
  const client = (c: SandboxClient): ClientFiles => ({ clientSecretFile: write(`${c.name}.secret`, c.clientSecret), privateKeyFile: write(`${c.name}.pem`, c.privateKeyPem) });
  const mtls = (c: SandboxCertificateClient) => ({ certFile: write('mtls-client.crt', c.certPem), keyFile: write('mtls-client.key', c.keyPem) });
  // The sandbox has one CA: it signs the server certificate of --https and the mtls client's.
  const caPem = sandbox.caPem ?? sandbox.clientCaPem;
  const caFile = caPem === undefined ? undefined : write('ca.pem', caPem);
  return {
    clients: { admin: client(sandbox.clients.admin), reader: client(sandbox.clients.reader) },
    ...(sandbox.caPem ? { caFile } : {}),
    ...(sandbox.clientCaPem ? { clientCaFile: caFile } : {}),
    ...(sandbox.clients.mtls ? { mtls: mtls(sandbox.clients.mtls) } : {}),
  };
}

/** --tls-cert and --tls-key read, parsed, and checked to be a certificate and its own key. */
async function readTlsPair(certPath: string, keyPath: string, signal: AbortSignal): Promise<{ cert: string; key: string }> {
  const cert = checkPem('--tls-cert', certPath, await readTextFile('--tls-cert', certPath, 'certificate', { signal }), 'certificate');
  const key = checkPem('--tls-key', keyPath, await readTextFile('--tls-key', keyPath, 'secret', { signal }), 'private key');
  // Loaded here: every command's module is imported at start, and node:crypto with node:tls costs
  // about 6 ms of every run.
  const { createPrivateKey, X509Certificate } = process.getBuiltinModule('node:crypto');
  const { createSecureContext } = process.getBuiltinModule('node:tls');
  try {
    new X509Certificate(cert);
  } catch {
    throw new UsageError(`--tls-cert: ${certPath} holds no certificate that can be read.`, 'Give a PEM certificate (BEGIN CERTIFICATE).');
  }
  try {
    createPrivateKey(key);
  } catch {
    throw new UsageError(`--tls-key: ${keyPath} holds no private key that can be read.`, 'Give an unencrypted PEM private key.');
  }
  try {
    createSecureContext({ cert, key });
  } catch {
    throw new UsageError(`--tls-key ${keyPath} is not the private key of --tls-cert ${certPath}.`, 'Give the key the certificate was made for.');
  }
  return { cert, key };
}

/** --https, --tls-cert, --tls-key, --mtls and --state-dir as the sandbox takes them; contradictions are usage errors. */
async function tlsOptions(options: SandboxStartOptions, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<Pick<SandboxOptions, 'https' | 'tls' | 'mtls' | 'stateDir'>> {
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    throw new UsageError(`${options.tlsCert === undefined ? '--tls-key' : '--tls-cert'} needs ${options.tlsCert === undefined ? '--tls-cert' : '--tls-key'} too.`);
  }
  const https = Boolean(options.https || options.tlsCert);
  if (options.mtls === 'handshake' && !https) throw new UsageError('--mtls needs --https: the client certificate is asked for in the TLS handshake.', 'Add --https (or use --mtls-edge).');
  const tls = options.tlsCert !== undefined && options.tlsKey !== undefined ? await readTlsPair(options.tlsCert, options.tlsKey, signal) : undefined;
  return {
    ...(tls ? { tls } : https ? { https } : {}),
    ...(options.mtls ? { mtls: options.mtls } : {}),
    // --state-dir=~/x: no shell expands a ~ after an =, and a directory named ~ here would get the secrets.
    ...(options.stateDir === undefined ? {} : { stateDir: resolve(typedPath(options.stateDir, env)) }),
  };
}

/** A --state-dir that cannot be used: in use (exit 1), damaged (exit 2), or not writable (exit 1). */
function stateError(error: Error & { reason: 'damaged' | 'in_use' | 'unwritable'; hint?: string }, stateDir: string): IdmError {
  switch (error.reason) {
    case 'in_use':
      return new IdmError(error.message, { hint: 'Stop that sandbox, or give another --state-dir.', code: 'state_in_use' });
    case 'unwritable':
      return new IdmError(error.message, { hint: error.hint ?? 'Check the space and permissions of --state-dir.', code: 'state_unwritable' });
    default:
      return new UsageError(error.message, `Move ${shellCommand([join(stateDir, 'state.json')])} away to start a fresh tenant there.`);
  }
}

/**
 * --max-streams (or the seed's maxStreams) below the streams the tenant would start with: named with
 * where those streams come from (the seed, --streams, the saved tenant) and what to change (exit 2).
 */
function streamLimitError(error: StreamLimitError, options: SandboxStartOptions, stateDir: string | undefined): UsageError {
  const { maxStreams, streams, count } = error;
  // A saved tenant's own limit (saved before such a start was refused) is no seed's, and starting
  // without --max-streams keeps it: only a higher --max-streams starts that tenant.
  const limit =
    options.maxStreams !== undefined ? `--max-streams ${maxStreams}` : 'saved' in streams ? `The saved tenant's maxStreams ${maxStreams}` : `The seed's maxStreams ${maxStreams}`;
  const seed = options.seedFile === undefined ? 'the demo seed' : `--seed ${options.seedFile}`;
  const from =
    'saved' in streams
      ? [`saved in ${stateDir}`]
      : [...(streams.seeded > 0 ? [`${streams.seeded} of ${seed}`] : []), ...(streams.generated > 0 ? [`${streams.generated} of --streams`] : [])];
  const fewer =
    'saved' in streams
      ? options.maxStreams !== undefined
        ? ' (or start without it and delete streams first)'
        : ' (delete streams, then lower it at a later start)'
      : streams.generated > 0
        ? ', or fewer --streams'
        : ', or a --seed with fewer streams';
  return new UsageError(
    `${limit} is less than the ${count} streams the tenant would start with (${from.join(', ')}): it would be over its limit before any create.`,
    `Give --max-streams ${count} or more${fewer}.`,
  );
}

/** Where each kind of client trusts the sandbox's CA. */
function trustLines(caFile: string): string[] {
  return [
    `  idm          ${shellCommand(['--ca-file', caFile])}   (or IDM_CA_FILE)`,
    // The value quoted, not the assignment: a quoted 'NAME=value' is a command's name to the shell.
    `  Node         NODE_EXTRA_CA_CERTS=${shellQuote(caFile)} node app.js`,
    `  curl         ${shellCommand(['--cacert', caFile])}`,
  ];
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
    ...shown.map((stream) => `  ${stream.id.padEnd(idWidth)}  ${stream.name ?? ''}`.trimEnd()),
    `Connections    ${connections.length}`,
    ...connections.map(
      (connection) => `  ${connection.id.padEnd(connectionWidth)}  ${connection.strategy.padEnd(strategyWidth)}  provisioning ${connection.provisioning}`,
    ),
  ];
}

export async function sandboxStartRun(options: SandboxStartOptions, deps: Deps): Promise<void> {
  const seed = options.seedFile === undefined ? undefined : await readSeed(options.seedFile, deps.io.signal);
  // The sandbox is a program of its own (its own bundle, with its own copy of the schemas).
  const { startSandbox, SeedError, SandboxStateError, StreamLimitError, FaultSpecSchema, describeIssues } = await import('../../sandbox/index.js');
  const faults = options.faults.map((raw, index) => {
    const result = FaultSpecSchema.safeParse(raw);
    if (!result.success) throw new UsageError(`--fault number ${index + 1} is not valid: ${describeIssues(result.error)}.`, 'See README: Sandbox (faults).');
    return result.data as FaultSpec;
  });
  const { debug } = deps.globals();
  const { output } = deps;
  const json = output.json;

  const tls = await tlsOptions(options, deps.io.signal, deps.io.env);
  const redactor = new Redactor();
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...tls,
      port: options.port,
      seed,
      streams: options.streams,
      tokenLifetime: options.tokenLifetime,
      rateLimit: options.rateLimit,
      maxStreams: options.maxStreams,
      faults,
      delivery: options.delivery,
      retryDelaysMs: options.retryDelays,
      deliveryTimeoutMs: options.deliveryTimeout,
      onStateError: (error) => output.warn({ message: error.message, hint: 'It is tried again at the next change, and when the sandbox stops.' }),
      // Only with --debug: a script that never reads stderr must not block the sandbox on a full pipe.
      // A line for people, or a {"debug"} line with --json (stderr is JSON lines then); the target as received, made safe.
      // Secrets a client sent in the query (client_secret, access_token, …) or the clients' own secrets anywhere in it are masked (README: Where secrets live).
      onRequest: debug ? (r) => output.debug(`${new Date(r.at).toISOString()} ${r.method} ${redactor.target(r.url)} ${r.status || 'no answer'}`) : undefined,
    });
  } catch (error) {
    if (error instanceof SeedError) throw new UsageError(`${error.message}${options.seedFile ? ` (in ${options.seedFile})` : ''}.`, 'See README: Sandbox (seed format).');
    if (error instanceof SandboxStateError) throw stateError(error, tls.stateDir!);
    if (error instanceof StreamLimitError) throw streamLimitError(error, options, tls.stateDir);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new IdmError(`Port ${options.port ?? (error as { port?: number }).port} on 127.0.0.1 is already in use.`, { hint: 'Choose another with --port, or --port 0 for a free one.', code: 'port_in_use' });
    }
    throw error;
  }

  redactor.add(sandbox.clients.admin.clientSecret);
  redactor.add(sandbox.clients.reader.clientSecret);
  if (sandbox.restored && (seed !== undefined || options.streams !== undefined)) {
    output.note(`The tenant saved in ${tls.stateDir} is used as it was: --seed and --streams apply only to a new one.`);
  }
  // Beside the saved tenant with --state-dir (kept), else in a fresh 0700 directory (removed at the end).
  let temporary: string | undefined;
  try {
    // Stopped while it was starting (Ctrl-C during a long --streams): closed (finally, below), not
    // announced as running: no URLs, credentials or files for a tenant that is already gone. A whole
    // turn of the event loop first (its poll phase reads a signal that came during the start's
    // synchronous work; one setImmediate may run before it).
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    if (deps.io.signal.aborted) {
      deps.io.restoreTerminal();
      if (!json) output.note('Sandbox stopped.');
      return;
    }
    // It runs until a signal, as it says: a reader of its output that goes away (`| head -1`, which
    // may go before the last line or after it) no longer takes what it prints, and stops nothing.
    deps.io.outliveReaders();
    // Inside the try: a file that cannot be written (or a temporary directory that cannot be made)
    // stops the sandbox, as an interrupt does.
    if (tls.stateDir === undefined) {
      temporary = mkdtempSync(join(tmpdir(), 'idm-sandbox-'));
      // mkdtemp takes the umask off 0700: under umask 177, 0600, which cannot be entered. Best effort,
      // as core/dirs.ts makeDirectories: a file system without modes (vfat) refuses a chmod.
      try {
        chmodSync(temporary, 0o700);
      } catch {
        // kept as that file system keeps it
      }
    }
    const dir = tls.stateDir ?? temporary!;
    const files = writeSandboxFiles(sandbox, dir, tls.stateDir ? 'Move what is in the way out of --state-dir, or check its space and permissions.' : 'Check the space and permissions of the temporary directory (TMPDIR).');
    const stats = sandbox.stats();
    const client = (name: 'admin' | 'reader') => {
      const { clientId, clientSecret, scopes, signingAlg } = sandbox.clients[name];
      return { clientId, clientSecret, scopes, signingAlg, ...files.clients[name] };
    };
    const mtls = sandbox.clients.mtls && files.mtls && {
      clientId: sandbox.clients.mtls.clientId,
      scopes: sandbox.clients.mtls.scopes,
      certificateFingerprints: sandbox.clients.mtls.certificateFingerprints,
      ...files.mtls,
      ...(sandbox.edgeKey ? { edgeKey: sandbox.edgeKey } : {}),
    };
    if (json) {
      // One line, so that a script can read the first line and parse it; made safe as every JSON idm
      // prints: a saved tenant's names and ids come from state.json, a file.
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
        clients: { admin: client('admin'), reader: client('reader'), ...(mtls ? { mtls } : {}) },
        ...(files.caFile ? { caFile: files.caFile } : {}),
        ...(files.clientCaFile ? { clientCaFile: files.clientCaFile } : {}),
      };
      deps.io.out(`${safeJson(summary)}\n`);
    } else {
      // At a terminal, a client's scopes are broken between scopes under the first (the terminal
      // would break one in the middle); piped, one line.
      const scopeLines = (scopes: readonly string[]) =>
        (deps.io.stdoutIsTTY ? wrapWords(scopes.join(' '), Math.max(20, deps.io.columns - 15)) : [scopes.join(' ')]).map((line, index) => `${index === 0 ? '  scopes       ' : ' '.repeat(15)}${line}`);
      const lines = [
        `Tenant         ${sandbox.url}`,
        `API            ${sandbox.apiUrl}   (audience ${sandbox.apiUrl}/)`,
        `Token URL      ${sandbox.tokenUrl}`,
        `Webhook inbox  ${sandbox.inboxUrl}   (received: ${sandbox.url}/sandbox/inbox)`,
        `Control        ${sandbox.url}/sandbox`,
        ...(files.caFile ? ['', `CA file        ${files.caFile}   (the tenant's certificate is signed by it; trust it:)`, ...trustLines(files.caFile)] : []),
        ...(tls.stateDir ? ['', `State          ${tls.stateDir}   (kept: the same clients and data at the next start)`] : []),
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
          ...scopeLines(c.scopes),
          '',
        );
      }
      if (mtls) {
        lines.push(
          'Client mtls   (tls_client_auth: a certificate, no secret)',
          `  client id    ${mtls.clientId}`,
          `  certificate  ${mtls.certFile}`,
          `  key          ${mtls.keyFile}`,
          `  fingerprint  ${mtls.certificateFingerprints[0]}   (SHA-256)`,
          ...(files.clientCaFile ? [`  issued by    ${files.clientCaFile}   (the sandbox's CA: what an edge verifies client certificates with)`] : []),
          ...(mtls.edgeKey ? [`  edge         headers client-certificate, client-certificate-ca-verified, cname-api-key: ${mtls.edgeKey}`] : []),
          ...scopeLines(mtls.scopes),
          '',
        );
      }
      for (const line of lines.join('\n').trimEnd().split('\n')) output.line(line);
      const trust = files.caFile ? ['--ca-file', files.caFile] : [];
      output.note('');
      output.note(`Try: ${shellCommand(['idm', 'login', '--domain', sandbox.url, '--client-id', sandbox.clients.admin.clientId, '--client-secret-file', files.clients.admin.clientSecretFile, ...trust])}`);
      if (mtls && !mtls.edgeKey) {
        output.note(`  or: ${shellCommand(['idm', 'login', '--domain', sandbox.url, '--auth-method', 'tls_client_auth', '--client-id', mtls.clientId, '--client-cert', mtls.certFile, '--client-key', mtls.keyFile, ...trust])}`);
      }
      output.note('');
      output.note('Running until Ctrl-C.');
    }
    // Runs until stopped (Ctrl-C, SIGTERM, SIGHUP): that is how it ends, not a failure.
    const { signal } = deps.io;
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  } finally {
    try {
      await sandbox.close();
    } catch (error) {
      if (error instanceof SandboxStateError) throw stateError(error, tls.stateDir!);
      throw error;
    } finally {
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    }
  }
  if (!json) {
    // Ctrl-C is how it ends: the ^C the terminal echoed is cleared, not left in front of the note.
    deps.io.restoreTerminal();
    output.note('Sandbox stopped.');
  }
}
