// Builds dist/ as CommonJS bundles: Node starts CommonJS without its ES module loader, which was a
// good part of a short command's time (README, Performance). ESM output could be split into chunks
// per dynamic import; CommonJS cannot, so the split is done here by hand:
//   main.cjs        the CLI: every command and everything a request needs (src/main.ts)
//   requests.cjs    the request schemas (zod/mini), loaded by the commands that check a body before sending
//   sandbox.cjs     the local tenant (src/sandbox), a program of its own with its own copy of the schemas
//   vendor-*.cjs    chalk, @inquirer/prompts, conf: loaded when colour, a prompt or a settings write needs them
//   values.cjs      what a TAB runs (idm completion --values), required by bin/idm.js without main.cjs
// A dynamic import() of one of these in src/ becomes a require() of its bundle (lazyBundles below).
// Only modules without classes or state that main.cjs also holds may be bundled apart, so that one
// class never exists twice (an `instanceof` across two copies would fail): the schemas, the sandbox
// and the vendor packages qualify; src/ code that throws idm's errors (the wizard, prompts) stays in
// main.cjs.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

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
  { match: /^conf$/, bundle: 'vendor-conf.cjs', contents: "module.exports = require('conf').default;" },
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

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // import() of the lazy bundles becomes require(): no ES module loader at any point.
  supported: { 'dynamic-import': false },
  define: { IDM_VERSION: JSON.stringify(pkg.version) },
};

await Promise.all([
  build({ ...common, entryPoints: ['src/main.ts'], outfile: `${staging}/main.cjs`, sourcemap: 'linked', plugins: [lazyBundles] }),
  build({ ...common, entryPoints: ['src/commands/completion/values.ts'], outfile: `${staging}/values.cjs` }),
  ...LAZY.map(({ bundle, entry, contents }) =>
    entry
      ? build({ ...common, entryPoints: [entry], outfile: `${staging}/${bundle}` })
      : build({ ...common, stdin: { contents, resolveDir: '.', loader: 'js' }, outfile: `${staging}/${bundle}` }),
  ),
]);

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
