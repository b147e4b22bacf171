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

/** Whether `error` says a port was in use: EADDRINUSE from startSandbox, or `idm sandbox start`'s exit 1 for it. */
export function portTaken(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE' || /Port \d+ on 127\.0\.0\.1 is already in use\./.test(String((error as Error | undefined)?.message));
}

/**
 * For a test that restarts a sandbox from its --state-dir, which binds the saved port again: between
 * the stop and the restart another process on the machine may be given that port. Then the whole
 * test is run again from the start (a fresh state directory, so a fresh port), up to `tries` times;
 * any other failure is the test's. The port is what the test is about, so it is not given up.
 */
export async function retryWhilePortTaken(test: () => Promise<void>, tries = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await test();
    } catch (error) {
      if (attempt >= tries || !portTaken(error)) throw error;
    }
  }
}
