// The parsers of outside input for MCP requests (batch lines' JSON, --attr, --args) and of Cedar's
// byte offsets: on any input they answer or refuse with a ValidationError, never anything else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import { positionOfByte } from '../../../src/policy/cedar/text.js';
import { mcpRequest, mcpRequestFromJson } from '../../../src/policy/index.js';

function answersOrRefuses(f: () => unknown): void {
  try {
    f();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    expect(err.message.length).toBeLessThan(400);
    expect(err.message).not.toContain('\n');
  }
}

const action = fc.constantFrom(
  'mcp:register',
  'mcp:invokeTool',
  'mcp:invokePrimordial',
  'mcp:readResource',
  'mcp:getPrompt',
  'mcp:x',
  'read',
);

describe('MCP request parsers', () => {
  it('a batch line object: any JSON value in any field', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            action: fc.oneof(action, fc.jsonValue()),
            destination: fc.oneof(fc.string(), fc.jsonValue()),
            attrs: fc.jsonValue(),
            args: fc.jsonValue(),
            server: fc.oneof(fc.string(), fc.jsonValue()),
          },
          { requiredKeys: [] },
        ),
        (v) => answersOrRefuses(() => mcpRequestFromJson(v as Record<string, unknown>)),
      ),
      { numRuns: 3000 },
    );
  });

  it('--attr and --args text', () => {
    fc.assert(
      fc.property(
        action,
        fc.string(),
        fc.array(fc.string(), { maxLength: 4 }),
        fc.option(fc.oneof(fc.string(), fc.json()), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (a, dest, attrs, args, server) =>
          answersOrRefuses(() => mcpRequest(a, dest, { attrs, args, server })),
      ),
      { numRuns: 3000 },
    );
  });

  it('an accepted request keeps what it was given', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
        fc.stringMatching(/^[a-z_]{1,10}$/),
        fc.integer(),
        (server, tool, amount) => {
          const r = mcpRequest('mcp:invokeTool', `${server}/${tool}`, {
            args: JSON.stringify({ amount }),
            attrs: ['readOnly=true'],
          });
          expect(r).toEqual({
            action: 'invokeTool',
            destination: `${server}/${tool}`,
            args: { amount },
            attrs: { readOnly: true },
          });
        },
      ),
    );
  });
});

describe("Cedar's byte offsets", () => {
  it('are read as the character at that byte, with its line and column', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(), (text, n) => {
        const bytes = Buffer.from(text, 'utf8');
        const at = n % (bytes.length + 1);
        // only offsets at a character's start: where Cedar points
        if (at < bytes.length && (bytes[at]! & 0xc0) === 0x80) return;
        const prefix = bytes.subarray(0, at).toString('utf8');
        const pos = positionOfByte(text, at);
        expect(pos.offset).toBe(prefix.length);
        const lines = prefix.split('\n');
        expect(pos.line).toBe(lines.length);
        expect(pos.column).toBe(lines.at(-1)!.length + 1);
      }),
      { numRuns: 3000 },
    );
  });
});
