// refusingPort(): a port that refuses connections and that no one else can take while it is held.
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { refusingPort } from './ports.js';

describe('refusingPort', () => {
  it('refuses a connection, and cannot be bound by another server, until closed', async () => {
    const refusing = await refusingPort();
    try {
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect(refusing.port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve('connected')));
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
      expect(outcome).toBe('ECONNREFUSED');
      const taker = createServer();
      const bound = await new Promise<string>((resolve) => {
        taker.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        taker.listen(refusing.port, '127.0.0.1', () => taker.close(() => resolve('listening')));
      });
      expect(bound).toBe('EADDRINUSE');
    } finally {
      await refusing.close();
    }
  });
});
