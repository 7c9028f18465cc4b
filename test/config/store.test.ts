import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProfileKey, openConfigStore } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hubctl-store-'));

describe('config store', () => {
  it('keeps profiles apart and lists them sorted', () => {
    const d = dir();
    const store = openConfigStore(d);
    store.set('default', 'org', 'acme');
    store.set('staging', 'base-url', 'https://hub.staging.example');
    store.set('staging', 'org', 'acme-staging');
    expect(store.profiles()).toEqual(['default', 'staging']);
    expect(store.getProfile('default')).toEqual({ org: 'acme' });
    expect(store.getProfile('staging')).toEqual({
      'base-url': 'https://hub.staging.example',
      org: 'acme-staging',
    });
    expect(store.getProfile('nope')).toEqual({});
    // A second store over the same directory reads what the first wrote.
    expect(openConfigStore(d).getProfile('staging').org).toBe('acme-staging');
    expect(JSON.parse(readFileSync(join(d, 'config.json'), 'utf8'))).toEqual({
      profiles: {
        default: { org: 'acme' },
        staging: { 'base-url': 'https://hub.staging.example', org: 'acme-staging' },
      },
    });
  });

  it('unset removes one key and says whether there was one', () => {
    const store = openConfigStore(dir());
    store.set('default', 'org', 'acme');
    store.set('default', 'username', 'alice');
    expect(store.unset('default', 'org')).toBe(true);
    expect(store.unset('default', 'org')).toBe(false);
    expect(store.getProfile('default')).toEqual({ username: 'alice' });
  });

  it('writes credentials.json with mode 0600 and the config dir with 0700', () => {
    const d = join(dir(), 'nested', 'hubctl');
    const store = openConfigStore(d);
    store.setHubCredential('default', { username: 'alice', secret: 'hub_pat_s3cret' });
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(store.credentialsPath).toBe(join(d, 'credentials.json'));
    expect(statSync(store.credentialsPath).mode & 0o777).toBe(0o600);
    // The secret is in credentials.json only, never in config.json.
    expect(existsSync(join(d, 'config.json'))).toBe(false);
    expect(readFileSync(store.credentialsPath, 'utf8')).toContain('hub_pat_s3cret');
  });

  it('tightens a credentials file that an older version left world-readable', () => {
    const d = dir();
    writeFileSync(
      join(d, 'credentials.json'),
      JSON.stringify({ hub: { default: { username: 'a', secret: 's' } }, registries: {} }),
    );
    chmodSync(join(d, 'credentials.json'), 0o644);
    const store = openConfigStore(d);
    expect(store.hubCredential('default')).toEqual({ username: 'a', secret: 's' });
    expect(statSync(join(d, 'credentials.json')).mode & 0o777).toBe(0o600);
  });

  it('stores, reads and deletes hub credentials per profile and registry credentials per host', () => {
    const store = openConfigStore(dir());
    store.setHubCredential('default', { username: 'alice', secret: 'one' });
    store.setHubCredential('staging', { username: 'bob', secret: 'two' });
    store.setRegistryCredential('localhost:5000', { username: 'ci', secret: 'three' });
    expect(store.hubCredential('staging')).toEqual({ username: 'bob', secret: 'two' });
    expect(store.registryCredential('localhost:5000')).toEqual({ username: 'ci', secret: 'three' });
    expect(store.deleteHubCredential('default')).toBe(true);
    expect(store.deleteHubCredential('default')).toBe(false);
    expect(store.hubCredential('default')).toBeUndefined();
    expect(store.hubCredential('staging')).toBeDefined();
    expect(store.deleteRegistryCredential('localhost:5000')).toBe(true);
    expect(store.deleteRegistryCredential('localhost:5000')).toBe(false);
  });

  it('writes atomically: after many writes only the two files remain, each valid JSON', () => {
    const d = dir();
    const store = openConfigStore(d);
    for (let i = 0; i < 25; i++) {
      store.set(`p${i % 3}`, 'org', `org-${i}`);
      store.setHubCredential(`p${i % 3}`, { username: 'u', secret: `s${i}` });
    }
    expect(readdirSync(d).sort()).toEqual(['config.json', 'credentials.json']);
    for (const f of ['config.json', 'credentials.json']) JSON.parse(readFileSync(join(d, f), 'utf8'));
    expect(store.getProfile('p0').org).toBe('org-24');
  });

  it('refuses a corrupt config file with a usage error naming the directory', () => {
    const d = dir();
    writeFileSync(join(d, 'config.json'), '{ not json');
    expect(() => openConfigStore(d)).toThrow(UsageError);
    expect(() => openConfigStore(d)).toThrow(d);
  });

  it('knows its keys', () => {
    expect(isProfileKey('org')).toBe(true);
    expect(isProfileKey('base-url')).toBe(true);
    expect(isProfileKey('toString')).toBe(false);
    expect(isProfileKey('password')).toBe(false);
  });

  it('tightens an existing 0755 config directory to 0700 when it writes into it', () => {
    const d = dir();
    chmodSync(d, 0o755);
    openConfigStore(d).set('default', 'org', 'acme');
    expect(statSync(d).mode & 0o777).toBe(0o700);
  });

  it('refuses profile names that are not plain names, and stores nothing', () => {
    const d = dir();
    const store = openConfigStore(d);
    for (const bad of ['__proto__', '', '.hidden', 'a b', 'x'.repeat(65), 'ü', 'a/b']) {
      expect(() => store.set(bad, 'org', 'x')).toThrow(UsageError);
      expect(() => store.setHubCredential(bad, { username: 'u', secret: 's' })).toThrow(/is not valid/);
    }
    expect(existsSync(join(d, 'config.json'))).toBe(false);
    expect(existsSync(join(d, 'credentials.json'))).toBe(false);
  });

  it('keeps names such as constructor and toString as data, never as Object properties', () => {
    const d = dir();
    const store = openConfigStore(d);
    expect(store.getProfile('constructor')).toEqual({});
    expect(store.hubCredential('toString')).toBeUndefined();
    expect(store.registryCredential('__proto__')).toBeUndefined();
    store.set('constructor', 'org', 'acme');
    expect(store.getProfile('constructor')).toEqual({ org: 'acme' });
    expect(store.profiles()).toEqual(['constructor']);
    // A file written by hand with a __proto__ key stays an ordinary entry.
    writeFileSync(join(d, 'credentials.json'), '{"registries":{"__proto__":{"username":"u","secret":"s"}}}');
    expect(store.registryCredential('__proto__')).toEqual({ username: 'u', secret: 's' });
    expect(store.deleteRegistryCredential('__proto__')).toBe(true);
    expect(JSON.parse(readFileSync(join(d, 'credentials.json'), 'utf8'))).toEqual({
      hub: {},
      registries: {},
    });
  });
});
