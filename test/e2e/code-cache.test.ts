// The build makes V8 code caches of the CLI's bundles (scripts/build.mjs) and bin/idm.js hands them
// to V8: about 10 ms of every command. V8 drops a cache that does not fit without a word, so this
// checks that the caches the build made are the ones V8 takes, for the bundles a run loads.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const DIST = join(BIN, '..', '..', 'dist');

describe('the code caches of the build', () => {
  it('exist for main.cjs and the bundles a run loads, and V8 accepts them', () => {
    for (const bundle of ['main.cjs', 'requests.cjs', 'vendor-chalk.cjs']) expect(existsSync(join(DIST, `${bundle}.cache`)), bundle).toBe(true);
    const probe = `
      const { loadCli } = require(${JSON.stringify(BIN)});
      const { cli, scripts } = loadCli();
      const report = {};
      for (const [file, script] of scripts) report[require('node:path').basename(file)] = script.cachedDataRejected;
      process.stdout.write(JSON.stringify({ report, main: typeof cli.main }));`;
    const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(result.stderr).toBe('');
    const { report, main } = JSON.parse(result.stdout) as { report: Record<string, boolean>; main: string };
    expect(main).toBe('function');
    expect(report).toEqual({ 'main.cjs': false });
  });

  it('a bundle that main.cjs requires (the request schemas) comes through its cache too', () => {
    // --wait-timeout without --wait: refused after the body (with --data: the schemas check it) was checked, before any request.
    const probe = `
      const { Writable } = require('node:stream');
      const { loadCli } = require(${JSON.stringify(BIN)});
      const { cli, scripts } = loadCli();
      const sink = new Writable({ write: (chunk, encoding, done) => done() });
      cli.main(['node', 'idm', 'streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data', '{}', '--wait-timeout', '5'],
        { stdin: process.stdin, stdout: sink, stderr: sink }, { IDM_DOMAIN: 'http://127.0.0.1:9', IDM_CLIENT_ID: 'c', IDM_CLIENT_SECRET: 's', IDM_CONFIG_DIR: '/nonexistent' })
        .then((code) => {
          const report = {};
          for (const [file, script] of scripts) report[require('node:path').basename(file)] = script.cachedDataRejected;
          process.stdout.write(JSON.stringify({ code, report }));
        });`;
    const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ code: 2, report: { 'main.cjs': false, 'requests.cjs': false } });
  });
});

describe('what loading the CLI loads', () => {
  it('no node:crypto, node:tls, node:https or node:child_process: only the commands that use them load them (about 6 ms of every run)', () => {
    // A script file, not node -e: -e itself loads node:crypto.
    const dir = mkdtempSync(join(tmpdir(), 'idm-modules-'));
    try {
      const script = join(dir, 'probe.cjs');
      writeFileSync(
        script,
        `require(${JSON.stringify(BIN)}).loadCli();
         process.stdout.write(process.moduleLoadList.filter((m) => /^NativeModule (crypto|tls|https|child_process)$/.test(m)).join(','));`,
      );
      const result = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a run whose stdout is a file or /dev/null never builds process.stdout (about 1 ms): its text goes to the descriptor', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-modules-'));
    try {
      const preload = join(dir, 'preload.cjs');
      writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, process.moduleLoadList.join('\\n')));`);
      const env = { ...process.env, NODE_OPTIONS: '', IDM_CONFIG_DIR: join(dir, 'config'), PROBE_OUT: join(dir, 'modules') };
      const buildsStdout = (target: string) => {
        const fd = openSync(target, 'w');
        const result = spawnSync(process.execPath, ['-r', preload, BIN, 'completion', 'bash'], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', env });
        closeSync(fd);
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        return readFileSync(join(dir, 'modules'), 'utf8').split('\n').includes('NativeModule internal/fs/sync_write_stream');
      };
      expect(buildsStdout(join(dir, 'out.sh'))).toBe(false);
      expect(readFileSync(join(dir, 'out.sh'), 'utf8')).toContain('complete -F');
      expect(buildsStdout('/dev/null')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
