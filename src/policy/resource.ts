// One entry point for resources and destinations of either domain. Pure: no IO.
import type { Domain } from './model.js';
import { type NetworkPattern, parseNetworkResource } from './network.js';
import { type NetworkDestination, parseNetworkDestination } from './network-destination.js';
import {
  type FilesystemDestination,
  type FilesystemPattern,
  parseFilesystemDestination,
  parseFilesystemResource,
} from './path.js';

export type ResourcePattern =
  | { readonly domain: 'network'; readonly pattern: NetworkPattern }
  | { readonly domain: 'filesystem'; readonly pattern: FilesystemPattern };

export type Destination =
  | { readonly domain: 'network'; readonly dest: NetworkDestination }
  | { readonly domain: 'filesystem'; readonly dest: FilesystemDestination };

/** Parses a rule resource for a domain; throws ValidationError naming the value and the allowed forms. */
export function parseResource(domain: Domain, value: string): ResourcePattern {
  if (domain === 'network') return { domain, pattern: parseNetworkResource(value) };
  return { domain, pattern: parseFilesystemResource(value) };
}

/** Parses a request destination for a domain; throws ValidationError naming the value. */
export function parseDestination(domain: Domain, value: string): Destination {
  if (domain === 'network') return { domain, dest: parseNetworkDestination(value) };
  return { domain, dest: parseFilesystemDestination(value) };
}

/** The canonical text of a resource (lower-case hosts, masked CIDRs, normalized paths). */
export function canonicalResource(domain: Domain, value: string): string {
  return parseResource(domain, value).pattern.canonical;
}
