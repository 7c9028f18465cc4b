// The innermost layer: one request on the wire through an undici dispatcher (direct, or through the
// proxy the environment names; see ../dispatcher.ts), its answer's headers flattened. Nothing is
// retried, followed or checked here.
import type { Readable } from 'node:stream';
import type { DispatcherFor } from '../dispatcher.js';
import type { AnswerBody, Send } from './exchange.js';

export function wire(route: DispatcherFor): Send {
  return async (req) => {
    const { dispatcher, proxy } = route(req.url);
    const res = await dispatcher
      .request({
        origin: req.url.origin,
        path: `${req.url.pathname}${req.url.search}`,
        method: req.method,
        headers: req.headers,
        // undici streams any async iterable; its typings only name Readable.
        body: (req.body ?? undefined) as string | Uint8Array | Readable | undefined,
        signal: req.signal,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
        // undici closes the connection after every HEAD unless told otherwise (for servers that
        // send a body with it, undici#258); registries do not, and a sync sends hundreds of HEADs.
        ...(req.method === 'HEAD' ? { reset: false } : {}),
      })
      .catch((err: unknown) => {
        // Says which proxy the failure went through: a corporate network's usual suspect.
        throw proxy ? Object.assign(err as object, { proxy }) : err;
      });
    return {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
      url: req.url,
      body: res.body as AnswerBody,
    };
  };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
