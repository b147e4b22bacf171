#!/usr/bin/env node
// The CLI lives in the bundle built from src/ (npm run build); this file hands over argv and sets the
// exit code, so that nothing deep inside ever calls process.exit.
//
// `idm --version` and `idm --help` alone are answered from text the build rendered with the real
// program (dist/version.txt, dist/help.txt), without loading it: they are what CI logs and people
// probe most, and their budget is 1.2x a bare node start. test/fast-paths.test.ts keeps them equal.
const args = process.argv.slice(2);
const fastPath = args.length === 1 ? { '--version': 'version.txt', '-V': 'version.txt', '--help': 'help.txt', '-h': 'help.txt' }[args[0]] : undefined;

if (fastPath) {
  process.stdout.write(process.getBuiltinModule('node:fs').readFileSync(new URL(`../dist/${fastPath}`, import.meta.url)));
} else {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}
