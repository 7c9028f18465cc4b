// Where the container engine listens: --engine-host, else DOCKER_HOST, else the default socket;
// and, for TCP, the TLS files the docker CLI reads (DOCKER_TLS_VERIFY, DOCKER_CERT_PATH).
import { join } from 'node:path';
import { hasUserinfo, redactUserinfo } from '../../config/values.js';
import { UsageError } from '../../errors.js';
import type { EngineTransport } from '../../http/engine-transport.js';

export const DEFAULT_ENGINE_HOST = 'unix:///var/run/docker.sock';

export interface EngineAddress {
  /** As the user would write it: unix:///path or tcp://host:port. */
  display: string;
  /** Where it came from, for messages. */
  source: '--engine-host' | 'DOCKER_HOST' | 'default';
  /** The base URL requests are built on (http://localhost for a socket). */
  baseUrl: string;
  transport: EngineTransport;
}

export function engineAddress(
  flag: string | undefined,
  env: Record<string, string | undefined>,
): EngineAddress {
  const source = flag ? '--engine-host' : env.DOCKER_HOST ? 'DOCKER_HOST' : 'default';
  const raw = flag || env.DOCKER_HOST || DEFAULT_ENGINE_HOST;
  const where = source === 'default' ? '' : ` (${source})`;
  // Messages show the address with any user name and password replaced (they are refused below).
  const shown = redactUserinfo(raw);
  const match = /^([a-z]+):\/\/(.*)$/.exec(raw);
  if (!match) {
    throw new UsageError(`the engine address "${shown}"${where} is not unix://PATH or tcp://HOST:PORT`);
  }
  const [, scheme, rest] = match as unknown as [string, string, string];
  if (hasUserinfo(raw) && (scheme === 'unix' || scheme === 'tcp')) {
    throw new UsageError(`the engine address "${shown}"${where} carries a user name or password`, {
      hint: 'Give unix://PATH or tcp://HOST:PORT; the engine takes no credentials in its address.',
    });
  }
  if (scheme === 'unix') {
    if (!rest.startsWith('/')) {
      throw new UsageError(`the engine socket in "${shown}"${where} must be an absolute path (unix:///PATH)`);
    }
    return { display: raw, source, baseUrl: 'http://localhost', transport: { socketPath: rest } };
  }
  if (scheme !== 'tcp') {
    throw new UsageError(
      `the engine address "${shown}"${where} uses ${scheme}://, which hubctl does not speak`,
      {
        hint: 'Use unix://PATH or tcp://HOST:PORT.',
      },
    );
  }
  // As the docker CLI: any non-empty DOCKER_TLS_VERIFY means TLS with the server verified.
  const tls = Boolean(env.DOCKER_TLS_VERIFY);
  let url: URL;
  try {
    url = new URL(`${tls ? 'https' : 'http'}://${rest}`);
  } catch {
    throw new UsageError(`the engine address "${shown}"${where} is not tcp://HOST:PORT`);
  }
  if (url.pathname !== '/' || url.search || url.username || url.password) {
    throw new UsageError(`the engine address "${shown}"${where} must be tcp://HOST:PORT, without a path`);
  }
  // The docker CLI's default ports: 2376 with TLS, 2375 without.
  if (!url.port) url.port = tls ? '2376' : '2375';
  const certDir = env.DOCKER_CERT_PATH || join(env.HOME || '', '.docker');
  return {
    display: `tcp://${url.host}`,
    source,
    baseUrl: url.origin,
    transport: tls
      ? {
          tls: {
            caFile: join(certDir, 'ca.pem'),
            certFile: join(certDir, 'cert.pem'),
            keyFile: join(certDir, 'key.pem'),
          },
        }
      : {},
  };
}
