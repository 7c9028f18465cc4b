// Everything that may carry a secret passes through here before it is printed.

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-registry-auth',
]);
const SECRET_KEYS =
  /^(password|secret|token|access_token|refresh_token|id_token|identitytoken|auth|client_secret)$/i;
// Bearer/Basic credentials, JWTs and access tokens that might appear inside free text.
const SECRET_PATTERNS = [
  // (not a challenge's parameters: `Bearer realm="…"` is no credential)
  /\b(Bearer|Basic)\s+(?![A-Za-z_]+=")[A-Za-z0-9._~+/=-]+/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /\b(hub|dckr)_(pat|oat)_[A-Za-z0-9_-]+/g,
];

export const REDACTED = '***';

export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? redactAuthValue(text) : redactText(text);
  }
  return out;
}

/** Keeps the scheme word ("Bearer ***") so a trace still says which kind of auth was sent. */
function redactAuthValue(value: string): string {
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return redactText(String(url));
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEYS.test(key)) parsed.searchParams.set(key, REDACTED);
  }
  return parsed.toString();
}

export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEYS.test(k) && v !== null && v !== '' ? REDACTED : redactJson(v);
    }
    return out;
  }
  return typeof value === 'string' ? redactText(value) : value;
}

export function redactText(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (_match, scheme: string) =>
      scheme === 'Bearer' || scheme === 'Basic' ? `${scheme} ${REDACTED}` : REDACTED,
    );
  }
  return out;
}
