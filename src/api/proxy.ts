// Outbound proxies, as curl, gh and Go's http.ProxyFromEnvironment read them: an https:// target
// goes through HTTPS_PROXY (https_proxy), an http:// one through HTTP_PROXY (http_proxy), the lower-
// case form first as curl, Python and undici take it (Go takes the upper-case one first); NO_PROXY
// (no_proxy) lists the hosts reached directly. Loopback targets (the
// sandbox) never go through a proxy. Nothing is read beyond the variable of the target's scheme
// unless it is set: a run without proxy variables pays two property reads.
import { UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../core/net.js';

export interface Proxy {
  /** The variable it came from, as set: "https_proxy", "HTTPS_PROXY"... */
  variable: string;
  /** The host to connect to (an IPv6 address without brackets). */
  host: string;
  port: number;
  /** How messages name it: host:port, never the credentials. */
  name: string;
  /** `Basic <base64(user:password)>` when the URL carries credentials: a secret. */
  authorization?: string;
  /** An https:// proxy: idm speaks TLS to the proxy itself (its certificate checked against `host`). */
  tls?: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * The proxy a request to `url` goes through, or undefined to connect directly. A proxy variable that
 * is not an http:// or https:// proxy URL is a usage error naming the variable (its value is never quoted: it may
 * hold a password).
 */
export function proxyFor(url: URL, env: Env = process.env): Proxy | undefined {
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : url.protocol === 'http:' ? ['http_proxy', 'HTTP_PROXY'] : [];
  // The first one set (and not empty) wins: the lower-case form, as curl and Python read them (Go reads HTTPS_PROXY first).
  const variable = names.find((name) => (env[name] ?? '').trim() !== '');
  if (variable === undefined) return undefined;
  // IDM_PROXY_LOOPBACK=1 is for idm's own tests only: they have no other host than loopback to proxy.
  if (isLoopbackHost(url.hostname) && env.IDM_PROXY_LOOPBACK !== '1') return undefined;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (bypassed(url.hostname, port, env.no_proxy || env.NO_PROXY || '')) return undefined;
  return parseProxy(variable, env[variable]!.trim());
}

/**
 * ALL_PROXY (all_proxy first) when it is set and a request to `url` goes directly: curl would have
 * used it where HTTPS_PROXY is unset, idm (as Go) does not read it, which its network failures then
 * say. Whether it names a SOCKS proxy, for the words; never its value.
 */
export function ignoredAllProxy(url: URL, env: Env = process.env): { variable: string; socks: boolean } | undefined {
  const variable = ['all_proxy', 'ALL_PROXY'].find((name) => (env[name] ?? '').trim() !== '');
  if (variable === undefined) return undefined;
  // Where a proxy would not be used anyway: loopback, a host NO_PROXY lists.
  if (isLoopbackHost(url.hostname) && env.IDM_PROXY_LOOPBACK !== '1') return undefined;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (bypassed(url.hostname, port, env.no_proxy || env.NO_PROXY || '')) return undefined;
  return { variable, socks: /^socks/i.test(env[variable]!.trim()) };
}

const FORMAT_HINT = 'Give it as http://HOST:PORT, or http://USER:PASSWORD@HOST:PORT for a proxy that asks for credentials; or unset it to connect directly.';

/** `http[s]://[user:password@]host[:port][/]`; a value without a scheme is taken as http://, as curl and Go do. */
export function parseProxy(variable: string, value: string): Proxy {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  // With credentials, a '/', '#' or '?' of the password left as it is ends the host early (a port that
  // is not a number, or a path): the message says what to encode, not that a path is not allowed.
  const credentialsHint = () =>
    new UsageError(
      `${variable} is not a valid proxy URL: a character of its user name or password must be percent-encoded.`,
      'Give it as http://USER:PASSWORD@HOST:PORT with / as %2F, # as %23, ? as %3F, @ as %40 and % as %25 in the user name and password.',
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    if (credentialsAtFault(text)) throw credentialsHint();
    throw new UsageError(`${variable} is not a valid proxy URL.`, FORMAT_HINT);
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') {
    throw new UsageError(
      `${variable} names a proxy idm cannot use: ${scheme}:// proxies are not supported, only http:// and https:// ones.`,
      `Give an http:// proxy in ${variable} (http://HOST:PORT), or unset it to connect directly.`,
    );
  }
  if (url.hostname === '' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    if (credentialsAtFault(text)) throw credentialsHint();
    throw new UsageError(`${variable} is not a valid proxy URL: it must be a host and a port, with no path.`, FORMAT_HINT);
  }
  const port = url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port);
  if (port === 0) throw new UsageError(`${variable} is not a valid proxy URL: port 0.`, FORMAT_HINT);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const proxy: Proxy = { variable, host, port, name: `${url.hostname}:${port}` };
  if (scheme === 'https') proxy.tls = true;
  if (url.username !== '' || url.password !== '') {
    let user: string;
    let password: string;
    try {
      user = decodeURIComponent(url.username);
      password = decodeURIComponent(url.password);
    } catch {
      throw new UsageError(`${variable}: the proxy's user name or password is not validly percent-encoded.`, 'Encode a reserved character of the password as %XX (@ as %40, : as %3A, % as %25).');
    }
    proxy.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return proxy;
}

/**
 * Whether a proxy URL that did not parse as one is right after its last '@': then the characters
 * before it (user name and password) hold one that needed percent-encoding.
 */
function credentialsAtFault(text: string): boolean {
  const rest = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const at = rest.lastIndexOf('@');
  if (at <= 0) return false;
  try {
    const host = new URL(`http://${rest.slice(at + 1)}`);
    return host.hostname !== '' && (host.pathname === '/' || host.pathname === '') && host.search === '' && host.hash === '';
  } catch {
    return false;
  }
}

/**
 * Whether NO_PROXY sends `host` (port `port`) directly: entries separated by commas or spaces, each
 * `*` (every host), a host name that also covers its subdomains (`example.com`, `.example.com` and
 * `*.example.com` alike), an IP address or a CIDR range (`10.0.0.0/8`), any of them with `:port` to
 * cover that port only.
 */
export function bypassed(hostname: string, port: number, noProxy: string): boolean {
  if (noProxy.trim() === '') return false;
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let entryPort: number | undefined;
    // [v6]:port, [v6], name:port, v4:port; a bare IPv6 address has more than one colon.
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1]!;
      entryPort = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
    } else {
      const withPort = /^([^:]+):(\d+)$/.exec(entry);
      if (withPort) {
        entry = withPort[1]!;
        entryPort = Number(withPort[2]);
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    if (entry.includes('/')) {
      if (inRange(host, entry)) return true;
      continue;
    }
    entry = entry.replace(/^\*?\./, '').replace(/\.$/, '');
    if (entry === '') continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
    // An IPv6 address is one however it is written (2001:db8:0::5, 2001:0db8::5), as curl and Go compare them.
    if (entry.includes(':') && host.includes(':') && inRange(host, `${entry}/128`)) return true;
  }
  return false;
}

/** Whether the IP address `host` is in the CIDR range `cidr`; a host name or a bad range is not. */
function inRange(host: string, cidr: string): boolean {
  const net = process.getBuiltinModule('node:net');
  const [address = '', bits = ''] = cidr.split('/');
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined;
  const hostFamily = net.isIPv4(host) ? 'ipv4' : net.isIPv6(host) ? 'ipv6' : undefined;
  if (!family || family !== hostFamily || !/^\d+$/.test(bits)) return false;
  const prefix = Number(bits);
  if (prefix > (family === 'ipv4' ? 32 : 128)) return false;
  const list = new net.BlockList();
  list.addSubnet(address, prefix, family);
  return list.check(host, family);
}
