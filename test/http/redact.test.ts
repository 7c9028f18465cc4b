import { describe, expect, it } from 'vitest';
import { redactHeaders, redactJson, redactText, redactUrl } from '../../src/http/redact.js';

const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MX0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('redaction', () => {
  it('headers: credentials keep their scheme word, other headers are scanned for tokens', () => {
    expect(
      redactHeaders({
        Authorization: `Bearer ${JWT}`,
        'proxy-authorization': 'Basic YWxpY2U6cHc=',
        cookie: 'a=b',
        'set-cookie': ['x=1', 'y=2'],
        'x-registry-auth': 'eyJ1c2VybmFtZSI6ImEifQ==',
        'www-authenticate': 'Bearer realm="https://auth.example/token"',
        'x-echo': `token ${JWT}`,
        'content-length': '12',
        absent: undefined,
      }),
    ).toEqual({
      Authorization: 'Bearer ***',
      'proxy-authorization': 'Basic ***',
      cookie: '***',
      'set-cookie': '***',
      'x-registry-auth': '***',
      // A challenge is no credential: the realm stays readable in a --debug trace.
      'www-authenticate': 'Bearer realm="https://auth.example/token"',
      'x-echo': 'token ***',
      'content-length': '12',
    });
  });

  it('URLs: query secrets and passwords in the userinfo', () => {
    expect(
      redactUrl('https://u:pw@reg.example/token?service=s&password=hunter2&scope=repository:a:pull'),
    ).toBe('https://u:***@reg.example/token?service=s&password=***&scope=repository%3Aa%3Apull');
    expect(redactUrl('https://x.example/cb?access_token=abc&TOKEN=def&page=2')).toBe(
      'https://x.example/cb?access_token=***&TOKEN=***&page=2',
    );
    expect(redactUrl(`not a url with ${JWT}`)).toBe('not a url with ***');
  });

  it('JSON bodies: secret-named keys at any depth, and tokens inside other strings', () => {
    expect(
      redactJson({
        identifier: 'alice',
        password: 'hunter2',
        secret: 'hub_pat_abc',
        nested: [{ token: 'x', note: 'used hub_oat_zzz123 yesterday' }],
        access_token: JWT,
        empty: { token: '', auth: null },
        n: 3,
      }),
    ).toEqual({
      identifier: 'alice',
      password: '***',
      secret: '***',
      nested: [{ token: '***', note: 'used *** yesterday' }],
      access_token: '***',
      empty: { token: '', auth: null },
      n: 3,
    });
  });

  it('free text: bearer and basic credentials, JWTs, PATs and OATs of both namings', () => {
    expect(redactText(`Authorization: Bearer ${JWT}`)).toBe('Authorization: Bearer ***');
    expect(redactText('Basic YWxpY2U6cHc= then')).toBe('Basic *** then');
    expect(redactText(`jwt=${JWT};`)).toBe('jwt=***;');
    expect(redactText('hub_pat_A1b2-C3_d4 dckr_pat_Zz9 hub_oat_q dckr_oat_w')).toBe('*** *** *** ***');
    expect(redactText('nothing secret here: eyJ alone')).toBe('nothing secret here: eyJ alone');
  });
});
