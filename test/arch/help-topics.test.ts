// Help beyond one command's --help (issue 26): the exit codes at the end of the root help on both
// paths, `hubctl help TOPIC`, and `hubctl version`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/run-bin.js';
import { runCli } from '../support/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/hubctl.js');
const EXIT_CODES =
  /Exit codes: 0 ok, 1 error, 2 usage or invalid input, 3 denied \(policy eval\),\n4 authentication or permission, 5 not found, 6 conflict or limit, 7 network or server,\n10 differs \(policy diff\)\. More: hubctl help exit-codes \| environment \| formats\n+$/;

describe('root --help ends with the exit codes, 10 included', () => {
  it('through commander', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(EXIT_CODES);
  });

  it('on the fast, pre-rendered path of the built bin (piped, and at a wide terminal width)', () => {
    ensureBuilt();
    const out = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env: { PATH: '' } });
    expect(out).toMatch(EXIT_CODES);
    const help = JSON.parse(readFileSync(join(ROOT, 'dist/help.json'), 'utf8'));
    expect(help.wide).toMatch(EXIT_CODES);
    expect(help.narrow).toMatch(EXIT_CODES);
  });

  it('a bare `hubctl` prints the same help on stderr and exits 2, on both paths', () => {
    const r = spawnSync(process.execPath, [BIN], { encoding: 'utf8', env: { PATH: '' } });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(EXIT_CODES);
  });
});

describe('hubctl help TOPIC', () => {
  it('exit-codes names every code, 10 and 130 included', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 10, 130])
      expect(r.stdout).toMatch(new RegExp(`^ +${code} `, 'm'));
  });

  it('formats says what --json and --jq print', async () => {
    const r = await runCli(['help', 'formats']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--jq EXPR');
    expect(r.stdout).toContain('JSON array');
  });

  it('environment lists every variable src/ reads', async () => {
    const r = await runCli(['help', 'environment']);
    expect(r.code).toBe(0);
    // each variable starts a line of the topic's table
    const listed = new Set(
      [...r.stdout.matchAll(/^ {2}([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*) /gm)].flatMap((m) =>
        m[1]!.split(', '),
      ),
    );
    const read = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.name.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8');
          // env.NAME, env['NAME'], and names handed to a reader of the environment ('HUBCTL_…').
          for (const m of text.matchAll(
            /\benv\??\.([A-Za-z][A-Za-z0-9_]*)\b|\benv\[['"]([A-Za-z_]+)['"]\]|['"]((?:HUBCTL|DOCKER)_[A-Z_]+|(?:https?|no)_proxy|(?:HTTPS?|NO)_PROXY)['"]/g,
          )) {
            const name = m[1] ?? m[2] ?? m[3]!;
            if (/^[A-Z]/.test(name) || /_proxy$/.test(name)) read.add(name.toUpperCase());
          }
        }
      }
    };
    walk(join(ROOT, 'src'));
    // Wire-format names that only look like variables (media types, key tables) are not read.
    for (const name of [...read]) if (/^DOCKER_(HUB|LAYER|LIST|MANIFEST|TYPES)/.test(name)) read.delete(name);
    expect(read.size).toBeGreaterThan(15);
    for (const name of read)
      expect(listed, `${name} is read in src/ but not in \`hubctl help environment\``).toContain(name);
    for (const name of ['HUBCTL_PLATFORM', 'HUBCTL_HTTP_TIMEOUT', 'DOCKER_HOST', 'HTTPS_PROXY', 'NO_PROXY'])
      expect(listed).toContain(name);
  });

  it('an unknown topic says so: exit 2, the topics named', async () => {
    const r = await runCli(['help', 'nosuch']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'hubctl: there is no help topic or command named "nosuch"\nTopics: exit-codes, environment, formats; commands: hubctl --help.\n',
    );
    // A command is still helped.
    const token = await runCli(['help', 'token']);
    expect(token.code).toBe(0);
    expect(token.stdout).toContain('Usage: hubctl token');
  });
});

describe('hubctl version', () => {
  it('--json: version, node, platform', async () => {
    const r = await runCli(['version', '--json']);
    expect(r.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(JSON.parse(r.stdout)).toEqual({
      version: pkg.version,
      node: process.version,
      platform: `${process.platform}/${process.arch}`,
    });
  });

  it('as text, and through --jq', async () => {
    const r = await runCli(['version']);
    expect(r.stdout).toBe(
      `hubctl\t${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\nnode\t${process.version}\nplatform\t${process.platform}/${process.arch}\n`,
    );
    expect((await runCli(['version', '--jq', '.node'])).stdout).toBe(`${process.version}\n`);
  });
});
