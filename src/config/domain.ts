// A tenant's domain as the user gives it: a host (`tenant.example.com`, HTTPS implied) or a base URL
// (`https://tenant.example.com`, `http://127.0.0.1:4010` for the sandbox). Plain http is for loopback
// hosts only: anything that leaves the machine goes over HTTPS with certificate verification.
import { UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../core/net.js';

export interface Tenant {
  /** `https://tenant.example.com` or `http://127.0.0.1:4010`: no trailing slash, no path. */
  base: string;
  /** Host and port, for messages. */
  host: string;
}

/**
 * `value` as a message may quote it: a URL's user info (a password) and its query or fragment (a
 * token) are never quoted back, also where the rest is refused first (a bad port, another scheme).
 */
function shown(value: string): string {
  return value.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/*)[^?#]*@/i, '$1***@').replace(/([?#])[\s\S]*$/, '$1…');
}

/** Returns a message describing what is wrong, or the tenant. `what` names the source (`--domain`). */
export function checkDomain(input: string): Tenant | string {
  const value = input.trim();
  if (value === '') return 'is empty';
  // `http:/127.0.0.1:4010`, `https:tenant.example.com`: a scheme short of its two slashes, which
  // would be read as a host named http with the rest for a path.
  const scheme = /^(https?):(?!\/\/)\/?/i.exec(value);
  if (scheme) return `"${shown(value)}" is not a URL: ${scheme[1]!.toLowerCase()}: takes two slashes (${shown(`${scheme[1]!.toLowerCase()}://${value.slice(scheme[0].length)}`)})`;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return `"${shown(value)}" is not a host name or URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${shown(value)}" must be an https:// URL or a host name`;
  if (url.username || url.password) return 'must not contain credentials';
  if (url.search || url.hash) return 'must not contain a query or fragment';
  // A base URL may carry the management path; nothing else.
  const path = url.pathname.replace(/\/+$/, '');
  // The address it means, as it was given (with its scheme, or a host alone): a token or dashboard URL pasted whole.
  if (path !== '' && path !== '/api/v2') return `"${value}" must be the tenant's address without a path (${withScheme === value ? `${url.protocol}//${url.host}` : url.host})`;
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    // `localhost.` is not taken as loopback (a resolver may send it to DNS, which may answer any
    // address), and https:// would not reach a sandbox: the name idm takes is the way.
    if (url.hostname.toLowerCase() === 'localhost.') {
      return `http:// is allowed only for loopback hosts (127.x.x.x, exactly localhost, [::1]); write localhost without its final dot: http://localhost${url.port ? `:${url.port}` : ''}`;
    }
    return `http:// is allowed only for loopback hosts (127.x.x.x, exactly localhost, [::1]); use https://${url.host}`;
  }
  return { base: `${url.protocol}//${url.host}`, host: url.host };
}

export function parseDomain(input: string, what: string): Tenant {
  const result = checkDomain(input);
  if (typeof result === 'string') throw new UsageError(`${what} ${result}.`, 'Give the tenant as a host (tenant.example.com) or a base URL.');
  return result;
}
