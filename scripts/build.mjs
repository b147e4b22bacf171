// Bundles src/main.ts into dist/ with code splitting: the common paths live in one file and every
// dynamically imported module (prompts, sandbox, zod schemas, table rendering) becomes its own chunk,
// loaded only by the commands that need it. Start-up time is a budget (see README, npm run bench).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Build beside dist/ and swap it in, so that a run of bin/idm.js never sees half a build.
const staging = `dist.building-${process.pid}`;

await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  define: { IDM_VERSION: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies (commander, cli-table3) require() node built-ins. Everything else
  // is bundled, so a require that hands out built-ins is enough, and cheaper than node:module's.
  banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
});

// What a TAB runs (idm completion --values KIND), as a small CommonJS bundle that bin/idm.js requires
// without loading the CLI.
await build({
  entryPoints: { values: 'src/commands/completion/values.ts' },
  outdir: staging,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// `idm --version` and `idm --help` are answered by bin/idm.js from these files without loading the
// CLI (their budget is 1.2x a bare node start). The help text is the real program's, rendered here.
writeFileSync(`${staging}/version.txt`, `${pkg.version}\n`);
const help = spawnSync(process.execPath, ['--input-type=module', '-e', `const { main } = await import('./${staging}/main.js'); process.exitCode = await main(['node', 'idm', '--help']);`], { encoding: 'utf8' });
if (help.status !== 0 || !help.stdout.includes('Usage: idm')) throw new Error(`rendering idm --help failed: ${help.stderr}`);
writeFileSync(`${staging}/help.txt`, help.stdout);

try {
  renameSync('dist', `dist.old-${process.pid}`);
} catch {
  // no previous build
}
renameSync(staging, 'dist');
rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });
