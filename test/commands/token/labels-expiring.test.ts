// Token commands take a unique label where they take a UUID; `token list --expiring` and the
// terminal table's mark for tokens that expire within 7 days.
import { beforeEach, describe, expect, it } from 'vitest';
import { rotatedLabel } from '../../../src/api/rotate-token.js';
import { scriptedPrompter } from '../../support/run-cli.js';
import { useLoggedInHarness } from '../harness.js';

const t = useLoggedInHarness();

const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY).toISOString();
const byLabel = (label: string) => t.h.hub.state.accessTokens.find((t) => t.token_label === label)!;

describe('token commands by label', () => {
  it('get, deactivate, activate and delete take a unique label', async () => {
    t.h.hub.createPat('alice', { label: 'nightly' });
    t.h.hub.createPat('alice', { label: 'other' });
    const got = await t.h.run(['token', 'get', 'nightly', '--json']);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).uuid).toBe(byLabel('nightly').uuid);
    expect((await t.h.run(['token', 'deactivate', 'nightly'])).code).toBe(0);
    expect(byLabel('nightly').is_active).toBe(false);
    expect((await t.h.run(['token', 'activate', 'nightly'])).code).toBe(0);
    expect(byLabel('nightly').is_active).toBe(true);
    const del = await t.h.run(['token', 'delete', 'nightly'], {
      tty: true,
      prompter: scriptedPrompter({ confirm: [true] }),
    });
    expect(del.code).toBe(0);
    expect(t.h.hub.state.accessTokens.map((t) => t.token_label)).toEqual(['other']);
  });

  it('an ambiguous label lists the candidates and exits 2 without changing anything', async () => {
    t.h.hub.createPat('alice', { label: 'ci' });
    t.h.hub.createPat('alice', { label: 'ci', active: false });
    t.h.hub.clearRequests();
    const r = await t.h.run(['token', 'deactivate', 'ci']);
    expect(r.code).toBe(2);
    const [a, b] = t.h.hub.state.accessTokens;
    expect(r.stderr).toContain('the label "ci" names 2 tokens:');
    expect(r.stderr).toContain(`${a!.uuid}  active`);
    expect(r.stderr).toContain(`${b!.uuid}  inactive`);
    expect(r.stderr).toContain('Name the token by its UUID.');
    expect(t.h.hub.requests.filter((q) => q.method === 'PATCH')).toHaveLength(0);
  });

  it('a label that matches nothing exits 5', async () => {
    const r = await t.h.run(['token', 'get', 'nope']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no access token is labelled "nope"');
  });
});

describe('token list --expiring', () => {
  beforeEach(() => {
    t.h.hub.createPat('alice', { label: 'in-10d', expiresAt: inDays(10) });
    t.h.hub.createPat('alice', { label: 'never' });
    t.h.hub.createPat('alice', { label: 'in-2d', expiresAt: inDays(2) });
    t.h.hub.createPat('alice', { label: 'in-30d', expiresAt: inDays(30) });
    t.h.hub.createPat('alice', { label: 'expired', expiresAt: inDays(-1) });
  });

  it('shows the tokens expiring within the window, soonest first (every page read)', async () => {
    const r = await t.h.run(['token', 'list', '--expiring', '14d', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { token_label: string }) => t.token_label)).toEqual([
      'in-2d',
      'in-10d',
    ]);
    const piped = await t.h.run(['token', 'list', '--expiring', '2w']);
    expect(
      piped.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')[1]),
    ).toEqual(['in-2d', 'in-10d']);
    // Piped output carries no mark: the table is data.
    expect(piped.stdout).not.toContain('!');
  });

  it('a terminal table marks the tokens that expire within 7 days', async () => {
    const r = await t.h.run(['token', 'list', '--all'], { tty: true });
    expect(r.code).toBe(0);
    const line = (label: string) => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('in-2d')).toMatch(/! in [12]d/);
    expect(line('expired')).toContain('! expired');
    expect(line('in-10d')).not.toContain('!');
    expect(line('never')).not.toContain('!');
  });

  it('bad windows are usage errors (exit 2)', async () => {
    for (const bad of ['14', '0d', 'soon', '99999999d']) {
      const r = await t.h.run(['token', 'list', '--expiring', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('--expiring takes a duration');
    }
    const r = await t.h.run(['token', 'list', '--expiring', '14d', '--page', '2']);
    expect(r.code).toBe(2);
  });
});

describe('rotatedLabel', () => {
  const now = Date.parse('2026-11-24T15:40:00Z');
  it.each([
    ['ci-deploy', 'ci-deploy (rotated 2026-11-24)'],
    ['ci-deploy (rotated 2026-01-02)', 'ci-deploy (rotated 2026-11-24)'],
    ['ci-deploy (rotated 2026-11-24)', 'ci-deploy (rotated 2026-11-24 15:40)'],
    ['x'.repeat(100), `${'x'.repeat(79)} (rotated 2026-11-24)`],
  ])('%s → %s', (old, next) => {
    expect(rotatedLabel(old, now)).toBe(next);
    expect(rotatedLabel(old, now).length).toBeLessThanOrEqual(100);
  });
});
