// registry.HOST.SETTING keys and their values (src/config/registry-settings.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkRegistryValue,
  parseMirror,
  parseRegistryKey,
  registrySettingsOf,
} from '../../src/config/registry-settings.js';
import { UsageError } from '../../src/errors.js';

describe('registry settings', () => {
  it('splits registry.HOST.SETTING at the last dot; hosts may hold dots and a port', () => {
    expect(parseRegistryKey('registry.mirror.corp.example:5000.plain-http')).toEqual({
      host: 'mirror.corp.example:5000',
      setting: 'plain-http',
    });
    expect(parseRegistryKey('registry.Localhost:5000.ca-file')).toEqual({
      host: 'localhost:5000',
      setting: 'ca-file',
    });
    expect(parseRegistryKey('org')).toBeUndefined();
    expect(() => parseRegistryKey('registry.x.y.speed')).toThrow(UsageError);
    expect(() => parseRegistryKey('registry..plain-http')).toThrow(UsageError);
  });
  it('values: booleans, 1 to 32, mirrors without path or credentials', () => {
    expect(checkRegistryValue('plain-http', 'false', 'k')).toBe('false');
    expect(() => checkRegistryValue('concurrency', '0', 'k')).toThrow(/from 1 to 32/);
    expect(parseMirror('http://m.example:5000/', 'k')).toEqual({ host: 'm.example:5000', plainHttp: true });
    expect(parseMirror('m.example', 'k')).toEqual({ host: 'm.example', plainHttp: false });
    expect(() => parseMirror('https://m.example/v2/x', 'k')).toThrow(UsageError);
    expect(() => parseMirror('https://u:p@m.example', 'k')).toThrow(UsageError);
  });
  it('collects a profile into settings per host, ignoring other keys', () => {
    const s = registrySettingsOf({
      org: 'acme',
      'registry.a:5000.plain-http': 'true',
      'registry.a:5000.concurrency': '8',
      'registry.b.mirror': 'http://m:5000',
    });
    expect(Object.fromEntries(s)).toEqual({
      'a:5000': { plainHttp: true, concurrency: 8 },
      b: { mirror: { host: 'm:5000', plainHttp: true } },
    });
  });
  it('any key or value is a setting or one usage sentence (fuzz)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (k, v) => {
        for (const f of [
          () => parseRegistryKey(`registry.${k}`),
          () => parseMirror(v, 'x'),
          () => checkRegistryValue('concurrency', v, 'x'),
        ]) {
          try {
            f();
          } catch (err) {
            expect(err).toBeInstanceOf(UsageError);
            expect((err as Error).message).not.toContain('\n');
          }
        }
      }),
    );
  });
});
