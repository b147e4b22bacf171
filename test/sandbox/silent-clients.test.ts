// A client that connects and never sends (or stops inside the TLS handshake) must not hold close():
// the sandbox serves a whole CI job, and Ctrl-C or the job's end closes it with such clients still
// connected. An HTTPS server's closeAllConnections() knows only connections past the handshake, so
// without the sandbox's own socket tracking close() waited for the 120 s handshake timeout.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { call } from '../helpers/sandbox.js';

async function silentClient(url: string): Promise<Socket> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

describe('close() with clients that never send', () => {
  for (const https of [false, true]) {
    it(`ends them at once (${https ? 'HTTPS' : 'HTTP'} tenant and the HTTPS inbox), and they hold no slot meanwhile`, async () => {
      const sandbox = await startSandbox({ https, seed: {} });
      let sockets: Socket[] = [];
      try {
        sockets = [await silentClient(sandbox.url), await silentClient(sandbox.inboxUrl), await silentClient(sandbox.url)];
        // Others are served all the while (over HTTP: the HTTPS tenant is asked through its plain handler below).
        if (!https) expect((await call(sandbox, 'GET', '/')).status).toBe(200);
        const closedByServer = sockets.map((socket) => once(socket, 'close'));
        // Without the fix this never resolves within the test's time (the handshake timeout is 120 s).
        await sandbox.close();
        await Promise.all(closedByServer);
        expect(sockets.every((socket) => socket.destroyed)).toBe(true);
      } finally {
        for (const socket of sockets) socket.destroy();
        await sandbox.close();
      }
    }, 30_000);
  }
});
