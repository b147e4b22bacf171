// idm login: store a tenant's domain, client id and client authentication as a profile, after
// proving them with a token request. At a terminal it asks for what the flags did not give; in
// scripts every value comes from flags, files or the environment. A secret is never a flag's value.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { once, parseChoice } from '../../cli/parse.js';
import { checkDomain, parseDomain } from '../../config/domain.js';
import { openToOthers } from '../../config/files.js';
import { AUTH_METHODS, SIGNING_ALGS, type AuthMethod, type SigningAlg } from '../../config/methods.js';
import { configDir } from '../../config/paths.js';
import * as profiles from '../../config/profiles.js';
import * as resolve from '../../config/resolve.js';
import { checkProfileWritable, openSettings } from '../../config/store.js';
import { resolve as resolvePath } from 'node:path';
import { proxyFor } from '../../api/proxy.js';
import { readCertificates, readClientCertificate } from '../../api/tls.js';
import { ApiError, CancelledError, UsageError } from '../../core/errors.js';
import { looksLikePem } from '../../core/secrets.js';
import { andList, hasUnsafeCharacters, shellCommand, shellQuote } from '../../core/text.js';
import * as input from '../../io/input.js';
import type { Prompter } from '../../io/prompter.js';
import { displayWidth } from '../../output/width.js';

export interface LoginOptions {
  domain?: string;
  clientId?: string;
  /** A path, or `-` for stdin. */
  clientSecretFile?: string;
  privateKeyFile?: string;
  signingAlg?: SigningAlg;
  authMethod?: AuthMethod;
}

interface LoginFlags extends LoginOptions {
  /** Refused whatever they hold (`true`: the flag without a value). */
  clientSecret?: string | true;
  privateKey?: string | true;
}

function parseDomainFlag(value: string): string {
  const result = checkDomain(value);
  if (typeof result === 'string') throw new InvalidArgumentError(`--domain ${result}.`);
  return result.base;
}

function parseClientId(value: string): string {
  const problem = value === '' ? 'is empty' : resolve.clientIdProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`--client-id ${problem}.`);
  return value;
}

export function loginCommand(deps: Deps, run = loginRun): Command {
  return new Command('login')
    .description('Store credentials for a tenant as a profile (checked with a token request first)')
    .option('--domain <domain>', 'tenant domain: a host (tenant.example.com) or base URL (else IDM_DOMAIN, or asked)', once('--domain', parseDomainFlag))
    .option('--client-id <id>', 'client (application) id (else IDM_CLIENT_ID, or asked)', once('--client-id', parseClientId))
    .option('--client-secret-file <path>', 'read the client secret from this file, or - for stdin (else IDM_CLIENT_SECRET, or asked)', once('--client-secret-file', undefined, { secret: true }))
    .option('--private-key-file <path>', 'PEM private key for private_key_jwt, or - for stdin (else IDM_PRIVATE_KEY, or asked)', once('--private-key-file', undefined, { secret: true }))
    .addOption(new Option('--signing-alg <alg>', "assertion algorithm (default: the profile's when the key can make it, else by key type)").choices(SIGNING_ALGS).argParser(once('--signing-alg', parseChoice('--signing-alg', SIGNING_ALGS))))
    .addOption(new Option('--auth-method <method>', 'client authentication (default: private_key_jwt with a key; with a secret, post, or basic when the profile has it already)').choices(AUTH_METHODS).argParser(once('--auth-method', parseChoice('--auth-method', AUTH_METHODS))))
    // Caught to explain, never used: a secret in argv ends up in shell history and process lists.
    // The value is optional so that the flag alone gets the same answer, not "needs a value".
    .addOption(new Option('--client-secret [secret]').hideHelp())
    .addOption(new Option('--private-key [pem]').hideHelp())
    .addHelpText(
      'after',
      () => examples([
        'idm login                                   # asks for each value at a terminal',
        'idm login --domain tenant.example.com --client-id ID --client-secret-file secret.txt',
        'vault read -field=secret kv/idm | idm login --domain tenant.example.com --client-id ID --client-secret-file -',
        'idm login --profile prod --domain tenant.example.com --client-id ID --private-key-file key.pem --signing-alg RS256',
        'idm login --domain http://127.0.0.1:4010 --client-id ID --client-secret-file s.txt --auth-method basic   # the sandbox, started with --port 4010',
        'idm login --domain tenant.example.com --auth-method tls_client_auth --client-id ID --client-cert client.crt --client-key client.key',
      ]),
    )
    .action((flags: LoginFlags) => run(checkLoginFlags(flags), deps));
}

/** Conflicts between flags, found before anything is read or sent. */
export function checkLoginFlags(flags: LoginFlags): LoginOptions {
  if (flags.clientSecret !== undefined || flags.privateKey !== undefined) {
    const which = flags.clientSecret !== undefined ? '--client-secret' : '--private-key';
    throw new UsageError(
      `${which} is not accepted: a secret given as a flag's value leaks into shell history and process lists.`,
      `Use ${which}-file <path> (or - to read stdin), IDM_CLIENT_SECRET / IDM_PRIVATE_KEY, or answer the masked prompt.`,
    );
  }
  if (flags.clientSecretFile !== undefined && flags.privateKeyFile !== undefined) {
    throw new UsageError('Give either --client-secret-file or --private-key-file, not both.');
  }
  if (flags.clientSecretFile === '-' && flags.privateKeyFile === '-') throw new UsageError('Only one value can come from stdin.');
  if (flags.authMethod === 'private_key_jwt' && flags.clientSecretFile !== undefined) {
    throw new UsageError('--auth-method private_key_jwt signs with a private key: give --private-key-file, not --client-secret-file.');
  }
  if ((flags.authMethod === 'post' || flags.authMethod === 'basic') && flags.privateKeyFile !== undefined) {
    throw new UsageError(`--auth-method ${flags.authMethod} sends a client secret: give --client-secret-file, not --private-key-file.`);
  }
  if (flags.authMethod === 'tls_client_auth' && (flags.clientSecretFile !== undefined || flags.privateKeyFile !== undefined)) {
    throw new UsageError(
      `--auth-method tls_client_auth proves the client with a certificate: give --client-cert and --client-key, not ${flags.clientSecretFile !== undefined ? '--client-secret-file' : '--private-key-file'}.`,
    );
  }
  if (flags.signingAlg !== undefined && (flags.authMethod === 'post' || flags.authMethod === 'basic' || flags.authMethod === 'tls_client_auth' || flags.clientSecretFile !== undefined)) {
    throw new UsageError('--signing-alg applies only to private_key_jwt (with --private-key-file).');
  }
  const { domain, clientId, clientSecretFile, privateKeyFile, signingAlg, authMethod } = flags;
  return { domain, clientId, clientSecretFile, privateKeyFile, signingAlg, authMethod };
}

/** IDM_AUTH_METHOD (no --auth-method) against the proof the flags give: a conflict names the variable. */
function checkEnvMethod(method: AuthMethod, opts: LoginOptions): void {
  const given = opts.clientSecretFile !== undefined ? '--client-secret-file' : opts.privateKeyFile !== undefined ? '--private-key-file' : undefined;
  if (given === undefined) return;
  const fits = method === 'private_key_jwt' ? given === '--private-key-file' : method === 'post' || method === 'basic' ? given === '--client-secret-file' : false;
  if (!fits) {
    throw new UsageError(`IDM_AUTH_METHOD is ${method}, which ${method === 'private_key_jwt' ? 'signs with a private key' : method === 'tls_client_auth' ? 'proves the client with a certificate' : 'sends a client secret'}, but ${given} was given.`, 'Unset IDM_AUTH_METHOD, or pass --auth-method to choose the method for this login.');
  }
}

// The answer, once chosen, is the short form: the whole choice after the question is wider than 80 columns.
const METHOD_CHOICES = [
  { value: 'post' as const, name: 'Client secret, sent in the request body (post)', short: 'client secret (post)' },
  { value: 'basic' as const, name: 'Client secret, sent as HTTP Basic (basic)', short: 'client secret (basic)' },
  { value: 'private_key_jwt' as const, name: 'Private key: a signed JWT assertion (private_key_jwt)', short: 'private key (private_key_jwt)' },
  { value: 'tls_client_auth' as const, name: 'Client certificate: mutual TLS (tls_client_auth)', short: 'client certificate (tls_client_auth)' },
];

/** A file path as stored in a profile: absolute, so that it means the same from any directory. */
const absolute = (path: string | undefined) => (path === undefined ? undefined : resolvePath(path));


export async function loginRun(opts: LoginOptions, deps: Deps): Promise<void> {
  const { io } = deps;
  const globals = deps.globals();
  const assertion = await import('../../auth/assertion.js'); // node:crypto: loaded only by login and signing
  const env = io.env;
  const envValue = (name: string) => resolve.envValue(env, name);
  const dir = configDir(env);
  // A directory login could not save into is refused before anything is asked, read or sent.
  const settings = openSettings(dir);
  const store = profiles.readProfiles(dir);
  // Without --profile (or IDM_PROFILE), login writes the default profile, `default` when there is none.
  const explicit = globals.profile;
  const name = profiles.selectedProfileName(store, explicit);
  const existing = store.profiles[name];
  const twin = profiles.caseTwin(store, name);
  if (twin !== undefined) {
    throw new UsageError(
      `Profile "${twin}" exists, and "${name}" differs from it only in case: on macOS and Windows the two would share one credentials file.`,
      `Pass --profile ${twin} to replace "${twin}", or choose a name of its own.`,
    );
  }
  checkProfileWritable(dir, name);

  // Flags first, then the environment; at a terminal, prompts for the rest.
  let domain = opts.domain ?? envValue('IDM_DOMAIN');
  // A proxy variable idm cannot use (socks5://, not a URL) is refused as soon as the domain is known,
  // before a client id, method or secret is asked or read (a domain that is not one is said below).
  const checkProxy = (value: string | undefined) => {
    const known = value === undefined ? undefined : checkDomain(value);
    if (known !== undefined && typeof known !== 'string') proxyFor(new URL(known.base), env);
  };
  checkProxy(domain);
  let clientId = opts.clientId ?? resolve.envClientId(env);
  // IDM_AUTH_METHOD and IDM_SIGNING_ALG are checked before anything is read or sent; a flag wins.
  const envMethod = opts.authMethod === undefined ? resolve.envAuthMethod(env) : undefined;
  const envAlg = resolve.envSigningAlg(env);
  if (envMethod !== undefined) checkEnvMethod(envMethod, opts);
  let method: AuthMethod | undefined = opts.authMethod ?? envMethod;
  let secret: string | undefined;
  let keyPem: string | undefined;
  // tls_client_auth: the certificate and key are the global --client-cert and --client-key (or IDM_CLIENT_CERT, IDM_CLIENT_KEY).
  /** The secret came from the prompt: a refused one is asked again (SECRET_TRIES in all). */
  let secretTyped = false;
  /** Chosen at the prompt (the method, the key file): the command to run again carries them as flags. */
  let methodAsked = false;
  let keyFileAsked: string | undefined;
  let clientCert = globals.clientCert;
  let clientKey = globals.clientKey;
  const byCertificate = () => method === 'tls_client_auth' && clientCert !== undefined && clientKey !== undefined;
  if (opts.clientSecretFile !== undefined) secret = resolve.checkClientSecret(await readSecret('--client-secret-file', opts.clientSecretFile, io), '--client-secret-file');
  if (opts.privateKeyFile !== undefined) {
    keyPem =
      opts.privateKeyFile === '-'
        ? input.checkPem('--private-key-file', 'stdin', await input.readFileOrStdin('--private-key-file', '-', io, 'secret'), 'private key')
        : await resolve.readPrivateKeyFile(opts.privateKeyFile, '--private-key-file', io.signal);
  }
  /** The variable the secret or key came from: a refused one is corrected there, not by running login again as is. */
  let fromVariable: 'IDM_CLIENT_SECRET' | 'IDM_PRIVATE_KEY' | undefined;
  if (secret === undefined && keyPem === undefined && (method === undefined || method === 'post' || method === 'basic') && envValue('IDM_CLIENT_SECRET')) {
    secret = resolve.envClientSecret(env);
    fromVariable = 'IDM_CLIENT_SECRET';
  }
  if (secret === undefined && keyPem === undefined && (method === undefined || method === 'private_key_jwt') && envValue('IDM_PRIVATE_KEY')) {
    keyPem = await resolve.privateKeyFromEnvironment(envValue('IDM_PRIVATE_KEY')!, io.signal);
    fromVariable = 'IDM_PRIVATE_KEY';
  }
  method ??= keyPem !== undefined ? 'private_key_jwt' : secret !== undefined ? (existing?.authMethod === 'basic' ? 'basic' : 'post') : undefined;
  // Where the secret would be asked, that it was not: a variable left set for another client would
  // otherwise be sent for this one without a word (and refused as a wrong secret).
  if (fromVariable && io.canPrompt) {
    deps.output.note(`The ${fromVariable === 'IDM_PRIVATE_KEY' ? 'private key' : 'client secret'} is ${fromVariable}'s (not asked); unset it to ${fromVariable === 'IDM_PRIVATE_KEY' ? 'give another' : 'type one'}.`);
  }

  // Re-login of a known profile where nothing is asked: its method, when no secret or key says
  // another (a new certificate alone for tls_client_auth; with nothing, the flag it lacks is named).
  // The same tenant however IDM_DOMAIN spells it (a host for https://, a trailing slash): --domain is a base URL already.
  const sameTenantAs = (text: string, other: string) => {
    const [one, two] = [checkDomain(text), checkDomain(other)];
    return typeof one !== 'string' && typeof two !== 'string' && one.base === two.base;
  };
  const sameClient = existing !== undefined && (!domain || sameTenantAs(domain, existing.domain)) && (!clientId || clientId === existing.clientId);
  if (!io.canPrompt && method === undefined && secret === undefined && keyPem === undefined && sameClient) method = existing.authMethod;
  const needsKey = method === 'private_key_jwt';
  const proven = () => secret !== undefined || keyPem !== undefined || byCertificate();
  const prompter = io.canPrompt && (!domain || !clientId || !proven()) ? await deps.prompter() : undefined;
  if (!prompter) {
    // Re-login of a known profile (a rotated secret): the rest comes from the profile.
    domain ??= existing?.domain;
    clientId ??= existing?.clientId;
    // Each missing flag beside the variable that gives the same (CI sets variables).
    const missing: Array<[flag: string, variable: string]> = [];
    if (!domain) missing.push(['--domain', 'IDM_DOMAIN']);
    if (!clientId) missing.push(['--client-id', 'IDM_CLIENT_ID']);
    if (!proven()) {
      if (needsKey) missing.push(['--private-key-file', 'IDM_PRIVATE_KEY']);
      // The one of the pair that was not given (--client-cert alone is no certificate login), or both.
      else if (method === 'tls_client_auth') {
        missing.push(
          clientCert === undefined && clientKey === undefined
            ? ['--client-cert and --client-key', 'IDM_CLIENT_CERT and IDM_CLIENT_KEY']
            : clientCert === undefined
              ? ['--client-cert', 'IDM_CLIENT_CERT']
              : ['--client-key', 'IDM_CLIENT_KEY'],
        );
      }
      // A profile's own secret method (post, basic): its new secret, nothing else, is what is missing.
      else if (method !== undefined) missing.push(['--client-secret-file', 'IDM_CLIENT_SECRET']);
      else missing.push(['--client-secret-file (or --private-key-file)', 'IDM_CLIENT_SECRET (or IDM_PRIVATE_KEY)']);
    }
    if (missing.length) {
      // `echo "$S" | idm login …`: the pipe is read only with `-`, which is named.
      const proof = needsKey ? 'the key from a file, or from stdin with --private-key-file -' : method === 'tls_client_auth' ? 'the certificate and its key as files' : 'a secret from a file, or from stdin with --client-secret-file -';
      // Logging in again to a known profile (the same client, its method taken above): only its proof
      // can be missing, the rest is the profile's. Said with the profile, and the command that gives it.
      if (sameClient) {
        const [flag, variable] = missing.at(-1)!;
        const checked = checkDomain(domain!);
        const at = typeof checked === 'string' ? '' : ` at ${checked.host}`;
        const [what, flags] = needsKey
          ? ['the key', '--private-key-file KEY (or - for stdin)']
          : method === 'tls_client_auth'
            ? ['the certificate and its key', '--client-cert CERT --client-key KEY']
            : ['the secret', '--client-secret-file FILE (or - for stdin)'];
        const command = `${shellCommand(['idm', 'login', '--profile', name, ...(opts.authMethod ? ['--auth-method', opts.authMethod] : [])])} ${flags}`;
        throw new UsageError(
          `Missing ${flag} to log in again to profile "${name}" (client ${clientId}${at}, ${method}).`,
          `idm login cannot ask here (${io.cannotAsk}): give ${what}: ${command}, or set ${variable}.`,
        );
      }
      throw new UsageError(
        `Missing ${missing.map(([flag]) => flag).join(', ')}.`,
        `idm login cannot ask here (${io.cannotAsk}): pass the flags (${proof}), or set ${missing.map(([, variable]) => variable).join(', ')}.`,
      );
    }
  } else {
    domain ??= await prompter.input('Tenant domain (host or https:// URL)', {
      default: existing?.domain,
      validate: (value) => (typeof checkDomain(value) === 'string' ? `The domain ${checkDomain(value) as string}.` : true),
    });
    checkProxy(domain);
    clientId ??= await prompter.input('Client ID', {
      default: existing?.clientId,
      validate: (value) => clientIdProblem(value.trim()) ?? true,
    });
    clientId = clientId.trim();
  }
  // Named as given: a flag's value is checked as it is parsed, so a bad one here is IDM_DOMAIN's.
  const tenant = parseDomain(domain!, opts.domain === undefined && domain === envValue('IDM_DOMAIN') ? 'IDM_DOMAIN' : '--domain');
  // The profile's domain, on a re-login that names none (checked above when it was given or asked).
  proxyFor(new URL(tenant.base), env);

  // Another tenant or client must not silently take the place of the default profile.
  if (explicit === undefined && existing && (existing.clientId !== clientId || parseDomain(existing.domain, 'The profile domain').base !== tenant.base)) {
    const was = `client ${existing.clientId} at ${parseDomain(existing.domain, 'The profile domain').host}`;
    const add = `idm login --profile NAME --domain ${shellQuote(tenant.base)} --client-id ${shellQuote(clientId!)}`;
    if (!io.canPrompt) {
      throw new UsageError(
        `The default profile "${name}" is ${was}; this login is for client ${clientId} at ${tenant.host}.`,
        `Pass --profile NAME to add a profile for it, or --profile ${name} to replace "${name}".`,
      );
    }
    if (!(await (prompter ?? (await deps.prompter())).confirm(`Replace the default profile "${name}" (${was}) with client ${clientId} at ${tenant.host}?`, { default: false }))) {
      throw new CancelledError(`Cancelled: profile "${name}" was left as it is.`, `To add a profile instead: ${add}`);
    }
  }

  if (prompter) {
    // A client certificate is presented in the TLS handshake: not offered for a plain-HTTP tenant.
    // Why, on the choice's one line (the prompt's own columns: the cursor and a space, or at TERM=dumb
    // the number's indent and parentheses; never the last column): without the host when the whole
    // reason would wrap.
    const margin = prompter.listMargin?.(METHOD_CHOICES.length - 1, true) ?? 3;
    const plainHttp = (name: string) =>
      [`needs an https:// domain, and ${tenant.host} is plain HTTP`, 'needs an https:// domain'].find((why) => margin + displayWidth(name) + displayWidth(why) < deps.io.stderrColumns) ?? 'needs https://';
    const choices = METHOD_CHOICES.map((choice) => (choice.value === 'tls_client_auth' && tenant.base.startsWith('http:') ? { ...choice, disabled: plainHttp(choice.name) } : choice));
    const usable = choices.find((choice) => choice.value === existing?.authMethod && !('disabled' in choice));
    if (method === undefined) {
      method = await prompter.select('How does the client authenticate?', choices, { default: usable?.value ?? 'post' });
      methodAsked = true;
    }
    if (method === 'private_key_jwt' && keyPem === undefined) {
      // The file is read once, by the check: the key used is the one checked (a FIFO or a terminal
      // gives its text once, and a file may change meanwhile).
      let checked: { path: string; pem: string } | undefined;
      const path = await prompter.input('Private key file (PEM)', {
        validate: async (value) => {
          try {
            const typed = input.typedPath(value, env);
            const pem = await resolve.readPrivateKeyFile(typed, 'The private key file', io.signal);
            const unusable = assertion.unusableKey(assertion.loadPrivateKey(pem));
            if (unusable) return `The private key is ${unusable}.`;
            checked = { path: typed, pem };
            return true;
          } catch (error) {
            return (error as Error).message;
          }
        },
      });
      const typed = input.typedPath(path, env);
      keyPem = checked?.path === typed ? checked.pem : await resolve.readPrivateKeyFile(typed, 'The private key file', io.signal);
      keyFileAsked = absolute(typed);
    } else if (method === 'tls_client_auth') {
      // Each file is checked as the request will read it: a certificate, then the key of that certificate.
      const certFlag = clientCert === undefined ? 'The certificate file' : '--client-cert';
      const problem = (check: () => Promise<unknown>) => check().then(
        () => true as const,
        (error: Error) => error.message,
      );
      clientCert ??= input.typedPath(
        await prompter.input('Client certificate file (PEM)', { validate: (value) => problem(() => readCertificates(certFlag, input.typedPath(value, env), io.signal)) }),
        env,
      );
      const cert = { flag: certFlag, path: clientCert };
      clientKey ??= input.typedPath(
        await prompter.input('Its private key file (PEM)', {
          validate: (value) => problem(() => readClientCertificate({ cert, key: { flag: 'The key file', path: input.typedPath(value, env) } }, io.signal)),
        }),
        env,
      );
    } else if (method !== 'private_key_jwt' && secret === undefined) {
      secret = await askSecret(prompter);
      secretTyped = true;
    }
  }
  if (method === 'private_key_jwt' && keyPem === undefined) throw new UsageError('private_key_jwt needs --private-key-file.');
  if (method === 'tls_client_auth' && !byCertificate()) throw new UsageError('tls_client_auth needs --client-cert and --client-key: the certificate proves the client.');
  if (method !== 'private_key_jwt' && method !== 'tls_client_auth' && secret === undefined) throw new UsageError(`--auth-method ${method} needs --client-secret-file.`);

  let signingAlg: SigningAlg | undefined;
  if (keyPem !== undefined) {
    const key = assertion.loadPrivateKey(keyPem, 'The private key');
    const unusable = assertion.unusableKey(key);
    if (unusable) throw new UsageError(`The private key is ${unusable}.`, assertion.UNUSABLE_KEY_HINT);
    // A new key for a profile signing with an algorithm of its own (PS256, RS384) keeps it while the
    // key can make it: the client at the service expects it, as basic is kept for a new secret.
    const kept = existing?.authMethod === 'private_key_jwt' && existing.clientId === clientId && parseDomain(existing.domain, 'The profile domain').base === tenant.base && existing.signingAlg !== undefined && !assertion.checkAlgMatchesKey(key, existing.signingAlg) ? existing.signingAlg : undefined;
    signingAlg = opts.signingAlg ?? envAlg ?? kept ?? assertion.defaultAlgFor(key);
    const problem = assertion.checkAlgMatchesKey(key, signingAlg);
    if (problem) throw new UsageError(`${opts.signingAlg === undefined && envAlg !== undefined ? 'IDM_SIGNING_ALG' : '--signing-alg'}: ${problem}.`);
  }
  const client: resolve.ClientCredentials =
    method === 'private_key_jwt'
      ? { clientId: clientId!, authMethod: method, privateKeyPem: keyPem, signingAlg }
      : method === 'tls_client_auth'
        ? { clientId: clientId!, authMethod: method, clientCert: absolute(clientCert), clientKey: absolute(clientKey) }
        : { clientId: clientId!, authMethod: method!, clientSecret: secret };
  // A private CA given now is kept with the profile; a new login of the same tenant keeps the one it had.
  const sameTenant = existing !== undefined && parseDomain(existing.domain, 'The profile domain').base === tenant.base;
  const caFile = absolute(globals.caFile) ?? (sameTenant ? existing.caFile : undefined);

  // The command to run again when the credentials are refused: this one, never with a secret.
  const rerun = shellCommand([
    ...['idm', 'login', '--profile', name, '--domain', tenant.base, '--client-id', client.clientId],
    // tls_client_auth chosen at the prompt too: --client-cert and --client-key alone do not choose it.
    // Any method chosen there, but private_key_jwt, which the key file chooses.
    ...(opts.authMethod || method === 'tls_client_auth' || (methodAsked && method !== 'private_key_jwt') ? ['--auth-method', method!] : []),
    ...(opts.clientSecretFile ? ['--client-secret-file', opts.clientSecretFile] : []),
    ...(opts.privateKeyFile ? ['--private-key-file', opts.privateKeyFile] : keyFileAsked ? ['--private-key-file', keyFileAsked] : []),
    ...(opts.signingAlg ? ['--signing-alg', opts.signingAlg] : []),
    ...(method === 'tls_client_auth' ? ['--client-cert', client.clientCert!, '--client-key', client.clientKey!] : []),
    ...(globals.caFile ? ['--ca-file', caFile!] : []),
  ]);

  // Prove the credentials before saving anything: a token request (its token is cached for the next command).
  if (io.stderrIsTTY) deps.output.note(`Checking the credentials with ${tenant.host}…`);
  const warnings = [openToOthers(dir)].filter((warning) => warning !== undefined);
  const resolved = { tenant, profile: name, source: 'profile' as const, client, dir, warnings, fixCredentials: fromVariable ? `correct ${fromVariable} (the ${fromVariable === 'IDM_PRIVATE_KEY' ? 'key' : 'secret'} this login took) and run: ${rerun}` : `run: ${rerun}`, ...(caFile ? { caFile } : {}) };
  let token;
  let management;
  for (let tries = 1; ; tries++) {
    management = await deps.apiFor(resolved);
    try {
      token = await management.client.tokens.refresh();
      break;
    } catch (error) {
      // A mistyped secret does not throw away the domain, client id and method typed before it.
      if (!(secretTyped && tries < SECRET_TRIES && prompter && error instanceof ApiError && error.code === 'invalid_client')) throw error;
      deps.output.say([['red', `The token endpoint refused client ${client.clientId} with that secret (401 invalid_client); try again (${tries + 1} of ${SECRET_TRIES}), or Ctrl-C if the client id is wrong.`]]);
      client.clientSecret = secret = await askSecret(prompter);
    }
  }
  const { isDefault } = await settings.saveProfile(
    name,
    { domain: tenant.base, clientId: client.clientId, authMethod: client.authMethod, ...(signingAlg ? { signingAlg } : {}), ...(caFile ? { caFile } : {}) },
    method === 'private_key_jwt'
      ? { privateKeyPem: keyPem }
      : method === 'tls_client_auth'
        ? { clientCert: client.clientCert, clientKey: client.clientKey }
        : { clientSecret: secret },
    { signal: io.signal, note: deps.output.note },
  );

  const scopes = (token.scope ?? String(assertion.peekClaims(token.accessToken)?.scope ?? '')).split(' ').filter(Boolean);
  const output = deps.output;
  if (globals.json) {
    output.printJson({
      profile: name,
      default: isDefault,
      domain: tenant.base,
      clientId: client.clientId,
      authMethod: client.authMethod,
      scopes,
      expiresAt: new Date(token.expiresAt).toISOString(),
    });
  } else {
    output.say(`Logged in to ${tenant.host} as client ${client.clientId} (profile "${name}"${isDefault ? ', the default' : ''}; ${client.authMethod}).`);
    output.say(`Token scopes: ${scopes.length ? scopes.join(' ') : '(none)'}`);
  }
  // Variables every command puts before the profile just stored (README: flags > environment >
  // profile): one set is said with what it changes; several are one warning, with one unset command.
  const overrides: Array<{ set: string[]; variables: string[]; message: string; hint: string }> = [];
  // The one credential login does not take: the profile just stored would not be used while it is set.
  if (envValue('IDM_ACCESS_TOKEN')) {
    overrides.push({ set: ['IDM_ACCESS_TOKEN'], variables: ['IDM_ACCESS_TOKEN'], message: `IDM_ACCESS_TOKEN is set: commands send that token, not the one of profile "${name}", while it is.`, hint: 'Unset it (unset IDM_ACCESS_TOKEN) to use the profile.' });
  }
  // IDM_CLIENT_SECRET and IDM_PRIVATE_KEY, when login took its proof elsewhere (a file, the prompt):
  // a stale one is refused once the token cached now expires.
  for (const variable of ['IDM_CLIENT_SECRET', 'IDM_PRIVATE_KEY'] as const) {
    if (variable === fromVariable || !envValue(variable)) continue;
    if (variable === 'IDM_CLIENT_SECRET' && secret !== undefined && sameSecret(() => resolve.envClientSecret(env), secret)) continue;
    overrides.push({
      set: [variable],
      variables: [variable],
      message: `${variable} is set: commands ${variable === 'IDM_PRIVATE_KEY' ? 'sign with that key' : 'send that secret'}, not the credentials of profile "${name}", while it is.`,
      hint: `Unset it (unset ${variable}) to use the profile.`,
    });
  }
  // IDM_PROFILE picks the profile of every command without --profile: naming another, the one just
  // stored is not used (login's own --profile won over it).
  const envProfile = resolve.otherEnvProfile(env, name);
  if (envProfile) {
    const { profile, shown } = envProfile;
    overrides.push({
      set: [`IDM_PROFILE${shown}`],
      variables: ['IDM_PROFILE'],
      message: `IDM_PROFILE is set${shown}: commands use ${shown ? `profile "${profile}"` : 'it'}, not profile "${name}", while it is.`,
      hint: `Unset it (unset IDM_PROFILE), or pass --profile ${name} to each command.`,
    });
  }
  // IDM_DOMAIN and IDM_CLIENT_ID set to another tenant or client (--domain or --client-id gave this
  // login's): the next command would be "not logged in as client ...".
  const overriding = resolve.otherEnvTenantOrClient(env, tenant.base, client.clientId);
  if (overriding.length > 0) {
    const [one, them] = overriding.length === 1 ? ['it', 'it is'] : ['them', 'they are'];
    const set = overriding.map(([variable, value]) => `${variable}${value === undefined ? '' : ` (${value})`}`);
    overrides.push({
      set,
      variables: overriding.map(([variable]) => variable),
      message: `${overriding.map(([variable, value]) => `${variable} is set${value === undefined ? '' : ` (${value})`}`).join(' and ')}: commands use ${one}, not profile "${name}"'s ${overriding.map(([variable]) => (variable === 'IDM_DOMAIN' ? `domain (${tenant.base})` : `client (${client.clientId})`)).join(' and ')}, while ${them}.`,
      hint: `Unset ${one} (unset ${overriding.map(([variable]) => variable).join(' ')}) to use the profile.`,
    });
  }
  // IDM_AUTH_METHOD and IDM_SIGNING_ALG replace the stored method and algorithm field by field
  // (--auth-method or --signing-alg gave this login's): later commands send otherwise, or fail.
  const replaced = otherMethodOrAlg(env, client.authMethod, signingAlg);
  for (const [variable, value] of replaced) {
    const shown = value === undefined ? '' : ` (${value})`;
    const what = variable === 'IDM_AUTH_METHOD' ? `method (${client.authMethod})` : `signing algorithm (${signingAlg})`;
    overrides.push({
      set: [`${variable}${shown}`],
      variables: [variable],
      message: `${variable} is set${shown}: commands use it, not profile "${name}"'s ${what}, while it is.`,
      hint: `Unset it (unset ${variable}) to use the profile.`,
    });
  }
  // Set to a value every command refuses: they stop with its error, whatever else is set.
  const unusable = resolve.unusableEnv(env, profiles.readProfiles(dir));
  if (unusable.length > 0) output.warn(resolve.unusableWarning(unusable, `profile "${name}"`, 'the profile'));
  else if (overrides.length === 1) output.warn({ message: overrides[0]!.message, hint: overrides[0]!.hint });
  else if (overrides.length > 1) {
    const set = overrides.flatMap((override) => override.set);
    output.warn({
      message: `${andList(set)} are set: commands use them, not what profile "${name}" stores, while they are.`,
      hint: `Unset them (unset ${overrides.flatMap((override) => override.variables).join(' ')}) to use the profile.`,
    });
  }
  // The scope of the first command most run after logging in, as the typed client knows it: said in
  // every view (a {"warning"} line with --json).
  const listScope = management.streams.scopes.list;
  if (!scopes.includes(listScope)) {
    output.warn({ message: `The token lacks ${listScope}, so idm streams list will be refused.`, hint: `Grant it to client ${client.clientId} in the dashboard (the client grant of the Management API).` });
  }
}

/** Why a client id typed or pasted at the prompt is refused (resolve.clientIdProblem names the character). */
function clientIdProblem(value: string): string | undefined {
  if (value === '') return 'Enter the client id.';
  const problem = resolve.clientIdProblem(value);
  return problem === undefined ? undefined : `A client id ${problem}.`;
}

/** Whether the variable `read` reads holds `secret` (one that cannot be read does not). */
function sameSecret(read: () => string | undefined, secret: string): boolean {
  try {
    return read() === secret;
  } catch {
    return false;
  }
}

/**
 * IDM_AUTH_METHOD when set to another method than the one stored (a value no command accepts is
 * resolve.unusableEnv's), and IDM_SIGNING_ALG when set to another
 * algorithm than the one a private_key_jwt profile stores (other methods do not sign).
 */
function otherMethodOrAlg(env: NodeJS.ProcessEnv, method: AuthMethod, signingAlg: SigningAlg | undefined): Array<[variable: string, value: string | undefined]> {
  const found: Array<[string, string | undefined]> = [];
  let envMethod: AuthMethod | undefined;
  try {
    envMethod = resolve.envAuthMethod(env);
  } catch {
    // resolve.unusableEnv: commands stop with its error
  }
  if (envMethod !== undefined && envMethod !== method) found.push(['IDM_AUTH_METHOD', envMethod]);
  const envAlg = resolve.envSigningAlg(env); // checked by login already
  if (method === 'private_key_jwt' && envAlg !== undefined && envAlg !== signingAlg) found.push(['IDM_SIGNING_ALG', envAlg]);
  return found;
}

/** Tries at a wrong secret typed at the prompt, as a login form gives. */
const SECRET_TRIES = 3;

/**
 * A key or certificate pasted at the secret prompt (a client meant for private_key_jwt): its first
 * line, sent as the secret, used a try for nothing, and the refusal did not say why.
 */
const PEM_AT_SECRET =
  'That is a PEM key or certificate, not a client secret. For a key, press Ctrl-C and run idm login again choosing private_key_jwt (tls_client_auth for a certificate).';

function askSecret(prompter: Prompter): Promise<string> {
  return prompter.password('Client secret', { validate: (value) => (looksLikePem(value) ? PEM_AT_SECRET : (resolve.secretProblem(value.trim()) ?? true)) }).then((value) => value.trim());
}

/** A client secret from a file or piped stdin: one line. */
async function readSecret(flag: string, path: string, io: Deps['io']): Promise<string> {
  const source = path === '-' ? 'stdin' : path;
  const secret = (await input.readFileOrStdin(flag, path, io, 'secret')).trim();
  if (secret === '') throw new UsageError(`${flag}: ${source} is empty.`);
  if (looksLikePem(secret)) throw resolve.pemAsSecret(`${flag}: ${source}`, 'For a private key, give --private-key-file (private_key_jwt); for a certificate, --client-cert and --client-key (tls_client_auth).');
  if (/[\r\n]/.test(secret)) throw new UsageError(`${flag}: ${source} holds more than one line.`, 'Put only the secret in it.');
  return secret;
}
