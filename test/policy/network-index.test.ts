import { describe, expect, it } from 'vitest';
import { type PolicyDoc, parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';

// Large rule sets: the flat name table grows and rehashes many times, many names share suffixes,
// and IPv4 CIDRs of every prefix length sit side by side. Every case is checked against the naive
// reference evaluator as well as against a known answer.
function network(v: number, prefix: number): string {
  const m = prefix === 0 ? 0 : (v & (-1 << (32 - prefix))) >>> 0;
  return [m >>> 24, (m >>> 16) & 255, (m >>> 8) & 255, m & 255].join('.');
}

async function big(): Promise<PolicyDoc[]> {
  const rules = [];
  for (let i = 0; i < 3000; i++) {
    const zone = `z${i}.s${i % 7}.example.com`;
    const forms = [zone, `*.${zone}`, `**.${zone}`, `${zone}:${1000 + (i % 50)}`];
    rules.push({
      name: `r${i}`,
      actions: ['connect:tcp'],
      decision: i % 10 === 0 ? 'deny' : 'allow',
      resources: [forms[i % 4]],
    });
  }
  for (let p = 0; p <= 32; p++) {
    // 200.0.0.0/p .. with the high bit set, so keys past 2^31 are exercised
    rules.push({
      name: `cidr${p}`,
      actions: ['connect:tcp'],
      decision: p === 32 ? 'deny' : 'allow',
      resources: [`${network(((200 + (p % 3)) * 2 ** 24 + p * 2 ** 16 + 7 * 256 + 9) >>> 0, p)}/${p}`],
    });
  }
  return parsePolicyDocument(JSON.stringify([{ name: 'big', rules }]), 'big.json');
}

describe('network index at scale', () => {
  it('agrees with the naive evaluator on thousands of names and every IPv4 prefix length', async () => {
    const d = await big();
    const set = compilePolicies(d);
    const cases: [string, string][] = [
      ['202.32.7.9', 'deny'],
      ['z0.s0.example.com', 'deny'], // exact, deny rule
      ['z4.s4.example.com:22', 'allow'], // exact host, any port
      ['a.z1.s1.example.com', 'allow'], // *.
      ['a.b.z1.s1.example.com', 'deny'], // *. is one label only
      ['a.b.z2.s2.example.com', 'allow'], // **.
      ['z2.s2.example.com', 'deny'], // **. needs a label
      ['z3.s3.example.com:1003', 'allow'], // host:port
      ['z3.s3.example.com:1004', 'deny'],
      ['s1.example.com', 'deny'],
      ['example.com', 'deny'],
      ['zz.s1.example.com', 'deny'],
      ['201.32.7.9:443', 'allow'],
      ['202.2.7.9', 'allow'],
      ['1.2.3.4', 'allow'], // /0
      ['200.32.7.9', 'allow'],
    ];
    for (const [dest, want] of cases) {
      expect(evaluate(set, 'connect:tcp', dest).decision, dest).toBe(want);
      expect(naiveEvaluate(d, 'connect:tcp', dest).decision, dest).toBe(want);
    }
    expect(evaluate(set, 'connect:tcp', 'z0.s0.example.com').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'a.z1.s1.example.com').decision).toBe('allow');
    expect(evaluate(set, 'connect:tcp', 'a.b.z1.s1.example.com').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'x.y.z2.s2.example.com').decision).toBe('allow');
    expect(evaluate(set, 'connect:tcp', 'z2.s2.example.com').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'z3.s3.example.com:1003').decision).toBe('allow');
    expect(evaluate(set, 'connect:tcp', 'z3.s3.example.com:1004').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'z5.s5.example.com').decision).toBe('deny');
    // 202.32.7.9/32 (p = 32) denies that address; /0 allows any other
    expect(evaluate(set, 'connect:tcp', '202.32.7.9').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', '202.32.7.8').decision).toBe('allow');
    expect(evaluate(set, 'connect:tcp', '9.9.9.9').decision).toBe('allow');
    // every name of every rule decides as the naive evaluator says
    for (let i = 0; i < 3000; i += 7) {
      for (const dest of [
        `z${i}.s${i % 7}.example.com`,
        `w.z${i}.s${i % 7}.example.com:80`,
        `v.w.z${i}.s${i % 7}.example.com`,
      ]) {
        expect(evaluate(set, 'connect:tcp', dest).decision, dest).toBe(
          naiveEvaluate(d, 'connect:tcp', dest).decision,
        );
      }
    }
  });

  it('keeps every kind of a name that several rules use (exact, *., **., ports), added in any order, across growth', async () => {
    // Each zone is named by three or four rules, each in another form and in an order that turns with
    // the zone, so that a name gains its kinds one by one while the table grows around it.
    const forms = (zone: string) => [zone, `*.${zone}`, `**.${zone}`, `${zone}:${8000 + zone.length}`];
    const rules = [];
    for (let i = 0; i < 1500; i++) {
      const zone = `k${i}.t${i % 5}.example.org`;
      const all = forms(zone);
      for (let k = 0; k < 3 + (i % 2); k++) {
        const form = all[(i + k) % 4]!;
        rules.push({
          name: `r${i}-${k}`,
          actions: ['connect:tcp'],
          decision: (i + k) % 6 === 0 ? 'deny' : 'allow',
          resources: [form],
        });
      }
    }
    const d = await parsePolicyDocument(JSON.stringify([{ name: 'kinds', rules }]), 'kinds.json');
    const set = compilePolicies(d);
    let denies = 0;
    for (let i = 0; i < 1500; i += 3) {
      const zone = `k${i}.t${i % 5}.example.org`;
      for (const dest of [
        zone,
        `${zone}:${8000 + zone.length}`,
        `a.${zone}`,
        `a.b.${zone}:443`,
        `x${zone}`,
      ]) {
        const got = evaluate(set, 'connect:tcp', dest);
        if (got.decision === 'deny') denies++;
        expect({ decision: got.decision, reason: got.reason, matched: got.matched }, dest).toEqual(
          naiveEvaluate(d, 'connect:tcp', dest),
        );
      }
    }
    // both answers occur, so the comparison could tell a lost kind from a kept one
    expect(denies).toBeGreaterThan(100);
    expect(denies).toBeLessThan(2000);
  });

  it('keeps thousands of CIDRs of one prefix length, several under one prefix, as the naive evaluator does', async () => {
    const rules = [];
    for (let i = 0; i < 2000; i++) {
      rules.push({
        name: `n${i}`,
        actions: ['connect:tcp'],
        decision: i % 9 === 0 ? 'deny' : 'allow',
        resources: [`10.${i >> 8}.${i & 255}.0/24`],
      });
    }
    // one address, several entries: two ports and any port; and the key -1 (255.255.255.255/32)
    rules.push({ name: 'p22', actions: ['connect:tcp'], decision: 'deny', resources: ['10.0.5.1:22'] });
    rules.push({
      name: 'p443',
      actions: ['connect:tcp'],
      decision: 'allow',
      resources: ['10.0.5.1:443', '10.0.5.1'],
    });
    rules.push({
      name: 'all',
      actions: ['connect:tcp'],
      decision: 'allow',
      resources: ['255.255.255.255/32'],
    });
    rules.push({
      name: 'all22',
      actions: ['connect:tcp'],
      decision: 'deny',
      resources: ['255.255.255.255:22'],
    });
    rules.push({ name: 'one22', actions: ['connect:tcp'], decision: 'allow', resources: ['10.9.9.9:22'] });
    const d = await parsePolicyDocument(JSON.stringify([{ name: 'cidrs', rules }]), 'cidrs.json');
    const set = compilePolicies(d);
    const dests = [
      '10.0.5.1',
      '10.0.5.1:22',
      '10.0.5.1:443',
      '10.0.6.1:22',
      '255.255.255.255',
      '255.255.255.255:22',
      '10.9.9.9:22',
      '10.9.9.9',
    ];
    for (let i = 0; i < 2100; i += 13) dests.push(`10.${i >> 8}.${i & 255}.77:${i % 3 === 0 ? 22 : 443}`);
    for (const dest of dests) {
      const got = evaluate(set, 'connect:tcp', dest);
      expect({ decision: got.decision, reason: got.reason, matched: got.matched }, dest).toEqual(
        naiveEvaluate(d, 'connect:tcp', dest),
      );
    }
    expect(evaluate(set, 'connect:tcp', '10.0.5.1:22').reason).toMatch(/"p22"/);
    expect(evaluate(set, 'connect:tcp', '255.255.255.255:22').decision).toBe('deny');
  });

  it('reads IPv4 addresses in place exactly as the parser does, odd forms included', async () => {
    const d = await big();
    const set = compilePolicies(d);
    const forms = ['202.32.7.9', '202.32.7.9:443', '202.32.7.9:22', '202.032.7.9', '202.32.7.09', '0.0.0.0'];
    forms.push(
      '202.32.7.256',
      '202.32.7',
      '202.32.7.9.',
      '202.32.7.9.1',
      '1.2.3.4:65535',
      '1.2.3.4:0',
      '1.2.3.4:',
    );
    forms.push('1.2.3.4:022', '1234.2.3.4', '1..2.3', '.1.2.3.4', '200.32.7.9:1', '200.32.7.9:99999');
    for (const dest of forms) {
      // explain parses every destination with the general parser
      const parsed = (() => {
        try {
          return evaluate(set, 'connect:tcp', dest, { explain: true }).decision;
        } catch (err) {
          return (err as Error).message;
        }
      })();
      const inPlace = (() => {
        try {
          return evaluate(set, 'connect:tcp', dest).decision;
        } catch (err) {
          return (err as Error).message;
        }
      })();
      expect(inPlace, dest).toBe(parsed);
    }
  });
});
