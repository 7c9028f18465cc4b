// Case files of `policy test`: read strictly, every error with its file and line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { parseCaseFile } from '../../src/policy/case-file.js';
import { LocatedJsonError, readLocatedJson } from '../../src/policy/located-json.js';

describe('parseCaseFile', () => {
  it('reads both request forms, names, teams and lines (YAML subset)', async () => {
    const text = [
      '# egress cases',
      'cases:',
      '  - name: github',
      '    request: connect:tcp api.github.com:443',
      '    expect: allow',
      '',
      '  - request:',
      '      action: read',
      '      destination: ~/.ssh/id_rsa',
      '    expect: deny',
      '    team: 6F1C2A3E-8D4B-4E5F-9A0B-1C2D3E4F5A6B',
    ].join('\n');
    const cases = await parseCaseFile(text, 'c.yaml');
    expect(cases).toEqual([
      {
        name: 'github',
        named: true,
        file: 'c.yaml',
        line: 3,
        action: 'connect:tcp',
        destination: 'api.github.com:443',
        request: 'connect:tcp api.github.com:443',
        expect: 'allow',
      },
      {
        name: 'read ~/.ssh/id_rsa',
        named: false,
        file: 'c.yaml',
        line: 7,
        action: 'read',
        destination: '~/.ssh/id_rsa',
        request: 'read ~/.ssh/id_rsa',
        expect: 'deny',
        team: '6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b',
      },
    ]);
  });

  it('gives the same cases and lines through the full YAML parser and JSON', async () => {
    // an anchor takes the text out of the quick subset
    const yaml =
      'cases:\n  - &one {request: "connect:udp 8.8.8.8:53", expect: allow}\n  - request: "write /tmp/x"\n    expect: undecided\n';
    const json =
      '{\n  "cases": [\n    {"request": "connect:udp 8.8.8.8:53", "expect": "allow"},\n    {"request": "write /tmp/x",\n     "expect": "undecided"}\n  ]\n}\n';
    const a = await parseCaseFile(yaml, 'c.yaml');
    const b = await parseCaseFile(json, 'c.json');
    expect(a.map((c) => [c.request, c.expect, c.line])).toEqual([
      ['connect:udp 8.8.8.8:53', 'allow', 2],
      ['write /tmp/x', 'undecided', 3],
    ]);
    expect(b.map((c) => [c.request, c.expect, c.line])).toEqual([
      ['connect:udp 8.8.8.8:53', 'allow', 3],
      ['write /tmp/x', 'undecided', 4],
    ]);
  });

  it('reads MCP cases with attrs, args and server', async () => {
    const [c] = await parseCaseFile(
      'cases:\n  - request: {action: mcp:invokeTool, destination: stripe/refund}\n    expect: approval-required\n    attrs: {readOnly: false, name: refund}\n    args: {amount: 500}\n',
      'm.yaml',
    );
    expect(c).toMatchObject({
      action: 'mcp:invokeTool',
      destination: 'stripe/refund',
      expect: 'approval-required',
      mcp: { attrs: { readOnly: false, name: 'refund' }, args: { amount: 500 } },
    });
  });

  it.each([
    [
      'cases:\n  - name: a\n    reqest: connect:tcp x.com\n    expect: allow\n',
      'c.yaml:3: case 1 ("a"): unknown key "reqest"; did you mean "request"?',
    ],
    [
      'cases:\n  - request: connect:tcp x.com\n    expect: allow\n    expect: deny\n',
      'c.yaml:4: not valid YAML: a key is written twice in one mapping',
    ],
    [
      'cases:\n  - request: connect:tcp x.com\n    expect: alow\n',
      'c.yaml:3: case 1: expect "alow" is not one of allow, deny, undecided, approval-required; did you mean "allow"?',
    ],
    [
      'cases:\n  - request: connect:tcp x.com\n    expect: maybe\n',
      'c.yaml:3: case 1: expect "maybe" is not one of allow, deny, undecided, approval-required',
    ],
    ['cases:\n  - name: a\n    expect: allow\n', 'c.yaml:2: case 1 ("a"): a case needs a "request"'],
    ['cases:\n  - request: connect:tcp x.com\n', 'c.yaml:2: case 1: a case needs "expect"'],
    [
      'cases:\n  - request: conect:tcp x.com\n    expect: deny\n',
      'c.yaml:2: case 1: unknown action "conect:tcp"; did you mean "connect:tcp"?',
    ],
    ['cases:\n  - request: connect:tcp\n    expect: deny\n', 'must be "action destination"'],
    [
      'cases:\n  - request: connect:tcp x.com\n    expect: approval-required\n',
      'approval-required is an outcome of MCP requests',
    ],
    [
      'cases:\n  - request: connect:tcp x.com\n    expect: deny\n    args: {a: 1}\n',
      'c.yaml:4: case 1: "args" applies to MCP requests',
    ],
    ['cases:\n  - request: mcp:getPrompt p\n    expect: deny\n', 'mcp:getPrompt needs "server"'],
    [
      'cases:\n  - request: connect:tcp x.com\n    expect: deny\n    team: "a\\u0001"\n',
      'c.yaml:4: case 1: team "a\\u0001" is neither a team name nor a UUID',
    ],
    ['case:\n  - request: connect:tcp x.com\n', 'c.yaml:1: unknown key "case"; did you mean "cases"?'],
    ['cases: []\n', 'holds no case'],
    [
      'cases:\n  - request: {action: read, destination: /x, why: 1}\n    expect: deny\n',
      'c.yaml:2: case 1: unknown key "why"',
    ],
    ['a: [1\n', 'not valid YAML'],
    ['cases:\n  - x\n---\ncases: []\n', 'c.yaml:3: a case file holds one YAML document'],
  ])('refuses %j', async (text, message) => {
    const err = await parseCaseFile(text, 'c.yaml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain(message);
  });

  it('refuses in JSON with lines: a repeated key, an unknown key, bad JSON', async () => {
    const err = (t: string) => parseCaseFile(t, 'c.json').catch((e: Error) => e.message);
    expect(await err('{"cases": [\n{"request": "read /x",\n "expect": "deny", "expect": "allow"}]}')).toBe(
      'c.json:3: not valid JSON: the key "expect" is written twice (line 3 and here)',
    );
    expect(await err('{"cases": [\n{"request": "read /x",\n "expect": "deny",\n "nmae": "x"}]}')).toContain(
      'c.json:4: case 1: unknown key "nmae"; did you mean "name"?',
    );
    expect(await err('{"cases": [\n{"request": "read /x",}]}')).toContain('c.json:2: not valid JSON');
  });

  it('never throws anything but a ValidationError, whatever the text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.constantFrom('cases:\n  - ', 'cases:\n  - request: read /x\n    expect: ', '{"cases": [{'),
        ),
        async (text) => {
          const r = await parseCaseFile(text, 'f.yaml').catch((e: unknown) => e);
          if (!Array.isArray(r)) expect(r).toBeInstanceOf(ValidationError);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readLocatedJson', () => {
  it('reads what JSON.parse reads, when no key repeats', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v, null, 1);
        expect(readLocatedJson(text).value).toEqual(JSON.parse(text));
      }),
    );
  });
  it('refuses what JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        let ok = true;
        try {
          JSON.parse(s);
        } catch {
          ok = false;
        }
        if (!ok) expect(() => readLocatedJson(s)).toThrow(LocatedJsonError);
      }),
    );
  });
  it('keeps __proto__ as a plain key', () => {
    const { value } = readLocatedJson('{"__proto__": {"x": 1}}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__']);
  });
});
