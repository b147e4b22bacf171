// Bundles src/main.ts into dist/ with code splitting: the common paths live in one file and every
// dynamically imported module (prompts, sandbox, zod schemas, table rendering) becomes its own chunk,
// loaded only by the commands that need it. Start-up time is a budget (see README, npm run bench).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
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
