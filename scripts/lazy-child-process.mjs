// An esbuild plugin for the build and the benchmark: commander loads node:child_process (with net and
// stream) at start for executable subcommands, which idm never has: about 2 ms of every run. It gets
// a stand-in that loads the module if ever called.
export const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(builder) {
    builder.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "exports.spawn = (...args) => require('node:child_process').spawn(...args);",
      loader: 'js',
    }));
  },
};
