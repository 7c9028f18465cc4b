// A blob already in the destination layout is read through before it is skipped: the right size
// with the wrong bytes is fetched again, never trusted.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const sha256File = (p: string) => `sha256:${createHash('sha256').update(readFileSync(p)).digest('hex')}`;

describeWithRegistry('image pull into a layout that holds a corrupt blob', () => {
  let w: ImageWorld;
  beforeAll(async () => {
    w = await startImageWorld();
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('re-fetches a blob of the right size but wrong bytes, says so, and leaves the layout sound', async () => {
    const src = await makeOciImage(join(w.tmp, 'src'), { tag: 'v1', layers: 2, layerSize: 128 * 1024 });
    const ref = `${w.registry.host}/trust/app:v1`;
    expect((await w.run(['image', 'push', `oci:${src.dir}:v1`, ref])).code).toBe(0);
    const dest = join(w.tmp, 'dest');
    expect((await w.run(['image', 'pull', ref, `oci:${dest}:v1`])).code).toBe(0);

    const layer = src.images[0]!.layers[1]!;
    const path = join(dest, 'blobs', 'sha256', layer.digest.slice('sha256:'.length));
    const bytes = readFileSync(path);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1); // same size, one byte flipped
    writeFileSync(path, bytes);

    const again = await w.run(['--json', 'image', 'pull', ref, `oci:${dest}:v1`]);
    expect(again.code, again.stderr).toBe(0);
    const actions = Object.fromEntries(
      JSON.parse(again.stdout).blobs.map((b: { digest: string; action: string }) => [b.digest, b.action]),
    );
    expect(actions[layer.digest]).toBe('pulled');
    expect(actions[src.images[0]!.layers[0]!.digest]).toBe('skipped');
    expect(sha256File(path)).toBe(layer.digest);

    // Without --json the user is told why the blob was fetched again.
    writeFileSync(path, bytes);
    const told = await w.run(['image', 'pull', ref, `oci:${dest}:v1`]);
    expect(told.code).toBe(0);
    expect(told.stderr).toContain(
      `blob ${layer.digest} in ${dest} does not match its digest: fetching it again`,
    );
    expect(sha256File(path)).toBe(layer.digest);
  });

  it('rewrites a manifest of the right size but wrong bytes', async () => {
    const src = await makeOciImage(join(w.tmp, 'src2'), { tag: 'v2', layers: 1, layerSize: 1024 });
    const ref = `${w.registry.host}/trust/app:v2`;
    expect((await w.run(['image', 'push', `oci:${src.dir}:v2`, ref])).code).toBe(0);
    const dest = join(w.tmp, 'dest2');
    expect((await w.run(['image', 'pull', ref, `oci:${dest}:v2`])).code).toBe(0);
    const path = join(dest, 'blobs', 'sha256', src.top.digest.slice('sha256:'.length));
    const bytes = readFileSync(path);
    bytes[0] = 0x20; // '{' → ' ', same size
    writeFileSync(path, bytes);
    expect((await w.run(['image', 'pull', ref, `oci:${dest}:v2`])).code).toBe(0);
    expect(sha256File(path)).toBe(src.top.digest);
  });
});
