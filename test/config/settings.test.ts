import { describe, expect, it } from 'vitest';
import { profileName, resolveSettings } from '../../src/config/settings.js';

describe('settings precedence: flag > environment > profile > default', () => {
  const profile = { 'base-url': 'https://profile.example/', org: 'profile-org', username: 'profile-user' };
  const env = { HUBCTL_BASE_URL: 'https://env.example', HUBCTL_ORG: 'env-org', HUBCTL_USERNAME: 'env-user' };

  it('a flag beats everything', () => {
    const s = resolveSettings(
      { baseUrl: 'https://flag.example/', org: 'flag-org', username: 'flag-user' },
      env,
      profile,
    );
    expect(s.baseUrl).toBe('https://flag.example');
    expect(s.org).toBe('flag-org');
    expect(s.username).toBe('flag-user');
    expect(s.sources).toMatchObject({ baseUrl: 'flag', org: 'flag', username: 'flag' });
  });

  it('the environment beats the profile', () => {
    const s = resolveSettings({}, env, profile);
    expect(s.baseUrl).toBe('https://env.example');
    expect(s.org).toBe('env-org');
    expect(s.sources).toMatchObject({ baseUrl: 'env', org: 'env', username: 'env' });
  });

  it('the profile beats the default, trailing slashes trimmed', () => {
    const s = resolveSettings({}, {}, profile);
    expect(s.baseUrl).toBe('https://profile.example');
    expect(s.governanceUrl).toBe('https://profile.example/v2');
    expect(s.sources).toMatchObject({ baseUrl: 'profile', governanceUrl: 'default', org: 'profile' });
  });

  it('defaults: the live hub, governance under /v2, no org', () => {
    const s = resolveSettings({}, {}, {});
    expect(s).toMatchObject({
      profile: 'default',
      baseUrl: 'https://hub.docker.com',
      governanceUrl: 'https://hub.docker.com/v2',
      org: undefined,
      sources: { baseUrl: 'default', governanceUrl: 'default', org: 'unset', username: 'unset' },
    });
  });

  it('governance URL has its own flag, variable and key', () => {
    expect(resolveSettings({}, { HUBCTL_GOVERNANCE_URL: 'https://gov.example/api/' }, {}).governanceUrl).toBe(
      'https://gov.example/api',
    );
    expect(
      resolveSettings({ governanceUrl: 'https://f.example' }, {}, { 'governance-url': 'https://p' })
        .governanceUrl,
    ).toBe('https://f.example');
  });

  it('an empty environment variable counts as unset', () => {
    expect(resolveSettings({}, { HUBCTL_ORG: '' }, { org: 'p' }).org).toBe('p');
  });

  it('the profile name: flag, then HUBCTL_PROFILE, then default', () => {
    expect(profileName({ profile: 'a' }, { HUBCTL_PROFILE: 'b' })).toBe('a');
    expect(profileName({}, { HUBCTL_PROFILE: 'b' })).toBe('b');
    expect(profileName({}, {})).toBe('default');
  });
});
