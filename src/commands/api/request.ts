// `hubctl api`: one request (or every page of one) through the same HTTP layer as every command,
// with the credential of the service's origin: the hub JWT for the hub and the governance API, the
// raw access token for the audit API, a registry token for a registry. Non-success answers are
// typed errors, so the exit codes are the usual ones (4, 5, 6, 7).
import { open } from 'node:fs/promises';
import { nextPage, pageItems, registryScope, resolvePath, type Service } from '../../api/raw.js';
import type { Context } from '../../context.js';
import { AuthError, UnexpectedAnswerError, UsageError } from '../../errors.js';
import { MAX_JSON_BYTES } from '../../http/body.js';
import type { HttpResponse, Method } from '../../http/client.js';
import { nextPageUrl, paginate } from '../../http/paginate.js';

export interface ApiOptions {
  path: string;
  service: Service;
  method: Method;
  /** Lower-case names; never a credential (src/api/raw.ts parseHeader). */
  headers: Record<string, string>;
  fields: [string, unknown][];
  /** A file, or '-' for standard input. */
  input?: string;
  paginate: boolean;
  include: boolean;
}

/** The audit API's default base (another base: HUBCTL_AUDIT_URL or the profile's audit-url). */
export const DEFAULT_AUDIT_URL = 'https://api.docker.com';
/** --input bodies, like answers, are read into memory with a cap. */
export const MAX_INPUT_BYTES = MAX_JSON_BYTES;
/** --paginate reads at most this many pages and items. */
export const MAX_PAGES = 1000;
export const MAX_ITEMS = 100_000;

type Send = (req: {
  method: Method;
  url: URL;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}) => Promise<HttpResponse>;

export async function run(ctx: Context, opts: ApiOptions): Promise<void> {
  const { base, send } = await service(ctx, opts.service);
  const path = opts.path.includes('{org}')
    ? opts.path.replaceAll('{org}', encodeURIComponent(await ctx.org()))
    : opts.path;
  const url = resolvePath(base, path);
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  let body: string | Uint8Array | undefined;
  if (opts.fields.length > 0) {
    if (opts.method === 'GET' || opts.method === 'HEAD') {
      for (const [k, v] of opts.fields) url.searchParams.append(k, String(v));
    } else {
      body = JSON.stringify(Object.fromEntries(opts.fields));
      headers['content-type'] ??= 'application/json';
    }
  } else if (opts.input !== undefined) {
    body = await readInput(ctx, opts.input);
    headers['content-type'] ??= 'application/json';
  }

  if (opts.paginate) {
    const items = paginate<unknown>(
      async (cursor) => {
        const pageUrl = cursor ? new URL(cursor) : url;
        const res = await send({ method: 'GET', url: pageUrl, headers });
        if (opts.include) await printHead(ctx, res);
        const value = await readJson(res);
        const list = pageItems(value);
        if (!list) {
          throw new UnexpectedAnswerError(
            `--paginate: the answer of ${pageUrl.pathname} has no list to collect (an array, or an object with one)`,
          );
        }
        const next = nextPage(value, res.headers.link, new URL(res.url));
        return { items: list, next: next ? nextPageUrl(next, res.url, `GET ${url.pathname}`) : null };
      },
      { host: url.host, what: `GET ${url.pathname}`, maxPages: MAX_PAGES, maxItems: MAX_ITEMS },
    );
    const all: unknown[] = [];
    for await (const item of items) all.push(item);
    ctx.output.printList(all);
    return;
  }

  const res = await send({ method: opts.method, url, headers, ...(body === undefined ? {} : { body }) });
  if (opts.include) await printHead(ctx, res);
  if (opts.method === 'HEAD') return;
  const text = await res.text(MAX_JSON_BYTES);
  if (text === '') return;
  const json = parseJson(text, res);
  if (json !== undefined) ctx.output.printJson(json.value);
  else if (ctx.globals.jq !== undefined) {
    throw new UnexpectedAnswerError(
      `--jq: the answer of ${url.pathname} is not JSON (${res.headers['content-type'] ?? 'no content type'})`,
    );
  } else ctx.output.verbatim(text);
}

/** The service's base URL and a request function carrying its credential. */
async function service(ctx: Context, s: Service): Promise<{ base: string; send: Send }> {
  const settings = await ctx.settings();
  switch (s.kind) {
    case 'hub':
    case 'governance': {
      const base = s.kind === 'hub' ? settings.baseUrl : settings.governanceUrl;
      return {
        base,
        send: async (req) =>
          (await ctx.hubSession()).request({ ...req, what: `${req.method} ${req.url.pathname}` }),
      };
    }
    case 'audit': {
      // The audit API takes the organization access token itself, as a bearer (no JWT exchange).
      const base =
        (settings as { auditUrl?: string }).auditUrl ?? (ctx.env.HUBCTL_AUDIT_URL || DEFAULT_AUDIT_URL);
      return {
        base,
        send: async (req) => {
          const cred = await (await ctx.credentials()).hub();
          if (!cred) {
            throw new AuthError('you are not logged in', {
              hint: 'Run `hubctl auth login` with an organization access token, or set HUBCTL_USERNAME and HUBCTL_TOKEN.',
            });
          }
          return (await ctx.http()).request({
            ...req,
            credential: { origin: new URL(base).origin, authorization: `Bearer ${cred.secret}` },
            what: `${req.method} ${req.url.pathname}`,
          });
        },
      };
    }
    case 'registry': {
      const client = await ctx.registry();
      return {
        base: client.baseUrl(s.host),
        send: (req) =>
          client.rawRequest(s.host, {
            method: req.method,
            url: req.url,
            scopes: registryScope(req.url.pathname, req.method).scopes,
            headers: req.headers,
            ...(req.body === undefined ? {} : { body: req.body }),
          }),
      };
    }
  }
}

/** --include: the status line and headers, as a server sent them (escaped by the output layer). */
async function printHead(ctx: Context, res: HttpResponse): Promise<void> {
  ctx.output.line(`HTTP ${res.status}`);
  for (const [k, v] of Object.entries(res.headers)) ctx.output.line(`${k}: ${v}`);
  ctx.output.line();
}

async function readJson(res: HttpResponse): Promise<unknown> {
  const text = await res.text(MAX_JSON_BYTES);
  const json = parseJson(text, res);
  if (json === undefined)
    throw new UnexpectedAnswerError(`--paginate: the answer of ${new URL(res.url).pathname} is not JSON`);
  return json.value;
}

function parseJson(text: string, res: HttpResponse): { value: unknown } | undefined {
  const type = res.headers['content-type'] ?? '';
  const looksJson = /json/i.test(type) || /^\s*[[{]/.test(text);
  if (!looksJson) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    if (/json/i.test(type))
      throw new UnexpectedAnswerError(`the answer of ${new URL(res.url).pathname} is not valid JSON`);
    return undefined;
  }
}

/** --input FILE or '-': read whole, at most MAX_INPUT_BYTES. */
async function readInput(ctx: Context, input: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_INPUT_BYTES)
      throw new UsageError(`--input is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
    chunks.push(chunk);
  };
  if (input === '-') {
    for await (const chunk of ctx.io.stdin) take(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  } else {
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(input, 'r');
    } catch (err) {
      throw new UsageError(
        `cannot read --input ${input}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
    try {
      for await (const chunk of file.createReadStream()) take(chunk as Buffer);
    } finally {
      await file.close().catch(() => undefined);
    }
  }
  return Buffer.concat(chunks);
}
