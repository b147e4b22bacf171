// Bundles src/main.ts into dist/ with code splitting: the common paths live in one file and every
// dynamically imported module (prompts, sandbox, zod schemas, table rendering) becomes its own chunk,
// loaded only by the commands that need it. Start-up time is a budget (see README, npm run bench).
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync } from 'node:fs';

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
  logLevel: 'warning',
  define: { IDM_VERSION: JSON.stringify(pkg.version) },
  // Some CommonJS dependencies call require() on node built-ins; give the ESM bundle a require.
  banner: { js: "import { createRequire as __idmCreateRequire } from 'node:module'; const require = __idmCreateRequire(import.meta.url);" },
});

try {
  renameSync('dist', `dist.old-${process.pid}`);
} catch {
  // no previous build
}
renameSync(staging, 'dist');
rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });
