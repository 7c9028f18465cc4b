// Argument parsing of the image verbs, with a spy in place of run(): what each verb hands over,
// and usage errors caught before any request.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CommandHost } from '../../../src/commands/host.js';
import * as copy from '../../../src/commands/image/copy.js';
import * as del from '../../../src/commands/image/delete.js';
import * as inspect from '../../../src/commands/image/inspect.js';
import * as pull from '../../../src/commands/image/pull.js';
import * as push from '../../../src/commands/image/push.js';
import * as tags from '../../../src/commands/image/tags.js';
import { PLACES } from '../../../src/ref/transport.js';
import { runCli } from '../../support/run-cli.js';

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

describe('image verbs: parsing', () => {
  it('push: a local source and a reference, concurrency 4 by default', () => {
    expect(parse(push.register, ['push', 'oci:/tmp/x:v1', 'localhost:5000/a:1'])).toEqual([
      {
        src: { transport: 'oci', path: '/tmp/x', tag: 'v1' },
        ref: { registry: 'localhost:5000', repository: 'a', tag: '1' },
        allPlatforms: true,
        concurrency: 4,
        concurrencyDefault: true,
      },
    ]);
    expect(parse(push.register, ['push', 'docker-archive:a.tar', 'b', '--concurrency', '8'])).toEqual([
      {
        src: { transport: 'docker-archive', path: 'a.tar' },
        ref: { registry: 'docker.io', repository: 'library/b', tag: 'latest' },
        allPlatforms: true,
        concurrency: 8,
      },
    ]);
  });

  it('pull: platform or all platforms, never both', () => {
    const [p] = parse(pull.register, ['pull', 'alpine', 'oci:out', '--platform', 'linux/arm64']) as [
      pull.PullOptions,
    ];
    expect(p.platform).toBe('linux/arm64');
    expect(p.allPlatforms).toBe(false);
    expect(() =>
      parse(pull.register, ['pull', 'alpine', 'oci:out', '--platform', 'linux/arm64', '--all-platforms']),
    ).toThrow(/cannot be used together/);
    expect(() => parse(pull.register, ['pull', 'alpine', 'docker-archive:a.tar', '--all-platforms'])).toThrow(
      /one platform/,
    );
    expect(() => parse(pull.register, ['pull', 'alpine', '/tmp/out'])).toThrow(
      /not an image location hubctl reads: write .*oci:DIR\[:TAG\], oci-archive:FILE\[:TAG\], docker-archive:FILE\[:REF\]/,
    );
    expect(() => parse(pull.register, ['pull', 'alpine', 'localhost:5000/x:1'])).toThrow(/use image copy/);
    expect(() => parse(pull.register, ['pull', 'alpine', 'oci:x', '--platform', 'linux'])).toThrow(
      /invalid platform/,
    );
    expect(() => parse(pull.register, ['pull', 'alpine', 'oci:x', '--concurrency', '0'])).toThrow(
      /--concurrency/,
    );
  });

  it('copy, inspect, tags, delete', () => {
    const [c] = parse(copy.register, ['copy', 'a:1', 'h:5000/b:2', '--all-platforms']) as [copy.CopyOptions];
    expect(c.allPlatforms).toBe(true);
    expect(c.dst).toEqual({ transport: 'registry', ref: { registry: 'h:5000', repository: 'b', tag: '2' } });
    const [local] = parse(copy.register, ['copy', 'oci:./build:1', 'oci-archive:out.tar']) as [
      copy.CopyOptions,
    ];
    expect(local.src).toEqual({ transport: 'oci', path: './build', tag: '1' });
    expect(local.dst).toEqual({ transport: 'oci-archive', path: 'out.tar' });
    expect(() => parse(copy.register, ['copy', './build', 'h/x:1'])).toThrow(
      /not an image location hubctl reads/,
    );
    const [i] = parse(inspect.register, ['inspect', 'a', '--platform', 'linux/arm/v7', '--raw']) as [
      inspect.InspectOptions,
    ];
    expect(i).toEqual({
      place: {
        transport: 'registry',
        ref: { registry: 'docker.io', repository: 'library/a', tag: 'latest' },
      },
      raw: true,
      platform: 'linux/arm/v7',
    });
    expect(parse(tags.register, ['tags', 'h:5000/team/app'])).toEqual([
      [{ registry: 'h:5000', repository: 'team/app' }, {}],
    ]);
    expect(
      parse(tags.register, [
        'tags',
        'h/a',
        '--include',
        '^1',
        '--include',
        '^2',
        '--exclude',
        'rc',
        '--semver',
        '>=1',
        '--sort',
        'semver',
      ]),
    ).toEqual([
      [
        { registry: 'docker.io', repository: 'h/a' },
        { include: ['^1', '^2'], exclude: ['rc'], semver: '>=1', sort: 'semver' },
      ],
    ]);
    expect(() => parse(tags.register, ['tags', 'h/a', '--sort', 'date'])).toThrow(
      /--sort takes semver or name/,
    );
    expect(() => parse(tags.register, ['tags', 'h/a', '--include', '('])).toThrow(
      /not a valid regular expression/,
    );
    expect(() => parse(tags.register, ['tags', 'h:5000/team/app:1'])).toThrow(/without a tag or digest/);
    const [d] = parse(del.register, ['delete', 'h/a:1', '--dry-run']) as [del.DeleteOptions];
    expect(d.dryRun).toBe(true);
  });

  it('bad references stop before any request, with exit 2 and the rule broken', async () => {
    const r = await runCli(['image', 'push', 'oci:/nonexistent', 'localhost:5000/Bad/app:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /invalid reference "localhost:5000\/Bad\/app:1": the repository name must be lowercase/,
    );
    const long = await runCli(['image', 'digest', `r.io/${'a'.repeat(260)}`]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/must be fewer than 256/);
  });
});

describe('image verbs: the places their help names come from the table of ref/transport.ts', () => {
  it.each([
    ['copy', false],
    ['pull', true],
    ['push', true],
  ])('image %s --help names every place it takes, with what it is', async (verb, localOnly) => {
    const r = await runCli(['image', verb, '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    for (const k of Object.values(PLACES)) {
      const shown = !localOnly || k.local;
      for (const form of k.forms) expect(help.includes(form)).toBe(shown);
      expect(help.includes(k.about)).toBe(shown);
      if (verb === 'copy') expect(help).toContain(k.local ? k.prefix : 'registry');
    }
  });
});
