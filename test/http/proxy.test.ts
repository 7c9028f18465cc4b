// Which proxy a request takes: HTTPS_PROXY / HTTP_PROXY / NO_PROXY in both cases, as curl and Go read them.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { proxyFor, readProxySettings } from '../../src/http/proxy.js';

const via = (url: string, env: Record<string, string>) =>
  proxyFor(new URL(url), readProxySettings(env))?.href;

describe('proxy selection', () => {
  it('HTTPS_PROXY for https, HTTP_PROXY for http, no fallback from one to the other', () => {
    const env = { HTTPS_PROXY: 'http://sp:3128', HTTP_PROXY: 'http://p:3128' };
    expect(via('https://hub.docker.com/v2/', env)).toBe('http://sp:3128/');
    expect(via('http://registry.lan/v2/', env)).toBe('http://p:3128/');
    expect(via('https://hub.docker.com/', { HTTP_PROXY: 'http://p:3128' })).toBeUndefined();
    expect(via('http://registry.lan/', { HTTPS_PROXY: 'http://sp:3128' })).toBeUndefined();
  });

  it('reads both cases; the lower-case name wins; host:port means http://', () => {
    expect(via('https://a.test/', { https_proxy: 'sp:8080' })).toBe('http://sp:8080/');
    expect(via('https://a.test/', { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:1' })).toBe(
      'http://low:1/',
    );
    expect(via('https://a.test/', { https_proxy: '', HTTPS_PROXY: 'http://up:1' })).toBeUndefined();
  });

  it.each([
    ['*', 'https://anything.test/'],
    ['a.test', 'https://a.test/'],
    ['a.test', 'https://sub.a.test/'],
    ['.a.test', 'https://sub.a.test/'],
    ['*.a.test', 'https://a.test/'],
    ['other.test, A.TEST', 'https://a.test/'],
    ['a.test:443', 'https://a.test/'],
    ['a.test:8443', 'https://a.test:8443/'],
    ['10.0.0.0/8', 'https://10.1.2.3/'],
    ['10.1.2.3', 'https://10.1.2.3:5000/'],
    ['fd00::/8', 'https://[fd00::1]/'],
    ['[::2]', 'https://[::2]/'],
  ])('NO_PROXY=%s bypasses the proxy for %s', (noProxy, url) => {
    expect(via(url, { HTTPS_PROXY: 'http://sp:1', NO_PROXY: noProxy })).toBeUndefined();
    expect(via(url, { https_proxy: 'http://sp:1', no_proxy: noProxy })).toBeUndefined();
  });

  it.each([
    ['a.test', 'https://notа.test/'],
    ['a.test', 'https://xa.test/'],
    ['a.test:8443', 'https://a.test/'],
    ['10.0.0.0/8', 'https://11.0.0.1/'],
    ['10.0.0.0/8', 'https://10.0.0.1.example/'],
    ['garbage/99', 'https://a.test/'],
  ])('NO_PROXY=%s does not bypass it for %s', (noProxy, url) => {
    expect(via(url, { HTTPS_PROXY: 'http://sp:1', NO_PROXY: noProxy })).toBe('http://sp:1/');
  });

  it('loopback goes through a loopback proxy, never through a proxy on another machine', () => {
    expect(via('http://127.0.0.1:5000/', { HTTP_PROXY: 'http://127.0.0.1:3128' })).toBe(
      'http://127.0.0.1:3128/',
    );
    expect(via('http://localhost:5000/', { HTTP_PROXY: 'http://proxy.corp:3128' })).toBeUndefined();
    expect(via('https://[::1]:5000/', { HTTPS_PROXY: 'http://proxy.corp:3128' })).toBeUndefined();
  });

  it('a proxy URL that does not parse, or a scheme hubctl does not speak, is a usage error', () => {
    expect(() => readProxySettings({ HTTPS_PROXY: 'http://[bad' })).toThrow(UsageError);
    expect(() => readProxySettings({ https_proxy: 'socks5://p:1080' })).toThrow(
      'https_proxy: hubctl supports http:// and https:// proxies, not socks5://',
    );
  });
});
