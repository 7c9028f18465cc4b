import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';

// Large path rule sets: the flat edge table grows and rehashes many times, thousands of directories
// share a parent, several entries end at one node, and literal, `*` and `**` steps mix. Every case
// is checked against the naive reference evaluator.
describe('path index at scale', () => {
  it('agrees with the naive evaluator on thousands of paths under shared parents', async () => {
    const rules = [];
    for (let i = 0; i < 2000; i++) {
      const dir = `d${i}`;
      const forms = [`/etc/${dir}/config.yaml`, `/srv/${dir}/**`, `/var/log/${dir}/*.log`, `~/src/${dir}/**`];
      forms.push(`/data/**/${dir}.db`, `/etc/${dir}`);
      rules.push({
        name: `r${i}`,
        actions: i % 3 === 0 ? ['read', 'write'] : ['read'],
        decision: i % 10 === 0 ? 'deny' : 'allow',
        // every 50th rule repeats the path of the rule before: two entries end at one node
        resources: [forms[i % forms.length]!, ...(i % 50 === 1 ? [`/etc/d${i - 1}/config.yaml`] : [])],
      });
    }
    const d = await parsePolicyDocument(JSON.stringify([{ name: 'paths', rules }]), 'paths.json');
    const set = compilePolicies(d);
    let allowed = 0;
    for (let i = 0; i < 2000; i += 3) {
      for (const path of [
        `/etc/d${i}/config.yaml`,
        `/etc/d${i}`,
        `/etc/d${i}/other.yaml`,
        `/srv/d${i}/a/b.txt`,
        `/srv/d${i}`,
        `/var/log/d${i}/x.log`,
        `/var/log/d${i}/x.txt`,
        `~/src/d${i}/main.go`,
        `/data/a/b/d${i}.db`,
        `/data/d${i}.db`,
        `/data/a/d${i}.dbx`,
        `/etc/d${i + 1}/config.yaml`,
      ]) {
        for (const action of ['read', 'write']) {
          const got = evaluate(set, action, path);
          const want = naiveEvaluate(d, action, path);
          expect(got.decision, `${action} ${path}`).toBe(want.decision);
          expect(got.matched.map((m) => m.rule).sort(), `${action} ${path}`).toEqual(
            want.matched.map((m) => m.rule).sort(),
          );
          if (got.decision === 'allow') allowed++;
        }
      }
    }
    expect(allowed).toBeGreaterThan(1000);
  }, 180_000); // naive: every rule per request; slow when the 2 cores are shared
});
