// Issue 20 item 16: `image push` (and `image copy`) to a destination named by a digest checks that
// digest before any blob is sent: a wrong one is exit 2, and the registry received nothing.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

describeWithRegistry('a destination named by digest', () => {
  let w: ImageWorld;
  let image: MadeLayout;
  let R: string;
  beforeAll(async () => {
    w = await startImageWorld();
    R = w.registry.host;
    // Its own random layers: no other test's push can have put them in the registry.
    image = await makeOciImage(join(w.tmp, 'pinned'), { tag: 'v1', layers: 2, layerSize: 64 * 1024 });
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('a wrong digest: exit 2 before any blob is sent; the right one pushes', async () => {
    const wrong = `sha256:${'0'.repeat(64)}`;
    for (const dst of [`${R}/team/pinned@${wrong}`, `${R}/team/pinned:v1@${wrong}`]) {
      const r = await w.run(['image', 'push', `oci:${image.dir}:v1`, dst]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`names ${wrong}, but the image to write is ${image.top.digest}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    // Nothing reached the registry: a push by tag now sends every blob.
    const tagged = await w.run(['--json', 'image', 'push', `oci:${image.dir}:v1`, `${R}/team/pinned:v1`]);
    expect(tagged.code, tagged.stderr).toBe(0);
    expect(JSON.parse(tagged.stdout).blobs.map((b: { action: string }) => b.action)).toEqual([
      'pushed',
      'pushed',
      'pushed',
    ]);
    const right = await w.run([
      '--json',
      'image',
      'push',
      `oci:${image.dir}:v1`,
      `${R}/team/pinned@${image.top.digest}`,
    ]);
    expect(right.code, right.stderr).toBe(0);
    expect(JSON.parse(right.stdout).digest).toBe(image.top.digest);
  });
});
