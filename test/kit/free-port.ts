import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now (the OS picks it; another process may take it before use).
 * @returns the port
 */
export async function aFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
