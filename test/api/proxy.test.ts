// Which proxy a request goes through (src/api/proxy.ts): the variables as curl and Go read them, the
// NO_PROXY rules, loopback never proxied, and a malformed variable a usage error that never quotes it.
import { describe, expect, it } from 'vitest';
import { bypassed, ignoredAllProxy, proxyFor } from '../../src/api/proxy.js';
import { UsageError } from '../../src/core/errors.js';
import { ExitCode } from '../../src/core/exit-codes.js';

const TENANT = new URL('https://tenant.example.com');

describe('proxyFor', () => {
  it('is undefined when no proxy variable is set, or only an empty one', () => {
    expect(proxyFor(TENANT, {})).toBeUndefined();
    expect(proxyFor(TENANT, { HTTPS_PROXY: '', https_proxy: ' ' })).toBeUndefined();
    // HTTP_PROXY is for http:// targets only, as in curl and Go.
    expect(proxyFor(TENANT, { HTTP_PROXY: 'http://proxy:3128' })).toBeUndefined();
  });

  it('takes HTTPS_PROXY for https:// and HTTP_PROXY for http://; the lower-case form wins', () => {
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'http://proxy.corp:3128' })).toEqual({ variable: 'HTTPS_PROXY', host: 'proxy.corp', port: 3128, name: 'proxy.corp:3128' });
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' })?.name).toBe('lower:2');
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'http://upper:1', https_proxy: '' })?.name).toBe('upper:1');
    expect(proxyFor(new URL('http://tenant.example.com:8080'), { HTTP_PROXY: 'http://p:1', http_proxy: 'http://q:2', HTTPS_PROXY: 'http://r:3' })).toMatchObject({ variable: 'http_proxy', name: 'q:2' });
  });

  it('defaults the port to 80, takes a value without a scheme as http://, and an IPv6 proxy', () => {
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'http://proxy.corp' })?.port).toBe(80);
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'proxy.corp:8080' })).toMatchObject({ host: 'proxy.corp', port: 8080 });
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'http://[2001:db8::1]:3128/' })).toMatchObject({ host: '2001:db8::1', port: 3128, name: '[2001:db8::1]:3128' });
  });

  it('takes an https:// proxy (TLS to the proxy), port 443 by default', () => {
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'https://proxy.corp' })).toEqual({ variable: 'HTTPS_PROXY', host: 'proxy.corp', port: 443, name: 'proxy.corp:443', tls: true });
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'https://proxy.corp:8443' })?.port).toBe(8443);
  });

  it('sends the credentials of the URL as Proxy-Authorization: Basic, percent-decoded; the name never holds them', () => {
    const proxy = proxyFor(TENANT, { HTTPS_PROXY: 'http://alice:p%40ss%3Aword@proxy.corp:3128' })!;
    expect(proxy.authorization).toBe(`Basic ${Buffer.from('alice:p@ss:word').toString('base64')}`);
    expect(proxy.name).toBe('proxy.corp:3128');
    expect(JSON.stringify({ ...proxy, authorization: undefined })).not.toContain('alice');
  });

  it('never proxies a loopback target (the sandbox), unless the tests ask for it', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:3128' };
    for (const target of ['https://localhost:4443', 'http://127.0.0.1:8080', 'http://127.1.2.3', 'https://[::1]:4443']) expect(proxyFor(new URL(target), env)).toBeUndefined();
    expect(proxyFor(new URL('http://127.0.0.1:8080'), { ...env, IDM_PROXY_LOOPBACK: '1' })?.name).toBe('proxy:3128');
  });

  it('refuses a malformed or unsupported proxy as a usage error naming the variable, never quoting its value', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ HTTPS_PROXY: 'http://user:hunter2@proxy:99999' }, /^HTTPS_PROXY is not a valid proxy URL/],
      [{ https_proxy: 'http://user:hunter2@proxy:3128/some/path' }, /^https_proxy is not a valid proxy URL: it must be a host and a port/],
      [{ HTTPS_PROXY: 'socks5://user:hunter2@proxy:1080' }, /socks5:\/\/ proxies are not supported/],
      [{ HTTPS_PROXY: 'http://user:hunter2%zz@proxy:3128' }, /^HTTPS_PROXY: the proxy's user name or password is not validly percent-encoded/],
      [{ HTTPS_PROXY: 'http://:3128' }, /^HTTPS_PROXY is not a valid proxy URL/],
      // A '/', '#' or '?' of the password not percent-encoded: it ends the host early; the message says what to encode.
      [{ HTTPS_PROXY: 'http://user:hunter2/x@proxy:3128' }, /^HTTPS_PROXY is not a valid proxy URL: a character of its user name or password must be percent-encoded\.$/],
      [{ HTTPS_PROXY: 'http://user:12/hunter2@proxy:3128' }, /^HTTPS_PROXY is not a valid proxy URL: a character of its user name or password must be percent-encoded\.$/],
      [{ HTTPS_PROXY: 'user:hunter2#x@proxy.corp:3128' }, /must be percent-encoded/],
      [{ HTTPS_PROXY: 'http://user:hunter2?x@proxy.corp' }, /must be percent-encoded/],
    ];
    for (const [env, message] of cases) {
      let caught: unknown;
      try {
        proxyFor(TENANT, env);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(env)).toBeInstanceOf(UsageError);
      const error = caught as UsageError;
      expect(error.message).toMatch(message);
      expect(error.exitCode).toBe(ExitCode.Usage);
      expect(`${error.message} ${error.hint}`).not.toContain('hunter2');
      if (/must be percent-encoded\.$/.test(error.message)) expect(error.hint).toContain('/ as %2F, # as %23, ? as %3F, @ as %40 and % as %25');
      else expect(error.message).not.toContain('must be percent-encoded');
    }
  });

  it('does not read a malformed proxy variable when NO_PROXY bypasses the target', () => {
    expect(proxyFor(TENANT, { HTTPS_PROXY: 'socks5://proxy', NO_PROXY: 'example.com' })).toBeUndefined();
  });
});

describe('NO_PROXY', () => {
  it('matches host names and their subdomains, with or without a leading dot or *., case-insensitively', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com', 'EXAMPLE.COM.']) {
      expect(bypassed('example.com', 443, entry), entry).toBe(true);
      expect(bypassed('tenant.eu.example.com', 443, entry), entry).toBe(true);
      expect(bypassed('notexample.com', 443, entry), entry).toBe(false);
      expect(bypassed('example.com.evil.net', 443, entry), entry).toBe(false);
    }
    expect(bypassed('tenant.example.com.', 443, 'example.com')).toBe(true);
  });

  it('splits on commas and spaces, and * bypasses everything', () => {
    expect(bypassed('b.test', 443, 'a.test, b.test')).toBe(true);
    expect(bypassed('b.test', 443, 'a.test b.test')).toBe(true);
    expect(bypassed('c.test', 443, ' a.test,, b.test ')).toBe(false);
    expect(bypassed('anything.test', 443, '*')).toBe(true);
    expect(bypassed('c.test', 443, 'a.test,*')).toBe(true);
    expect(bypassed('c.test', 443, '')).toBe(false);
  });

  it('matches IP addresses and CIDR ranges, IPv4 and IPv6', () => {
    expect(bypassed('10.1.2.3', 443, '10.1.2.3')).toBe(true);
    expect(bypassed('10.1.2.4', 443, '10.1.2.3')).toBe(false);
    expect(bypassed('10.1.2.3', 443, '10.0.0.0/8')).toBe(true);
    expect(bypassed('11.1.2.3', 443, '10.0.0.0/8')).toBe(false);
    expect(bypassed('[2001:db8::5]', 443, '2001:db8::/32')).toBe(true);
    expect(bypassed('[2001:db8::5]', 443, '2001:db8::5')).toBe(true);
    expect(bypassed('[2001:db8::5]', 443, '[2001:db8::5]:443')).toBe(true);
    expect(bypassed('tenant.example.com', 443, '10.0.0.0/8,bad/99')).toBe(false);
    // An IPv6 address written another way is the same address (the URL's host is always the short form).
    expect(bypassed('[2001:db8::5]', 443, '2001:DB8:0:0::5')).toBe(true);
    expect(bypassed('[2001:db8::5]', 443, '2001:0db8::0005')).toBe(true);
    expect(bypassed('[2001:db8::5]', 443, '[2001:db8:0::5]:443')).toBe(true);
    expect(bypassed('[2001:db8::5]', 8443, '[2001:db8:0::5]:443')).toBe(false);
    expect(bypassed('[2001:db8::6]', 443, '2001:db8:0::5')).toBe(false);
    expect(proxyFor(new URL('https://[2001:db8::5]'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: '2001:db8:0:0:0:0:0:5' })).toBeUndefined();
  });

  it('an entry with :port covers that port only', () => {
    expect(bypassed('tenant.example.com', 443, 'example.com:443')).toBe(true);
    expect(bypassed('tenant.example.com', 8443, 'example.com:443')).toBe(false);
    expect(bypassed('10.1.2.3', 8443, '10.1.2.3:8443')).toBe(true);
    expect(proxyFor(new URL('https://tenant.example.com'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com:443' })).toBeUndefined();
    expect(proxyFor(new URL('https://tenant.example.com:8443'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com:443' })?.name).toBe('p:1');
  });

  it('the lower-case no_proxy wins when both are set', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com', no_proxy: 'other.test' };
    expect(proxyFor(TENANT, env)?.name).toBe('p:1');
    expect(proxyFor(new URL('https://x.other.test'), env)).toBeUndefined();
  });
});

describe('ignoredAllProxy', () => {
  it('names ALL_PROXY (all_proxy first) where idm goes directly and curl would have used it; never for loopback or a host NO_PROXY lists', () => {
    expect(ignoredAllProxy(TENANT, {})).toBeUndefined();
    expect(ignoredAllProxy(TENANT, { ALL_PROXY: 'socks5h://u:p@proxy:1080' })).toEqual({ variable: 'ALL_PROXY', socks: true });
    expect(ignoredAllProxy(TENANT, { ALL_PROXY: 'socks5://proxy:1080', all_proxy: 'http://proxy:3128' })).toEqual({ variable: 'all_proxy', socks: false });
    expect(ignoredAllProxy(TENANT, { ALL_PROXY: 'http://proxy:3128', NO_PROXY: '.example.com' })).toBeUndefined();
    expect(ignoredAllProxy(new URL('https://127.0.0.1:4443'), { ALL_PROXY: 'http://proxy:3128' })).toBeUndefined();
  });
});
