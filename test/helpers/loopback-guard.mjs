// Never any traffic but loopback: in every test process (vitest's workers, through setupFiles, and
// each process they start, idm included, through NODE_OPTIONS=--import, set by ./loopback-guard-setup.ts)
// a TCP connection to a host other than 127.0.0.0/8, ::1 or localhost is refused before a name is
// looked up or a packet sent: it fails as a connection error naming this guard, and is noted (in
// `blocked`, and in the file LOOPBACK_GUARD_LOG names) so that the test that made it fails.
// Unix sockets are not TCP and pass. Plain JavaScript: a child process loads it as it is.
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import net from 'node:net';

/** What this process was refused: `host:port`. */
export const blocked = [];

function isLoopback(host) {
  const name = String(host).replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

function refusal(host, port) {
  const what = `${host}:${port ?? ''}`;
  blocked.push(what);
  const log = process.env.LOOPBACK_GUARD_LOG;
  if (log) {
    try {
      appendFileSync(log, `${process.pid} ${what}\n`);
    } catch {
      // the test process reports what it noted itself
    }
  }
  return Object.assign(new Error(`a connection to ${what} refused by the tests' loopback guard (test/helpers/loopback-guard.mjs)`), { code: 'ERR_TEST_LOOPBACK_GUARD' });
}

/** The host and port of Socket#connect's arguments; undefined for a Unix socket (a path). */
function target(args) {
  let first = args[0];
  if (Array.isArray(first)) first = first[0]; // net.connect() hands on its normalized arguments
  if (first !== null && typeof first === 'object') return first.path !== undefined ? undefined : { host: first.host ?? 'localhost', port: first.port };
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
  return undefined;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const to = target(args);
  if (to && !isLoopback(to.host)) {
    const error = refusal(to.host, to.port);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  if (typeof hostname === 'string' && hostname !== '' && !isLoopback(hostname) && net.isIP(hostname) === 0) {
    const callback = rest.at(-1);
    const error = refusal(hostname);
    if (typeof callback === 'function') process.nextTick(() => callback(error));
    return {};
  }
  return lookup.call(this, hostname, ...rest);
};
