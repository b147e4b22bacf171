// Which hosts are this machine. Plain HTTP is allowed only to them (a tenant on loopback, such as
// the sandbox), and the sandbox delivers only to them. Only literal loopback addresses and exactly
// `localhost` count: `evil.localhost` is a name that some resolvers send elsewhere.
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}
