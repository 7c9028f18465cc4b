// `image copy` between two registries from the built CLI (bin/hubctl.js and dist/): its path
// without commander (src/commands/image/fast-copy.ts), packed by scripts/build.mjs with the context,
// the registry client and back ends, then undici's pack; the compile cache; connections reused
// between requests. Each request is sent once, and the copy holds the source's digest. Needs a build.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ImageWorld, startImageWorld } from '../image/helpers.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { ensureBuilt, runBin } from '../support/run-bin.js';

describeWithRegistry('image copy from the built CLI', () => {
  let w: ImageWorld;
  let second: RunningRegistry;
  let A: string;
  let B: string;
  let digest: string;

  beforeAll(async () => {
    ensureBuilt();
    w = await startImageWorld();
    second = await startRegistry(w.hub.registryAuth);
    A = w.registry.host;
    B = second.host;
    const image = await makeOciImage(join(w.tmp, 'img'), { tag: 'v', layers: 2, layerSize: 8192 });
    digest = image.top.digest;
    const env = w.withCredentialsFor([A]);
    expect((await w.run(['image', 'push', `oci:${image.dir}:v`, `${A}/src/app:v`], { env })).code).toBe(0);
  });
  afterAll(async () => {
    await second?.stop();
    await w?.stop();
  });

  it('copies between registries with token auth, sending each request once', async () => {
    const env = w.withCredentialsFor([A, B]);
    const cache = join(w.tmp, 'code-cache');
    // Twice: the first run writes the code cache, the second reads it.
    for (const tag of ['1', '2']) {
      const r = await runBin(['--debug', 'image', 'copy', `${A}/src/app:v`, `${B}/dst/app:${tag}`], {
        env: { ...env, XDG_CACHE_HOME: cache },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${B}/dst/app:${tag}@${digest}\n`);
      const sent = r.stderr
        .split('\n')
        .filter((l) => /^\[debug\] > [A-Z]+ http/.test(l))
        .map((l) => l.slice('[debug] > '.length));
      // Token requests carry a scope each; every request to a registry is one step of the copy.
      const toRegistries = sent.filter((l) => l.includes(`//${A}/`) || l.includes(`//${B}/`));
      expect(new Set(toRegistries).size).toBe(toRegistries.length);
      expect(
        toRegistries.filter((l) => l.startsWith(`PUT http://${B}/v2/dst/app/manifests/${tag}`)),
      ).toHaveLength(1);
    }
    const d = await runBin(['image', 'digest', `${B}/dst/app:2`], { env: { ...env, XDG_CACHE_HOME: cache } });
    expect(d).toMatchObject({ code: 0, stdout: `${digest}\n` });
  });
});
