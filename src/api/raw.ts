// `hubctl api`: the pure parts of a raw request. Where a path goes (below the service's base, never
// another origin or above the base path, since the service's credential goes with it), the header
// and field arguments, the registry token scope a path needs, and how a page names the next one.
// No IO: src/commands/api/ sends through the one HTTP layer.
import { UnexpectedAnswerError, UsageError } from '../errors.js';

/** The services `--service` names. */
export type Service =
  | { kind: 'hub' }
  | { kind: 'governance' }
  | { kind: 'audit' }
  | { kind: 'registry'; host: string };

export const SERVICE_NAMES = ['hub', 'governance', 'audit', 'registry:HOST'] as const;

/** --service NAME: hub, governance, audit or registry:HOST. */
export function parseService(value: string): Service {
  if (value === 'hub' || value === 'governance' || value === 'audit') return { kind: value };
  const m = /^registry:(.+)$/.exec(value);
  if (m) {
    const host = m[1]!.toLowerCase();
    // host[:port], as a registry reference names it; nothing else (no path, user or scheme).
    if (
      !/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(
        host,
      )
    )
      throw new UsageError(`--service registry:HOST needs a registry host[:port] (got "${clip(m[1]!)}")`);
    return { kind: 'registry', host };
  }
  throw new UsageError(`--service must be one of ${SERVICE_NAMES.join(', ')} (got "${clip(value)}")`);
}

/**
 * The URL of `path` below `base` (`/v2/access-tokens`, `orgs/acme/…?x=1`, or an absolute URL on the
 * base's origin). Refused: another origin, a path that climbs above the base path (`..`, encoded
 * dots), and anything that is not a URL path.
 */
export function resolvePath(base: string, path: string): URL {
  const root = new URL(base);
  const rootPath = root.pathname.replace(/\/+$/, '');
  if (path.length === 0 || path.length > 8192)
    throw new UsageError('the API path must be 1 to 8192 characters');
  // Control characters and spaces are no part of a URL; a backslash is a slash to URL parsers.
  if (/[\u0000-\u0020\u007f\\]/.test(path)) {
    throw new UsageError(`the API path "${clip(path)}" has a space, control character or backslash`);
  }
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
    try {
      url = new URL(path);
    } catch {
      throw new UsageError(`the API path "${clip(path)}" is not a URL`);
    }
    if (url.origin !== root.origin) {
      throw new UsageError(
        `refusing ${url.origin}: hubctl api sends the service's credential, which belongs to ${root.origin}`,
        { hint: 'Give a path relative to the service (see --service).' },
      );
    }
  } else {
    url = new URL(`${root.origin}${rootPath}/${path.replace(/^\/+/, '')}`);
  }
  if (url.username || url.password) throw new UsageError('the API path may not carry a user or password');
  url.hash = '';
  // Dot segments, plain or percent-encoded, would climb out of the base path.
  const segments = url.pathname.split('/');
  if (segments.some((s) => /^(?:\.|%2e){1,2}$/i.test(s)) || /%2f|%5c/i.test(url.pathname)) {
    throw new UsageError(`the API path "${clip(path)}" may not hold "." or ".." segments or encoded slashes`);
  }
  if (!(url.pathname === rootPath || url.pathname.startsWith(`${rootPath}/`) || rootPath === '')) {
    throw new UsageError(`the API path "${clip(path)}" leaves the service's base path ${rootPath}`);
  }
  return url;
}

const FORBIDDEN_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
]);

/** -H 'Name: value'. Never a credential: hubctl attaches the service's own. */
export function parseHeader(arg: string): [string, string] {
  const at = arg.indexOf(':');
  const name = at > 0 ? arg.slice(0, at).trim() : '';
  const value = at > 0 ? arg.slice(at + 1).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(name)) {
    throw new UsageError(`-H takes "Name: value" (got "${clip(arg)}")`);
  }
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value) || value.length > 8192) {
    throw new UsageError(`-H ${name}: the value has a control character or is longer than 8192 characters`);
  }
  const lower = name.toLowerCase();
  if (FORBIDDEN_HEADERS.has(lower)) {
    throw new UsageError(
      lower === 'authorization' || lower === 'proxy-authorization' || lower === 'cookie'
        ? `-H ${name} is refused: hubctl attaches the service's credential itself, and only to its origin`
        : `-H ${name} is refused: hubctl sets it`,
    );
  }
  return [lower, value];
}

/** -f key=value (a string) or -F key=value (true, false, null, a number, else a string). */
export function parseField(arg: string, typed: boolean): [string, unknown] {
  const at = arg.indexOf('=');
  if (at <= 0) throw new UsageError(`${typed ? '-F' : '-f'} takes key=value (got "${clip(arg)}")`);
  const key = arg.slice(0, at);
  const raw = arg.slice(at + 1);
  if (!typed) return [key, raw];
  if (raw === 'true') return [key, true];
  if (raw === 'false') return [key, false];
  if (raw === 'null') return [key, null];
  if (/^-?(?:0|[1-9]\d{0,15})(?:\.\d{1,16})?$/.test(raw)) return [key, Number(raw)];
  return [key, raw];
}

/** The token scope a registry path needs: a repository's, the catalog's, or none (`/v2/`). */
export function registryScope(pathname: string, method: string): { repository: string; scopes: string[] } {
  const m =
    /^\/v2\/(.+?)\/(?:tags\/list|manifests\/[^/]+|blobs\/(?:uploads\/?[^/]*|[^/]+)|referrers\/[^/]+)$/.exec(
      pathname,
    );
  if (pathname === '/v2/_catalog') return { repository: '', scopes: ['registry:catalog:*'] };
  if (!m) return { repository: '', scopes: [] };
  const repository = m[1]!;
  const actions =
    method === 'GET' || method === 'HEAD' ? 'pull' : method === 'DELETE' ? 'delete' : 'pull,push';
  return { repository, scopes: [`repository:${repository}:${actions}`] };
}

/** The items of one page: the body when it is an array, else its one list field. */
export function pageItems(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['results', 'data', 'items', 'tags', 'repositories', 'manifests']) {
    if (Array.isArray(record[key])) return record[key] as unknown[];
  }
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[]) : undefined;
}

/**
 * Where the page after `pageUrl` is: the body's `next` URL (hub), its `next_page_token` (the
 * governance API: sent back as `page_token`), or a `Link: <…>; rel="next"` header (registries).
 */
export function nextPage(body: unknown, link: string | undefined, pageUrl: URL): string | undefined {
  try {
    return nextOf(body, link, pageUrl);
  } catch {
    throw new UnexpectedAnswerError(
      `unexpected answer from ${pageUrl.host}: the next page's link is not a URL`,
    );
  }
}

function nextOf(body: unknown, link: string | undefined, pageUrl: URL): string | undefined {
  const record =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  if (typeof record.next === 'string' && record.next !== '') return new URL(record.next, pageUrl).toString();
  if (typeof record.next_page_token === 'string' && record.next_page_token !== '') {
    const next = new URL(pageUrl);
    next.searchParams.set('page_token', record.next_page_token);
    return next.toString();
  }
  if (link) {
    for (const part of link.split(/,(?=\s*<)/)) {
      const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
      if (m && /rel="?next"?/i.test(m[2] ?? '')) return new URL(m[1]!, pageUrl).toString();
    }
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
