import { chmodSync, existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfigReader } from '../../src/config/read.js';
import { openConfigStore } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hubctl-read-'));

describe('config reader', () => {
  it('reads what the conf store wrote, and sees later writes', () => {
    const d = dir();
    const store = openConfigStore(d);
    store.set('staging', 'org', 'acme-staging');
    store.setHubCredential('staging', { username: 'bob', secret: 'two' });
    store.setRegistryCredential('localhost:5000', { username: 'ci', secret: 'three' });
    const reader = openConfigReader(d);
    expect(reader.getProfile('staging')).toEqual({ org: 'acme-staging' });
    expect(reader.getProfile('default')).toEqual({});
    expect(reader.hubCredential('staging')).toEqual({ username: 'bob', secret: 'two' });
    expect(reader.hubCredential('default')).toBeUndefined();
    expect(reader.registryCredential('localhost:5000')).toEqual({ username: 'ci', secret: 'three' });
    expect(reader.registryCredential('toString')).toBeUndefined();
    store.set('staging', 'org', 'acme-2');
    store.deleteRegistryCredential('localhost:5000');
    expect(reader.getProfile('staging')).toEqual({ org: 'acme-2' });
    expect(reader.registryCredential('localhost:5000')).toBeUndefined();
  });

  it('reads a missing directory as empty and creates nothing', () => {
    const d = join(dir(), 'absent');
    const reader = openConfigReader(d);
    expect(reader.getProfile('default')).toEqual({});
    expect(reader.hubCredential('default')).toBeUndefined();
    expect(reader.registryCredential('localhost:5000')).toBeUndefined();
    expect(existsSync(d)).toBe(false);
  });

  it('refuses a corrupt file with a usage error naming the directory, as the store does', () => {
    const d = dir();
    writeFileSync(join(d, 'config.json'), '{ not json');
    writeFileSync(join(d, 'credentials.json'), '');
    const reader = openConfigReader(d);
    expect(() => reader.getProfile('default')).toThrow(UsageError);
    expect(() => reader.getProfile('default')).toThrow(`cannot read the config file in ${d}`);
    expect(() => reader.registryCredential('x')).toThrow(`cannot read the credentials file in ${d}`);
  });

  it('tightens a credentials file that an older version left world-readable', () => {
    const d = dir();
    writeFileSync(
      join(d, 'credentials.json'),
      JSON.stringify({ hub: {}, registries: { 'r.example': { username: 'a', secret: 's' } } }),
    );
    chmodSync(join(d, 'credentials.json'), 0o644);
    expect(openConfigReader(d).registryCredential('r.example')).toEqual({ username: 'a', secret: 's' });
    expect(statSync(join(d, 'credentials.json')).mode & 0o777).toBe(0o600);
  });
});
