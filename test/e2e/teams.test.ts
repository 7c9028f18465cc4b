// Teams by name (issue 25) with the built bin/hubctl.js against the hub emulator: `team list` across
// pages, `team get`, `--team NAME` on create, update and eval, `scope.teams` names in files for
// diff, apply and export (re-applying an export writes nothing), and unknown or ambiguous names
// refused before any write.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/hubctl.js');

// 230 teams: three pages of the groups API at its cap of 100.
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const MANY = Array.from({ length: 230 }, (_, i) => i);
const names = MANY.map((i) =>
  i === 0 ? 'developers' : i === 1 ? 'ops' : i === 2 ? 'QA' : i === 3 ? 'qa-' : `team-${i}`,
);
// Two teams whose names differ only by case: "Sec" is ambiguous, "sec" and "SEC" are exact.
names[4] = 'sec';
names[5] = 'SEC';
const DEV = uuid(0);
const OPS = uuid(1);

let hub: HubEmulator;
let dir: string;
beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist/cli.js')), 'npm run build first').toBe(true);
  hub = await startHubEmulator({
    sequentialIds: true,
    orgs: [{ name: 'acme', members: ['alice'], teams: MANY.map(uuid), teamNames: names, entitled: true }],
  });
  dir = mkdtempSync(join(tmpdir(), 'hubctl-teams-'));
});
afterAll(() => hub?.close());
beforeEach(() => {
  hub.state.policies.length = 0;
  hub.clearRequests();
});

function hubctl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    HUBCTL_CONFIG_DIR: dir,
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: 'alice-password',
    HUBCTL_ORG: 'acme',
  };
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const govWrites = () => hub.requests.filter((r) => r.path.includes('/governance/') && r.method !== 'GET');
const groupReads = () => hub.requests.filter((r) => r.path === '/v2/orgs/acme/groups');

describe('team list and get', () => {
  it('lists every team across pages, as a JSON array of the API objects', async () => {
    const r = await hubctl(['team', 'list', '--json']);
    expect(r.code).toBe(0);
    const teams = JSON.parse(r.stdout) as { uuid: string; name: string; member_count: number }[];
    expect(teams).toHaveLength(230);
    expect(new Set(teams.map((t) => t.uuid))).toEqual(new Set(MANY.map(uuid)));
    expect(teams.find((t) => t.uuid === DEV)).toMatchObject({ name: 'developers', member_count: 1 });
    expect(groupReads().map((q) => q.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('shows the table sorted by name when piped, tab-separated', async () => {
    const r = await hubctl(['team', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(230);
    expect(lines).toContain(`developers\t${DEV}\t1\t`);
  });

  it('gets a team by name (the API) and by UUID, and says when there is none (exit 5)', async () => {
    const byName = await hubctl(['team', 'get', 'ops', '--json']);
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout)).toMatchObject({ uuid: OPS, name: 'ops' });
    const byUuid = await hubctl(['team', 'get', OPS.toUpperCase()]);
    expect(byUuid.code).toBe(0);
    expect(byUuid.stdout).toContain('Name\tops\n');
    const none = await hubctl(['team', 'get', 'nobody']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('no team named "nobody" in org acme');
    // a name that would change the request's path is never put into it
    hub.clearRequests();
    const dots = await hubctl(['team', 'get', '..']);
    expect(dots.code).toBe(5);
    expect(hub.requests.map((q) => q.path).filter((p) => p !== '/v2/auth/token')).toEqual([
      '/v2/orgs/acme/groups',
      '/v2/orgs/acme/groups',
      '/v2/orgs/acme/groups',
    ]);
  });
});

describe('--team NAME', () => {
  it('policy create and update take names; the teams are read once per run', async () => {
    const created = await hubctl(['policy', 'create', 'build', '--team', 'developers', '--json']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).scope).toEqual({ teams: [DEV] });
    expect(groupReads()).toHaveLength(3);

    const updated = await hubctl(['policy', 'update', 'build', '--team', 'ops,developers']);
    expect(updated.code).toBe(0);
    expect(hub.state.policies[0]!.scope.teams.sort()).toEqual([DEV, OPS].sort());
    expect(updated.stderr).toContain('scope teams developers → teams');
    expect(updated.stderr).toMatch(/→ teams (ops, developers|developers, ops)/);
  });

  it('an unknown name exits 2 naming it; an ambiguous one lists the teams; nothing is written', async () => {
    const unknown = await hubctl(['policy', 'create', 'build', '--team', 'developer']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no team named "developer" in org acme');
    const ambiguous = await hubctl(['policy', 'create', 'build', '--team', 'Sec']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      `2 teams of org acme match the name "Sec": "sec" (${uuid(4)}), "SEC" (${uuid(5)})`,
    );
    expect(govWrites()).toEqual([]);
  });

  it('policy eval --team NAME evaluates the org-wide policies plus that team’s', async () => {
    hub.seedPolicy('acme', {
      name: 'dev-only',
      teams: [DEV],
      rules: [
        { name: 'npm', actions: ['connect:tcp'], decision: 'allow', resources: ['registry.npmjs.org'] },
      ],
    });
    const dev = await hubctl([
      'policy',
      'eval',
      'connect:tcp',
      'registry.npmjs.org',
      '--team',
      'developers',
      '--json',
    ]);
    expect(dev.code).toBe(0);
    expect(JSON.parse(dev.stdout).decision).toBe('allow');
    const ops = await hubctl(['policy', 'eval', 'connect:tcp', 'registry.npmjs.org', '--team', 'ops']);
    expect(ops.code).toBe(3);
  });

  it('policy get and list show team names (UUIDs in --json); a UUID that is no team says so', async () => {
    const gone = '11111111-2222-4333-8444-555555555555';
    hub.seedPolicy('acme', { name: 'scoped', teams: [OPS, gone] });
    const get = await hubctl(['policy', 'get', 'scoped']);
    expect(get.code).toBe(0);
    expect(get.stdout).toContain(`Scope\tteams ops, ${gone} (not a team of the org)\n`);
    const json = await hubctl(['policy', 'get', 'scoped', '--json']);
    expect(JSON.parse(json.stdout).scope).toEqual({ teams: [OPS, gone] });
    const list = await hubctl(['policy', 'list']);
    expect(list.stdout).toContain(`\tscoped\tteams ops, ${gone} (not a team of the org)\t`);
  });
});

describe('scope.teams names in files', () => {
  const file = () => join(dir, 'policies.yaml');
  const policyText = (teams: string) =>
    [
      'name: build',
      `scope: {teams: [${teams}]}`,
      'rules:',
      '  - name: npm',
      '    actions: [connect:tcp]',
      '    decision: allow',
      '    resources: [registry.npmjs.org]',
      '',
    ].join('\n');

  it('apply resolves names; diff then shows no change; export writes names; re-apply writes nothing', async () => {
    writeFileSync(file(), policyText('developers, ops'));
    const applied = await hubctl(['policy', 'apply', '-f', file()]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('+ policy "build" (teams "developers", "ops")');
    expect(hub.state.policies[0]!.scope.teams.sort()).toEqual([DEV, OPS].sort());

    hub.clearRequests();
    const diff = await hubctl(['policy', 'diff', '-f', file()]);
    expect(diff.code).toBe(0);
    expect(diff.stderr).toContain('No changes');

    const exported = await hubctl(['policy', 'export', 'build']);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('scope:\n  teams:\n    - developers\n    - ops\n');
    expect(exported.stdout).not.toContain(DEV);
    writeFileSync(join(dir, 'exported.yaml'), exported.stdout);
    const again = await hubctl(['policy', 'apply', '-f', join(dir, 'exported.yaml')]);
    expect(again.code).toBe(0);
    expect(govWrites()).toEqual([]);
  });

  it('a scope change by name shows names in the plan', async () => {
    writeFileSync(file(), policyText('developers'));
    expect((await hubctl(['policy', 'apply', '-f', file()])).code).toBe(0);
    writeFileSync(file(), policyText('ops'));
    const diff = await hubctl(['policy', 'diff', '-f', file()]);
    expect(diff.code).toBe(10);
    // A change of teams widens first (both), then narrows: no member loses the policy in between.
    expect(diff.stdout).toContain(
      '~ policy "build": scope teams "developers" → teams "developers", "ops" [PATCH]\n' +
        '~ policy "build": scope teams "developers", "ops" → teams "ops" [PATCH]\n',
    );
  });

  it('an unknown or ambiguous name in a file: exit 2 naming the file, no write', async () => {
    writeFileSync(file(), policyText('developers, nobody'));
    const r = await hubctl(['policy', 'apply', '-f', file()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file()}: policy "build" scope.teams: no team named "nobody" in org acme`);
    writeFileSync(file(), policyText('Sec'));
    const amb = await hubctl(['policy', 'diff', '-f', file()]);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toContain('match the name "Sec"');
    expect(govWrites()).toEqual([]);
  });

  it('lint checks names against the organization, and says so when it cannot reach it', async () => {
    writeFileSync(file(), policyText('developers, nobody'));
    const online = await hubctl(['policy', 'lint', '-f', file(), '--json']);
    expect(online.code).toBe(1);
    const { warnings } = JSON.parse(online.stdout) as { warnings: { code: string; message: string }[] };
    expect(warnings.filter((w) => w.code === 'UNKNOWN_TEAM').map((w) => w.message)).toEqual([
      `${file()}: policy "build" scope.teams: no team named "nobody" in org acme`,
    ]);
    const offline = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [BIN, 'policy', 'lint', '-f', file()],
        {
          env: { PATH: process.env.PATH ?? '', HOME: dir, HUBCTL_CONFIG_DIR: join(dir, 'none') },
          encoding: 'utf8',
        },
        (err, _stdout, stderr) => done({ code: err ? Number(err.code) : 0, stderr }),
      );
    });
    expect(offline.code).toBe(0);
    expect(offline.stderr).toContain(
      '2 team names were not checked: resolving a team name needs the organization',
    );
  });
});
