// The engine's JSON answers, as the interface documents them. Loose objects: fields a newer engine
// adds pass through; fields that newer API versions omit are optional (decisions §6).
import { v } from '../answer.js';

const stringList = v.nullish(v.array(v.string()));
const stringMap = v.nullish(v.record(v.string(), v.string()));

export const versionSchema = v.looseObject({
  Version: v.string(),
  ApiVersion: v.string(),
  MinAPIVersion: v.optional(v.string()),
  Os: v.optional(v.string()),
  Arch: v.optional(v.string()),
});

const indexConfig = v.looseObject({
  Name: v.optional(v.string()),
  Mirrors: stringList,
  Secure: v.optional(v.boolean()),
  Official: v.optional(v.boolean()),
});

export const infoSchema = v.looseObject({
  ServerVersion: v.optional(v.string()),
  RegistryConfig: v.nullish(
    v.looseObject({
      // Null at 1.48 and below, absent from 1.49 on: both read as "none".
      AllowNondistributableArtifactsCIDRs: stringList,
      AllowNondistributableArtifactsHostnames: stringList,
      InsecureRegistryCIDRs: stringList,
      IndexConfigs: v.nullish(v.record(v.string(), indexConfig)),
      Mirrors: stringList,
    }),
  ),
});

const imageConfig = v.looseObject({
  Cmd: stringList,
  Entrypoint: stringList,
  Env: stringList,
  Labels: stringMap,
  OnBuild: stringList,
  User: v.nullish(v.string()),
  Volumes: v.nullish(v.record(v.string(), v.unknown())),
  WorkingDir: v.nullish(v.string()),
  ExposedPorts: v.nullish(v.record(v.string(), v.unknown())),
  StopSignal: v.nullish(v.string()),
  Shell: stringList,
});

export const imageInspectSchema = v.looseObject({
  Id: v.string(),
  RepoTags: stringList,
  RepoDigests: stringList,
  Created: v.nullish(v.string()),
  Size: v.nullish(v.number()),
  Architecture: v.nullish(v.string()),
  Os: v.nullish(v.string()),
  Variant: v.nullish(v.string()),
  Author: v.nullish(v.string()),
  Config: v.nullish(imageConfig),
  RootFS: v.nullish(v.looseObject({ Type: v.string(), Layers: stringList })),
});
export type EngineImage = v.InferOutput<typeof imageInspectSchema>;

export const imageListSchema = v.pipe(
  v.array(
    v.looseObject({
      Id: v.string(),
      RepoTags: stringList,
      RepoDigests: stringList,
      Created: v.nullish(v.number()),
      Size: v.nullish(v.number()),
    }),
  ),
  v.maxLength(100_000, 'more than 100,000 images'),
);
export type EngineImageSummary = v.InferOutput<typeof imageListSchema>[number];
