// A registry that answers the referrers API (OCI distribution 1.1), for tests: a reverse proxy in
// front of a real distribution 2.8 (which has no such API) that indexes the manifests pushed
// through it by their `subject`, answers `OCI-Subject` on those pushes, and serves
// `GET /v2/<name>/referrers/<digest>` (the artifactType filter with `OCI-Filters-Applied`, and
// `Link` paging of `pageSize` entries). Everything else streams through untouched, the Host header
// included, so upload Locations name the proxy.
//
//   const reg = await startReferrersRegistry(registry.url, { pageSize: 2 });
//   reg.host  // 127.0.0.1:PORT, a registry with the referrers API
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReferrerEntry {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

export interface ReferrersRegistry {
  url: string;
  host: string;
  /** Method and path of every request. */
  seen: { method: string; path: string }[];
  /** `name@subject` → the referrers pushed through the proxy. */
  index: Map<string, ReferrerEntry[]>;
  close(): Promise<void>;
}

const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';

export async function startReferrersRegistry(
  target: string,
  opts: { pageSize?: number } = {},
): Promise<ReferrersRegistry> {
  const upstream = new URL(target);
  const index = new Map<string, ReferrerEntry[]>();
  const seen: { method: string; path: string }[] = [];
  const pageSize = opts.pageSize ?? 100;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? 'GET', path: req.url ?? '/' });
    const referrers = /^\/v2\/(.+)\/referrers\/(sha256:[a-f0-9]{64})$/.exec(url.pathname);
    if (referrers && req.method === 'GET') {
      req.resume();
      const [, name, subject] = referrers;
      const type = url.searchParams.get('artifactType');
      let all = index.get(`${name}@${subject}`) ?? [];
      if (type) all = all.filter((e) => e.artifactType === type);
      const page = Number(url.searchParams.get('page') ?? '0');
      const manifests = all.slice(page * pageSize, (page + 1) * pageSize);
      const headers: Record<string, string> = { 'content-type': OCI_INDEX };
      if (type) headers['oci-filters-applied'] = 'artifactType';
      if ((page + 1) * pageSize < all.length) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        headers.link = `<${next.pathname}${next.search}>; rel="next"`;
      }
      const body = JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests });
      headers['content-length'] = String(Buffer.byteLength(body));
      res.writeHead(200, headers);
      res.end(body);
      return;
    }
    const manifest = /^\/v2\/(.+)\/manifests\/([^/]+)$/.exec(url.pathname);
    if (manifest && req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        forward(req, res, upstream, body, (status, headers) => {
          if (status !== 201) return;
          const subject = learn(index, manifest[1]!, body, req.headers['content-type']);
          if (subject) headers['oci-subject'] = subject;
        });
      });
      return;
    }
    forward(req, res, upstream, undefined, () => {});
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    seen,
    index,
    close: () => closeServer(server),
  };
}

/** Indexes a pushed manifest under its subject; answers the subject's digest. */
function learn(
  index: Map<string, ReferrerEntry[]>,
  name: string,
  body: Buffer,
  contentType: string | undefined,
): string | undefined {
  let doc: {
    mediaType?: string;
    artifactType?: string;
    config?: { mediaType?: string };
    subject?: { digest?: string };
    annotations?: Record<string, string>;
  };
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const subject = doc.subject?.digest;
  if (!subject) return undefined;
  const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
  const key = `${name}@${subject}`;
  const list = index.get(key) ?? [];
  if (!list.some((e) => e.digest === digest)) {
    const artifactType = doc.artifactType ?? doc.config?.mediaType;
    list.push({
      mediaType: doc.mediaType ?? contentType ?? '',
      digest,
      size: body.length,
      ...(artifactType ? { artifactType } : {}),
      ...(doc.annotations ? { annotations: doc.annotations } : {}),
    });
  }
  index.set(key, list);
  return subject;
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: URL,
  body: Buffer | undefined,
  edit: (status: number, headers: Record<string, string | string[]>) => void,
): void {
  const up = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      const headers = { ...answer.headers } as Record<string, string | string[]>;
      edit(answer.statusCode ?? 502, headers);
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    },
  );
  up.on('error', () => res.destroy());
  if (body) up.end(body);
  else req.pipe(up);
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}
