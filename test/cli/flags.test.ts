// The builders alone: what each run function receives for given flags, and the usage errors (exit 2)
// for bad ones, with no network and no settings touched.
import { CommanderError, type Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { streamsListCommand } from '../../src/commands/streams/list.js';
import { loginCommand } from '../../src/commands/auth/login.js';
import { logoutCommand } from '../../src/commands/auth/logout.js';
import { authStatusCommand } from '../../src/commands/auth/status.js';
import { UsageError } from '../../src/core/errors.js';
import { commanderMessage } from '../../src/main.js';
import { captureIO, testDeps } from '../helpers/deps.js';

const deps = testDeps(captureIO());

async function parse(command: Command, args: string[]): Promise<unknown> {
  command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  try {
    await command.parseAsync(args, { from: 'user' });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('idm streams list flags', () => {
  it('passes --take, --from and --all to run', async () => {
    const run = vi.fn(async () => {});
    await parse(streamsListCommand(deps, run), ['--take', '20', '--from', 'YzE6Mg', '--all']);
    expect(run).toHaveBeenCalledWith({ take: 20, from: 'YzE6Mg', all: true }, deps);
    const plain = vi.fn(async () => {});
    await parse(streamsListCommand(deps, plain), []);
    expect(plain).toHaveBeenCalledWith({ take: undefined, from: undefined, all: false }, deps);
  });

  it.each([['0'], ['101'], ['abc'], ['1.5'], ['-3'], ['']])('refuses --take %j before any request', async (value) => {
    const run = vi.fn(async () => {});
    const error = await parse(streamsListCommand(deps, run), ['--take', value]);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).code).toBe('commander.invalidArgument');
    expect((error as CommanderError).message).toContain('--take must be');
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses an empty --from', async () => {
    const run = vi.fn(async () => {});
    const error = await parse(streamsListCommand(deps, run), ['--from', '']);
    expect((error as CommanderError).message).toContain('--from must not be empty');
    expect(run).not.toHaveBeenCalled();
  });

  // Three characters: "must not be empty" would name no rule they break (as for --search and group ids).
  it('refuses a --from of spaces, saying so', async () => {
    const run = vi.fn(async () => {});
    const error = await parse(streamsListCommand(deps, run), ['--from', '   ']);
    expect((error as CommanderError).message).toContain('--from holds only spaces: give the `next` of a previous page.');
    expect(run).not.toHaveBeenCalled();
  });

  it('has examples in --help', () => {
    let help = '';
    const command = streamsListCommand(deps).configureOutput({ writeOut: (text) => (help += text) }).exitOverride();
    try {
      command.parse(['--help'], { from: 'user' });
    } catch {
      // help exits
    }
    expect(help).toContain('Examples:');
    expect(help).toContain('idm streams list --take 20');
  });
});

describe('idm login flags', () => {
  it('passes the values to run, the domain normalized to a base URL', async () => {
    const run = vi.fn(async () => {});
    await parse(loginCommand(deps, run), ['--domain', 'tenant.example.com', '--client-id', 'abc', '--client-secret-file', '-', '--auth-method', 'basic']);
    expect(run).toHaveBeenCalledWith(
      { domain: 'https://tenant.example.com', clientId: 'abc', clientSecretFile: '-', privateKeyFile: undefined, signingAlg: undefined, authMethod: 'basic' },
      deps,
    );
    const jwt = vi.fn(async (_opts: unknown, _deps: unknown) => {});
    await parse(loginCommand(deps, jwt), ['--domain', 'http://127.0.0.1:4010/', '--client-id', 'abc', '--private-key-file', 'k.pem', '--signing-alg', 'PS256']);
    expect(jwt.mock.calls[0]![0]).toMatchObject({ domain: 'http://127.0.0.1:4010', privateKeyFile: 'k.pem', signingAlg: 'PS256' });
  });

  it.each([
    [['--domain', 'http://tenant.example.com'], 'http:// is allowed only for loopback hosts'],
    // Reviewed defect: it said "use https://localhost.:4010", which no sandbox answers.
    [['--domain', 'http://LOCALHOST.:4010'], 'http:// is allowed only for loopback hosts (127.x.x.x, exactly localhost, [::1]); write localhost without its final dot: http://localhost:4010'],
    [['--domain', 'https://tenant.example.com/some/path'], 'without a path (https://tenant.example.com)'],
    [['--domain', 'http://127.0.0.1:4010/oauth/token'], '"http://127.0.0.1:4010/oauth/token" must be the tenant\'s address without a path (http://127.0.0.1:4010)'],
    [['--domain', 'tenant.example.com/api/v2/event-streams'], 'without a path (tenant.example.com)'],
    [['--domain', 'ftp://x'], 'must be an https:// URL or a host name'],
    [['--domain', 'http:/127.0.0.1:4010'], '"http:/127.0.0.1:4010" is not a URL: http: takes two slashes (http://127.0.0.1:4010)'],
    [['--domain', 'HTTPS:tenant.example.com'], '"HTTPS:tenant.example.com" is not a URL: https: takes two slashes (https://tenant.example.com)'],
    [['--auth-method', 'magic'], '--auth-method must be one of: post, basic, private_key_jwt'],
    [['--signing-alg', 'HS256'], '--signing-alg must be one of'],
    [['--client-id', 'has space'], '--client-id must be'],
  ])('refuses %j', async (args, message) => {
    const run = vi.fn(async () => {});
    const error = await parse(loginCommand(deps, run), args);
    // In the words main() reports: a value outside a flag's .choices() is commander's refusal.
    expect(error instanceof CommanderError ? commanderMessage(error) : (error as Error).message).toContain(message);
    expect(run).not.toHaveBeenCalled();
  });

  it.each([
    [['--client-secret-file', 'a', '--private-key-file', 'b'], 'either --client-secret-file or --private-key-file'],
    [['--auth-method', 'private_key_jwt', '--client-secret-file', 'a'], 'give --private-key-file'],
    [['--auth-method', 'post', '--private-key-file', 'a'], 'give --client-secret-file'],
    [['--signing-alg', 'RS256', '--client-secret-file', 'a'], '--signing-alg applies only to private_key_jwt'],
  ])('refuses conflicting flags %j as a usage error', async (args, message) => {
    const run = vi.fn(async () => {});
    const error = await parse(loginCommand(deps, run), args);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as Error).message).toContain(message);
    expect(run).not.toHaveBeenCalled();
  });

  it('never takes a secret as a flag value, and does not repeat it in the error', async () => {
    for (const flag of ['--client-secret', '--private-key']) {
      const run = vi.fn(async () => {});
      const error = (await parse(loginCommand(deps, run), [flag, 'super-secret-value'])) as UsageError;
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toContain(`${flag} is not accepted`);
      expect(`${error.message} ${error.hint}`).not.toContain('super-secret-value');
      expect(run).not.toHaveBeenCalled();
    }
  });

  it('refuses --client-secret and --private-key without a value the same way, never asking for a value on the flag', async () => {
    for (const args of [['--client-secret'], ['--private-key'], ['--client-secret', '--client-id', 'abc']]) {
      const run = vi.fn(async () => {});
      const error = (await parse(loginCommand(deps, run), args)) as UsageError;
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`${args[0]} is not accepted: a secret given as a flag's value leaks into shell history and process lists.`);
      expect(error.hint).toContain(`Use ${args[0]}-file <path>`);
      expect(run).not.toHaveBeenCalled();
    }
  });
});

describe('idm logout and auth status flags', () => {
  it('take no arguments of their own', async () => {
    const logout = vi.fn(async () => {});
    await parse(logoutCommand(deps, logout), []);
    expect(logout).toHaveBeenCalledWith({}, deps);
    const status = vi.fn(async () => {});
    await parse(authStatusCommand(deps, status), []);
    expect(status).toHaveBeenCalledWith({}, deps);
    const error = await parse(authStatusCommand(deps, status), ['extra']);
    expect((error as CommanderError).code).toBe('commander.excessArguments');
  });
});
