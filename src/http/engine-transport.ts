// How the HTTP layer reaches a container engine: a unix socket, or TCP with the client
// certificates the docker CLI reads (DOCKER_TLS_VERIFY, DOCKER_CERT_PATH). The engine client
// passes the dispatcher made here to createHttpClient, so engine calls share its redaction,
// --debug trace and typed errors. No proxy: an engine address is local or named on purpose.
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { UsageError } from '../errors.js';
import { Agent } from './undici.js';

export interface EngineTls {
  /** PEM file names; any may be absent (then Node's defaults apply). */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export type EngineTransport = { socketPath: string } | { tls?: EngineTls };

export function engineDispatcher(transport: EngineTransport): Dispatcher {
  if ('socketPath' in transport) {
    return new Agent({ connect: { socketPath: transport.socketPath } });
  }
  if (!transport.tls) return new Agent();
  const { caFile, certFile, keyFile } = transport.tls;
  return new Agent({
    connect: {
      ...(caFile ? { ca: readPem(caFile) } : {}),
      ...(certFile ? { cert: readPem(certFile) } : {}),
      ...(keyFile ? { key: readPem(keyFile) } : {}),
    },
  });
}

function readPem(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the engine TLS file ${file}`, {
      cause: err,
      hint: 'DOCKER_CERT_PATH names the folder holding ca.pem, cert.pem and key.pem.',
    });
  }
}
