// The container engine client: one negotiation per run, then every call under /v<major>.<minor>/.
// Failures are turned into sentences here: no engine at the address, no permission on its socket,
// a version the daemon refuses (decisions §6).
import type { Readable } from 'node:stream';
import { ApiError, AuthError, type HubctlError, NetworkError, UsageError } from '../../errors.js';
import { watchProgress } from '../../http/body.js';
import type { HttpClient, HttpRequestOptions, HttpResponse } from '../../http/client.js';
import { readAnswer, type v } from '../answer.js';
import type { EngineAddress } from './address.js';
import { apiVersionKey, compareApi, minApi, NEWEST_API, OLDEST_API } from './api-version.js';
import { versionSchema } from './schemas.js';

export type VersionChoice = 'DOCKER_API_VERSION' | 'negotiated' | 'capped';

export interface Negotiated {
  version: string;
  how: VersionChoice;
  /** The daemon's newest version, from /_ping (absent when pinned). */
  daemonNewest?: string;
}

export interface EngineClient {
  readonly address: EngineAddress;
  negotiate(): Promise<Negotiated>;
  /** A versioned call; path starts with '/' and carries no version. */
  request(path: string, opts?: Omit<HttpRequestOptions, 'url'>): Promise<HttpResponse>;
  getJson<S extends v.GenericSchema>(path: string, schema: S, what: string): Promise<v.InferOutput<S>>;
  /** GET /images/{name}/get: a docker-archive tar, streamed. */
  exportImage(name: string, signal?: AbortSignal): Promise<Readable>;
  /** POST /images/load. */
  loadImage(body: AsyncIterable<Uint8Array> | Readable, signal?: AbortSignal): Promise<string>;
}

export interface EngineClientOptions {
  http: HttpClient;
  address: EngineAddress;
  /** DOCKER_API_VERSION, already checked. */
  pinned?: string;
  /** HUBCTL_HTTP_TIMEOUT: the export must keep moving within this (default 30 s). */
  timeoutMs?: number;
}

/** An export that delivers less than this in a timeout's window is stalled (or dripping). */
export const EXPORT_MIN_BYTES = 64 * 1024;

export function createEngineClient(options: EngineClientOptions): EngineClient {
  const { http, address, pinned } = options;
  let negotiation: Promise<Negotiated> | undefined;

  const send = async (opts: HttpRequestOptions): Promise<HttpResponse> => {
    try {
      return await http.request(opts);
    } catch (err) {
      throw engineFailure(err, address);
    }
  };

  async function ping(): Promise<string> {
    const url = `${address.baseUrl}/_ping`;
    // HEAD first, as the docker CLI; an engine that does not answer HEAD is asked with GET.
    let res = await send({
      method: 'HEAD',
      url,
      okStatuses: 'any',
      retry: false,
      what: 'pinging the engine',
    });
    await res.dump().catch(() => undefined);
    if (res.status < 200 || res.status > 299) {
      res = await send({ method: 'GET', url, retry: false, what: 'pinging the engine' });
      await res.dump().catch(() => undefined);
    }
    const header = res.headers['api-version'];
    if (!header || apiVersionKey(header) === undefined) {
      throw new NetworkError(
        `the engine at ${address.display} answered /_ping without an Api-Version header (is it a container engine?)`,
      );
    }
    return header.trim();
  }

  async function negotiate(): Promise<Negotiated> {
    if (pinned) return { version: pinned, how: 'DOCKER_API_VERSION' };
    const daemonNewest = await ping();
    if (compareApi(daemonNewest, OLDEST_API) < 0) {
      throw new NetworkError(
        `the engine at ${address.display} speaks API ${daemonNewest} at newest; hubctl needs ${OLDEST_API} or newer`,
        { hint: 'Upgrade the engine (v25.0 or later keeps 1.24 as its minimum).' },
      );
    }
    const version = minApi(daemonNewest, NEWEST_API);
    return { version, how: version === daemonNewest ? 'negotiated' : 'capped', daemonNewest };
  }

  const negotiated = () => {
    negotiation ??= negotiate();
    return negotiation;
  };

  async function request(path: string, opts: Omit<HttpRequestOptions, 'url'> = {}): Promise<HttpResponse> {
    const n = await negotiated();
    try {
      return await send({ ...opts, url: `${address.baseUrl}/v${n.version}${path}` });
    } catch (err) {
      const refusal = versionRefusal(err);
      if (!refusal) throw err;
      throw await refusedVersionError(refusal, n);
    }
  }

  /** "…API 1.23 is too old": the whole range the daemon accepts, when it can be asked. */
  async function refusedVersionError(refusal: Refusal, n: Negotiated): Promise<HubctlError> {
    let range = refusal.kind === 'old' ? `its minimum is ${refusal.limit}` : `its newest is ${refusal.limit}`;
    try {
      const newest = refusal.kind === 'new' ? refusal.limit : (n.daemonNewest ?? (await ping()));
      const res = await send({
        url: `${address.baseUrl}/v${newest}/version`,
        what: 'asking the engine version',
      });
      const info = await readAnswer(res, versionSchema, 'reading the engine version');
      if (info.MinAPIVersion) range = `it accepts ${info.MinAPIVersion} to ${newest}`;
    } catch {
      // The daemon's own numbers are enough.
    }
    const message = `the engine at ${address.display} refuses API version ${refusal.client} as too ${refusal.kind} (${range})`;
    if (n.how === 'DOCKER_API_VERSION') {
      return new UsageError(message, { hint: 'Change or unset DOCKER_API_VERSION.' });
    }
    return new NetworkError(message);
  }

  return {
    address,
    negotiate: negotiated,
    request,
    async getJson(path, schema, what) {
      return readAnswer(await request(path, { what }), schema, what);
    },
    async exportImage(name, signal) {
      const res = await request(`/images/${encodeURIComponent(name)}/get`, {
        signal,
        timeoutMs: 300_000,
        what: `exporting ${name} from the engine`,
      });
      // Headers may take a while (the engine gathers the image); the body must keep moving.
      const windowMs = options.timeoutMs ?? 30_000;
      return watchProgress(res.body, {
        windowMs,
        minBytes: EXPORT_MIN_BYTES,
        error: () =>
          new NetworkError(
            `exporting ${name} from the engine at ${address.display}: less than ${EXPORT_MIN_BYTES / 1024} KiB arrived in ${windowMs / 1000} s (the export stalled)`,
          ),
      });
    },
    async loadImage(body, signal) {
      const res = await request('/images/load?quiet=1', {
        method: 'POST',
        body,
        signal,
        headers: { 'content-type': 'application/x-tar' },
        timeoutMs: 600_000,
        what: 'loading into the engine',
      });
      return res.text();
    },
  };
}

interface Refusal {
  client: string;
  kind: 'old' | 'new';
  limit: string;
}

/** The daemon's words: "client version 1.23 is too old. Minimum supported API version is 1.24, …". */
export function versionRefusal(err: unknown): Refusal | undefined {
  if (!(err instanceof ApiError) || err.status !== 400) return undefined;
  const m =
    /client version (\d+\.\d+) is too (old|new)\. (?:Minimum|Maximum) supported API version is (\d+\.\d+)/i.exec(
      err.message,
    );
  return m ? { client: m[1]!, kind: m[2]!.toLowerCase() as 'old' | 'new', limit: m[3]! } : undefined;
}

/** Connection failures said in terms of the engine's address and where it came from. */
function engineFailure(err: unknown, address: EngineAddress): unknown {
  if (!(err instanceof NetworkError) || err instanceof ApiError) return err;
  const code = causeCode(err);
  const socket = 'socketPath' in address.transport ? address.transport.socketPath : undefined;
  if (code === 'EACCES' && socket) {
    return new AuthError(`permission denied on the engine socket ${socket}`, {
      cause: err,
      hint: 'Ask for access to it (the docker group), or point DOCKER_HOST or --engine-host at an engine you may use.',
    });
  }
  if (code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const from =
      address.source === 'default'
        ? 'the default, as DOCKER_HOST is not set'
        : address.source === 'DOCKER_HOST'
          ? 'from DOCKER_HOST'
          : 'from --engine-host, which overrides DOCKER_HOST';
    return new NetworkError(`no container engine answers at ${address.display} (${from})`, {
      cause: err,
      hint: 'Start the engine, or set DOCKER_HOST (or --engine-host) to unix://PATH or tcp://HOST:PORT.',
    });
  }
  return err;
}

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
