// A loopback port that refuses connections for as long as a test needs it. A port that was bound
// and then released is not: between its release and its use, any process on the machine (another
// test worker, another job) may be given it and answer. This one stays bound: it is the local end of
// a connection this helper keeps open, and a bound socket that is not listening makes the kernel
// refuse every connection to its port, while no one else can bind it.
import { connect, createServer, type Socket } from 'node:net';

export interface RefusingPort {
  port: number;
  /** Releases the port (the connection and the server behind it). */
  close(): Promise<void>;
}

export async function refusingPort(): Promise<RefusingPort> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => void accepted.push(socket.on('error', () => {})));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const holder = connect((server.address() as { port: number }).port, '127.0.0.1').on('error', () => {});
  await new Promise<void>((resolve, reject) => holder.once('connect', resolve).once('error', reject));
  return {
    port: holder.localPort!,
    close: async () => {
      holder.destroy();
      for (const socket of accepted) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
