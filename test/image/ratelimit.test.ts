// `image ratelimit`: the limit a registry reports on a manifest HEAD (Docker Hub's headers, put on
// a real distribution 2.8's answers by the fault proxy), and a registry that reports none.

import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLimitHeader, rateLimitOf } from '../../src/api/registry/rate-limit.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithTools } from '../support/tools.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

describe('rate limit headers', () => {
  it("reads Docker Hub's form, and nothing from a malformed or missing header", () => {
    expect(
      rateLimitOf({
        'ratelimit-limit': '100;w=21600',
        'ratelimit-remaining': '76;w=21600',
        'docker-ratelimit-source': '192.0.2.7',
      }),
    ).toEqual({ limit: 100, remaining: 76, windowSeconds: 21600, source: '192.0.2.7' });
    expect(rateLimitOf({ 'ratelimit-limit': '200', 'ratelimit-remaining': '0' })).toEqual({
      limit: 200,
      remaining: 0,
    });
    expect(rateLimitOf({ 'ratelimit-limit': 'lots', 'ratelimit-remaining': '1' })).toBeUndefined();
    expect(rateLimitOf({})).toBeUndefined();
  });
  it('any header value reads as a count or as nothing (fuzz)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseLimitHeader(s);
        if (r) expect(Number.isSafeInteger(r.count)).toBe(true);
      }),
    );
  });
});

describeWithTools(['docker-registry'], 'image ratelimit', () => {
  let w: ImageWorld;
  let proxy: FaultProxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    w = await startImageWorld();
    proxy = await startFaultProxy(w.registry.url);
    env = w.withCredentialsFor([w.registry.host, proxy.host]);
    const img = await makeOciImage(join(w.tmp, 'img'), { tag: '1', layers: 1, layerSize: 1024 });
    expect(
      (await w.run(['image', 'push', `oci:${img.dir}:1`, `${w.registry.host}/team/app:1`], { env })).code,
    ).toBe(0);
  });
  afterAll(async () => {
    await proxy?.close();
    await w?.stop();
  });

  it('shows the limit, the remaining pulls and the source, from a HEAD', async () => {
    proxy.on('HEAD', /\/manifests\//, {
      kind: 'rewrite-headers',
      edit: (h) => ({
        ...h,
        'ratelimit-limit': '100;w=21600',
        'ratelimit-remaining': '76;w=21600',
        'docker-ratelimit-source': '192.0.2.7',
      }),
    });
    proxy.seen.length = 0;
    const r = await w.run(['--json', 'image', 'ratelimit', `${proxy.host}/team/app:1`], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      registry: proxy.host,
      reference: `${proxy.host}/team/app:1`,
      reported: true,
      limit: 100,
      remaining: 76,
      windowSeconds: 21600,
      source: '192.0.2.7',
    });
    // Only HEADs of the manifest: nothing that counts as a pull.
    expect(proxy.seen.filter((s) => s.path.includes('/manifests/')).every((s) => s.method === 'HEAD')).toBe(
      true,
    );
    const text = await w.run(['image', 'ratelimit', `${proxy.host}/team/app:1`], { env });
    expect(text.stdout).toBe(
      `Registry\t${proxy.host}\nLimit\t100 pulls per 6 h\nRemaining\t76\nSource\t192.0.2.7\n`,
    );
    proxy.clear();
  });

  it('says so when the registry reports none, and a missing image is exit 5', async () => {
    const r = await w.run(['image', 'ratelimit', `${w.registry.host}/team/app:1`], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `${w.registry.host} reports no pull rate limit (no ratelimit-limit header on ${w.registry.host}/team/app:1).\n`,
    );
    const json = await w.run(['--json', 'image', 'ratelimit', `${w.registry.host}/team/app:1`], { env });
    expect(JSON.parse(json.stdout)).toEqual({
      registry: w.registry.host,
      reference: `${w.registry.host}/team/app:1`,
      reported: false,
    });
    const missing = await w.run(['image', 'ratelimit', `${w.registry.host}/team/nope:1`], { env });
    expect(missing.code).toBe(5);
  });
});
