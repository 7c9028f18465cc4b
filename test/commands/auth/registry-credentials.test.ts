// Registry credentials for CI and people, against the real registry and the emulator's token
// service: DOCKER_AUTH_CONFIG first; an identity token exchanged as an OAuth2 refresh token (POST
// grant_type=refresh_token), never sent as a password; `auth status` lists every registry
// credential and its source without a secret, and checks one with its token service.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ImageWorld, startImageWorld } from '../../image/helpers.js';
import { makeOciImage } from '../../support/oci-images.js';
import { describeWithRegistry } from '../../support/registry.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describeWithRegistry('registry credentials: DOCKER_AUTH_CONFIG, identity tokens, auth status', () => {
  let w: ImageWorld;
  let R: string;
  let img: string;

  beforeAll(async () => {
    w = await startImageWorld();
    R = w.registry.host;
    img = (await makeOciImage(join(w.tmp, 'img'), { layers: 1, layerSize: 4096 })).dir;
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('DOCKER_AUTH_CONFIG comes before the docker config file', async () => {
    // The file has a wrong password; the environment the right one, and wins.
    const env = w.withCredentialsFor([R], 'alice', 'wrong');
    const push = await w.run(['image', 'push', `oci:${img}`, `${R}/creds/env:1`], {
      env: {
        ...env,
        DOCKER_AUTH_CONFIG: JSON.stringify({ auths: { [R]: { auth: b64('alice:alice-password') } } }),
      },
    });
    expect(push.code, push.stderr).toBe(0);
    const without = await w.run(['image', 'push', `oci:${img}`, `${R}/creds/env:2`], { env });
    expect(without.code).toBe(4);
  });

  it('an identitytoken is exchanged with grant_type=refresh_token (POST), never sent as Basic', async () => {
    w.hub.registryRefreshTokens.set('idt-alice-1', 'alice');
    const env = {
      ...w.anonEnv,
      DOCKER_AUTH_CONFIG: JSON.stringify({
        auths: { [R]: { auth: b64('<token>:'), identitytoken: 'idt-alice-1' } },
      }),
    };
    w.hub.clearRequests();
    const push = await w.run(['image', 'push', `oci:${img}`, `${R}/creds/idt:1`], { env });
    expect(push.code, push.stderr).toBe(0);
    const posts = w.hub.requestsTo('/registry/token', 'POST');
    expect(posts.length).toBeGreaterThan(0);
    const form = new URLSearchParams(posts[0]!.body);
    expect(form.get('grant_type')).toBe('refresh_token');
    expect(form.get('refresh_token')).toBe('idt-alice-1');
    expect(form.get('scope')).toMatch(/^repository:creds\/idt:/);
    for (const r of w.hub.requestsTo('/registry/token')) expect(r.headers.authorization).toBeUndefined();

    const bad = await w.run(['image', 'push', `oci:${img}`, `${R}/creds/idt:2`], {
      env: { ...env, DOCKER_AUTH_CONFIG: JSON.stringify({ auths: { [R]: { identitytoken: 'nope' } } }) },
    });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/refused the identity token/);
    expect(bad.stderr).not.toContain('nope');
  });

  it('auth status lists every registry credential and its source, no secret, without a hub login', async () => {
    const env = w.withCredentialsFor([R, 'other.example.com:5000']);
    const docker = join(env.DOCKER_CONFIG!, 'config.json');
    const file = JSON.parse(
      JSON.stringify({
        auths: { [R]: { auth: b64('alice:alice-password') }, 'ghcr.io': { identitytoken: 'secret-idt' } },
      }),
    );
    mkdirSync(env.DOCKER_CONFIG!, { recursive: true });
    writeFileSync(docker, JSON.stringify(file));
    const full = {
      ...env,
      DOCKER_AUTH_CONFIG: JSON.stringify({ auths: { 'ci.example.com': { auth: b64('ci:ci-secret') } } }),
    };
    const r = await w.run(['--json', 'auth', 'status'], { env: full });
    expect(r.code, r.stderr).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status.username).toBeNull();
    expect(status.registries).toEqual([
      { registry: 'ci.example.com', username: 'ci', source: 'DOCKER_AUTH_CONFIG', kind: 'password' },
      { registry: R, username: 'alice', source: docker, kind: 'password' },
      { registry: 'ghcr.io', username: '<token>', source: docker, kind: 'identity token' },
    ]);
    expect(r.stdout + r.stderr).not.toMatch(/alice-password|secret-idt|ci-secret/);
    const text = await w.run(['auth', 'status'], { env: full });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/ghcr\.io\t<token>\tidentity token\t/);
  });

  it('auth status REGISTRY checks its credential with the token service', async () => {
    const ok = await w.run(['--json', 'auth', 'status', R]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      registry: R,
      username: 'alice',
      checkedWith: 'token service',
      valid: true,
    });
    const wrong = await w.run(['auth', 'status', R], { env: w.withCredentialsFor([R], 'alice', 'wrong') });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/refused the credentials of alice/);
    const none = await w.run(['auth', 'status', R], { env: w.anonEnv });
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/no credential for/);
  });
});
