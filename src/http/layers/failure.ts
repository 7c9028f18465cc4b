// Network failures in plain words: what undici throws (a refused connection, a reset, a timeout, an
// untrusted certificate) becomes a NetworkError (exit 7) naming the request, the proxy it went
// through and how many times it was tried, the cause kept. Our own errors and an abort pass as they are.
import { HubctlError, NetworkError } from '../../errors.js';
import { describeNetworkError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { isRead, type Layer, type Outgoing, prefix } from './exchange.js';

export const plainFailures: Layer = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    if (req.signal?.aborted || err instanceof HubctlError) throw err;
    throw networkFailure(req, req.url, err, false);
  }
};

/**
 * `reading`: the failure struck while the answer's body was arriving (a write may have landed);
 * `attempts`: how many times the request was sent again before.
 */
export function networkFailure(
  req: Outgoing,
  url: URL,
  err: unknown,
  reading: boolean,
  attempts = req.attempts.retried,
): NetworkError {
  const tries = attempts > 0 ? ` (tried ${attempts + 1} times)` : '';
  const proxy = (err as { proxy?: unknown } | null)?.proxy;
  const via = typeof proxy === 'string' ? ` (through the proxy ${redactUrl(proxy).replace(/\/$/, '')})` : '';
  return new NetworkError(
    `${prefix(req)}${req.method} ${redactUrl(url)} failed: ${describeNetworkError(err, reading)}${via}${tries}`,
    {
      cause: err,
      hint:
        reading && !isRead(req.method)
          ? 'The request was not repeated: it may or may not have taken effect.'
          : undefined,
    },
  );
}
