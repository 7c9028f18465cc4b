// A TCP port on 127.0.0.1 that was free a moment ago (for servers that cannot listen on port 0
// and report back, such as the registry binary). Another process may still take it first: callers
// that spawn a server on it should retry on "address already in use".
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}
