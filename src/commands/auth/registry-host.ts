// `auth login <registry-host>`: which registry is meant, and over which scheme it is reached.
import { isDockerHubRegistry } from '../../auth/chain.js';
import { UsageError } from '../../errors.js';

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function parseRegistryHost(value: string): string {
  const host = value.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  if (!HOST.test(host)) {
    throw new UsageError(
      `"${value}" is not a registry host; give host or host:port (for example registry.example.com:5000)`,
    );
  }
  return host.toLowerCase();
}

/** Plain HTTP for loopback and hosts named with --plain-http (decisions §1). */
export function registryBaseUrl(host: string, plainHttp: string[]): string {
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  const loopback = name === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(name) || name === '::1';
  const scheme = loopback || plainHttp.includes(host) || plainHttp.includes(name) ? 'http' : 'https';
  return `${scheme}://${isDockerHubRegistry(host) ? 'registry-1.docker.io' : host}`;
}
