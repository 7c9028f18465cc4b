// Statuses: an answer the caller did not ask for (by default anything but 2xx; `okStatuses` adds
// some, or 'any') becomes an ApiError, its message read from the first 64 KiB of the error body.
import { MAX_ERROR_BYTES, readCapped } from '../body.js';
import { apiErrorFrom } from '../errors.js';
import { redactUrl } from '../redact.js';
import type { Answer, Layer } from './exchange.js';

export const refuseStatuses: Layer = (next) => async (req) => {
  const res = await next(req);
  const ok =
    req.okStatuses === 'any' ||
    (req.okStatuses ?? []).includes(res.status) ||
    (res.status >= 200 && res.status < 300);
  if (ok) return res;
  const text = req.method === 'HEAD' ? '' : await errorText(res, req.timeoutMs);
  throw apiErrorFrom(res.status, text, { url: redactUrl(res.url), what: req.what });
};

/** An error body, for its message only: the first MAX_ERROR_BYTES, never more. */
async function errorText(res: Answer, timeoutMs: number): Promise<string> {
  try {
    const buf = await readCapped(res.body, MAX_ERROR_BYTES, { truncate: true, deadlineMs: timeoutMs });
    return buf.toString('utf8');
  } catch {
    return '';
  }
}
