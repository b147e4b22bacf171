#!/usr/bin/env node
// npm run bench: idm's speed and memory against its budgets (README, "Performance").
//
// Starts the bundled sandbox with many streams in its own process, then measures, interleaving the
// commands round by round so that machine drift touches all alike:
//   1. `idm --version` and `idm --help` against `node -e 0`
//   2. `idm streams list --take 100 --json` with a warm token cache, against `node -e 0` and
//      against a two-request curl pipeline (token + list) doing the same work
//   3. `idm streams list --all --json` over every stream: wall time and peak RSS
//   4. 20 concurrent cold-cache `idm streams list` runs: wall time and token requests
//   5. what a TAB completion runs (`idm completion --profiles`)
// Prints a table of medians and ratios, writes bench-results/latest.json, and exits 1 when a
// budget is missed. Options: --rounds N (default 15), --streams N (default 10000).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const ROUNDS = option('--rounds', 15);
const STREAMS = option('--streams', 10_000);
const PARALLEL = 20;
const BIN = fileURLToPath(new URL('../bin/idm.js', import.meta.url));
const NODE = process.execPath;

const BUDGETS = {
  versionRatio: 1.2,
  helpRatio: 1.2,
  listRatio: 1.8,
  allSeconds: 2,
  allRssMb: 150,
  parallelTokenRequests: 1,
};

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

/** Peak RSS (MB) and wall time of one run, from getrusage(RUSAGE_CHILDREN) in a python3 wrapper. */
function peakRss(argv, env) {
  const wrapper =
    'import resource,subprocess,sys,time\n' +
    't=time.monotonic(); r=subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n' +
    'print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.monotonic()-t)';
  const result = spawnSync('python3', ['-c', wrapper, ...argv], { env, encoding: 'utf8' });
  const [code, kb, seconds] = result.stdout.trim().split(/\s+/).map(Number);
  if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}: ${result.stderr}`);
  return { rssMb: kb / 1024, seconds };
}

async function startSandbox() {
  const child = spawn(NODE, [BIN, 'sandbox', 'start', '--port', '0', '--streams', String(STREAMS), '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
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

function cliEnv(info, configDir) {
  const env = { ...process.env, IDM_CONFIG_DIR: configDir, IDM_DOMAIN: info.url };
  for (const key of Object.keys(env)) if (key.startsWith('IDM_') && !['IDM_CONFIG_DIR', 'IDM_DOMAIN'].includes(key)) delete env[key];
  delete env.FORCE_COLOR;
  env.IDM_CLIENT_ID = info.clients.admin.clientId;
  env.IDM_CLIENT_SECRET = info.clients.admin.clientSecret;
  return env;
}

function curlPipeline(info) {
  const admin = info.clients.admin;
  const script =
    `t=$(curl -sf -X POST "$U/oauth/token" -d grant_type=client_credentials -d "client_id=$I" -d "client_secret=$S" --data-urlencode "audience=$U/api/v2/" | sed -E 's/.*"access_token":"([^"]+)".*/\\1/') && ` +
    `curl -sf -H "Authorization: Bearer $t" "$U/api/v2/event-streams?take=100" > /dev/null`;
  return { command: 'sh', argv: ['-c', script], env: { ...process.env, U: info.url, I: admin.clientId, S: admin.clientSecret } };
}

async function main() {
  const hasCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).status === 0;
  const { info, stop } = await startSandbox();
  const work = mkdtempSync(join(tmpdir(), 'idm-bench-'));
  try {
    const warmDir = join(work, 'warm');
    mkdirSync(warmDir);
    const warmEnv = cliEnv(info, warmDir);
    timed(NODE, [BIN, 'streams', 'list', '--take', '1', '--json'], warmEnv); // fills the token cache

    const cases = {
      'node -e 0': () => timed(NODE, ['-e', '0'], process.env),
      'idm --version': () => timed(NODE, [BIN, '--version'], warmEnv),
      'idm --help': () => timed(NODE, [BIN, '--help'], warmEnv),
      'idm streams list --take 100 --json (warm)': () => timed(NODE, [BIN, 'streams', 'list', '--take', '100', '--json'], warmEnv),
      'idm completion --profiles': () => timed(NODE, [BIN, 'completion', '--profiles'], warmEnv),
    };
    if (hasCurl) {
      const curl = curlPipeline(info);
      cases['curl token + list (sh)'] = () => timed(curl.command, curl.argv, curl.env);
    }
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (const name of Object.keys(cases)) cases[name](); // one warm-up each: file cache, JIT of the shell
    for (let round = 0; round < ROUNDS; round++) {
      const order = Object.keys(cases).sort(() => Math.random() - 0.5);
      for (const name of order) samples[name].push(cases[name]());
    }
    const medians = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
    const floor = medians['node -e 0'];

    // 3. --all over every stream: wall time and peak RSS (median of 5 runs).
    const allRuns = Array.from({ length: 5 }, () => peakRss([NODE, BIN, 'streams', 'list', '--all', '--json'], warmEnv));
    const allSeconds = median(allRuns.map((run) => run.seconds));
    const allRssMb = Math.max(...allRuns.map((run) => run.rssMb));
    const allTsv = median(Array.from({ length: 3 }, () => peakRss([NODE, BIN, 'streams', 'list', '--all'], warmEnv).rssMb));

    // 4. 20 concurrent cold-cache runs share one token.
    const coldDir = join(work, 'cold');
    mkdirSync(coldDir);
    const coldEnv = cliEnv(info, coldDir);
    const before = (await sandboxStats(info.url)).tokensIssued;
    const start = process.hrtime.bigint();
    const codes = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        new Promise((resolve) => spawn(NODE, [BIN, 'streams', 'list', '--take', '10', '--json'], { env: coldEnv, stdio: 'ignore' }).on('exit', resolve)),
      ),
    );
    const parallelMs = Number(process.hrtime.bigint() - start) / 1e6;
    const parallelTokens = (await sandboxStats(info.url)).tokensIssued - before;
    if (codes.some((code) => code !== 0)) throw new Error(`parallel runs exited ${codes.join(',')}`);

    const ratio = (name) => medians[name] / floor;
    const checks = [
      ['idm --version / node -e 0', ratio('idm --version'), BUDGETS.versionRatio, 'x'],
      ['idm --help / node -e 0', ratio('idm --help'), BUDGETS.helpRatio, 'x'],
      ['streams list --json (warm) / node -e 0', ratio('idm streams list --take 100 --json (warm)'), BUDGETS.listRatio, 'x'],
      [`streams list --all --json, ${STREAMS} streams: seconds`, allSeconds, BUDGETS.allSeconds, 's'],
      [`streams list --all --json, ${STREAMS} streams: peak RSS`, allRssMb, BUDGETS.allRssMb, 'MB'],
      [`${PARALLEL} parallel cold runs: token requests`, parallelTokens, BUDGETS.parallelTokenRequests, ''],
    ];

    const lines = [`idm benchmark: ${ROUNDS} rounds, sandbox with ${STREAMS} streams, node ${process.version}`, '', 'median wall time (ms)'];
    for (const [name, value] of Object.entries(medians)) {
      lines.push(`  ${name.padEnd(46)} ${value.toFixed(1).padStart(8)}   ${(value / floor).toFixed(2)} x node -e 0`);
    }
    lines.push('', `  --all --json: ${allSeconds.toFixed(2)} s, peak RSS ${allRssMb.toFixed(1)} MB; --all (TSV): peak RSS ${allTsv.toFixed(1)} MB`);
    lines.push(`  ${PARALLEL} parallel cold runs: ${parallelMs.toFixed(0)} ms wall, ${parallelTokens} token request(s)`);
    if (hasCurl) lines.push(`  idm list / curl pipeline: ${(medians['idm streams list --take 100 --json (warm)'] / medians['curl token + list (sh)']).toFixed(2)} x`);
    lines.push('', 'budgets');
    let missed = 0;
    for (const [name, value, budget, unit] of checks) {
      const ok = value <= budget;
      if (!ok) missed++;
      lines.push(`  ${ok ? 'ok  ' : 'MISS'} ${name.padEnd(52)} ${value.toFixed(2).padStart(8)}${unit}  (budget ${budget}${unit})`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);

    const results = {
      at: new Date().toISOString(),
      node: process.version,
      rounds: ROUNDS,
      streams: STREAMS,
      mediansMs: medians,
      all: { seconds: allSeconds, peakRssMb: allRssMb, tsvPeakRssMb: allTsv },
      parallel: { runs: PARALLEL, wallMs: parallelMs, tokenRequests: parallelTokens },
      budgets: checks.map(([name, value, budget]) => ({ name, value, budget, ok: value <= budget })),
    };
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(`bench-results/${results.at.replace(/[:.]/g, '-')}.json`, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nresults: bench-results/latest.json\n`);
    process.exitCode = missed ? 1 : 0;
    if (missed) process.stderr.write(`${missed} budget(s) missed\n`);
  } finally {
    stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
