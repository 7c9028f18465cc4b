// `image delete` against a scripted registry on 127.0.0.1: the tag list shown, the question asked,
// and the registry's 202, 403, 500 and 405 answers as the user sees them.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeServer, json, startFakeServer } from '../../api/registry/fake-server.js';
import { runCli, scriptedPrompter } from '../../support/run-cli.js';

const DIGEST = `sha256:${createHash('sha256').update('m').digest('hex')}`;
const OTHER = `sha256:${createHash('sha256').update('o').digest('hex')}`;
const sha256 = (b: string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
// team/multi:v1 is an index of one image manifest.
const CHILD = JSON.stringify({
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: DIGEST, size: 1 },
  layers: [],
});
const INDEX = JSON.stringify({
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.index.v1+json',
  manifests: [
    {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest: sha256(CHILD),
      size: CHILD.length,
      platform: { os: 'linux', architecture: 'arm64', variant: 'v8' },
    },
  ],
});
const MANIFESTS: Record<string, [string, string]> = {
  [sha256(INDEX)]: [INDEX, 'application/vnd.oci.image.index.v1+json'],
  [sha256(CHILD)]: [CHILD, 'application/vnd.oci.image.manifest.v1+json'],
};

describe('image delete', () => {
  let reg: FakeServer;
  let deleteStatus: number;

  beforeEach(async () => {
    reg = await startFakeServer();
    deleteStatus = 202;
    reg.handle((req, res) => {
      const url = req.url ?? '';
      if (url === '/v2/') return json(res, 200, {});
      if (url === '/v2/team/multi/tags/list') return json(res, 200, { name: 'team/multi', tags: ['v1'] });
      const multi = /^\/v2\/team\/multi\/manifests\/(.+)$/.exec(url);
      if (multi && req.method !== 'DELETE') {
        const [body, type] = MANIFESTS[multi[1] === 'v1' ? sha256(INDEX) : multi[1]!] ?? ['', ''];
        res.writeHead(body ? 200 : 404, { 'docker-content-digest': sha256(body), 'content-type': type });
        return res.end(req.method === 'HEAD' ? undefined : body);
      }
      if (multi) {
        res.writeHead(202);
        return res.end();
      }
      if (url === '/v2/team/app/tags/list')
        return json(res, 200, { name: 'team/app', tags: ['v1', 'latest', 'old', 'v1.0'] });
      const m = /^\/v2\/team\/app\/manifests\/(.+)$/.exec(url);
      if (m && req.method === 'HEAD') {
        const digest = m[1] === 'old' ? OTHER : DIGEST;
        res.writeHead(200, {
          'docker-content-digest': digest,
          'content-type': 'application/vnd.oci.image.manifest.v1+json',
        });
        return res.end();
      }
      if (m && req.method === 'DELETE') {
        if (deleteStatus === 202) {
          res.writeHead(202);
          return res.end();
        }
        const code = { 403: 'DENIED', 405: 'UNSUPPORTED', 500: 'UNKNOWN' }[deleteStatus];
        return json(res, deleteStatus, { errors: [{ code, message: 'answer' }] });
      }
      res.writeHead(404);
      res.end();
    });
  });
  afterEach(async () => {
    await reg.close();
  });

  const deletes = () => reg.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);

  it('--dry-run lists the digest and every tag pointing at it, and deletes nothing', async () => {
    const r = await runCli(['image', 'delete', '--dry-run', `${reg.host}/team/app:v1`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `${reg.host}/team/app@${DIGEST}`,
        `${reg.host}/team/app:latest`,
        `${reg.host}/team/app:v1`,
        `${reg.host}/team/app:v1.0`,
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('Dry run: nothing was deleted.\n');
    expect(deletes()).toEqual([]);
  });

  it('asks on a terminal, shows the tags, and deletes by digest when told yes', async () => {
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await runCli(['image', 'delete', `${reg.host}/team/app:v1`], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.asked[0]).toBe(`Delete ${reg.host}/team/app@${DIGEST} and its tags (latest, v1, v1.0)?`);
    expect(r.stderr).toContain('also removes the tags: latest, v1, v1.0');
    expect(deletes()).toEqual([`/v2/team/app/manifests/${DIGEST}`]);
  });

  it('an index: says that the manifests below it stay, and asks about the index alone', async () => {
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await runCli(['image', 'delete', `${reg.host}/team/multi:v1`], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.asked[0]).toBe(
      `Delete ${reg.host}/team/multi@${sha256(INDEX)} and its tags (v1)? The 1 manifest below it stays.`,
    );
    expect(r.stderr).toContain(
      [
        'Not deleted: the 1 manifest below this index (0 indexes, 1 image); other images may list it too:',
        `  ${sha256(CHILD)} linux/arm64/v8 (untagged)`,
        '',
      ].join('\n'),
    );
    expect(deletes()).toEqual([`/v2/team/multi/manifests/${sha256(INDEX)}`]);
  });

  it('a "no" deletes nothing', async () => {
    const r = await runCli(['image', 'delete', `${reg.host}/team/app:v1`], {
      tty: true,
      prompter: scriptedPrompter({ confirm: [false] }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was deleted');
    expect(deletes()).toEqual([]);
  });

  it('500: the registry finishes in the background; exit 0, one DELETE, no retry', async () => {
    deleteStatus = 500;
    const r = await runCli(['--yes', 'image', 'delete', `${reg.host}/team/app:v1`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('The registry will finish the deletion');
    expect(deletes()).toHaveLength(1);
  });

  it('403: still referenced; 405: the registry does not allow deletes', async () => {
    deleteStatus = 403;
    const refused = await runCli(['--yes', 'image', 'delete', `${reg.host}/team/app:v1`]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('still referenced by another tag or image');
    deleteStatus = 405;
    const unsupported = await runCli(['--yes', '--json', 'image', 'delete', `${reg.host}/team/app:v1`]);
    expect(unsupported.code).toBe(1);
    expect(JSON.parse(unsupported.stderr).error.message).toMatch(/the registry does not allow deletes/);
  });
});
