// The scripting contract, command by command against real servers on 127.0.0.1 (the hub emulator, a
// real registry, the engine emulator): every list command's --json is a JSON array, and --jq EXPR
// prints what `hubctl … --json | jq -r EXPR` prints, with Debian's jq as the witness.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextDeps } from '../../src/context.js';
import { buildProgram, walkCommands } from '../../src/program.js';
import { type EngineEmulator, startEngineEmulator } from '../support/engine-emulator.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { type RunningRegistry, registryAvailable, startRegistry } from '../support/registry.js';
import { ensureBuilt, runBin } from '../support/run-bin.js';
import { runCli } from '../support/run-cli.js';
import { toolPath } from '../support/tools.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NETWORK_YAML = join(ROOT, 'examples/network.yaml');
const haveJq = toolPath('jq') !== undefined;
const needsJq = haveJq || process.env.CI === 'true' ? it : it.skip;

/**
 * Every list command and how to run it here. A list command added to the tree without a row fails
 * the first test: add one (and print its items with output.printList, which makes them an array).
 */
type World = { registry?: string; engine?: string };
const LIST_COMMANDS: Record<string, (w: World) => string[][] | undefined> = {
  'policy list': () => [['policy', 'list']],
  'rule list': () => [['rule', 'list', 'egress']],
  'team list': () => [['team', 'list']],
  'token list': () => [
    ['token', 'list'],
    ['token', 'list', '--page-size', '1'],
    ['token', 'list', '--all', '--page-size', '1'],
    ['token', 'list', '--expiring', '400d'],
  ],
  'image tags': (w) => (w.registry ? [['image', 'tags', `${w.registry}/team/app`]] : undefined),
  'image catalog': (w) =>
    w.registry
      ? [
          ['image', 'catalog', w.registry],
          ['image', 'catalog', w.registry, '--limit', '1'],
        ]
      : undefined,
  'image list': (w) =>
    w.engine ? [['--engine-host', w.engine, 'image', 'list', 'docker-daemon:']] : undefined,
};

/** Named "list" but not a list: `config list` shows one profile's settings as one object. */
const NOT_LISTS = new Set(['config list']);

/** Object commands (one answer, not a list) whose --jq is compared with the witness too. */
const OBJECT_COMMANDS: string[][] = [
  ['policy', 'get', 'egress'],
  ['token', 'get', 'scripting'],
  ['auth', 'status'],
  ['config', 'list'],
  ['config', 'get', 'org'],
  ['policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', NETWORK_YAML],
  ['policy', 'lint', '-f', NETWORK_YAML],
  ['team', 'get', 'developers'],
  ['policy', 'schema'],
  ['version'],
];

/** Object commands that need the registry or the engine emulator. */
const WORLD_OBJECT_COMMANDS = (w: World): string[][] => [
  ...(w.registry
    ? [
        ['image', 'inspect', `${w.registry}/team/app:v1`],
        ['image', 'digest', `${w.registry}/team/app:v1`],
      ]
    : []),
  ...(w.engine
    ? [
        ['--engine-host', w.engine, 'engine', 'version'],
        ['--engine-host', w.engine, 'engine', 'info'],
      ]
    : []),
];

/** Expressions that read any document: each prints something of every shape. */
const GENERIC = [
  '.',
  'type',
  'length',
  '[paths] | length',
  '.. | strings',
  'if type == "array" then .[0] else . end | keys? // "none"',
  'tostream | select(length == 2) | "\\(.[0] | map(tostring) | join("."))=\\(.[1])"',
  '[.. | numbers] | add',
];
/** Expressions for lists of objects. */
const FOR_LISTS = [
  '.[] | [.. | scalars] | @tsv',
  'map(type)',
  '.[] | select(type == "object") | keys | @csv',
];

function jqWitness(json: string, expression: string): string {
  const r = spawnSync(toolPath('jq')!, ['-r', expression], { input: json, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`jq ${expression}: ${r.stderr}`);
  return r.stdout;
}

let hub: HubEmulator;
let registry: RunningRegistry | undefined;
let engine: EngineEmulator | undefined;
const world: World = {};
let env: Record<string, string>;

beforeAll(async () => {
  hub = await startHubEmulator();
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-scripting-'));
  env = {
    HUBCTL_CONFIG_DIR: join(dir, 'config'),
    HOME: dir,
    DOCKER_CONFIG: join(dir, 'docker'),
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_ORG: 'acme',
  };
  const run = (argv: string[], stdin?: string) => runCli(argv, { env, stdin });
  expect(
    (await run(['auth', 'login', '--username', 'alice', '--password-stdin'], 'alice-password\n')).code,
  ).toBe(0);
  for (const label of ['scripting', 'second', 'third']) {
    const t = await run(['token', 'create', '--label', label, '--scope', 'repo:read', '--expires', '30d']);
    expect(t.code, t.stderr).toBe(0);
  }
  expect((await run(['config', 'set', 'org', 'acme'])).code).toBe(0);
  expect((await run(['policy', 'create', 'egress'])).code).toBe(0);
  for (const [name, resource, decision] of [
    ['github', 'github.com:443', 'allow'],
    ['metadata', '169.254.169.254/32', 'deny'],
  ] as const) {
    const r = await run([
      'rule',
      'add',
      'egress',
      '--name',
      name,
      '--action',
      'connect:tcp',
      '--resource',
      resource,
      '--decision',
      decision,
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
  engine = await startEngineEmulator();
  world.engine = engine.host;
  if (registryAvailable()) {
    registry = await startRegistry(hub.registryAuth);
    world.registry = registry.host;
    const login = await run(
      ['auth', 'login', registry.host, '--username', 'alice', '--password-stdin'],
      'alice-password\n',
    );
    expect(login.code, login.stderr).toBe(0);
    const { makeOciImage } = await import('../support/oci-images.js');
    const img = await makeOciImage(join(dir, 'img'), { tag: 'v1', layers: 1, layerSize: 1024 });
    for (const tag of ['v1', 'v2', 'v3']) {
      const p = await run(['image', 'push', `oci:${img.dir}:v1`, `${registry.host}/team/app:${tag}`]);
      expect(p.code, p.stderr).toBe(0);
    }
    expect((await run(['image', 'push', `oci:${img.dir}:v1`, `${registry.host}/team/other:v1`])).code).toBe(
      0,
    );
  }
}, 60_000);
afterAll(async () => {
  await registry?.stop();
  await engine?.close();
  await hub?.close();
});

const hubctl = (argv: string[]) => runCli(argv, { env });

describe('one JSON shape per list', () => {
  it('every list command of the tree has a row here (new ones must print an array)', async () => {
    const quiet = { write: () => true };
    const io = { stdout: quiet, stderr: quiet, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
    const { program } = await buildProgram({ io, env: {} } as unknown as ContextDeps, [], 'all');
    const lists = walkCommands(program)
      .filter(({ command }) => command.commands.length === 0)
      .filter(({ path, command }) => path.at(-1) === 'list' || /^List\b/.test(command.description()))
      .map(({ path }) => path.join(' '))
      .filter((name) => !NOT_LISTS.has(name));
    expect(lists.length).toBeGreaterThan(3);
    for (const name of lists) expect(Object.keys(LIST_COMMANDS), `${name} has no row`).toContain(name);
  });

  for (const [name, argvs] of Object.entries(LIST_COMMANDS)) {
    it(`${name} --json is a JSON array, one page or all; paging hints on stderr`, async (t) => {
      const runs = argvs(world);
      if (!runs) {
        if (process.env.CI === 'true') throw new Error(`${name}: its server is not available`);
        return t.skip();
      }
      for (const argv of runs) {
        const r = await hubctl(['--json', ...argv]);
        expect(r.code, r.stderr).toBe(0);
        const value = JSON.parse(r.stdout);
        expect(Array.isArray(value), `${argv.join(' ')} --json`).toBe(true);
        if (name !== 'image catalog' || !argv.includes('--limit')) expect(value.length).toBeGreaterThan(0);
      }
    });
  }

  it('a page with more after it: the array on stdout, the hint on stderr', async () => {
    const r = await hubctl(['--json', 'token', 'list', '--page-size', '1']);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr).toBe('Page 1 of 3; --page 2 for more, or --all.\n');
  });
});

describe('--jq equals --json piped to jq -r', () => {
  needsJq(
    'on every list and object command, for a corpus of expressions',
    async () => {
      const runs: string[][] = [...OBJECT_COMMANDS, ...WORLD_OBJECT_COMMANDS(world)];
      for (const argvs of Object.values(LIST_COMMANDS)) runs.push(...(argvs(world) ?? []));
      for (const argv of runs) {
        const json = await hubctl(['--json', ...argv]);
        expect(json.code, `${argv.join(' ')}: ${json.stderr}`).toBe(0);
        const isList = Array.isArray(JSON.parse(json.stdout));
        for (const expression of isList ? [...GENERIC, ...FOR_LISTS] : GENERIC) {
          const filtered = await hubctl(['--jq', expression, ...argv]);
          expect(filtered.code, `${argv.join(' ')} --jq ${expression}: ${filtered.stderr}`).toBe(0);
          expect(filtered.stdout, `${argv.join(' ')} --jq ${expression}`).toBe(
            jqWitness(json.stdout, expression),
          );
        }
      }
    },
    120_000,
  );

  needsJq('targeted expressions: token labels as TSV, rule names, the decision', async () => {
    const pairs: [string[], string][] = [
      [['token', 'list', '--all'], '.[] | [.uuid, .token_label, (.scopes | join(","))] | @tsv'],
      [['token', 'list', '--all'], 'map(select(.is_active)) | length'],
      [['policy', 'get', 'egress'], '.allowlist_v0.rules[] | "\\(.name): \\(.decision)"'],
      [['rule', 'list', 'egress'], '.[] | select(.decision == "deny") | .name'],
      [['policy', 'list'], '.[] | [.id, .name] | @csv'],
      [['policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', NETWORK_YAML], '.decision'],
    ];
    for (const [argv, expression] of pairs) {
      const json = await hubctl(['--json', ...argv]);
      const filtered = await hubctl([...argv, '--jq', expression]);
      expect(filtered.stdout).toBe(jqWitness(json.stdout, expression));
      expect(filtered.stdout).not.toBe('');
    }
  });

  it('an invalid expression exits 2 before any request, naming it and what jq says', async () => {
    const before = hub.requests.length;
    const r = await hubctl(['token', 'list', '--jq', '.[] | select(.x']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(
      /^hubctl: invalid --jq expression "\.\[\] \| select\(\.x": syntax error, unexpected end of file/,
    );
    expect(hub.requests.length).toBe(before);
    // The same on the fast policy eval path, and with --json an error object.
    const fast = await hubctl([
      '--json',
      'policy',
      'eval',
      'connect:tcp',
      'a:1',
      '-f',
      NETWORK_YAML,
      '--jq',
      'nope(',
    ]);
    expect(fast.code).toBe(2);
    expect(JSON.parse(fast.stderr).error.code).toBe('USAGE');
  });

  it("a jq runtime error exits 1 with jq's words", async () => {
    const r = await hubctl(['token', 'list', '--jq', '.[] | error("stop here")']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('hubctl: --jq ".[] | error(\\"stop here\\")": stop here\n');
  });

  it('--jq implies --json: without it the same command prints a table', async () => {
    const table = await hubctl(['policy', 'list']);
    expect(() => JSON.parse(table.stdout)).toThrow();
    const r = await hubctl(['policy', 'list', '--jq', '.[0].name']);
    expect(r.stdout).toBe('egress\n');
  });

  it('policy eval --batch refuses --jq (its lines stream)', async () => {
    const r = await hubctl(['policy', 'eval', '--batch', '-f', NETWORK_YAML, '--jq', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq does not apply to --batch/);
  });
});

describe('--jq in the built CLI', () => {
  it('the real bin loads the jq engine from its package and filters', async () => {
    ensureBuilt();
    const r = await runBin([
      'policy',
      'eval',
      'connect:tcp',
      'api.github.com:443',
      '-f',
      NETWORK_YAML,
      '--jq',
      '.decision',
    ]);
    expect(r).toMatchObject({ code: 0, stdout: 'allow\n', stderr: '' });
  });
});
