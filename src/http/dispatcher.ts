// The connections: one direct agent, and one agent per proxy in use (HTTPS through CONNECT), each
// with the CA of --ca-file. Only undici's public API is used: its index (fetch, WebSocket, caches and
// mocks too) loads once per network command, bundled into a chunk of dist/ that the V8 code cache
// covers (scripts/build.mjs).
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { UsageError } from '../errors.js';
import { keepParserOnBaseline } from './liftoff.js';
import { type ProxySettings, proxyFor, readProxySettings } from './proxy.js';
import { Agent, Pool, ProxyAgent } from './undici.js';

export interface DispatcherOptions {
  /** Extra CA certificates (PEM file), on top of the system's and NODE_EXTRA_CA_CERTS. */
  caFile?: string;
  env: Record<string, string | undefined>;
  /** Receives a line naming the proxy a request goes through (--debug). */
  debug?: (line: string) => void;
  /** A CA file trusted for one origin only (a registry's `ca-file` setting), on top of caFile. */
  caFileFor?: (url: URL) => string | undefined;
}

/**
 * Picks the dispatcher for a URL: direct, or through the proxy the environment names for it. A
 * direct route also names the certificates its TLS trusts (`direct.ca`, undefined for node's own
 * store), for the blob transport that opens its own connections (layers/h1.ts).
 */
export type DispatcherFor = (url: URL) => {
  dispatcher: Dispatcher;
  proxy?: string;
  direct?: { ca?: string[] };
};

export function createDispatchers(options: DispatcherOptions): DispatcherFor {
  const proxies: ProxySettings = readProxySettings(options.env);
  let tls: { ca: string[] } | undefined | null = null;
  const tlsOptions = () => {
    if (tls === null) tls = options.caFile ? { ca: caBundle(options.caFile, options.env) } : undefined;
    return tls;
  };
  let directRoute: ReturnType<DispatcherFor> | undefined;
  const viaProxy = new Map<string, Dispatcher>();
  /** One direct route per origin-bound CA file: its CA is trusted for that origin alone. */
  const byCaFile = new Map<string, ReturnType<DispatcherFor>>();

  return (url) => {
    const proxy = proxyFor(url, proxies);
    const own = url.protocol === 'https:' ? options.caFileFor?.(url) : undefined;
    if (!proxy && own) {
      keepParserOnBaseline();
      let route = byCaFile.get(own);
      if (!route) {
        const base = tlsOptions()?.ca ?? [...rootCertificates, ...nodeExtraCerts(options.env)];
        const ca = [...base, readCaFile(own)];
        route = { dispatcher: reusingFreedConnections(new Agent({ connect: { ca } })), direct: { ca } };
        byCaFile.set(own, route);
      }
      return route;
    }
    if (!proxy) {
      keepParserOnBaseline();
      const tls = tlsOptions();
      directRoute ??= {
        dispatcher: reusingFreedConnections(new Agent(tls ? { connect: tls } : {})),
        direct: { ca: tls?.ca },
      };
      return directRoute;
    }
    options.debug?.(`  via proxy ${proxy.origin}`);
    let agent = viaProxy.get(proxy.href);
    if (!agent) {
      keepParserOnBaseline();
      const ca = tlsOptions();
      agent = new ProxyAgent({
        uri: proxy.href,
        ...(ca ? { requestTls: ca, proxyTls: ca } : {}),
        // The pool to the proxy, with a connector that names no IP address as the TLS server.
        clientFactory: (origin: URL, opts: NonNullable<ConstructorParameters<typeof Pool>[1]>) =>
          new Pool(origin, { ...opts, connect: withoutIpServerName(opts.connect) }),
      });
      viaProxy.set(proxy.href, agent);
    }
    return { dispatcher: agent, proxy: proxy.origin };
  };
}

/**
 * An agent whose requests reuse the connection a request to the same origin has just finished with.
 * undici hands a finished connection back to its pool only on the next turn of the event loop (a
 * setImmediate, so that a server's close is seen first); a request sent in the same turn, as the
 * next step of a command usually is (a manifest GET after the registry's ping, a blob's GET after
 * its HEAD), found no free connection and opened another: five connections for a copy of one
 * layer, three of them for one request each. Such a request now waits for that turn, and takes
 * the connection the pool has got back. Nothing is sent twice or out of order: the request is
 * handed to undici once, only later; an abort while it waits ends it as before it was sent.
 */
function reusingFreedConnections(agent: Agent): Dispatcher {
  return agent.compose((dispatch) => (opts, handler) => {
    const pool = agent.stats[String(opts.origin)];
    // A connection of the pool is open and idle, but not yet free: its request has just finished.
    if (pool && 'free' in pool && pool.free === 0 && pool.queued === 0 && pool.connected > pool.running) {
      setImmediate(() => dispatch(opts, handler));
      return true;
    }
    return dispatch(opts, handler);
  });
}

type Connector = (options: { servername?: string | null }, callback: (...args: unknown[]) => void) => void;

/**
 * undici names an https:// proxy's host as the TLS server name even when it is an IP address, which
 * RFC 6066 forbids and Node answers with a DEP0123 warning on stderr; without one, undici's connector
 * sends no server name for an address, as TLS to an address should.
 */
function withoutIpServerName<T>(connect: T): T {
  if (typeof connect !== 'function') return connect;
  const inner = connect as Connector;
  const wrapped: Connector = (options, callback) =>
    inner(
      options.servername && isIP(options.servername) ? { ...options, servername: undefined } : options,
      callback,
    );
  return wrapped as T;
}

/** An explicit `ca` replaces Node's store: keep the public roots and NODE_EXTRA_CA_CERTS too. */
function caBundle(caFile: string, env: Record<string, string | undefined>): string[] {
  return [...rootCertificates, ...nodeExtraCerts(env), readCaFile(caFile)];
}

/** A CA bundle is small; the system's whole store is about 200 KiB. */
const MAX_CA_FILE = 16 * 1024 * 1024;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The --ca-file: a regular file of PEM certificates, each of which parses, checked before any
 * request, so that a wrong file is one sentence (exit 2) rather than an untrusted certificate later.
 */
export function readCaFile(caFile: string): string {
  let text: string;
  try {
    const stat = statSync(caFile);
    if (!stat.isFile()) throw new UsageError(`--ca-file ${caFile} is not a regular file`);
    if (stat.size > MAX_CA_FILE) {
      throw new UsageError(
        `--ca-file ${caFile} is larger than ${MAX_CA_FILE / 1024 / 1024} MiB: it is no CA bundle`,
      );
    }
    text = readFileSync(caFile, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read the CA file ${caFile}`, { cause: err });
  }
  const blocks = text.match(PEM_CERT) ?? [];
  if (blocks.length === 0) {
    throw new UsageError(
      `--ca-file ${caFile} is not a PEM file of certificates (it holds no "-----BEGIN CERTIFICATE-----" block)`,
      {
        hint: 'Give the CA certificate in PEM form; `openssl x509 -inform der -in ca.der -out ca.pem` converts a DER one.',
      },
    );
  }
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new UsageError(
        `--ca-file ${caFile}: certificate ${i + 1} of ${blocks.length} is not a valid certificate`,
      );
    }
  });
  return text;
}

function nodeExtraCerts(env: Record<string, string | undefined>): string[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return []; // node itself only warns about an unreadable file
  }
}
