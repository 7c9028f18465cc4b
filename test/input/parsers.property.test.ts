// Properties of every input parser: whatever the text, it returns or throws a typed HubctlError
// (never a TypeError, RangeError or a library's own exception), and none takes super-linear time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positiveInt } from '../../src/commands/host.js';
import { parseExpiry } from '../../src/commands/token/values.js';
import { assertProfileName, checkBaseUrl, checkOrg } from '../../src/config/values.js';
import { HubctlError } from '../../src/errors.js';
import { parsePlatform } from '../../src/image/platform.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { parseDestination, parseResource } from '../../src/policy/resource.js';
import { assertDigest, parseReference } from '../../src/ref/reference.js';
import { parsePlace } from '../../src/ref/transport.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');

const PARSERS: [string, (s: string) => unknown][] = [
  ['parseReference', (s) => parseReference(s)],
  ['parsePlace', (s) => parsePlace(s)],
  ['assertDigest', (s) => assertDigest(s)],
  ['network resource', (s) => parseResource('network', s)],
  ['filesystem resource', (s) => parseResource('filesystem', s)],
  ['network destination', (s) => parseDestination('network', s)],
  ['filesystem destination', (s) => parseDestination('filesystem', s)],
  ['parsePlatform', (s) => parsePlatform(s)],
  ['assertProfileName', (s) => assertProfileName(s)],
  ['checkOrg', (s) => checkOrg(s, '--org')],
  ['checkBaseUrl', (s) => checkBaseUrl(s, '--base-url')],
  ['parseExpiry', (s) => parseExpiry(s, NOW)],
  ['positiveInt', (s) => positiveInt('--page')(s)],
];

/** Characters that matter to these grammars, so generated text reaches past the first check. */
const GRAMMAR = [
  ...'az09AZ.-_:/@[]*~%#?&=\\ \t\n\u0000\u001bé'.split(''),
  'sha256:',
  'https://',
  '::',
  '**',
  '..',
];
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.array(fc.constantFrom(...GRAMMAR), { maxLength: 40 }).map((a) => a.join('')),
);

function typedOnly(parse: () => unknown): void {
  try {
    parse();
  } catch (err) {
    if (!(err instanceof HubctlError)) throw new Error(`threw ${String(err)}`);
    expect(err.exitCode).toBe(2);
  }
}

describe('every parser throws only typed errors (exit 2)', () => {
  it.each(PARSERS)('%s', (_, parse) => {
    fc.assert(
      fc.property(text, (s) => typedOnly(() => parse(s))),
      { numRuns: 1500 },
    );
  });

  it('parsePolicyDocument, on YAML-shaped and JSON-shaped text', async () => {
    const YAML_BITS = [
      'a',
      ': ',
      '\n',
      '  ',
      '- ',
      '*',
      '&',
      '[',
      ']',
      '{',
      '}',
      '"',
      "'",
      '#',
      '!',
      '|',
      '>',
      ',',
      'rules',
      'name',
      '---',
      '1',
    ];
    const doc = fc.array(fc.constantFrom(...YAML_BITS), { maxLength: 60 }).map((a) => a.join(''));
    await fc.assert(
      fc.asyncProperty(doc, fc.constantFrom('p.yaml', 'p.json'), async (s, name) => {
        try {
          await parsePolicyDocument(s, name);
        } catch (err) {
          if (!(err instanceof HubctlError)) throw new Error(`threw ${String(err)}`);
        }
      }),
      { numRuns: 1500 },
    );
  });
});

/** The fastest of a few runs of `parse` on `input`, in milliseconds (repeated to be measurable). */
function fastest(parse: (s: string) => unknown, input: string, reps: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) {
      try {
        parse(input);
      } catch {
        // refusals are timed like answers
      }
    }
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** Repeated units that drive scanners and backtracking regexes hardest. */
const UNITS = ['a', 'a.', 'a/', '*.', '/**', '/*a', ':', '::', '1.', '[', '-', '\\', '%2', 'a-', ' '];

/**
 * How much longer the large input takes than the small one: the lowest ratio of three tries, so a
 * pause of a busy machine (GC, another process) is not taken for the parser's cost.
 */
async function growth(time: (input: string) => number | Promise<number>, small: string, large: string) {
  let best = Number.POSITIVE_INFINITY;
  let largeMs = 0;
  for (let attempt = 0; attempt < 3 && best > BOUND; attempt++) {
    await time(small); // warm-up
    const t1 = await time(small);
    largeMs = await time(large);
    best = Math.min(best, largeMs / Math.max(t1, 0.05));
  }
  return { ratio: best, largeMs };
}

// Linear work grows 8× from n to 8n; quadratic 64×. The bound leaves room for a busy machine.
const BOUND = 32;

describe('no parser takes super-linear time', () => {
  it.each(PARSERS)('%s', async (_, parse) => {
    const n = 2000;
    const slow: string[] = [];
    for (const unit of UNITS) {
      for (const wrap of [(s: string) => s, (s: string) => `x${s}!`, (s: string) => `a.com:${s}`]) {
        const small = wrap(unit.repeat(n / unit.length));
        const large = wrap(unit.repeat((8 * n) / unit.length));
        const { ratio, largeMs } = await growth((s) => fastest(parse, s, 20), small, large);
        if (largeMs > 5 && ratio > BOUND) slow.push(`${JSON.stringify(unit)}: ${ratio.toFixed(1)}×`);
      }
    }
    expect(slow).toEqual([]);
  });

  it('parsePolicyDocument', async () => {
    const time = async (text: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const t0 = performance.now();
        await parsePolicyDocument(text, 'p.yaml').catch(() => undefined);
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    const rule = (i: number) =>
      `  - name: r${i}\n    actions: [connect:tcp]\n    resources: ["*.e${i}.com"]\n`;
    const makers = [
      (n: number) => `name: p\nrules:\n${Array.from({ length: n }, (_, i) => rule(i)).join('')}`,
      (n: number) =>
        `name: p\nrules:\n${'  - {name: a, actions: [connect:tcp], resources: [a.com]}\n'.repeat(n)}`,
      (n: number) => `name: "${'\\\\'.repeat(n)}"\n`,
      (n: number) =>
        `{"name": "p", "rules": [${Array(n).fill('{"actions": ["connect:tcp"], "resources": ["a.com"]}').join(',')}]}`,
    ];
    for (const make of makers) {
      const { ratio, largeMs } = await growth(time, make(400), make(3200));
      if (largeMs > 20) expect(ratio).toBeLessThan(BOUND);
    }
  });
});
