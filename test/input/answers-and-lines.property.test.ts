// Server JSON and NDJSON request lines from outside (issue 20): any decoded JSON value checked
// against the schemas of the answers hubctl reads is accepted or refused with one short sentence
// (UnexpectedAnswerError, exit 7); any bytes on `policy eval --batch` stdin (invalid UTF-8, deep
// JSON, stray quotes) become one output line per request, a decision or an error record, never a
// crash, within bounded time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../src/api/answer.js';
import { RegistryTokenAnswer, TagListAnswer } from '../../src/api/registry/answers.js';
import {
  AccessTokenPageAnswer,
  PolicyAnswer,
  PolicyListAnswer,
  TokenExchangeAnswer,
} from '../../src/api/schemas.js';
import { UnexpectedAnswerError } from '../../src/errors.js';
import { ImageConfigAnswer, ImageIndexSchema, ImageManifestSchema } from '../../src/oci/schemas.js';
import { BatchProcessor } from '../../src/policy/batch.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies } from '../../src/policy/engine.js';

const SCHEMAS = {
  PolicyAnswer,
  PolicyListAnswer,
  AccessTokenPageAnswer,
  TokenExchangeAnswer,
  ImageManifestSchema,
  ImageIndexSchema,
  TagListAnswer,
  RegistryTokenAnswer,
  ImageConfigAnswer,
};

/** JSON values shaped like answers: the right keys with any values, and any JSON at all. */
const answerLike = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(
      'data',
      'id',
      'name',
      'rules',
      'manifests',
      'tags',
      'token',
      'config',
      'layers',
      'results',
      '__proto__',
      'x'.repeat(5000),
    ),
    fc.jsonValue({ maxDepth: 3 }),
  ),
  fc.constant(JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`)),
);

describe('server JSON checked against every answer schema', () => {
  it.each(Object.entries(SCHEMAS))('%s: accepted, or one short sentence (exit 7)', (_, schema) => {
    fc.assert(
      fc.property(answerLike, (value) => {
        const started = performance.now();
        try {
          checkAnswer(schema, value, { host: 'h.example', what: 'reading' });
        } catch (err) {
          expect(err).toBeInstanceOf(UnexpectedAnswerError);
          const e = err as UnexpectedAnswerError;
          expect(e.exitCode).toBe(7);
          expect(e.message).toMatch(/^reading: unexpected answer from h\.example: /);
          expect(e.message.length).toBeLessThan(2000);
        }
        expect(performance.now() - started).toBeLessThan(1000);
      }),
      { numRuns: 300 },
    );
  });
});

const set = compilePolicies(
  await parsePolicyDocument(
    JSON.stringify([
      {
        name: 'p',
        rules: [{ name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] }],
      },
    ]),
    'p.json',
  ),
);

describe('NDJSON request lines', () => {
  const piece = fc.oneof(
    fc.constantFrom(
      '{"action":"connect:tcp","destination":"github.com:443"}',
      'connect:tcp github.com:443',
      '{"action":',
      '"',
      '\\',
      '{',
      '[',
      '}',
      ' ',
      '\t',
      '#',
      '\r',
      '\u2028',
      '[[[[[[[[[[',
      'connect:udp 10.0.0.1:53',
      'read /etc/passwd',
    ),
    fc.string({ maxLength: 8 }),
  );
  const line = fc.oneof(
    fc.array(piece, { maxLength: 6 }).map((p) => Buffer.from(p.join(''))),
    fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b.filter((c) => c !== 10))),
  );

  it('any bytes: one output line per request, each a decision or an error record', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.integer({ min: 1, max: 64 }), (lines, chunk) => {
        const input = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
        const batch = new BatchProcessor(set);
        const out: Buffer[] = [];
        for (let i = 0; i < input.length; i += chunk) {
          const o = batch.pushBytes(input.subarray(i, i + chunk));
          if (o) out.push(Buffer.from(o));
        }
        const last = batch.endBytes();
        if (last) out.push(Buffer.from(last));
        const written = Buffer.concat(out).toString('utf8').split('\n').filter(Boolean);
        expect(written.length).toBe(batch.counts.total);
        for (const w of written) {
          const rec = JSON.parse(w) as { decision?: string; error?: { code: string } };
          expect(rec.decision !== undefined || rec.error !== undefined).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
