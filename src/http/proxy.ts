// Which proxy a request goes through: HTTPS_PROXY for https://, HTTP_PROXY for http:// (either case;
// the lower-case name wins, as in curl), none when NO_PROXY matches. Read from the environment the
// context hands over, never from process.env behind its back.
import { createRequire } from 'node:module';
import type * as IpAddr from 'ipaddr.js';
import { UsageError } from '../errors.js';
import { isLoopbackHost } from './origin.js';

export interface ProxySettings {
  httpProxy?: URL;
  httpsProxy?: URL;
  noProxy: NoProxyEntry[];
  /** NO_PROXY=* */
  noProxyAll: boolean;
}

interface NoProxyEntry {
  /** A host name (matches itself and its subdomains), or an IP address. */
  host?: string;
  cidr?: [IpAddr.IPv4 | IpAddr.IPv6, number];
  port?: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export function readProxySettings(env: Record<string, string | undefined>): ProxySettings {
  const httpProxy = proxyUrl(env, 'http_proxy', 'HTTP_PROXY');
  const httpsProxy = proxyUrl(env, 'https_proxy', 'HTTPS_PROXY');
  const raw = (env.no_proxy ?? env.NO_PROXY ?? '').trim();
  return { httpProxy, httpsProxy, noProxy: parseNoProxy(raw), noProxyAll: raw === '*' };
}

function proxyUrl(env: Record<string, string | undefined>, lower: string, upper: string): URL | undefined {
  const name = env[lower] !== undefined ? lower : upper;
  const value = env[name]?.trim();
  if (!value) return undefined;
  // `host:port` without a scheme means an HTTP proxy, as curl and Go read it.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`${name} is not a valid proxy URL`, { hint: 'Write it as http://HOST:PORT.' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${name}: hubctl supports http:// and https:// proxies, not ${url.protocol}//`);
  }
  return url;
}

function parseNoProxy(raw: string): NoProxyEntry[] {
  const entries: NoProxyEntry[] = [];
  for (const item of raw.split(/[,\s]+/)) {
    const token = item.trim().toLowerCase();
    if (!token || token === '*') continue;
    if (token.includes('/')) {
      try {
        entries.push({ cidr: ipaddr().parseCIDR(token.replace(/^\[|\]$/g, '')) });
      } catch {
        // not a CIDR: ignored, as curl and Go ignore what they cannot read
      }
      continue;
    }
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(token);
    const hostPort = bracketed ? undefined : /^([^:]+):(\d+)$/.exec(token);
    const host = bracketed?.[1] ?? hostPort?.[1] ?? token;
    const port = bracketed?.[2] ?? hostPort?.[2];
    entries.push({ host: host.replace(/^\*?\./, ''), ...(port ? { port: Number(port) } : {}) });
  }
  return entries;
}

/**
 * The proxy for a request to `url`, or undefined to go direct. Loopback destinations go through a
 * proxy only when the proxy is on loopback too: a proxy on another machine would reach its own
 * loopback, not ours, and a plain-HTTP credential for loopback would cross the network.
 */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const proxy = url.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  if (!proxy || settings.noProxyAll) return undefined;
  if (isLoopbackHost(url.hostname) && !isLoopbackHost(proxy.hostname)) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of settings.noProxy) {
    if (entry.port !== undefined && entry.port !== port) continue;
    if (entry.cidr) {
      if (matchesCidr(host, entry.cidr)) return undefined;
    } else if (entry.host && (host === entry.host || host.endsWith(`.${entry.host}`))) {
      return undefined;
    }
  }
  return proxy;
}

function matchesCidr(host: string, cidr: [IpAddr.IPv4 | IpAddr.IPv6, number]): boolean {
  if (!ipaddr().isValid(host)) return false;
  const address = ipaddr().process(host);
  return address.kind() === cidr[0].kind() && address.match(cidr);
}

/** ipaddr.js, loaded only when NO_PROXY names a CIDR. */
function ipaddr(): typeof IpAddr {
  return createRequire(import.meta.url)('ipaddr.js') as typeof IpAddr;
}
