#!/usr/bin/env node
// The `idm` command. CommonJS on purpose (bin/package.json): Node starts a CommonJS file without its
// ES module loader, which is a good part of what a short command costs. What people and shells run
// most is answered here without loading the CLI:
//   idm --version, idm --help            text the build rendered with the real program (dist/*.txt;
//                                        test/e2e/fast-paths.test.ts keeps them equal)
//   idm completion --values KIND          what a TAB offers (profile names, ids of the last listings),
//   idm completion --profiles             from a small CommonJS bundle (dist/values.cjs)
// Everything else loads the CLI (dist/main.cjs, CommonJS too), which returns the exit code: nothing
// deep inside ever calls process.exit.
'use strict';
const args = process.argv.slice(2);
const TEXTS = { '--version': 'version.txt', '-V': 'version.txt', '--help': 'help.txt', '-h': 'help.txt' };
// A closed pipe (idm --help | head -1) ends the output; it is not an error.
process.stdout.on('error', () => {});

if (args.length === 1 && Object.hasOwn(TEXTS, args[0])) {
  process.stdout.write(require('node:fs').readFileSync(`${__dirname}/../dist/${TEXTS[args[0]]}`));
} else if (args[0] === 'completion' && ((args.length === 2 && args[1] === '--profiles') || (args.length === 3 && args[1] === '--values')) && require('../dist/values.cjs').print(args[2] ?? 'profiles')) {
  // printed
} else {
  require('../dist/main.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
