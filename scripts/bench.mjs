#!/usr/bin/env node
// npm run bench: idm's speed and memory against its budgets (README, "Performance").
//
// Honest by construction:
//   - Every case, the baseline included, runs with an environment cleaned of what changes Node's
//     start (NODE_EXTRA_CA_CERTS, NODE_OPTIONS and every other NODE_* / UV_* variable): this
//     machine sets NODE_EXTRA_CA_CERTS to a large bundle, which adds ~45 ms to every start and so
//     flatters every ratio; a user's machine does not have it.
//   - Cases are interleaved round by round in a random order, so that machine drift touches all alike.
//   - Each idm command is compared with `node -e 0` and with the floor for a Node tool: a minimal
//     CommonJS script on node:http that reads the cached token from a file and makes the same request.
//     A second floor adds commander parsing idm's flags (the design card's parser) before the request.
//
// Measures:
//   1. start-up: idm --version / --help / completion --profiles against node -e 0
//   2. warm single-request commands (streams list --take 100 --json, streams show, streams test on
//      the asynchronous sandbox, provisioning create --mapping a=b, provisioning show), each against
//      node -e 0 and against the floor script doing the same request
//   3. idm streams list --all --json over 100,000 streams: wall time against a minimal node:http
//      pager doing the same requests, and peak RSS
//   4. the table at a terminal against TSV, per row, over 10,000 streams
//   5. 100 concurrent cold-cache runs against one config directory: token requests and failures
// Prints a table, writes bench-results/latest.json (and a dated copy), exits 1 when a budget is missed.
// Options: --rounds N (default 21), --streams N (default 100000), --table-streams N (default 10000),
// --parallel N (default 100).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { lazyChildProcess } from './lazy-child-process.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const ROUNDS = option('--rounds', 21);
const STREAMS = option('--streams', 100_000);
const TABLE_STREAMS = option('--table-streams', 10_000);
const PARALLEL = option('--parallel', 100);
const BIN = fileURLToPath(new URL('../bin/idm.js', import.meta.url));
const NODE = process.execPath;

const BUDGETS = {
  startup: 1.08, // idm --version, idm --help: x node -e 0
  completion: 1.15, // idm completion --profiles: x node -e 0
  list: 1.5, // warm streams list --take 100 --json: x node -e 0
  singleRequest: 1.65, // every other warm single-request command: x node -e 0
  allVsPager: 1.15, // --all --json: x the minimal pager's wall time
  allRssMb: 100,
  tablePerRow: 2, // table at a terminal: x TSV, per row
  parallelTokenRequests: 1,
};

/** The environment of every case: nothing that changes how Node starts, no idm settings but the case's. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(NODE_|UV_|IDM_)/.test(key) || key === 'FORCE_COLOR' || key === 'NO_COLOR' || key === 'CI') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
const BASE_ENV = cleanEnv();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Runs a command to completion; returns wall milliseconds. Fails loudly on a non-zero exit. */
function timed(command, argv, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, argv, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${command} ${argv.join(' ')} exited ${result.status}: ${result.stderr?.toString().slice(0, 500)}`);
  }
  return ms;
}

/** Peak RSS (MB), wall seconds and CPU seconds of one run, from getrusage(RUSAGE_CHILDREN) in a python3 wrapper. */
function measured(argv, env) {
  const wrapper =
    'import resource,subprocess,sys,time\n' +
    't=time.monotonic(); r=subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n' +
    'u=resource.getrusage(resource.RUSAGE_CHILDREN)\n' +
    'print(r.returncode, u.ru_maxrss, time.monotonic()-t, u.ru_utime+u.ru_stime)';
  const result = spawnSync('python3', ['-c', wrapper, ...argv], { env, encoding: 'utf8' });
  const [code, kb, seconds, cpuSeconds] = result.stdout.trim().split(/\s+/).map(Number);
  if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}: ${result.stderr}`);
  return { rssMb: kb / 1024, seconds, cpuSeconds };
}

async function startSandbox(streams) {
  const child = spawn(NODE, [BIN, 'sandbox', 'start', '--port', '0', '--streams', String(streams), '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: BASE_ENV,
  });
  const firstLine = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code} before it printed its address`)));
  });
  return { info: JSON.parse(firstLine), stop: () => child.kill('SIGINT') };
}

async function sandboxStats(url) {
  const response = await fetch(`${url}/sandbox/stats`);
  return response.json();
}

function cliEnv(info, configDir, extra = {}) {
  return cleanEnv({
    IDM_CONFIG_DIR: configDir,
    IDM_DOMAIN: info.url,
    IDM_CLIENT_ID: info.clients.admin.clientId,
    IDM_CLIENT_SECRET: info.clients.admin.clientSecret,
    ...extra,
  });
}

// The floor for a Node tool: CommonJS (no ES module loader), node:http, the token read from a file,
// one request, the answer written to stdout. With --all it follows `next` as a pager.
const FLOOR = `'use strict';
const http = require('node:http');
const [method, target, body, all] = process.argv.slice(2);
const token = require('node:fs').readFileSync(process.env.FLOOR_TOKEN_FILE, 'utf8').trim();
const agent = new http.Agent({ keepAlive: true });
function get(url) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => (response.statusCode < 300 ? resolve(Buffer.concat(chunks)) : reject(new Error(String(response.statusCode)))));
    });
    request.on('error', reject);
    request.end(body || undefined);
  });
}
(async () => {
  let url = new URL(target);
  for (;;) {
    const answer = await get(url);
    process.stdout.write(answer);
    if (!all) break;
    const next = JSON.parse(answer).next;
    if (!next) break;
    url.searchParams.set('from', next);
  }
  agent.destroy();
})().catch((error) => { console.error(error.message); process.exitCode = 1; });
`;

// The floor for a tool on the design card's parser: commander (bundled and loaded with a V8 code
// cache, as idm loads its own bundle) parsing idm's global flags and `streams list`'s, then the
// floor's request. What it adds to the floor is what commander alone costs, before any of idm's work.
const COMMANDER_PREAMBLE = `'use strict';
{
  const fs = require('node:fs');
  const file = process.env.FLOOR_COMMANDER;
  let cachedData;
  try { cachedData = fs.readFileSync(file + '.cache'); } catch {}
  const script = new (require('node:vm').Script)(module.constructor.wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, require, bundle, file, __dirname);
  const { Command, Option } = bundle.exports;
  const program = new Command('idm').version('0.1.0').option('--json').addOption(new Option('-p, --profile <name>').argParser(String))
    .option('--no-color').option('--no-input').option('--debug');
  for (const flag of ['--timeout <s>', '--max-wait <s>', '--ca-file <path>', '--client-cert <path>', '--client-key <path>']) program.addOption(new Option(flag).argParser(String));
  const list = new Command('list').addOption(new Option('--take <n>').argParser(Number)).option('--from <cursor>').option('--all').action(() => {});
  program.addCommand(new Command('streams').addCommand(list));
  for (const name of ['login', 'logout', 'auth', 'profiles', 'provisioning', 'connections', 'api', 'sandbox', 'completion']) program.addCommand(new Command(name));
  program.parse(['streams', 'list', '--take', '100', '--json'], { from: 'user' });
  if (process.env.FLOOR_COMMANDER_TRAIN) fs.writeFileSync(file + '.cache', script.createCachedData());
}
`;

/** commander as one CommonJS bundle with the stand-in for node:child_process that idm's build gives it. */
async function bundleCommander(outfile) {
  await build({
    stdin: { contents: "module.exports = require('commander');", resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    minify: true,
    logLevel: 'warning',
    outfile,
    plugins: [lazyChildProcess],
  });
}

/** The cached access token idm holds after a warm-up run (the floor reads the same token). */
function cachedToken(configDir) {
  const tokens = join(configDir, 'tokens');
  const file = readdirSync(tokens).find((name) => name.endsWith('.json'));
  if (!file) throw new Error(`no cached token in ${tokens}`);
  const record = JSON.parse(readFileSync(join(tokens, file), 'utf8'));
  const token = record.accessToken ?? record.access_token;
  if (typeof token !== 'string') throw new Error(`no access token in ${file}`);
  return token;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'idm-bench-'));
  const big = await startSandbox(STREAMS);
  const small = await startSandbox(TABLE_STREAMS);
  try {
    const floorScript = join(work, 'floor.cjs');
    writeFileSync(floorScript, FLOOR);
    const commanderFloorScript = join(work, 'floor-commander.cjs');
    writeFileSync(commanderFloorScript, `${COMMANDER_PREAMBLE}${FLOOR.replace("'use strict';\n", '')}`);
    const commanderBundle = join(work, 'commander.cjs');
    await bundleCommander(commanderBundle);
    const warmDir = join(work, 'warm');
    mkdirSync(warmDir);
    const env = cliEnv(big.info, warmDir);
    timed(NODE, [BIN, 'streams', 'list', '--take', '1', '--json'], env); // fills the token cache
    const tokenFile = join(work, 'token');
    writeFileSync(tokenFile, cachedToken(warmDir));
    const floorEnv = cleanEnv({ FLOOR_TOKEN_FILE: tokenFile });
    const api = `${big.info.url}/api/v2`;
    const floor = (method, path, body = '') => () => timed(NODE, [floorScript, method, `${api}${path}`, body], floorEnv);
    const commanderEnv = { ...floorEnv, FLOOR_COMMANDER: commanderBundle };
    timed(NODE, [commanderFloorScript, 'GET', `${api}/event-streams?take=1`], { ...commanderEnv, FLOOR_COMMANDER_TRAIN: '1' }); // its code cache

    const stream = JSON.parse(spawnSync(NODE, [BIN, 'streams', 'list', '--take', '1', '--json'], { env, encoding: 'utf8' }).stdout).eventStreams[0].id;
    const freeConnection = big.info.connections.find((c) => c.provisioning === 'not configured').id;
    const configured = big.info.connections.find((c) => c.provisioning === 'configured').id;
    const testBody = JSON.stringify({ event_type: 'user.created' });
    const createBody = JSON.stringify({ mapping: [{ platform: 'a', idp: 'b' }] });
    const unprovision = () => spawnSync(NODE, [floorScript, 'DELETE', `${api}/connections/${freeConnection}/directory-provisioning`], { env: floorEnv });
    unprovision();
    // provisioning create needs an unconfigured connection each time: the untimed delete after it restores that.
    const thenUnprovision = (run) => () => {
      const ms = run();
      if (unprovision().status !== 0) throw new Error('could not remove the provisioning configuration between rounds');
      return ms;
    };
    const idm = (...argv) => () => timed(NODE, [BIN, ...argv], env);

    // name: [run, floor case or undefined, budget x node -e 0 or undefined]
    const cases = {
      'node -e 0': [() => timed(NODE, ['-e', '0'], BASE_ENV)],
      'idm --version': [idm('--version'), undefined, BUDGETS.startup],
      'idm --help': [idm('--help'), undefined, BUDGETS.startup],
      'idm completion --profiles': [idm('completion', '--profiles'), undefined, BUDGETS.completion],
      'floor: list': [floor('GET', '/event-streams?take=100')],
      'floor + commander: list': [() => timed(NODE, [commanderFloorScript, 'GET', `${api}/event-streams?take=100`], commanderEnv), 'floor: list'],
      'idm streams list --take 100 --json': [idm('streams', 'list', '--take', '100', '--json'), 'floor: list', BUDGETS.list],
      'floor: show': [floor('GET', `/event-streams/${stream}`)],
      'idm streams show ID': [idm('streams', 'show', stream), 'floor: show', BUDGETS.singleRequest],
      'floor: test': [floor('POST', `/event-streams/${stream}/test`, testBody)],
      'idm streams test ID --event-type user.created': [idm('streams', 'test', stream, '--event-type', 'user.created'), 'floor: test', BUDGETS.singleRequest],
      'floor: provisioning create': [thenUnprovision(floor('POST', `/connections/${freeConnection}/directory-provisioning`, createBody))],
      'idm provisioning create ID --mapping a=b': [
        thenUnprovision(idm('provisioning', 'create', freeConnection, '--mapping', 'a=b')),
        'floor: provisioning create',
        BUDGETS.singleRequest,
      ],
      'floor: provisioning show': [floor('GET', `/connections/${configured}/directory-provisioning`)],
      'idm provisioning show ID': [idm('provisioning', 'show', configured), 'floor: provisioning show', BUDGETS.singleRequest],
    };
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (const [run] of Object.values(cases)) run(); // one warm-up each: file cache, the sandbox's JIT
    for (let round = 0; round < ROUNDS; round++) {
      const order = Object.keys(cases).sort(() => Math.random() - 0.5);
      for (const name of order) samples[name].push(cases[name][0]());
    }
    const medians = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
    const nodeMs = medians['node -e 0'];

    // 3. --all --json over every stream, against a minimal node:http pager doing the same requests.
    const pagerArgv = [NODE, floorScript, 'GET', `${api}/event-streams?take=100`, '', 'all'];
    const allArgv = [NODE, BIN, 'streams', 'list', '--all', '--take', '100', '--json'];
    const allRuns = [];
    const pagerRuns = [];
    for (let i = 0; i < 7; i++) {
      pagerRuns.push(measured(pagerArgv, floorEnv));
      allRuns.push(measured(allArgv, env));
    }
    const allSeconds = median(allRuns.map((run) => run.seconds));
    const pagerSeconds = median(pagerRuns.map((run) => run.seconds));
    const allRssMb = Math.max(...allRuns.map((run) => run.rssMb));

    // 4. The table at a terminal against TSV, per row: idm's CPU time for (all rows - one row) / rows,
    //    each mode (CPU, not wall: the sandbox's time to serve the pages is the same for both).
    const tableDir = join(work, 'table');
    mkdirSync(tableDir);
    const tsvEnv = cliEnv(small.info, tableDir);
    const tableEnv = cliEnv(small.info, tableDir, { IDM_FORCE_TTY: 'stdout', COLUMNS: '120' });
    timed(NODE, [BIN, 'streams', 'list', '--take', '1'], tsvEnv);
    const perRow = (rowEnv) => {
      const cpuMs = (argv) => median(Array.from({ length: 5 }, () => measured([NODE, BIN, ...argv], rowEnv).cpuSeconds * 1000));
      return (cpuMs(['streams', 'list', '--all', '--take', '100']) - cpuMs(['streams', 'list', '--take', '1'])) / TABLE_STREAMS;
    };
    const tsvPerRow = perRow(tsvEnv);
    const tablePerRow = perRow(tableEnv);

    // 5. Concurrent cold-cache runs share one token.
    const coldDir = join(work, 'cold');
    mkdirSync(coldDir);
    const coldEnv = cliEnv(big.info, coldDir);
    const before = (await sandboxStats(big.info.url)).tokensIssued;
    const start = process.hrtime.bigint();
    const codes = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        new Promise((resolve) => spawn(NODE, [BIN, 'streams', 'list', '--take', '10', '--json'], { env: coldEnv, stdio: 'ignore' }).on('exit', resolve)),
      ),
    );
    const parallelMs = Number(process.hrtime.bigint() - start) / 1e6;
    const parallelTokens = (await sandboxStats(big.info.url)).tokensIssued - before;
    const parallelFailures = codes.filter((code) => code !== 0).length;

    const checks = [];
    const lines = [
      `idm benchmark: ${ROUNDS} rounds, node ${process.version}, ${STREAMS} streams (--all) and ${TABLE_STREAMS} (table)`,
      `environment of every case: NODE_*, UV_*, IDM_*, CI, colour variables removed`,
      '',
      `median wall time (ms)                                   ms    x node -e 0   x floor   ms over floor`,
    ];
    for (const [name, [, floorName, budget]] of Object.entries(cases)) {
      const ms = medians[name];
      const vsNode = ms / nodeMs;
      const vsFloor = floorName ? `${(ms / medians[floorName]).toFixed(2)}` : '';
      // What idm adds to the floor, in ms: the figure its own start-up work is measured by.
      const overFloor = floorName ? `+${(ms - medians[floorName]).toFixed(1)}` : '';
      lines.push(`  ${name.padEnd(48)} ${ms.toFixed(1).padStart(7)}   ${vsNode.toFixed(2).padStart(6)}      ${vsFloor.padStart(6)}   ${overFloor.padStart(8)}`);
      if (budget) checks.push([`${name} / node -e 0`, vsNode, budget, 'x']);
    }
    checks.push(
      [`--all --json, ${STREAMS} streams / node:http pager`, allSeconds / pagerSeconds, BUDGETS.allVsPager, 'x'],
      [`--all --json, ${STREAMS} streams: peak RSS`, allRssMb, BUDGETS.allRssMb, 'MB'],
      [`table per row / TSV per row (${TABLE_STREAMS} streams)`, tablePerRow / tsvPerRow, BUDGETS.tablePerRow, 'x'],
      [`${PARALLEL} parallel cold runs: token requests`, parallelTokens, BUDGETS.parallelTokenRequests, ''],
      [`${PARALLEL} parallel cold runs: failures`, parallelFailures, 0, ''],
    );
    lines.push(
      '',
      `  --all --json: ${allSeconds.toFixed(2)} s (pager ${pagerSeconds.toFixed(2)} s), peak RSS ${allRssMb.toFixed(1)} MB`,
      `  per row (CPU): table ${(tablePerRow * 1000).toFixed(1)} us, TSV ${(tsvPerRow * 1000).toFixed(1)} us`,
      `  ${PARALLEL} parallel cold runs: ${parallelMs.toFixed(0)} ms wall, ${parallelTokens} token request(s), ${parallelFailures} failure(s)`,
      '',
      'budgets',
    );
    let missed = 0;
    for (const [name, value, budget, unit] of checks) {
      const ok = value <= budget;
      if (!ok) missed++;
      lines.push(`  ${ok ? 'ok  ' : 'MISS'} ${name.padEnd(60)} ${value.toFixed(2).padStart(8)}${unit}  (budget ${budget}${unit})`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);

    const results = {
      at: new Date().toISOString(),
      node: process.version,
      rounds: ROUNDS,
      streams: STREAMS,
      tableStreams: TABLE_STREAMS,
      mediansMs: medians,
      all: { seconds: allSeconds, pagerSeconds, peakRssMb: allRssMb },
      perRowMs: { table: tablePerRow, tsv: tsvPerRow },
      parallel: { runs: PARALLEL, wallMs: parallelMs, tokenRequests: parallelTokens, failures: parallelFailures },
      budgets: checks.map(([name, value, budget]) => ({ name, value, budget, ok: value <= budget })),
    };
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(`bench-results/${results.at.replace(/[:.]/g, '-')}.json`, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nresults: bench-results/latest.json\n`);
    process.exitCode = missed ? 1 : 0;
    if (missed) process.stderr.write(`${missed} budget(s) missed\n`);
  } finally {
    big.stop();
    small.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
