import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { IDM_VERSION: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Hundreds of processes and 64 MB answers: npm run test:stress (vitest.stress.config.ts).
    exclude: ['test/stress/**', '**/node_modules/**'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Fails the run when a secret shows up in any idm output of the suite (test/helpers/secrets-sweep.ts).
    globalSetup: ['test/helpers/secrets-sweep.ts'],
    // Refuses, and fails the test for, any connection beyond loopback, in the workers and every
    // process they start (test/helpers/loopback-guard.mjs).
    setupFiles: ['test/helpers/loopback-guard-setup.ts'],
    // The machine has 2 cores; end-to-end tests spawn processes and servers.
    maxWorkers: 2,
    // Above the longest limit of the harnesses (a spawned idm is killed after 120 s, helpers/cli.ts
    // KILL_AFTER_MS; a terminal's screen is waited for 60 s, helpers/tmux.ts): a test that runs this
    // long is a failure, never a measure of speed.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
