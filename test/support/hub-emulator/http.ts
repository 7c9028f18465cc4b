// Small helpers shared by the emulator's route handlers: answers, error bodies, recorded requests
// and fault injection.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Lower-case header names, as node gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed as JSON, when it was JSON. */
  json?: unknown;
  /** True when an injected fault step answered (or dropped) this request. */
  injected?: boolean;
}

export type FaultStep =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | { delayMs: number }
  | { drop: true };

export interface FaultMatcher {
  method?: string;
  /** Exact path (without query) or a pattern tested against it. */
  path: string | RegExp;
  /** How many times the sequence of steps is played (default 1). */
  times?: number;
}

export interface Fault {
  matcher: FaultMatcher;
  steps: FaultStep[];
  /** Steps not yet consumed. */
  remaining(): number;
}

export class FaultQueue {
  private readonly faults: Array<{ matcher: FaultMatcher; queue: FaultStep[] }> = [];

  add(matcher: FaultMatcher, steps: FaultStep[]): Fault {
    const queue: FaultStep[] = [];
    for (let i = 0; i < (matcher.times ?? 1); i++) queue.push(...steps);
    const entry = { matcher, queue };
    this.faults.push(entry);
    return { matcher, steps, remaining: () => entry.queue.length };
  }

  /** The next step for this request, consumed; undefined when no fault applies. */
  take(method: string, path: string): FaultStep | undefined {
    for (const f of this.faults) {
      if (f.queue.length === 0) continue;
      if (f.matcher.method && f.matcher.method.toUpperCase() !== method) continue;
      const p = f.matcher.path;
      if (typeof p === 'string' ? p !== path : !p.test(path)) continue;
      return f.queue.shift();
    }
    return undefined;
  }

  clear(): void {
    this.faults.length = 0;
  }
}

export function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): undefined {
  if (body === undefined || status === 204) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Hub API error body `{message, errinfo}`. */
export function hubError(
  res: ServerResponse,
  status: number,
  message: string,
  headers?: Record<string, string>,
): undefined {
  send(res, status, { message, errinfo: null }, headers);
}

/** Governance error body `{error:{code,message}}`. */
export function govError(res: ServerResponse, status: number, code: string, message: string): undefined {
  send(res, status, { error: { code, message } });
}

export function readBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
