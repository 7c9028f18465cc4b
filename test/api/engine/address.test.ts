import { describe, expect, it } from 'vitest';
import { engineAddress } from '../../../src/api/engine/address.js';
import { checkPinnedVersion } from '../../../src/api/engine/api-version.js';

describe('engineAddress', () => {
  it('defaults to the docker socket', () => {
    expect(engineAddress(undefined, {})).toEqual({
      display: 'unix:///var/run/docker.sock',
      source: 'default',
      baseUrl: 'http://localhost',
      transport: { socketPath: '/var/run/docker.sock' },
    });
  });

  it('takes --engine-host over DOCKER_HOST', () => {
    const a = engineAddress('tcp://10.0.0.2:2375', { DOCKER_HOST: 'unix:///x.sock' });
    expect(a).toMatchObject({
      display: 'tcp://10.0.0.2:2375',
      source: '--engine-host',
      baseUrl: 'http://10.0.0.2:2375',
    });
  });

  it('reads TLS as the docker CLI: DOCKER_TLS_VERIFY, DOCKER_CERT_PATH, port 2376 by default', () => {
    const a = engineAddress(undefined, {
      DOCKER_HOST: 'tcp://engine.example',
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: '/certs',
    });
    expect(a.baseUrl).toBe('https://engine.example:2376');
    expect(a.transport).toEqual({
      tls: { caFile: '/certs/ca.pem', certFile: '/certs/cert.pem', keyFile: '/certs/key.pem' },
    });
    expect(engineAddress(undefined, { DOCKER_HOST: 'tcp://e', HOME: '/h' }).baseUrl).toBe('http://e:2375');
    expect(
      engineAddress(undefined, { DOCKER_HOST: 'tcp://e:1', DOCKER_TLS_VERIFY: '1', HOME: '/h' }).transport,
    ).toEqual({
      tls: { caFile: '/h/.docker/ca.pem', certFile: '/h/.docker/cert.pem', keyFile: '/h/.docker/key.pem' },
    });
  });

  it.each([
    ['/var/run/docker.sock', 'is not unix://PATH or tcp://HOST:PORT'],
    ['unix://relative.sock', 'must be an absolute path'],
    ['tcp://host:2375/path', 'without a path'],
    ['npipe:////./pipe/docker_engine', 'uses npipe://'],
  ])('refuses %s', (raw, message) => {
    expect(() => engineAddress(undefined, { DOCKER_HOST: raw })).toThrow(message);
  });
});

describe('checkPinnedVersion', () => {
  it.each([
    ['1.41', '1.41'],
    ['1.052', '1.52'],
    [' 1.24 ', '1.24'],
  ])('reads %s', (raw, version) => expect(checkPinnedVersion(raw)).toBe(version));
  it.each(['1', 'v1.41', '1.41.0', 'latest', '0.99', '1.23'])('refuses %s', (raw) => {
    expect(() => checkPinnedVersion(raw)).toThrow(/DOCKER_API_VERSION/);
  });
});
