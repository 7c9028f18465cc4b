// Schemas of the OCI documents hubctl reads, from a registry or from a file: descriptors, image
// manifests, indexes and the image config's shown fields (the OCI image spec). Digests are checked
// to the one form hubctl verifies (sha256, 64 lower-case hex digits): they go into URLs and into
// file names of OCI layouts, where `sha256:../../x` must never arrive. Written with the one valibot
// face, api/answer.ts (a leaf: valibot and errors.ts).
import { object, v } from '../api/answer.js';
import type { Descriptor, ImageIndex, ImageManifest } from './media-types.js';

const digest = v.pipe(v.string(), v.regex(/^sha256:[a-f0-9]{64}$/, 'expected a sha256 digest'));
const size = v.pipe(v.number(), v.safeInteger(), v.minValue(0, 'expected a size of 0 or more'));

const platform = object({
  architecture: v.string(),
  os: v.string(),
  variant: v.optional(v.string()),
  'os.version': v.optional(v.string()),
});

const descriptor = object({
  mediaType: v.string(),
  digest,
  size,
  platform: v.optional(platform),
  urls: v.optional(v.array(v.string())),
  annotations: v.optional(v.record(v.string(), v.string())),
  artifactType: v.optional(v.string()),
});

const documentFields = {
  schemaVersion: v.optional(v.number()),
  mediaType: v.optional(v.string()),
  annotations: v.optional(v.record(v.string(), v.string())),
  artifactType: v.optional(v.string()),
  subject: v.optional(descriptor),
};

export const DescriptorSchema = descriptor as v.GenericSchema<unknown, Descriptor>;

/** An image manifest: one config, layers (none is allowed). */
export const ImageManifestSchema = object({
  ...documentFields,
  config: DescriptorSchema,
  layers: v.optional(v.array(DescriptorSchema), []),
}) as v.GenericSchema<unknown, ImageManifest>;

/** An index (manifest list): one descriptor per image. */
export const ImageIndexSchema = object({
  ...documentFields,
  manifests: v.array(DescriptorSchema),
}) as v.GenericSchema<unknown, ImageIndex>;

/** The fields of an image config that hubctl shows; the rest passes through. */
export const ImageConfigAnswer = object({
  os: v.optional(v.string()),
  architecture: v.optional(v.string()),
  variant: v.optional(v.string()),
  created: v.optional(v.string()),
});
