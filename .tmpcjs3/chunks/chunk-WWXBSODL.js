var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var stdin_exports = {};
__export(stdin_exports, {
  DOCKER_CONFIG: () => DOCKER_CONFIG,
  DOCKER_LAYER_GZIP: () => DOCKER_LAYER_GZIP,
  DOCKER_LAYER_TAR: () => DOCKER_LAYER_TAR,
  DOCKER_MANIFEST: () => DOCKER_MANIFEST,
  MANIFEST_ACCEPT: () => MANIFEST_ACCEPT,
  OCI_CONFIG: () => OCI_CONFIG,
  OciLayout: () => OciLayout,
  READ_CHUNK: () => READ_CHUNK,
  REF_NAME: () => REF_NAME,
  REGISTRY_CONFIG: () => REGISTRY_CONFIG,
  RegistryTokenAnswer: () => RegistryTokenAnswer,
  TagListAnswer: () => TagListAnswer,
  WRITE_BATCH: () => WRITE_BATCH,
  atomicWrite: () => atomicWrite,
  isIndexType: () => isIndexType,
  parseImageConfig: () => parseImageConfig,
  parseManifest: () => parseManifest,
  sha256Digest: () => sha256Digest,
  verifyManifestDigest: () => verifyManifestDigest
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_P2IX73DH = require("./chunk-P2IX73DH.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_node_crypto = require("node:crypto");
var import_node_crypto2 = require("node:crypto");
var import_node_fs = require("node:fs");
var import_promises = require("node:fs/promises");
var import_node_path = require("node:path");
var import_node_stream = require("node:stream");
var OCI_INDEX = "application/vnd.oci.image.index.v1+json";
var OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
var OCI_CONFIG = "application/vnd.oci.image.config.v1+json";
var DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
var DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
var DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json";
var DOCKER_LAYER_GZIP = "application/vnd.docker.image.rootfs.diff.tar.gzip";
var DOCKER_LAYER_TAR = "application/vnd.docker.image.rootfs.diff.tar";
var REGISTRY_LIST = "application/vnd.registry.distribution.manifest.list.v2+json";
var REGISTRY_MANIFEST = "application/vnd.registry.distribution.manifest.v2+json";
var REGISTRY_CONFIG = "application/vnd.registry.container.image.v1+json";
var SCHEMA1_TYPES = [
  "application/vnd.docker.distribution.manifest.v1+json",
  "application/vnd.docker.distribution.manifest.v1+prettyjws",
  "application/vnd.registry.distribution.manifest.v1+json",
  "application/vnd.registry.distribution.manifest.v1+prettyjws"
];
var INDEX_TYPES = [OCI_INDEX, DOCKER_LIST, REGISTRY_LIST];
var MANIFEST_ACCEPT = [
  OCI_INDEX,
  OCI_MANIFEST,
  DOCKER_LIST,
  DOCKER_MANIFEST,
  REGISTRY_LIST,
  REGISTRY_MANIFEST
].join(", ");
function isIndexType(mediaType) {
  return mediaType !== void 0 && INDEX_TYPES.includes(mediaType);
}
function isSchema1Type(mediaType) {
  return mediaType !== void 0 && SCHEMA1_TYPES.includes(mediaType);
}
var digest = import_chunk_47AE722P.dist_exports.pipe(import_chunk_47AE722P.dist_exports.string(), import_chunk_47AE722P.dist_exports.regex(/^sha256:[a-f0-9]{64}$/, "expected a sha256 digest"));
var size = import_chunk_47AE722P.dist_exports.pipe(import_chunk_47AE722P.dist_exports.number(), import_chunk_47AE722P.dist_exports.safeInteger(), import_chunk_47AE722P.dist_exports.minValue(0, "expected a size of 0 or more"));
var platform = (0, import_chunk_47AE722P.object)({
  architecture: import_chunk_47AE722P.dist_exports.string(),
  os: import_chunk_47AE722P.dist_exports.string(),
  variant: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string()),
  "os.version": import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string())
});
var descriptor = (0, import_chunk_47AE722P.object)({
  mediaType: import_chunk_47AE722P.dist_exports.string(),
  digest,
  size,
  platform: import_chunk_47AE722P.dist_exports.optional(platform),
  urls: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.array(import_chunk_47AE722P.dist_exports.string())),
  annotations: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.record(import_chunk_47AE722P.dist_exports.string(), import_chunk_47AE722P.dist_exports.string()))
});
var documentFields = {
  schemaVersion: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.number()),
  mediaType: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string()),
  annotations: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.record(import_chunk_47AE722P.dist_exports.string(), import_chunk_47AE722P.dist_exports.string()))
};
var DescriptorSchema = descriptor;
var ImageManifestSchema = (0, import_chunk_47AE722P.object)({
  ...documentFields,
  config: DescriptorSchema,
  layers: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.array(DescriptorSchema), [])
});
var ImageIndexSchema = (0, import_chunk_47AE722P.object)({
  ...documentFields,
  manifests: import_chunk_47AE722P.dist_exports.array(DescriptorSchema)
});
var TagListAnswer = (0, import_chunk_47AE722P.object)({ tags: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.array(import_chunk_47AE722P.dist_exports.string()), null) });
var RegistryTokenAnswer = import_chunk_47AE722P.dist_exports.pipe(
  (0, import_chunk_47AE722P.object)({
    token: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string()),
    access_token: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string()),
    expires_in: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.number())
  }),
  import_chunk_47AE722P.dist_exports.check((b) => Boolean(b.token || b.access_token), "no token in token or access_token")
);
var ImageConfigAnswer = (0, import_chunk_47AE722P.object)({
  os: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string()),
  architecture: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string()),
  variant: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string()),
  created: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string())
});
function sha256Digest(bytes) {
  return `sha256:${(0, import_node_crypto.createHash)("sha256").update(bytes).digest("hex")}`;
}
var Schema1Error = class extends import_chunk_6RHUR5LI.HubctlError {
  code = "SCHEMA1_UNSUPPORTED";
};
function schema1Error(what) {
  return new Schema1Error(
    `${what} is a schema 1 manifest (image format v1), which is no longer supported: ask the image's author to upgrade it`,
    { hint: "Pushing the image again with a current docker, buildah or skopeo writes a current manifest." }
  );
}
function verifyManifestDigest(bytes, expected, what) {
  const actual = sha256Digest(bytes);
  if (expected?.startsWith("sha256:") && expected !== actual) {
    throw new import_chunk_6RHUR5LI.IntegrityError(`${what}: the manifest's digest is ${actual}, expected ${expected}`);
  }
  return actual;
}
function parseManifest(bytes, contentType, what, from) {
  const fail = (problem, cause) => from ? new import_chunk_6RHUR5LI.UnexpectedAnswerError(`${what}: unexpected answer from ${from}: ${problem}`, { cause }) : new import_chunk_6RHUR5LI.ValidationError(`${what}: ${problem}`, { cause });
  let body;
  try {
    body = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (err) {
    throw fail("the manifest is not valid JSON", err);
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw fail("the manifest is not a JSON object");
  const doc = body;
  const header = contentType?.split(";")[0]?.trim();
  const declared = typeof doc.mediaType === "string" ? doc.mediaType : void 0;
  if (doc.schemaVersion === 1 || isSchema1Type(declared) || isSchema1Type(header)) throw schema1Error(what);
  const mediaType = declared ?? (header && header !== "application/json" ? header : Array.isArray(doc.manifests) ? OCI_INDEX : OCI_MANIFEST);
  if (isIndexType(mediaType) || Array.isArray(doc.manifests)) {
    const index = import_chunk_47AE722P.dist_exports.safeParse(ImageIndexSchema, body);
    if (!index.success) throw fail(`the index (${mediaType}): ${(0, import_chunk_47AE722P.describeIssue)(index.issues[0])}`);
    return { kind: "index", mediaType, index: index.output };
  }
  if (!doc.config || typeof doc.config !== "object") {
    throw fail(`the manifest (${mediaType}) has no config descriptor`);
  }
  const manifest = import_chunk_47AE722P.dist_exports.safeParse(ImageManifestSchema, body);
  if (!manifest.success) throw fail(`the manifest (${mediaType}): ${(0, import_chunk_47AE722P.describeIssue)(manifest.issues[0])}`);
  return {
    kind: "image",
    mediaType: mediaType === "application/json" ? DOCKER_MANIFEST : mediaType,
    manifest: manifest.output
  };
}
function parseImageConfig(bytes, what, from) {
  let body;
  try {
    body = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (err) {
    throw new import_chunk_6RHUR5LI.UnexpectedAnswerError(
      `${what}: unexpected answer from ${from}: the image config is not valid JSON`,
      {
        cause: err
      }
    );
  }
  return (0, import_chunk_47AE722P.checkAnswer)(ImageConfigAnswer, body, { host: from, what: `${what}: the image config` });
}
var WRITE_BATCH = 512 << 10;
var READ_CHUNK = 1 << 20;
var REF_NAME = "org.opencontainers.image.ref.name";
var OciLayout = class _OciLayout {
  constructor(dir) {
    this.dir = dir;
  }
  dir;
  static async open(dir) {
    let marker;
    try {
      marker = await (0, import_promises.readFile)((0, import_node_path.join)(dir, "oci-layout"), "utf8");
    } catch {
      throw new import_chunk_6RHUR5LI.NotFoundError(`${dir} is not an OCI image layout (no oci-layout file)`);
    }
    try {
      JSON.parse(marker);
    } catch {
      throw new import_chunk_6RHUR5LI.ValidationError(`${(0, import_node_path.join)(dir, "oci-layout")} is not valid JSON`);
    }
    return new _OciLayout(dir);
  }
  /** Creates the layout's folders and marker when missing. */
  static async create(dir) {
    await (0, import_promises.mkdir)((0, import_node_path.join)(dir, "blobs", "sha256"), { recursive: true });
    try {
      await (0, import_promises.stat)((0, import_node_path.join)(dir, "oci-layout"));
    } catch {
      await atomicWrite((0, import_node_path.join)(dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
    }
    return new _OciLayout(dir);
  }
  blobPath(digest2) {
    (0, import_chunk_P2IX73DH.assertDigest)(digest2);
    return (0, import_node_path.join)(this.dir, "blobs", "sha256", digest2.slice("sha256:".length));
  }
  /** Where a blob's download is kept until it is verified (hidden, in the same folder). */
  partialPath(digest2) {
    (0, import_chunk_P2IX73DH.assertDigest)(digest2);
    return (0, import_node_path.join)(this.dir, "blobs", "sha256", `.${digest2.slice("sha256:".length)}.partial`);
  }
  async blobSize(digest2) {
    try {
      return (await (0, import_promises.stat)(this.blobPath(digest2))).size;
    } catch {
      return void 0;
    }
  }
  async readBlob(digest2) {
    let bytes;
    try {
      bytes = await (0, import_promises.readFile)(this.blobPath(digest2));
    } catch {
      throw new import_chunk_6RHUR5LI.NotFoundError(`blob ${digest2} is missing from ${this.dir}`);
    }
    if (sha256Digest(bytes) !== digest2)
      throw new import_chunk_6RHUR5LI.IntegrityError(`blob ${digest2} in ${this.dir} does not match its digest`);
    return bytes;
  }
  async openBlob(digest2, start = 0, end) {
    const path = this.blobPath(digest2);
    const size2 = await this.blobSize(digest2);
    if (size2 === void 0) throw new import_chunk_6RHUR5LI.NotFoundError(`blob ${digest2} is missing from ${this.dir}`);
    const stop = Math.min(end ?? size2, size2);
    if (stop <= start) return import_node_stream.Readable.from([]);
    return (0, import_node_fs.createReadStream)(path, { start, end: stop - 1, highWaterMark: READ_CHUNK });
  }
  /** Writes a small blob (manifest, config) from bytes, verifying the digest. */
  async writeBlob(digest2, bytes) {
    if (sha256Digest(bytes) !== digest2)
      throw new import_chunk_6RHUR5LI.IntegrityError(`blob ${digest2}: the bytes do not match the digest`);
    if (await this.blobSize(digest2) === bytes.length) return;
    await atomicWrite(this.blobPath(digest2), bytes);
  }
  async readIndex() {
    let text;
    try {
      text = await (0, import_promises.readFile)((0, import_node_path.join)(this.dir, "index.json"), "utf8");
    } catch {
      return { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [] };
    }
    try {
      const index = JSON.parse(text);
      if (!Array.isArray(index.manifests)) throw new Error("no manifests");
      return index;
    } catch (err) {
      throw new import_chunk_6RHUR5LI.ValidationError(`${(0, import_node_path.join)(this.dir, "index.json")} is not a valid OCI index`, { cause: err });
    }
  }
  /**
   * The descriptor a tag names in index.json; without a tag, the only image in the layout (an
   * error when there are several).
   */
  async resolve(tag) {
    const index = await this.readIndex();
    if (tag !== void 0) {
      const found = index.manifests.find((d) => d.annotations?.[REF_NAME] === tag);
      if (!found) {
        const tags = index.manifests.map((d) => d.annotations?.[REF_NAME]).filter(Boolean);
        throw new import_chunk_6RHUR5LI.NotFoundError(`no image tagged "${tag}" in ${this.dir}`, {
          hint: tags.length > 0 ? `Tags in this layout: ${tags.join(", ")}.` : void 0
        });
      }
      return found;
    }
    if (index.manifests.length === 1) return index.manifests[0];
    if (index.manifests.length === 0) throw new import_chunk_6RHUR5LI.NotFoundError(`${this.dir} holds no image`);
    throw new import_chunk_6RHUR5LI.UsageError(
      `${this.dir} holds ${index.manifests.length} images: name one with oci:${this.dir}:TAG`
    );
  }
  /** Points a tag at a descriptor in index.json (replacing the tag's previous entry). */
  async setTag(tag, descriptor2) {
    const index = await this.readIndex();
    const entry = {
      mediaType: descriptor2.mediaType,
      digest: descriptor2.digest,
      size: descriptor2.size,
      ...descriptor2.platform ? { platform: descriptor2.platform } : {},
      ...tag !== void 0 ? { annotations: { [REF_NAME]: tag } } : {}
    };
    index.manifests = index.manifests.filter(
      (d) => tag !== void 0 ? d.annotations?.[REF_NAME] !== tag : d.digest !== descriptor2.digest
    );
    index.manifests.push(entry);
    await atomicWrite(
      (0, import_node_path.join)(this.dir, "index.json"),
      JSON.stringify({ ...index, schemaVersion: 2, manifests: index.manifests })
    );
  }
};
async function atomicWrite(path, data) {
  const tmp = `${path}.tmp-${(0, import_node_crypto2.randomBytes)(6).toString("hex")}`;
  await (0, import_promises.writeFile)(tmp, data);
  await (0, import_promises.rename)(tmp, path);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  DOCKER_CONFIG,
  DOCKER_LAYER_GZIP,
  DOCKER_LAYER_TAR,
  DOCKER_MANIFEST,
  MANIFEST_ACCEPT,
  OCI_CONFIG,
  OciLayout,
  READ_CHUNK,
  REF_NAME,
  REGISTRY_CONFIG,
  RegistryTokenAnswer,
  TagListAnswer,
  WRITE_BATCH,
  atomicWrite,
  isIndexType,
  parseImageConfig,
  parseManifest,
  sha256Digest,
  verifyManifestDigest
});
