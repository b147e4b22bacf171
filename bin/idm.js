#!/usr/bin/env node
// The `idm` command. CommonJS on purpose (bin/package.json): Node starts a CommonJS file without its
// ES module loader, which is a good part of what a short command costs. What people and shells run
// most is answered here without loading the CLI:
//   idm --version, idm --help            text the build rendered with the real program (dist/*.txt;
//                                        test/e2e/fast-paths.test.ts keeps them equal)
//   idm completion --values KIND          what a TAB offers (profile names, ids of the last listings),
//   idm completion --profiles             from a small CommonJS bundle (dist/values.cjs)
// Everything else loads the CLI (dist/main.cjs, CommonJS too, with the code cache the build made),
// which returns the exit code: nothing deep inside ever calls process.exit.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist');
const TEXTS = { '--version': 'version.txt', '-V': 'version.txt', '--help': 'help.txt', '-h': 'help.txt' };

/**
 * Writes a fast path's answer straight to fd 1: building process.stdout loads node:stream, about
 * 3 ms of a run that takes 25. A closed pipe (idm --help | head -1) ends the output; not an error.
 */
function writeOut(text) {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += fs.writeSync(1, bytes, written);
  } catch (error) {
    if (error.code === 'EAGAIN') {
      // stdout is a non-blocking pipe that is full: let the stream wait for it.
      process.stdout.on('error', () => {});
      process.stdout.write(bytes.subarray(written));
    } else if (error.code !== 'EPIPE') {
      // A full disk, say: in the CLI's words for a refused write (loaded for this alone), exit 1.
      process.stderr.write(loadCli().cli.outputFailure(error));
      process.exitCode = 1;
    }
  }
}

/**
 * Loads dist/main.cjs as require() would, but hands V8 the code cache the build made of it
 * (dist/main.cjs.cache, scripts/build.mjs): V8 then skips parsing the bundle and compiling what the
 * build's training run compiled. The bundles main.cjs loads when a command needs them (the request
 * schemas, chalk, prompts, conf) come the same way. A cache made by another Node is rejected by V8
 * and costs nothing but its read. With source maps on (--enable-source-maps), plain require() keeps
 * them working.
 */
function loadCli() {
  const file = path.join(DIST, 'main.cjs');
  if (process.sourceMapsEnabled) return { cli: require(file), scripts: new Map() };
  const vm = require('node:vm');
  const Module = module.constructor; // require('node:module') would load the ES module loader too
  const scripts = new Map(); // file -> vm.Script: what the build's training run makes caches of
  const loaded = new Map(); // file -> exports, as require's own cache
  const load = (file, requireInside) => {
    if (loaded.has(file)) return loaded.get(file);
    let cachedData;
    try {
      cachedData = fs.readFileSync(`${file}.cache`);
    } catch {
      // no cache: compiled as usual
    }
    // The bundles are ASCII (esbuild escapes the rest; scripts/build.mjs checks): read as latin1,
    // which spares a UTF-8 decode of a quarter of a megabyte.
    const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
    const bundle = new Module(file, module);
    bundle.filename = file;
    const plain = Module.createRequire(file);
    scripts.set(file, script);
    loaded.set(file, bundle.exports);
    script.runInThisContext()(bundle.exports, requireInside ? Object.assign(requireInside(plain), plain) : plain, bundle, file, DIST);
    bundle.loaded = true;
    loaded.set(file, bundle.exports);
    return bundle.exports;
  };
  // main.cjs's require() of one of its bundles ('./requests.cjs') goes through load() too.
  const bundlesToo = (plain) => (id) => (id.startsWith('./') && id.endsWith('.cjs') ? load(path.join(DIST, id)) : plain(id));
  return { cli: load(file, bundlesToo), scripts };
}

if (require.main !== module) {
  module.exports = { loadCli }; // for the build's training run
} else {
  const args = process.argv.slice(2);
  const completion = args[0] === 'completion' && ((args.length === 2 && args[1] === '--profiles') || (args.length === 3 && args[1] === '--values'));
  if (args.length === 1 && Object.hasOwn(TEXTS, args[0])) {
    writeOut(fs.readFileSync(path.join(DIST, TEXTS[args[0]])));
  } else if (completion && require('../dist/values.cjs').known(args[2] ?? 'profiles')) {
    require('../dist/values.cjs')
      .completionValues(process.env, args[2] ?? 'profiles')
      .then((values) => writeOut(values.map((value) => `${value}\n`).join('')));
  } else {
    loadCli()
      .cli.main(process.argv)
      .then((code) => {
        process.exitCode = code;
      });
  }
}
