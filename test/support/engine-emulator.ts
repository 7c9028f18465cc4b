// A docker engine API emulator for what podman cannot show: any API range from 1.24 to the newest,
// the daemon's "too old"/"too new" answers in its own words, the image inspect and info fields that
// each version omits, and a /_ping that refuses HEAD. Listens on 127.0.0.1:0 or a unix socket and
// records every request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface EmulatedImage {
  id: string;
  tags: string[];
  created: string;
  size: number;
  config: Record<string, unknown>;
  layers: string[];
  /** GET /images/{name}/get answers with these bytes. */
  archive?: Buffer;
}

export interface EngineEmulatorOptions {
  minApi?: string;
  maxApi?: string;
  engineVersion?: string;
  /** /_ping answers HEAD with 405, as some proxies and old engines do. */
  noHeadPing?: boolean;
  images?: EmulatedImage[];
  registry?: { mirrors?: string[]; insecure?: string[] };
  /** /_ping never answers (the connection stays open). */
  pingHangs?: boolean;
  /**
   * GET /images/{name}/get misbehaves: `stall` sends 512 bytes then nothing, `drip` a byte every
   * 200 ms, `endless` tar entries (1 KiB files) for ever, each as fast as the reader takes them.
   */
  exportFault?: 'stall' | 'drip' | 'endless';
  /** Serve TLS and require a client certificate signed by `ca` (PEM), as a docker daemon with --tlsverify. */
  tls?: { key: string; cert: string; ca: string };
}

export interface EngineEmulator {
  /** tcp://127.0.0.1:PORT or unix:///PATH */
  host: string;
  requests: { method: string; url: string }[];
  loaded: Buffer[];
  close(): Promise<void>;
}

const key = (v: string) => {
  const [a, b] = v.split('.').map(Number);
  return (a ?? 0) * 1000 + (b ?? 0);
};

export const SAMPLE_IMAGE: EmulatedImage = {
  id: 'sha256:6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170',
  tags: ['app:1'],
  created: '2026-11-20T10:00:00Z',
  size: 7_340_032,
  config: { Cmd: ['/bin/app'], Env: ['PATH=/usr/bin'], WorkingDir: '/srv', Labels: { team: 'a' } },
  layers: ['sha256:1111111111111111111111111111111111111111111111111111111111111111'],
};

export async function startEngineEmulator(
  options: EngineEmulatorOptions = {},
  socketPath?: string,
): Promise<EngineEmulator> {
  const min = options.minApi ?? '1.24';
  const max = options.maxApi ?? '1.52';
  const images = options.images ?? [SAMPLE_IMAGE];
  const requests: EngineEmulator['requests'] = [];
  const loaded: Buffer[] = [];

  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'api-version': max });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://engine');
    requests.push({ method: req.method ?? 'GET', url: `${url.pathname}${url.search}` });
    if (url.pathname === '/_ping') {
      if (options.pingHangs) return;
      if (req.method === 'HEAD' && options.noHeadPing)
        return send(res, 405, { message: 'method not allowed' });
      res.writeHead(200, { 'api-version': max, 'content-type': 'text/plain' });
      return res.end(req.method === 'HEAD' ? undefined : 'OK');
    }
    const m = /^\/v(\d+\.\d+)(\/.*)$/.exec(url.pathname);
    if (!m) return send(res, 404, { message: 'page not found' });
    const [, version, path] = m as unknown as [string, string, string];
    if (key(version) < key(min)) {
      return send(res, 400, {
        message: `client version ${version} is too old. Minimum supported API version is ${min}, please upgrade your client to a newer version`,
      });
    }
    if (key(version) > key(max)) {
      return send(res, 400, {
        message: `client version ${version} is too new. Maximum supported API version is ${max}`,
      });
    }
    const at = key(version);
    if (path === '/version') {
      return send(res, 200, {
        Version: options.engineVersion ?? '29.0.0',
        ApiVersion: max,
        MinAPIVersion: min,
        Os: 'linux',
        Arch: 'amd64',
      });
    }
    if (path === '/info') return send(res, 200, infoAt(at, options.registry ?? {}));
    if (path === '/images/json') {
      const filters = url.searchParams.get('filters');
      const refs: string[] = filters
        ? ((JSON.parse(filters) as { reference?: string[] }).reference ?? [])
        : [];
      const matches = images.filter(
        (img) => refs.length === 0 || img.tags.some((t) => refs.some((r) => globMatch(r, t))),
      );
      return send(
        res,
        200,
        matches.map((img) => ({
          Id: img.id,
          RepoTags: img.tags,
          RepoDigests: [],
          Created: Math.floor(Date.parse(img.created) / 1000),
          Size: img.size,
        })),
      );
    }
    if (path === '/images/load' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      loaded.push(Buffer.concat(chunks));
      return send(res, 200, { stream: 'Loaded image: app:1\n' });
    }
    const im = /^\/images\/(.+)\/(json|get)$/.exec(path);
    if (im) {
      const name = decodeURIComponent(im[1]!);
      const img = images.find(
        (i) => i.tags.includes(name) || i.id === name || i.tags.includes(`${name}:latest`),
      );
      if (!img) return send(res, 404, { message: `No such image: ${name}` });
      if (im[2] === 'get') {
        res.writeHead(200, { 'content-type': 'application/x-tar' });
        if (options.exportFault) return misbehave(res, options.exportFault);
        return res.end(img.archive ?? Buffer.alloc(0));
      }
      return send(res, 200, inspectAt(at, img));
    }
    return send(res, 404, { message: 'page not found' });
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err) => send(res, 500, { message: String(err) }));
  };
  const server: Server = options.tls
    ? createTlsServer({ ...options.tls, requestCert: true, rejectUnauthorized: true }, listener)
    : createServer(listener);
  await new Promise<void>((resolve) =>
    socketPath ? server.listen(socketPath, resolve) : server.listen(0, '127.0.0.1', resolve),
  );
  const host = socketPath
    ? `unix://${socketPath}`
    : `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    requests,
    loaded,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function globMatch(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(:.*)?$`);
  return re.test(value);
}

/** RegistryConfig as each version writes it: the non-distributable lists null to 1.48, gone from 1.49. */
function infoAt(at: number, registry: { mirrors?: string[]; insecure?: string[] }) {
  const rc: Record<string, unknown> = {
    InsecureRegistryCIDRs: registry.insecure ?? ['127.0.0.0/8'],
    IndexConfigs: {
      'docker.io': { Name: 'docker.io', Mirrors: registry.mirrors ?? [], Secure: true, Official: true },
    },
    Mirrors: registry.mirrors ?? [],
  };
  if (at <= key('1.48')) {
    rc.AllowNondistributableArtifactsCIDRs = null;
    rc.AllowNondistributableArtifactsHostnames = null;
  }
  return { ServerVersion: '29.0.0', RegistryConfig: rc };
}

const EMPTY_DEFAULTS: Record<string, unknown> = {
  Cmd: null,
  Entrypoint: null,
  Env: null,
  Labels: null,
  OnBuild: null,
  User: '',
  Volumes: null,
  WorkingDir: '',
};

/** Image inspect as each version writes it (interface: "Container engine API versioning" §4). */
function inspectAt(at: number, img: EmulatedImage) {
  let config: Record<string, unknown> = { ...img.config };
  if (at < key('1.52')) config = { ...EMPTY_DEFAULTS, ...config };
  if (at < key('1.50')) {
    config = {
      Hostname: '',
      Domainname: '',
      AttachStdin: false,
      AttachStdout: false,
      AttachStderr: false,
      Tty: false,
      OpenStdin: false,
      StdinOnce: false,
      Image: '',
      ...config,
    };
  }
  const out: Record<string, unknown> = {
    Id: img.id,
    RepoTags: img.tags,
    RepoDigests: [],
    Created: img.created,
    Size: img.size,
    Architecture: 'amd64',
    Os: 'linux',
    Config: config,
    RootFS: { Type: 'layers', Layers: img.layers },
  };
  if (at < key('1.45')) {
    out.Container = 'b1c2d3';
    out.ContainerConfig = { ...config, Cmd: ['/bin/sh', '-c', '#(nop) CMD ["/bin/app"]'] };
  }
  return out;
}

/** A tar entry header for a file of `size` bytes (ustar, checksum filled in). */
function fileHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512, 0);
  h.write(name, 0, 100, 'ascii');
  h.write('0000644\0', 100, 8, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  h.write('00000000000\0', 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii');
  h.write('0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

function misbehave(res: ServerResponse, fault: 'stall' | 'drip' | 'endless'): void {
  if (fault === 'stall') {
    res.write(fileHeader('stalls', 1 << 20));
    return;
  }
  if (fault === 'drip') {
    const timer = setInterval(() => res.write(Buffer.from('x')), 200);
    res.on('close', () => clearInterval(timer));
    return;
  }
  let n = 0;
  const more = () => {
    while (!res.destroyed) {
      const ok = res.write(Buffer.concat([fileHeader(`f${n++}`, 1024), Buffer.alloc(1024, 0x61)]));
      if (!ok) return void res.once('drain', more);
    }
  };
  more();
}
