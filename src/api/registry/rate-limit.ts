// The pull rate limit a registry reports on manifest answers (Docker Hub: `ratelimit-limit:
// 100;w=21600`, `ratelimit-remaining: 76;w=21600`, `docker-ratelimit-source: <ip or account>`).
// Pure: headers in, a typed value out; anything malformed reads as not reported.

export interface RateLimit {
  limit: number;
  remaining: number;
  /** The window in seconds, when the registry names one (`w=`). */
  windowSeconds?: number;
  /** Who the limit counts against (an address or an account id), as the registry says. */
  source?: string;
}

/** `100;w=21600` → count and window; the first of a comma-separated list (RFC draft form). */
export function parseLimitHeader(value: string | undefined): { count: number; window?: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d{1,12})\s*(?:;\s*w\s*=\s*(\d{1,12}))?/.exec(value.split(',')[0] ?? '');
  if (!m) return undefined;
  return { count: Number(m[1]), ...(m[2] !== undefined ? { window: Number(m[2]) } : {}) };
}

export function rateLimitOf(headers: Record<string, string | undefined>): RateLimit | undefined {
  const limit = parseLimitHeader(headers['ratelimit-limit']);
  const remaining = parseLimitHeader(headers['ratelimit-remaining']);
  if (!limit || !remaining) return undefined;
  const source = headers['docker-ratelimit-source']?.trim().slice(0, 200);
  const window = limit.window ?? remaining.window;
  return {
    limit: limit.count,
    remaining: remaining.count,
    ...(window !== undefined ? { windowSeconds: window } : {}),
    ...(source ? { source } : {}),
  };
}
