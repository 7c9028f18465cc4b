// The engine as a destination (`docker-daemon:NAME[:TAG]`): one POST /images/load whose body is a
// docker-archive written as the blobs arrive (each verified while it streams), manifest.json last.
// After the load, the engine's image ID is checked against the config digest.
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { EngineClient } from '../../api/engine/client.js';
import { inspectEngineImage } from '../../api/engine/images.js';
import { IntegrityError, NetworkError, UsageError } from '../../errors.js';
import type { Descriptor } from '../../oci/media-types.js';
import type { BlobAction, TransferProgress } from '../../output/progress.js';
import type { BlobFeed, ImageDestination, StoredManifest } from '../store.js';
import { padding, tarHeader } from '../tar.js';

const entryName = (digest: string) => `blobs/sha256/${digest.slice('sha256:'.length)}`;

/** `app` → `app:latest`; a digest or an ID cannot name what is loaded. */
export function engineTag(image: string): string {
  if (image.includes('@') || /^(sha256:)?[a-f0-9]{64}$/.test(image)) {
    throw new UsageError(`docker-daemon:${image}: an image is loaded under a name, docker-daemon:NAME[:TAG]`);
  }
  const lastSlash = image.lastIndexOf('/');
  return image.indexOf(':', lastSlash + 1) >= 0 ? image : `${image}:latest`;
}

export class EngineDestination implements ImageDestination {
  readonly name: string;
  readonly accepts = 'any';
  readonly multiPlatform = false;
  /** The tar is written front to back. */
  readonly maxConcurrency = 1;
  private readonly tag: string;
  private body?: PassThrough;
  private loading?: Promise<string>;
  private image?: { config: string; layers: string[] };
  private failure?: unknown;

  constructor(
    private readonly engine: EngineClient,
    image: string,
    private readonly signal?: AbortSignal,
  ) {
    this.tag = engineTag(image);
    this.name = `docker-daemon:${image}`;
  }

  private start(): PassThrough {
    if (!this.body) {
      const body = new PassThrough({ highWaterMark: 1 << 20 });
      this.body = body;
      this.loading = this.engine.loadImage(body, this.signal);
      // Awaited in commit(); meanwhile a failed load (no engine, a refused version) ends the writes.
      this.loading.catch((err: unknown) => {
        this.failure ??= err;
        body.destroy();
      });
    }
    return this.body;
  }

  private async write(chunk: Buffer): Promise<void> {
    const body = this.start();
    const stopped = () =>
      this.failure ?? new NetworkError(`${this.name}: the engine stopped reading the image`);
    if (body.destroyed) throw stopped();
    if (!body.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const fail = () => setImmediate(() => reject(stopped()));
        body.once('close', fail);
        body.once('drain', () => {
          body.off('close', fail);
          resolve();
        });
      });
    }
  }

  async hasBlob(): Promise<boolean> {
    return false; // the engine cannot be asked for a blob
  }

  async putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
    progress.begin(d.digest, d.size);
    const { body } = await feed.open(0);
    // An engine that stopped reading fails the header: the blob's read is dropped with it (paused
    // and unread, a registry's GET would hold its connection open with no deadline).
    await this.write(tarHeader(entryName(d.digest), d.size)).catch((err: unknown) => {
      body.destroy();
      throw err;
    });
    const hash = createHash('sha256');
    let have = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      have += chunk.length;
      if (have > d.size) break;
      hash.update(chunk);
      await this.write(chunk);
      progress.update(d.digest, have);
    }
    const actual = `sha256:${hash.digest('hex')}`;
    if (have !== d.size || actual !== d.digest) {
      body.destroy();
      // The engine must not load an image with a bad blob: its archive is cut short.
      this.body?.destroy(new IntegrityError(`${d.digest}: the bytes received do not match`));
      throw new IntegrityError(
        have !== d.size
          ? `${this.name}: ${d.digest} has ${have} bytes, not the ${d.size} its descriptor says`
          : `${this.name}: the blob ${d.digest} arrived as ${actual}`,
      );
    }
    await this.write(Buffer.alloc(padding(d.size)));
    progress.done(d.digest, d.size, 'pushed');
    return 'pushed';
  }

  async putManifest(m: StoredManifest, top: boolean): Promise<string> {
    if (m.parsed.kind !== 'image') {
      throw new UsageError(`${this.name} holds one image: pick a platform (--platform)`);
    }
    if (top) {
      const { config, layers } = m.parsed.manifest;
      this.image = { config: config.digest, layers: layers.map((l) => l.digest) };
    }
    return m.digest;
  }

  async commit(): Promise<void> {
    if (!this.image) throw new UsageError(`${this.name}: nothing to load`);
    const manifest = Buffer.from(
      JSON.stringify([
        {
          Config: entryName(this.image.config),
          RepoTags: [this.tag],
          Layers: this.image.layers.map(entryName),
        },
      ]),
    );
    await this.write(tarHeader('manifest.json', manifest.length));
    await this.write(manifest);
    await this.write(Buffer.alloc(padding(manifest.length) + 1024));
    this.body?.end();
    checkLoadAnswer(await (this.loading as Promise<string>), this.name);
    // The image the engine now names must be the one sent: its ID is the config's digest.
    const loaded = await inspectEngineImage(this.engine, this.tag);
    if (loaded.Id !== this.image.config) {
      throw new IntegrityError(
        `${this.name}: the engine holds ${loaded.Id}, not the image sent (${this.image.config})`,
      );
    }
  }

  async abort(): Promise<void> {
    this.body?.destroy();
    await this.loading?.catch(() => undefined);
  }
}

/** /images/load answers 200 and reports a failure inside its JSON stream. */
function checkLoadAnswer(text: string, name: string): void {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      continue; // quiet=1 answers may be plain text
    }
    const error = (message as { error?: unknown; errorDetail?: { message?: unknown } } | null)?.error;
    if (typeof error === 'string')
      throw new NetworkError(`${name}: the engine could not load the image: ${error}`);
  }
}
