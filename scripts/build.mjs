// Builds dist/ as CommonJS bundles: Node starts CommonJS without its ES module loader, which was a
// good part of a short command's time (README, Performance). ESM output could be split into chunks
// per dynamic import; CommonJS cannot, so the split is done here by hand:
//   main.cjs        the CLI: every command and everything a request needs (src/main.ts)
//   requests.cjs    the request schemas (zod/mini), loaded by the commands that check a body before sending
//   sandbox.cjs     the local tenant (src/sandbox), a program of its own with its own copy of the schemas
//   vendor-*.cjs    chalk, @inquirer/prompts: loaded when colour or a prompt needs them
//   values.cjs      what a TAB runs (idm completion --values), required by bin/idm.js without main.cjs
//   *.cjs.cache     V8's code caches of main.cjs and its bundles, made by a training run (codeCache
//                   below): bin/idm.js hands them to V8, which then skips parsing and compiling
// A dynamic import() of one of these in src/ becomes a require() of its bundle (lazyBundles below).
// Only modules without classes or state that main.cjs also holds may be bundled apart, so that one
// class never exists twice (an `instanceof` across two copies would fail): the schemas, the sandbox
// and the vendor packages qualify; src/ code that throws idm's errors (the wizard, prompts) stays in
// main.cjs.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { lazyChildProcess } from './lazy-child-process.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Build beside dist/ and swap it in, so that a run of bin/idm.js never sees half a build.
const staging = `dist.building-${process.pid}`;

/** Bundles loaded lazily: what a dynamic import() names (a source path's end, or a package), and the bundle it loads. */
const LAZY = [
  { match: /\/schemas\/requests\.js$/, bundle: 'requests.cjs', entry: 'src/schemas/requests.ts' },
  { match: /\/sandbox\/index\.js$/, bundle: 'sandbox.cjs', entry: 'src/sandbox/index.ts' },
  // Packages: what their bundle's module.exports is. A package used for its default export gives that
  // export itself (src/ is ES modules, and esbuild reads a CommonJS module's default as its exports).
  { match: /^chalk$/, bundle: 'vendor-chalk.cjs', contents: "export * from 'chalk';" },
  { match: /^@inquirer\/prompts$/, bundle: 'vendor-inquirer.cjs', contents: "export * from '@inquirer/prompts';" },
];

const lazyBundles = {
  name: 'lazy-bundles',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const lazy = LAZY.find(({ match }) => match.test(args.path));
      return lazy ? { path: `./${lazy.bundle}`, external: true } : undefined;
    });
  },
};

const minify = !process.argv.includes('--no-minify'); // --no-minify: readable names in a CPU profile

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  minify,
  legalComments: 'none',
  logLevel: 'warning',
  // import() of the lazy bundles becomes require(): no ES module loader at any point.
  supported: { 'dynamic-import': false },
  define: { IDM_VERSION: JSON.stringify(pkg.version) },
};

await Promise.all([
  build({ ...common, entryPoints: ['src/main.ts'], outfile: `${staging}/main.cjs`, sourcemap: 'linked', plugins: [lazyBundles, lazyChildProcess] }),
  build({ ...common, entryPoints: ['src/commands/completion/values.ts'], outfile: `${staging}/values.cjs` }),
  ...LAZY.map(({ bundle, entry, contents }) =>
    entry
      ? build({ ...common, entryPoints: [entry], outfile: `${staging}/${bundle}` })
      : build({ ...common, stdin: { contents, resolveDir: '.', loader: 'js' }, outfile: `${staging}/${bundle}` }),
  ),
]);

// bin/idm.js reads the bundles as latin1, which is their text only while they are ASCII (esbuild
// escapes other characters by default). Unminified, esbuild keeps comments as written (an ellipsis,
// an arrow): latin1 misreads only those, so the check is for the minified bundles that ship.
for (const name of minify ? readdirSync(staging).filter((file) => file.endsWith('.cjs')) : []) {
  if (readFileSync(`${staging}/${name}`).some((byte) => byte > 0x7f)) throw new Error(`${name} is not ASCII: bin/idm.js reads it as latin1`);
}

// `idm --version` and `idm --help` are answered by bin/idm.js from these files without loading the
// CLI. The help text is the real program's, rendered here.
writeFileSync(`${staging}/version.txt`, `${pkg.version}\n`);
const help = spawnSync(process.execPath, ['-e', `require('./${staging}/main.cjs').main(['node', 'idm', '--help']).then((code) => { process.exitCode = code; });`], { encoding: 'utf8' });
if (help.status !== 0 || !help.stdout.includes('Usage: idm')) throw new Error(`rendering idm --help failed: ${help.stderr}`);
writeFileSync(`${staging}/help.txt`, help.stdout);

try {
  renameSync('dist', `dist.old-${process.pid}`);
} catch {
  // no previous build
}
renameSync(staging, 'dist');
rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });

codeCache();

/**
 * dist/*.cjs.cache: V8's code caches of main.cjs and the bundles it loads, after a training run in
 * this process: a warm `idm streams list` (piped and at a terminal, in colour), `streams show`,
 * `streams test` (with and without data) and `provisioning create` against a sandbox (the prompts
 * for people at a terminal, are left to compile as usual).
 * bin/idm.js gives them to V8, which then neither parses the bundles nor compiles the functions the
 * run used: about 10 ms of every command. A cache is only good for this Node (V8 checks its version,
 * flags and the source) and is ignored otherwise; without one idm works the same, only slower.
 */
function codeCache() {
  const training = `
    const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
    const { Writable } = require('node:stream');
    const { loadCli } = require('./bin/idm.js');
    const { startSandbox } = require('./dist/sandbox.cjs');
    (async () => {
      const { cli, scripts } = loadCli();
      const sandbox = await startSandbox({ port: 0 });
      const configDir = mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'idm-build-'));
      const env = { IDM_CONFIG_DIR: configDir, IDM_DOMAIN: sandbox.url, IDM_CLIENT_ID: sandbox.clients.admin.clientId, IDM_CLIENT_SECRET: sandbox.clients.admin.clientSecret };
      const sink = new Writable({ write: (chunk, encoding, done) => done() });
      const streams = { stdin: process.stdin, stdout: sink, stderr: sink };
      const stream = sandbox.seededStreams()[0].id;
      const connection = sandbox.connections().find((c) => c.provisioning === 'not configured').id;
      const runs = [
        [['streams', 'list', '--take', '1'], env],
        [['streams', 'list', '--take', '100', '--json'], env],
        [['streams', 'list', '--take', '100'], { ...env, IDM_FORCE_TTY: 'stdout', FORCE_COLOR: '1', COLUMNS: '120' }],
        [['streams', 'show', stream], env],
        [['streams', 'test', stream, '--event-type', 'user.created'], env],
        // The request schemas, for the bodies that need them (a test event with data, a stream from flags).
        [['streams', 'test', stream, '--event-type', 'user.created', '--data', '{"object":{"user_id":"u1"}}'], env],
        [['provisioning', 'create', connection, '--mapping', 'a=b'], env],
        [['provisioning', 'show', connection], env],
      ];
      try {
        for (const [argv, runEnv] of runs) {
          const code = await cli.main(['node', 'idm', ...argv], streams, runEnv);
          if (code !== 0) throw new Error('idm ' + argv.join(' ') + ' exited ' + code);
        }
        for (const [file, script] of scripts) writeFileSync(file + '.cache', script.createCachedData());
      } finally {
        await sandbox.close();
        rmSync(configDir, { recursive: true, force: true });
      }
    })().catch((error) => { console.error(error.message); process.exitCode = 1; });`;
  const result = spawnSync(process.execPath, ['-e', training], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (result.status !== 0) process.stderr.write(`build: no code cache (idm starts about 10 ms slower): ${result.stderr.trim()}\n`);
}
