// Parsing of the supply-chain verbs: referrers, attach, sync, ratelimit (a spy in place of run).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CommandHost } from '../../../src/commands/host.js';
import * as attach from '../../../src/commands/image/attach.js';
import * as ratelimit from '../../../src/commands/image/ratelimit.js';
import * as referrers from '../../../src/commands/image/referrers.js';
import * as sync from '../../../src/commands/image/sync.js';

function parse(register: (g: Command, h: CommandHost, runner: never) => Command, argv: string[]): unknown[] {
  const calls: unknown[] = [];
  const group = new Command('image').exitOverride();
  const host: CommandHost = {
    async run(body) {
      await body({} as never);
    },
  };
  register(group, host, (async (_ctx: unknown, ...rest: unknown[]) => {
    calls.push(rest.length === 1 ? rest[0] : rest);
  }) as never);
  group.parse(argv, { from: 'user' });
  return calls;
}

describe('supply-chain verbs: parsing', () => {
  it('referrers: a registry or oci: place, an optional artifact type', () => {
    expect(
      parse(referrers.register, ['referrers', 'h:5000/a:1', '--artifact-type', 'application/spdx+json']),
    ).toEqual([
      {
        place: { transport: 'registry', ref: { registry: 'h:5000', repository: 'a', tag: '1' } },
        artifactType: 'application/spdx+json',
      },
    ]);
    expect(parse(referrers.register, ['referrers', 'oci:/tmp/l:1'])).toEqual([
      { place: { transport: 'oci', path: '/tmp/l', tag: '1' }, artifactType: undefined },
    ]);
    expect(() => parse(referrers.register, ['referrers', 'docker-archive:x.tar'])).toThrow(
      /registry or an oci:DIR/,
    );
  });
  it('attach: files, a required artifact type, annotations', () => {
    const [o] = parse(attach.register, [
      'attach',
      'h/a:1',
      'a.json',
      'b.json',
      '--artifact-type',
      'text/plain',
      '--annotation',
      'k=v',
      '--annotation',
      'x=y=z',
    ]) as [attach.AttachOptions];
    expect(o.files).toEqual(['a.json', 'b.json']);
    expect(o.annotations).toEqual({ k: 'v', x: 'y=z' });
    expect(() => parse(attach.register, ['attach', 'h/a:1', 'a.json'])).toThrow(/--artifact-type/);
    expect(() => parse(attach.register, ['attach', 'h/a:1', '--artifact-type', 'text/plain'])).toThrow();
  });
  it('sync: a file, dry run, concurrency 4 by default and 32 at most', () => {
    expect(parse(sync.register, ['sync', '-f', 's.yaml'])).toEqual([
      { file: 's.yaml', dryRun: false, concurrency: 4 },
    ]);
    expect(parse(sync.register, ['sync', '--file', 's.yaml', '--dry-run', '--concurrency', '8'])).toEqual([
      { file: 's.yaml', dryRun: true, concurrency: 8 },
    ]);
    expect(() => parse(sync.register, ['sync'])).toThrow(/--file/);
    expect(() => parse(sync.register, ['sync', '-f', 's', '--concurrency', '33'])).toThrow(/1 to 32/);
  });
  it("ratelimit: a reference, Docker's test image by default", () => {
    expect(parse(ratelimit.register, ['ratelimit'])).toEqual([
      { registry: 'docker.io', repository: 'ratelimitpreview/test', tag: 'latest' },
    ]);
    expect(parse(ratelimit.register, ['ratelimit', 'alpine'])).toEqual([
      { registry: 'docker.io', repository: 'library/alpine', tag: 'latest' },
    ]);
  });
});
