// Retries: a request that failed in a way worth trying again is sent again, after a backoff with
// full jitter or the server's Retry-After (capped). Only idempotent methods with a body that can be
// sent again are retried, and a write only when it cannot have landed: PUT and DELETE after a
// failure before the request reached the server or a 429/502/503/504, never after a dropped
// connection or a 500. POST and PATCH are never sent twice.
import type { Clock } from '../../clock.js';
import { HubctlError } from '../../errors.js';
import { errorCode } from '../errors.js';
import { type Answer, isRead, type Layer, type Outgoing } from './exchange.js';

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** A read the server failed is asked again too; a write that met a 500 may have landed. */
const READ_RETRY_STATUSES = new Set([...RETRY_STATUSES, 500]);
/** Failures before the request reached the server: safe to repeat for PUT and DELETE too. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Any dropped or stalled connection: a read (GET/HEAD) is asked again. */
const DROPPED_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const MAX_RETRY_AFTER_MS = 60_000;

export interface RetryOptions {
  clock: Clock;
  /** Default 3. */
  maxRetries?: number;
  /** First backoff step (default 250 ms); doubled each retry, with full jitter. */
  baseMs?: number;
  random?: () => number;
}

export interface Retrier {
  layer: Layer;
  /**
   * After a read's body failed on the way in: true, once its backoff has passed, when the request
   * may be sent again (a GET or HEAD, a dropped connection, retries left).
   */
  again(req: Outgoing, err: unknown): Promise<boolean>;
}

/** A dropped or stalled connection (undici wraps socket errors; the code is along the cause chain). */
export function isDroppedConnection(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && DROPPED_CODES.has(code);
}

/** Whether the request may be sent more than once at all. */
export function mayRetry(req: Outgoing): boolean {
  const idempotent = isRead(req.method) || req.method === 'PUT' || req.method === 'DELETE';
  const body = req.body;
  const replayable =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  return (req.retry ?? idempotent) && idempotent && replayable;
}

function retryableError(req: Outgoing, err: unknown): boolean {
  const code = errorCode(err);
  if (!mayRetry(req) || !code || err instanceof HubctlError) return false;
  return isRead(req.method) ? DROPPED_CODES.has(code) : NOT_SENT_CODES.has(code);
}

export function createRetrier(options: RetryOptions): Retrier {
  const { clock } = options;
  const maxRetries = options.maxRetries ?? 3;
  const baseMs = options.baseMs ?? 250;
  const random = options.random ?? Math.random;
  const backoff = (attempt: number) => Math.round(random() * baseMs * 2 ** attempt);

  const layer: Layer = (next) => async (req) => {
    for (;;) {
      let res: Answer;
      try {
        res = await next(req);
      } catch (err) {
        if (req.signal?.aborted || !retryableError(req, err) || req.attempts.retried >= maxRetries) throw err;
        await clock.sleep(backoff(req.attempts.retried++), req.signal);
        continue;
      }
      const statuses = isRead(req.method) ? READ_RETRY_STATUSES : RETRY_STATUSES;
      if (!mayRetry(req) || req.attempts.retried >= maxRetries || !statuses.has(res.status)) return res;
      const wait = retryAfterMs(res.headers['retry-after'], clock.now()) ?? backoff(req.attempts.retried);
      req.attempts.retried++;
      await res.body.dump().catch(() => undefined);
      await clock.sleep(Math.min(wait, MAX_RETRY_AFTER_MS), req.signal);
    }
  };

  const again = async (req: Outgoing, err: unknown) => {
    if (!isRead(req.method) || !retryableError(req, err) || req.attempts.retried >= maxRetries) return false;
    await clock.sleep(backoff(req.attempts.retried++), req.signal);
    return true;
  };

  return { layer, again };
}

/** Retry-After as seconds or as an HTTP date. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
