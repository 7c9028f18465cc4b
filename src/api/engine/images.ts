// Images in the engine: inspect, normalised so the same image shows the same way at every API
// version (interface, "Container engine API versioning" §4), and the list with a reference pattern.
import type { EngineClient } from './client.js';
import { type EngineImage, type EngineImageSummary, imageInspectSchema, imageListSchema } from './schemas.js';

/** The image configuration fields an engine reports (the OCI config's `config`), in a fixed order. */
const CONFIG_FIELDS = [
  'User',
  'ExposedPorts',
  'Env',
  'Entrypoint',
  'Cmd',
  'Volumes',
  'WorkingDir',
  'Labels',
  'OnBuild',
  'StopSignal',
  'Shell',
  'Healthcheck',
] as const;

export interface NormalizedImage {
  Id: string;
  RepoTags: string[];
  RepoDigests: string[];
  Created: string | null;
  Size: number | null;
  Os: string | null;
  Architecture: string | null;
  Variant?: string;
  Author?: string;
  /**
   * Only the image configuration, each field only when set: `Container`/`ContainerConfig` (gone
   * from 1.45), the container fields gone from 1.50 (`Hostname`, `Attach*`, `Image` …) and the
   * empty values newer engines omit never appear, whichever version was negotiated.
   */
  Config: Record<string, unknown>;
  RootFS: { Type: string; Layers: string[] } | null;
}

export function normalizeImage(raw: EngineImage): NormalizedImage {
  const config: Record<string, unknown> = {};
  const source = (raw.Config ?? {}) as Record<string, unknown>;
  for (const field of CONFIG_FIELDS) {
    const value = source[field];
    if (!isEmpty(value)) config[field] = value;
  }
  return {
    Id: raw.Id,
    RepoTags: raw.RepoTags ?? [],
    RepoDigests: raw.RepoDigests ?? [],
    Created: raw.Created ?? null,
    Size: raw.Size ?? null,
    Os: raw.Os ?? null,
    Architecture: raw.Architecture ?? null,
    ...(raw.Variant ? { Variant: raw.Variant } : {}),
    ...(raw.Author ? { Author: raw.Author } : {}),
    Config: config,
    RootFS: raw.RootFS ? { Type: raw.RootFS.Type, Layers: raw.RootFS.Layers ?? [] } : null,
  };
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

export async function inspectEngineImage(engine: EngineClient, name: string): Promise<NormalizedImage> {
  const raw = await engine.getJson(
    `/images/${encodeURIComponent(name)}/json`,
    imageInspectSchema,
    `inspecting ${name} in the engine`,
  );
  return normalizeImage(raw);
}

/** GET /images/json, with the `reference` filter (the old `filter` option is removed). */
export async function listEngineImages(
  engine: EngineClient,
  pattern?: string,
): Promise<EngineImageSummary[]> {
  const query = pattern ? `?filters=${encodeURIComponent(JSON.stringify({ reference: [pattern] }))}` : '';
  return engine.getJson(`/images/json${query}`, imageListSchema, 'listing the engine’s images');
}
