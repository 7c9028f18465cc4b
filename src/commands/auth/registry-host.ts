// `auth login <registry-host>`: which registry is meant.
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
