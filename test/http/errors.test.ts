import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { apiErrorFrom, parseErrorBody } from '../../src/http/errors.js';

describe('error bodies of the three services', () => {
  it.each([
    // governance {error:{code,message}}
    [
      400,
      { error: { code: 'invalid_argument', message: 'name is required' } },
      'INVALID_ARGUMENT',
      'invalid_argument: name is required',
      2,
    ],
    [
      401,
      { error: { code: 'unauthenticated', message: 'missing or invalid credentials' } },
      'UNAUTHENTICATED',
      'unauthenticated: missing or invalid credentials',
      4,
    ],
    [
      403,
      { error: { code: 'permission_denied', message: 'not entitled' } },
      'PERMISSION_DENIED',
      'permission_denied: not entitled',
      4,
    ],
    [
      403,
      { error: { code: 'limit_exceeded', message: 'at most 100 policies' } },
      'LIMIT_EXCEEDED',
      'limit_exceeded: at most 100 policies',
      6,
    ],
    [
      404,
      { error: { code: 'not_found', message: 'no such policy' } },
      'NOT_FOUND',
      'not_found: no such policy',
      5,
    ],
    [409, { error: { code: 'conflict', message: 'name in use' } }, 'CONFLICT', 'conflict: name in use', 6],
    [500, { error: { code: 'internal', message: 'oops' } }, 'INTERNAL', 'internal: oops', 7],
    // hub {message, errinfo, detail}
    [
      401,
      { message: 'Incorrect authentication credentials', errinfo: null },
      'HTTP_401',
      'Incorrect authentication credentials',
      4,
    ],
    [
      400,
      { message: 'bad scopes', errinfo: { field: 'scopes' }, detail: 'repo:fly is unknown' },
      'HTTP_400',
      'bad scopes: repo:fly is unknown',
      2,
    ],
    [404, { detail: 'Not found.' }, 'HTTP_404', 'Not found.', 5],
    // registry {errors:[{code,message,detail}]}
    [
      404,
      { errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown', detail: 'tag 9' }] },
      'MANIFEST_UNKNOWN',
      'MANIFEST_UNKNOWN: manifest unknown (tag 9)',
      5,
    ],
    [
      401,
      { errors: [{ code: 'UNAUTHORIZED', message: 'authentication required', detail: [{ a: 1 }] }] },
      'UNAUTHORIZED',
      'UNAUTHORIZED: authentication required',
      4,
    ],
  ])('%i %j → %s', (status, body, code, message, exit) => {
    const err = apiErrorFrom(status, JSON.stringify(body));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(exit);
  });

  it('falls back to the status when the body is not a known shape', () => {
    expect(apiErrorFrom(502, '<html>bad gateway</html>').message).toBe(
      'the server answered 502 (bad gateway)',
    );
    expect(apiErrorFrom(418, '').message).toBe('the server answered 418');
    expect(apiErrorFrom(418, '').exitCode).toBe(1);
    expect(apiErrorFrom(429, '[]').exitCode).toBe(7);
    expect(parseErrorBody('null')).toEqual({});
    expect(parseErrorBody('{"errors":[]}')).toEqual({});
  });

  it('keeps a governance code with a missing message readable', () => {
    expect(apiErrorFrom(404, '{"error":{"code":"not_found"}}').message).toBe('not_found: not found');
  });

  it('prefixes what was being done, and redacts secrets the server echoed', () => {
    const err = apiErrorFrom(400, JSON.stringify({ message: 'bad token hub_pat_abcdef123456' }), {
      what: 'creating an access token',
      url: 'https://hub.example.test/v2/access-tokens',
    });
    expect(err.message).toBe('creating an access token: bad token ***');
    expect(err.url).toBe('https://hub.example.test/v2/access-tokens');
  });

  it.each([
    ['{"errors":[null]}', {}],
    ['{"errors":["x", 1]}', {}],
    ['{"errors":[{"code":{"x":1},"message":["m"],"detail":{"a":1}}]}', {}],
    ['{"errors":[{"code":"DENIED","message":"no","detail":{"a":1}}]}', { apiCode: 'DENIED', message: 'no' }],
    ['{"error":[1,2]}', {}],
    ['{"error":null,"message":42}', {}],
    ['{"error":{"code":"bad code\\u001b[2J","message":"m"}}', { message: 'm' }],
    ['[{"message":"m"}]', {}],
    ['"message"', {}],
    ['1e999', {}],
  ])('a hostile error body %s is ignored where it is not the documented shape', (text, parsed) => {
    expect(parseErrorBody(text)).toEqual(parsed);
    expect(apiErrorFrom(500, text)).toBeInstanceOf(ApiError);
  });

  it('cuts a long message short; a server cannot fill the terminal through an error', () => {
    const err = apiErrorFrom(400, JSON.stringify({ error: { code: 'x', message: 'a'.repeat(100_000) } }));
    expect(err.message.length).toBeLessThan(600);
    expect(err.message.endsWith('…')).toBe(true);
  });
});
