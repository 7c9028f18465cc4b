var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
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
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var stdin_exports = {};
__export(stdin_exports, {
  register: () => register8
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_JRLMFXFW = require("./chunk-JRLMFXFW.js");
var import_chunk_3QREYOZM = require("./chunk-3QREYOZM.js");
var import_chunk_2HDC4PJR = require("./chunk-2HDC4PJR.js");
var import_chunk_NXKWY5E6 = require("./chunk-NXKWY5E6.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_WWXBSODL = require("./chunk-WWXBSODL.js");
var import_chunk_P2IX73DH = require("./chunk-P2IX73DH.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var import_node_crypto = require("node:crypto");
var import_node_stream = require("node:stream");
var import_promises = require("node:fs/promises");
var import_node_crypto2 = require("node:crypto");
var import_node_fs = require("node:fs");
var import_promises2 = require("node:fs/promises");
var import_node_stream2 = require("node:stream");
var import_promises3 = require("node:stream/promises");
var import_node_stream3 = require("node:stream");
var import_node_os = require("node:os");
var import_node_path = require("node:path");
var import_node_crypto3 = require("node:crypto");
var import_promises4 = require("node:fs/promises");
var import_node_path2 = require("node:path");
var NODE_ARCH = {
  x64: "amd64",
  arm64: "arm64",
  arm: "arm",
  ia32: "386",
  ppc64: "ppc64le",
  s390x: "s390x",
  riscv64: "riscv64",
  loong64: "loong64",
  mips: "mips",
  mipsel: "mipsle"
};
function platformOf(nodePlatform, nodeArch) {
  const os = nodePlatform === "win32" ? "windows" : nodePlatform === "darwin" ? "linux" : nodePlatform;
  return { os, architecture: NODE_ARCH[nodeArch] ?? nodeArch };
}
function parsePlatform(input) {
  const parts = input.split("/");
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^[a-z0-9._-]+$/.test(p))) {
    throw new import_chunk_6RHUR5LI.ValidationError(
      `invalid platform "${input}": write os/arch or os/arch/variant (linux/arm64/v8)`
    );
  }
  const [os, architecture, variant] = parts;
  return variant ? { os, architecture, variant } : { os, architecture };
}
function formatPlatform(p) {
  if (!p) return "unknown";
  return [p.os, p.architecture, p.variant].filter(Boolean).join("/");
}
function normalVariant(arch2, variant) {
  if (arch2 === "arm64" && (variant === void 0 || variant === "v8")) return "v8";
  if (arch2 === "arm" && variant === void 0) return "v7";
  return variant;
}
function sameVariant(have, want) {
  return normalVariant(have.architecture, have.variant) === normalVariant(want.architecture, want.variant);
}
function sameArch(have, want) {
  return have.os === want.os && have.architecture === want.architecture;
}
function platformMatches(have, want) {
  return sameArch(have, want) && (want.variant === void 0 || sameVariant(have, want));
}
function matchManifest(manifests, want) {
  const candidates = manifests.filter((d) => d.platform && sameArch(d.platform, want));
  const exact = candidates.find((d) => sameVariant(d.platform, want));
  return exact ?? (want.variant === void 0 ? candidates[0] : void 0);
}
function noImageFor(what, want, available) {
  return new import_chunk_6RHUR5LI.NotFoundError(`${what} has no image for ${formatPlatform(want)}`, {
    hint: available.length > 0 ? `Platforms available: ${available.join(", ")}.` : void 0
  });
}
function imageIsFor(what, want, have) {
  return new import_chunk_6RHUR5LI.NotFoundError(
    `${what} has no image for ${formatPlatform(want)}: it is a single image for ${formatPlatform(have)}`,
    { hint: "Without --platform, hubctl takes it as it is." }
  );
}
var MAX_CONFIG = 4 * 1024 * 1024;
var IMAGE_CONFIG_TYPES = [import_chunk_WWXBSODL.OCI_CONFIG, import_chunk_WWXBSODL.DOCKER_CONFIG, import_chunk_WWXBSODL.REGISTRY_CONFIG];
function isImageConfig(d) {
  return IMAGE_CONFIG_TYPES.includes(d.mediaType);
}
async function fetchConfig(client, repo, d) {
  if (d.size > MAX_CONFIG)
    throw new import_chunk_6RHUR5LI.ValidationError(`the config blob ${d.digest} is too large to read (${d.size} bytes)`);
  const { body } = await client.getBlob(repo, d.digest);
  const chunks = [];
  for await (const c of body) chunks.push(c);
  const bytes = Buffer.concat(chunks);
  if ((0, import_chunk_WWXBSODL.sha256Digest)(bytes) !== d.digest)
    throw new import_chunk_6RHUR5LI.IntegrityError(`the config blob ${d.digest} does not match its digest`);
  return bytes;
}
function configPlatform(config) {
  const { os, architecture, variant } = config;
  if (typeof os !== "string" || typeof architecture !== "string" || !os || !architecture) return void 0;
  return typeof variant === "string" && variant ? { os, architecture, variant } : { os, architecture };
}
function platformInConfig(bytes) {
  try {
    const config = JSON.parse(bytes.toString("utf8"));
    if (config && typeof config === "object") return configPlatform(config);
  } catch {
  }
  return void 0;
}
function checkSingleImagePlatform(what, have, want, explicit) {
  if (!have || platformMatches(have, want)) return void 0;
  if (explicit) throw imageIsFor(what, want, have);
  return `Note: ${what} is an image for ${formatPlatform(have)}, not ${formatPlatform(want)} (the default platform); taking it as it is.`;
}
async function checkSingleImage(c) {
  if (!isImageConfig(c.config) || c.config.size > MAX_CONFIG) return void 0;
  if (c.headFirst) await c.client.headBlob(c.repo, c.config.digest);
  const bytes = await fetchConfig(c.client, c.repo, c.config);
  const line = checkSingleImagePlatform(c.what, platformInConfig(bytes), c.want, c.explicit);
  if (line) c.notice?.(line);
  return bytes;
}
var MAX_INDEX_DEPTH = 8;
function checkDepth(path, what) {
  if (path.length > MAX_INDEX_DEPTH)
    throw new import_chunk_6RHUR5LI.ValidationError(`${what} nests indexes more than ${MAX_INDEX_DEPTH} deep`);
}
function checkCycle(entry, path, what) {
  if (path.includes(entry.digest))
    throw new import_chunk_6RHUR5LI.ValidationError(
      `${what}: the index ${entry.digest} lists itself, directly or through its entries`
    );
}
async function manifestsBelow(top, fetch, what) {
  const seen = /* @__PURE__ */ new Set();
  const out = [];
  const visit = async (node, path) => {
    if (node.parsed.kind !== "index") return;
    checkDepth(path, what);
    for (const entry of node.parsed.index.manifests) {
      checkCycle(entry, path, what);
      if (seen.has(entry.digest)) continue;
      seen.add(entry.digest);
      const child = await fetch(entry);
      await visit(child, [...path, entry.digest]);
      out.push(child);
    }
  };
  await visit(top, [top.digest]);
  return out;
}
async function findPlatform(top, want, fetch, what) {
  if (top.parsed.kind === "image") return top;
  const available = /* @__PURE__ */ new Set();
  const seen = /* @__PURE__ */ new Set();
  const search = async (node, path) => {
    if (node.parsed.kind !== "index") return void 0;
    checkDepth(path, what);
    const entries = node.parsed.index.manifests;
    for (const d of entries) if (!(0, import_chunk_WWXBSODL.isIndexType)(d.mediaType)) available.add(formatPlatform(d.platform));
    const best = matchManifest(entries, want);
    const nested = entries.filter((d) => !d.platform && (0, import_chunk_WWXBSODL.isIndexType)(d.mediaType));
    for (const entry of best ? [best, ...nested] : nested) {
      checkCycle(entry, path, what);
      if (seen.has(entry.digest)) continue;
      seen.add(entry.digest);
      const child = await fetch(entry);
      if (child.parsed.kind === "image") {
        if (entry === best) return child;
        continue;
      }
      const found2 = await search(child, [...path, entry.digest]);
      if (found2) return found2;
    }
    return void 0;
  };
  const found = await search(top, [top.digest]);
  if (!found) throw noImageFor(what, want, [...available]);
  return found;
}
function blobsOf(manifests) {
  const blobs = /* @__PURE__ */ new Map();
  for (const m of manifests) {
    if (m.parsed.kind !== "image") continue;
    for (const d of [m.parsed.manifest.config, ...m.parsed.manifest.layers])
      if (!d.urls) blobs.set(d.digest, d);
  }
  return [...blobs.values()];
}
async function runPool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  let failure;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i], i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.err;
  return results;
}
async function fileSize(path) {
  try {
    return (await (0, import_promises2.stat)(path)).size;
  } catch {
    return void 0;
  }
}
async function hashFile(path, hash) {
  for await (const chunk of (0, import_node_fs.createReadStream)(path, { highWaterMark: import_chunk_WWXBSODL.READ_CHUNK }))
    hash.update(chunk);
}
function isRetryable(err) {
  if (err instanceof import_chunk_6RHUR5LI.IntegrityError) return false;
  if (err instanceof import_chunk_6RHUR5LI.NetworkError) return true;
  if (err instanceof import_chunk_6RHUR5LI.HubctlError) return false;
  const code = err?.code;
  return typeof code === "string" && /^(ECONNRESET|EPIPE|ETIMEDOUT|UND_ERR_|ERR_STREAM_PREMATURE_CLOSE|ECONNREFUSED)/.test(code);
}
function asNetworkError(err, what) {
  if (err instanceof import_chunk_6RHUR5LI.HubctlError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new import_chunk_6RHUR5LI.NetworkError(`${what}: the connection broke (${message})`, { cause: err });
}
async function writeVerifiedBlob(opts) {
  const { digest, size } = opts;
  const expectedHex = digest.slice("sha256:".length);
  let hash = (0, import_node_crypto2.createHash)("sha256");
  let have = await fileSize(opts.partialPath) ?? 0;
  if (have > size) {
    await (0, import_promises2.truncate)(opts.partialPath, 0);
    have = 0;
  } else if (have > 0) {
    await hashFile(opts.partialPath, hash);
  }
  const resumedFrom = have;
  opts.onProgress?.(have);
  let attempt = 0;
  for (; ; ) {
    try {
      if (have < size || size === 0) {
        const { body, start } = await opts.open(have);
        if (start !== have) {
          await (0, import_promises2.truncate)(opts.partialPath, 0).catch(() => void 0);
          hash = (0, import_node_crypto2.createHash)("sha256");
          have = 0;
        }
        const fh = await (0, import_promises2.open)(opts.partialPath, "a");
        const sink = new import_node_stream2.Writable({
          highWaterMark: import_chunk_WWXBSODL.WRITE_BATCH,
          writev(chunks, cb) {
            const bufs = [];
            for (const { chunk } of chunks) {
              const b = chunk;
              if (have + b.length > size) {
                cb(new import_chunk_6RHUR5LI.IntegrityError(`blob ${digest} is larger than the ${size} bytes its descriptor says`));
                return;
              }
              hash.update(b);
              have += b.length;
              bufs.push(b);
            }
            opts.onProgress?.(have);
            fh.writev(bufs).then(() => cb(), cb);
          }
        });
        try {
          await (0, import_promises3.pipeline)(body, sink, { signal: opts.signal });
        } finally {
          await fh.close().catch(() => void 0);
        }
        if (have < size)
          throw new import_chunk_6RHUR5LI.NetworkError(`the download of ${digest} ended after ${have} of ${size} bytes`);
      }
      const actual = hash.digest("hex");
      if (actual !== expectedHex) {
        await (0, import_promises2.unlink)(opts.partialPath).catch(() => void 0);
        throw new import_chunk_6RHUR5LI.IntegrityError(
          `blob ${digest} does not match its digest: the bytes received hash to sha256:${actual}`
        );
      }
      await (0, import_promises2.rename)(opts.partialPath, opts.finalPath);
      return { resumedFrom };
    } catch (err) {
      if (err instanceof import_chunk_6RHUR5LI.IntegrityError) await (0, import_promises2.unlink)(opts.partialPath).catch(() => void 0);
      if (opts.signal?.aborted || !isRetryable(err)) throw err;
      if (attempt >= (opts.retries ?? 3)) throw asNetworkError(err, `downloading ${digest}`);
      attempt++;
      hash = (0, import_node_crypto2.createHash)("sha256");
      have = await fileSize(opts.partialPath) ?? 0;
      if (have > 0) await hashFile(opts.partialPath, hash);
    }
  }
}
async function exists(path) {
  try {
    await (0, import_promises.stat)(path);
    return true;
  } catch {
    return false;
  }
}
async function resolveImages(client, ref, platform2, allPlatforms) {
  const top = await client.getManifest(ref, (0, import_chunk_P2IX73DH.manifestReference)(ref));
  const fetch = (d) => client.getManifest(ref, d.digest);
  const what = (0, import_chunk_P2IX73DH.formatReference)(ref);
  if (top.parsed.kind === "index" && allPlatforms) {
    const below = await manifestsBelow(top, fetch, what);
    return { top, below, images: below.filter((m) => m.parsed.kind === "image"), singleConfig: void 0 };
  }
  const image = await findPlatform(top, platform2, fetch, what);
  const singleConfig = top.parsed.kind === "image" && !allPlatforms ? top.parsed.manifest.config : void 0;
  return { top: image, below: [], images: [image], singleConfig };
}
async function pullImage(opts) {
  const { client, ref, dest } = opts;
  if (dest.transport === "docker-archive" && opts.allPlatforms) {
    throw new import_chunk_6RHUR5LI.UsageError("a docker archive holds one platform: pull --all-platforms into oci:DIR instead");
  }
  const {
    top,
    below,
    images,
    singleConfig: configDesc
  } = await resolveImages(client, ref, opts.platform, Boolean(opts.allPlatforms));
  const config = configDesc && await checkSingleImage({
    client,
    repo: ref,
    what: (0, import_chunk_P2IX73DH.formatReference)(ref),
    config: configDesc,
    want: opts.platform,
    explicit: Boolean(opts.platformExplicit),
    notice: opts.notice,
    headFirst: true
  });
  const dir = dest.transport === "oci" ? dest.path : `${dest.path}.hubctl-partial.d`;
  const created = !await exists(dir);
  const layout = await import_chunk_WWXBSODL.OciLayout.create(dir);
  let results;
  try {
    results = await runPool(blobsOf(images), opts.concurrency ?? 4, async (d) => {
      if (await layout.blobSize(d.digest) === d.size) {
        opts.progress.done(d.digest, d.size, "skipped");
        return { digest: d.digest, size: d.size, action: "skipped" };
      }
      if (config && d.digest === configDesc?.digest) {
        opts.progress.begin(d.digest, d.size);
        await layout.writeBlob(d.digest, config);
        opts.progress.done(d.digest, d.size, "pulled");
        return { digest: d.digest, size: d.size, action: "pulled" };
      }
      await client.headBlob(ref, d.digest);
      opts.progress.begin(d.digest, d.size);
      await writeVerifiedBlob({
        digest: d.digest,
        size: d.size,
        finalPath: layout.blobPath(d.digest),
        partialPath: layout.partialPath(d.digest),
        open: (start) => client.getBlob(ref, d.digest, start),
        onProgress: (have) => opts.progress.update(d.digest, have),
        signal: opts.signal
      });
      opts.progress.done(d.digest, d.size, "pulled");
      return { digest: d.digest, size: d.size, action: "pulled" };
    });
  } catch (err) {
    if (err instanceof import_chunk_6RHUR5LI.IntegrityError && created) await (0, import_promises.rm)(dir, { recursive: true, force: true });
    throw err;
  }
  await opts.known?.remember(
    ref.registry,
    ref.repository,
    results.map((r) => r.digest)
  ).catch(() => void 0);
  for (const m of [...below, top]) await layout.writeBlob(m.digest, m.bytes);
  const descriptor = { mediaType: top.mediaType, digest: top.digest, size: top.bytes.length };
  if (dest.transport === "oci") {
    await layout.setTag(dest.tag ?? ref.tag, descriptor);
  } else {
    const { writeDockerArchive } = await Promise.resolve().then(() => __toESM(require("./docker-archive-YDXV5FRI.js")));
    const manifest = top.parsed.manifest;
    const repoTag = ref.tag ? (0, import_chunk_P2IX73DH.formatReference)({ ...ref, digest: void 0 }) : void 0;
    await writeDockerArchive(dest.path, layout, descriptor, manifest, repoTag);
    await (0, import_promises.rm)(dir, { recursive: true, force: true });
  }
  return { reference: (0, import_chunk_P2IX73DH.formatReference)(ref), digest: top.digest, mediaType: top.mediaType, blobs: results };
}
var DEFAULT_MONOLITHIC_MAX = 32 * 1024 * 1024;
var DEFAULT_CHUNK_SIZE = 64 * 1024 * 1024;
var MAX_FAILURES = 5;
function isRetryable2(err) {
  if (err instanceof import_chunk_6RHUR5LI.AuthError || err instanceof import_chunk_6RHUR5LI.IntegrityError) return false;
  if (err instanceof import_chunk_6RHUR5LI.NetworkError) return true;
  if (err instanceof import_chunk_6RHUR5LI.ApiError) return err.status >= 500 || err.status === 408 || err.status === 429;
  if (err instanceof import_chunk_6RHUR5LI.HubctlError) return false;
  const code = err?.code;
  return typeof code === "string" && /^(ECONNRESET|EPIPE|ETIMEDOUT|ECONNREFUSED|UND_ERR_|ERR_STREAM_PREMATURE_CLOSE)/.test(code);
}
function metered(body, onBytes) {
  let n = 0;
  const t = new import_node_stream3.Transform({
    transform(chunk, _enc, cb) {
      n += chunk.length;
      onBytes(n);
      cb(null, chunk);
    }
  });
  body.on("error", (err) => t.destroy(err));
  return body.pipe(t);
}
async function pushBlob(uc, digest, size, open2) {
  const { client, repo } = uc;
  if (await client.headBlob(repo, digest) !== void 0) {
    uc.progress.done(digest, size, "skipped");
    return "skipped";
  }
  const monolithicMax = uc.monolithicMax ?? DEFAULT_MONOLITHIC_MAX;
  const chunkSize = uc.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const save = async (location2, offset2) => uc.uploads?.save({ registry: repo.registry, repository: repo.repository, digest, location: location2, offset: offset2 }).catch((err) => uc.note?.(`could not save the upload state of ${digest}: ${err.message}`));
  let resumed;
  let offset = 0;
  const saved = await uc.uploads?.load(repo.registry, repo.repository, digest);
  if (saved) {
    const status = await client.uploadStatus(repo, saved.location).catch(() => void 0);
    if (status && status.offset <= size) {
      resumed = status.location;
      offset = status.offset;
      uc.note?.(`continuing the upload of ${digest} left by an earlier run at byte ${offset}`);
    } else {
      uc.note?.(`the registry no longer has the earlier upload of ${digest}; starting again`);
      await uc.uploads?.remove(repo.registry, repo.repository, digest);
    }
  }
  let location;
  if (resumed) location = resumed;
  else {
    const from = uc.mountFrom ?? await uc.known?.repositoryWith(repo.registry, digest, repo.repository);
    const mount = from && from !== repo.repository ? { digest, from } : void 0;
    let started;
    try {
      started = await client.startUpload(repo, mount);
    } catch (err) {
      if (!mount || !(err instanceof import_chunk_6RHUR5LI.AuthError)) throw err;
      uc.note?.(`could not mount ${digest} from ${mount.from} (${err.message}); uploading it`);
      started = await client.startUpload(repo);
    }
    if (started.mounted) {
      uc.progress.done(digest, size, "mounted");
      return "mounted";
    }
    location = started.location;
  }
  const entry = { repo, location, digest };
  uc.open.add(entry);
  uc.progress.begin(digest, size);
  if (size > monolithicMax) await save(location, offset);
  let failures = 0;
  for (; ; ) {
    try {
      if (offset === 0 && size <= monolithicMax) {
        const body = metered(await open2(0, size), (n) => uc.progress.update(digest, n));
        await client.completeUpload(repo, location, digest, { data: body, length: size });
      } else {
        while (offset < size) {
          const len = Math.min(chunkSize, size - offset);
          const base = offset;
          const body = metered(await open2(offset, offset + len), (n) => uc.progress.update(digest, base + n));
          const next = await client.patchUpload(repo, location, body, offset, len);
          location = next.location;
          entry.location = location;
          offset = next.offset;
          await save(location, offset);
        }
        await client.completeUpload(repo, location, digest);
      }
      break;
    } catch (err) {
      if (uc.signal.aborted) throw err;
      if (await client.headBlob(repo, digest).catch(() => void 0) !== void 0) break;
      if (!isRetryable2(err)) {
        uc.open.delete(entry);
        await client.cancelUpload(repo, location).catch(() => void 0);
        await uc.uploads?.remove(repo.registry, repo.repository, digest);
        throw err;
      }
      if (++failures > MAX_FAILURES) throw asNetworkError(err, `pushing blob ${digest}`);
      const status = await client.uploadStatus(repo, location).catch(() => void 0);
      if (status && status.offset <= size && (status.offset > 0 || size > monolithicMax)) {
        uc.note?.(
          `upload of ${digest} broke (${err.message}); the registry holds ${status.offset} bytes, continuing`
        );
        location = status.location;
        offset = status.offset;
      } else {
        uc.note?.(`upload of ${digest} broke (${err.message}); starting a new upload`);
        const started = await client.startUpload(repo);
        if (started.mounted) break;
        location = started.location;
        offset = 0;
      }
      entry.location = location;
      if (offset > 0) await save(location, offset);
    }
  }
  uc.open.delete(entry);
  await uc.uploads?.remove(repo.registry, repo.repository, digest);
  uc.progress.done(digest, size, "pushed");
  return "pushed";
}
async function cancelOpenUploads(client, open2, uploads) {
  await Promise.all(
    [...open2].map(async (u) => {
      await client.cancelUpload(u.repo, u.location).catch(() => void 0);
      await uploads?.remove(u.repo.registry, u.repo.repository, u.digest);
    })
  );
  open2.clear();
}
async function copyImage(opts) {
  const { client, src, dst } = opts;
  const { top, below, images, singleConfig } = await resolveImages(
    client,
    src,
    opts.platform,
    Boolean(opts.allPlatforms)
  );
  const configDesc = opts.platformExplicit ? singleConfig : void 0;
  const config = configDesc && await checkSingleImage({
    client,
    repo: src,
    what: (0, import_chunk_P2IX73DH.formatReference)(src),
    config: configDesc,
    want: opts.platform,
    explicit: true
  });
  const sameRegistry = src.registry === dst.registry && src.repository !== dst.repository;
  const open2 = /* @__PURE__ */ new Set();
  const uc = {
    client,
    repo: dst,
    progress: opts.progress,
    signal: opts.signal,
    open: open2,
    known: opts.known,
    mountFrom: sameRegistry ? src.repository : void 0,
    // A stream from another registry cannot be re-read cheaply: send it in one request.
    monolithicMax: Number.POSITIVE_INFINITY,
    chunkSize: Number.POSITIVE_INFINITY,
    note: opts.note
  };
  let results;
  try {
    results = await runPool(blobsOf(images), opts.concurrency ?? 4, async (d) => {
      const action = await pushBlob(uc, d.digest, d.size, async (start, end) => {
        if (config && d.digest === configDesc?.digest) return import_node_stream.Readable.from([config.subarray(start, end)]);
        const { body } = await client.getBlob(src, d.digest, start);
        if (start > 0) return body;
        const checked = verifier(d.digest, d.size);
        body.on("error", (err) => checked.destroy(err));
        return body.pipe(checked);
      });
      return { digest: d.digest, size: d.size, action };
    });
  } catch (err) {
    if (opts.signal.aborted) await cancelOpenUploads(client, open2);
    throw err;
  }
  await opts.known?.remember(
    dst.registry,
    dst.repository,
    results.map((r) => r.digest)
  ).catch(() => void 0);
  for (const m of below) await client.putManifest(dst, m.digest, m.bytes, m.mediaType);
  const digest = await client.putManifest(dst, dst.tag ?? dst.digest ?? top.digest, top.bytes, top.mediaType);
  return { reference: (0, import_chunk_P2IX73DH.formatReference)(dst), digest, mediaType: top.mediaType, blobs: results };
}
function verifier(digest, size) {
  const hash = (0, import_node_crypto.createHash)("sha256");
  let n = 0;
  return new import_node_stream.Transform({
    transform(chunk, _enc, cb) {
      hash.update(chunk);
      n += chunk.length;
      cb(null, chunk);
    },
    flush(cb) {
      const actual = `sha256:${hash.digest("hex")}`;
      if (n !== size || actual !== digest) {
        cb(
          new import_chunk_6RHUR5LI.IntegrityError(
            `blob ${digest} from the source does not match its digest (got ${actual}, ${n} bytes)`
          )
        );
      } else cb();
    }
  });
}
var DEFAULT_EXPIRES_IN = 60;
var EXPIRY_MARGIN_MS = 5e3;
function readChallenge(header) {
  const challenges = (0, import_chunk_3QREYOZM.parseWwwAuthenticate)(header);
  const bearer = challenges.find((c) => c.scheme === "Bearer");
  if (bearer?.params.realm) {
    return {
      kind: "bearer",
      realm: bearer.params.realm,
      service: bearer.params.service,
      scope: bearer.params.scope,
      error: bearer.params.error
    };
  }
  if (challenges.some((c) => c.scheme.toLowerCase() === "basic")) return { kind: "basic" };
  return void 0;
}
function scopeFor(repository, actions) {
  return `repository:${repository}:${actions.join(",")}`;
}
var RegistryAuth = class {
  constructor(http, clock, credentials, signal) {
    this.http = http;
    this.clock = clock;
    this.credentials = credentials;
    this.signal = signal;
  }
  http;
  clock;
  credentials;
  signal;
  challenges = /* @__PURE__ */ new Map();
  tokens = /* @__PURE__ */ new Map();
  pending = /* @__PURE__ */ new Map();
  /** Pings `/v2/` once per registry to learn how it authenticates. */
  async challengeFor(registry, baseUrl, signal = this.signal) {
    const known = this.challenges.get(registry);
    if (known) return known;
    const res = await this.http.request({
      url: `${baseUrl}/v2/`,
      okStatuses: "any",
      signal: signal ?? void 0,
      what: `contacting the registry ${registry}`
    });
    await res.dump().catch(() => void 0);
    let challenge;
    if (res.status === 401) {
      challenge = readChallenge(res.headers["www-authenticate"]) ?? { kind: "basic" };
    } else if (res.status >= 200 && res.status < 300) {
      challenge = { kind: "none" };
    } else if (res.status === 404) {
      throw new import_chunk_6RHUR5LI.NetworkError(`${baseUrl} does not serve the registry API (GET /v2/ answered 404)`);
    } else {
      challenge = { kind: "none" };
    }
    this.challenges.set(registry, challenge);
    return challenge;
  }
  /** Records a challenge seen on a 401; answers whether a retry may help. */
  learn(registry, header) {
    const challenge = readChallenge(header);
    if (challenge) this.challenges.set(registry, challenge);
    return challenge;
  }
  /** Forgets the cached tokens of these scopes (after a 401). */
  invalidate(registry, scopes) {
    this.tokens.delete(tokenKey(registry, scopes));
  }
  /** The Authorization header value for these scopes, or undefined when the registry needs none. */
  async authorization(registry, baseUrl, scopes, signal = this.signal) {
    const challenge = await this.challengeFor(registry, baseUrl, signal);
    if (challenge.kind === "none") return void 0;
    if (challenge.kind === "basic") {
      const cred = await this.credentials(registry);
      return cred ? basic(cred) : void 0;
    }
    const key = tokenKey(registry, scopes);
    const cached = this.tokens.get(key);
    if (cached && this.clock.now() < cached.expiresAt) return `Bearer ${cached.token}`;
    let inflight = this.pending.get(key);
    if (!inflight) {
      inflight = this.fetchToken(registry, challenge, scopes, signal).finally(() => this.pending.delete(key));
      this.pending.set(key, inflight);
    }
    const token = await inflight;
    return token ? `Bearer ${token}` : void 0;
  }
  async fetchToken(registry, challenge, scopes, signal) {
    let url;
    try {
      url = new URL(challenge.realm);
    } catch {
      throw new import_chunk_6RHUR5LI.AuthError(`the registry ${registry} named an invalid token service "${challenge.realm}"`);
    }
    if (challenge.service) url.searchParams.set("service", challenge.service);
    for (const scope of scopes) url.searchParams.append("scope", scope);
    const cred = await this.credentials(registry);
    if (cred) url.searchParams.set("account", cred.username);
    const res = await this.http.request({
      url,
      headers: cred ? { authorization: basic(cred) } : {},
      okStatuses: "any",
      signal: signal ?? void 0,
      what: `getting a registry token for ${registry}`
    });
    if (res.status === 401 || res.status === 403) {
      await res.dump().catch(() => void 0);
      throw new import_chunk_6RHUR5LI.AuthError(
        cred ? `the token service of ${registry} refused the credentials of ${cred.username}` : `the token service of ${registry} requires credentials`,
        { hint: `Run "hubctl auth login ${registry}" to store credentials for this registry.` }
      );
    }
    if (res.status < 200 || res.status >= 300) {
      const text = await res.text().catch(() => "");
      throw new import_chunk_6RHUR5LI.NetworkError(
        `getting a registry token for ${registry}: the token service answered ${res.status}${text ? ` (${text.slice(0, 200)})` : ""}`
      );
    }
    const body = await (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_WWXBSODL.RegistryTokenAnswer, `getting a registry token for ${registry}`);
    const token = body.token || body.access_token;
    const lifetime = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : DEFAULT_EXPIRES_IN;
    this.tokens.set(tokenKey(registry, scopes), {
      token,
      expiresAt: this.clock.now() + lifetime * 1e3 - Math.min(EXPIRY_MARGIN_MS, lifetime * 1e3 / 2)
    });
    return token;
  }
};
function tokenKey(registry, scopes) {
  return `${registry} ${[...scopes].sort().join(" ")}`;
}
function basic(cred) {
  return `Basic ${Buffer.from(`${cred.username}:${cred.secret}`).toString("base64")}`;
}
var MAX_REDIRECTS = 5;
var REDIRECTS = /* @__PURE__ */ new Set([301, 302, 303, 307, 308]);
var RegistryTransport = class {
  auth;
  http;
  plainHttpHosts;
  signal;
  constructor(opts) {
    this.http = opts.http;
    this.plainHttpHosts = opts.plainHttpHosts ?? [];
    this.signal = opts.signal;
    this.auth = new RegistryAuth(opts.http, opts.clock, opts.credentials, opts.signal);
  }
  baseUrl(registry) {
    return (0, import_chunk_P2IX73DH.registryBaseUrl)(registry, this.plainHttpHosts);
  }
  /** One request with auth, a refresh on a 401 with a new challenge, and safe redirects. */
  async send(repo, opts) {
    const base = this.baseUrl(repo.registry);
    const scopes = [scopeFor(repo.repository, opts.actions), ...opts.extraScopes ?? []];
    const method = opts.method ?? "GET";
    const replayable = opts.body === void 0 || opts.body === null || typeof opts.body === "string" || opts.body instanceof Uint8Array;
    const signal = opts.ignoreAbort ? null : this.signal;
    let refreshed = false;
    for (; ; ) {
      const authorization = await this.auth.authorization(repo.registry, base, scopes, signal);
      const res = await this.exchange(base, method, new URL(opts.url, `${base}/`), authorization, opts);
      if (res.status !== 401) return res;
      await res.dump().catch(() => void 0);
      const challenge = this.auth.learn(repo.registry, res.headers["www-authenticate"]);
      this.auth.invalidate(repo.registry, scopes);
      if (!refreshed && replayable && challenge) {
        refreshed = true;
        if (challenge.kind === "bearer" && challenge.scope) {
          for (const s of challenge.scope.split(" ")) if (!scopes.includes(s)) scopes.push(s);
        }
        continue;
      }
      const why = challenge?.kind === "bearer" && challenge.error ? ` (${challenge.error})` : "";
      throw new import_chunk_6RHUR5LI.AuthError(`${opts.what}: the registry refused access${why}`, {
        hint: `Check your permissions on ${repo.registry}/${repo.repository}, or run "hubctl auth login ${repo.registry}".`
      });
    }
  }
  async exchange(base, method, first, authorization, opts) {
    const origin = new URL(base).origin;
    let url = first;
    const follow = opts.follow ?? (method === "GET" || method === "HEAD");
    for (let hops = 0; ; hops++) {
      const headers = { ...opts.headers };
      if (authorization && url.origin === origin) headers.authorization = authorization;
      const req = {
        method,
        url,
        headers,
        body: opts.body,
        okStatuses: "any",
        followRedirects: false,
        signal: opts.ignoreAbort ? void 0 : this.signal,
        what: opts.what
      };
      if (opts.timeoutMs !== void 0) req.timeoutMs = opts.timeoutMs;
      const res = await this.http.request(req);
      if (follow && REDIRECTS.has(res.status) && res.headers.location) {
        await res.dump().catch(() => void 0);
        if (hops >= MAX_REDIRECTS) throw new import_chunk_6RHUR5LI.NetworkError(`${opts.what}: too many redirects`);
        url = new URL(res.headers.location, url);
        continue;
      }
      return res;
    }
  }
  /** Turns a non-success answer into a typed error with the registry's code in the message. */
  async fail(res, what, method = "GET") {
    const text = method === "HEAD" ? "" : await res.text().catch(() => "");
    throw (0, import_chunk_JRLMFXFW.apiErrorFrom)(res.status, text, { url: res.url, what });
  }
  async expect(res, statuses, what, method = "GET") {
    if (!statuses.includes(res.status)) await this.fail(res, what, method);
  }
  location(res, what, fallback) {
    const loc = res.headers.location;
    if (!loc) {
      if (fallback) return fallback;
      throw new import_chunk_6RHUR5LI.NetworkError(`${what}: the registry answered without a Location`);
    }
    return new URL(loc, res.url).toString();
  }
};
function rangeEnd(range) {
  const m = /^(?:bytes=)?(\d+)-(\d+)$/.exec(range?.trim() ?? "");
  if (!m) return void 0;
  const end = Number(m[2]);
  return end === 0 ? 0 : end + 1;
}
function nextLink(link) {
  if (!link) return void 0;
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (m && /rel="?next"?/i.test(m[2] ?? "")) return m[1];
  }
  return void 0;
}
async function readLimited(body, limit, what) {
  const chunks = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > limit) {
      body.destroy();
      throw new import_chunk_6RHUR5LI.HubctlError(`${what}: the manifest is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
var MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
var RegistryClient = class extends RegistryTransport {
  // ---- manifests --------------------------------------------------------------------------
  async getManifest(repo, reference) {
    const what = `getting manifest ${reference} of ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ["pull"],
      headers: { accept: import_chunk_WWXBSODL.MANIFEST_ACCEPT },
      what
    });
    if (res.status === 404) {
      const text = await res.text().catch(() => "");
      const err = (0, import_chunk_JRLMFXFW.apiErrorFrom)(404, text, { url: res.url, what });
      throw new import_chunk_6RHUR5LI.NotFoundError(err.message, { cause: err });
    }
    await this.expect(res, [200], what);
    const bytes = await readLimited(res.body, MAX_MANIFEST_BYTES, what);
    const headerDigest = res.headers["docker-content-digest"] ?? res.headers["registry-content-digest"];
    const parsed = (0, import_chunk_WWXBSODL.parseManifest)(bytes, res.headers["content-type"], what, new URL(res.url).host);
    const digest = (0, import_chunk_WWXBSODL.verifyManifestDigest)(bytes, headerDigest, what);
    if (reference.startsWith("sha256:")) (0, import_chunk_WWXBSODL.verifyManifestDigest)(bytes, reference, what);
    return { bytes, digest, mediaType: parsed.mediaType, parsed };
  }
  /** HEAD a manifest: undefined when it does not exist. */
  async headManifest(repo, reference) {
    const what = `checking manifest ${reference} of ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: "HEAD",
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ["pull"],
      headers: { accept: import_chunk_WWXBSODL.MANIFEST_ACCEPT },
      what
    });
    await res.dump().catch(() => void 0);
    if (res.status === 404) return void 0;
    await this.expect(res, [200], what, "HEAD");
    const size = Number(res.headers["content-length"]);
    return {
      digest: res.headers["docker-content-digest"] ?? res.headers["registry-content-digest"],
      mediaType: res.headers["content-type"]?.split(";")[0]?.trim(),
      size: Number.isFinite(size) ? size : void 0
    };
  }
  /** PUT a manifest under a tag or digest; answers the digest (checked against the bytes). */
  async putManifest(repo, reference, bytes, mediaType) {
    const what = `pushing manifest ${reference} to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: "PUT",
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ["pull", "push"],
      headers: { "content-type": mediaType },
      body: bytes,
      what
    });
    await this.expect(res, [200, 201, 202], what);
    await res.dump().catch(() => void 0);
    const expected = res.headers["docker-content-digest"] ?? res.headers["registry-content-digest"];
    return (0, import_chunk_WWXBSODL.verifyManifestDigest)(bytes, expected, what);
  }
  /**
   * DELETE a manifest by digest. 202 → deleted; 500 → the registry finishes in the background
   * (no retry); 403 → still referenced; 405, or 400 UNSUPPORTED → deletes are not allowed.
   */
  async deleteManifest(repo, digest) {
    const what = `deleting manifest ${digest} of ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: "DELETE",
      url: `v2/${repo.repository}/manifests/${digest}`,
      actions: ["delete"],
      what
    });
    if (res.status === 200 || res.status === 202 || res.status === 204) {
      await res.dump().catch(() => void 0);
      return "deleted";
    }
    const text = await res.text().catch(() => "");
    const err = (0, import_chunk_JRLMFXFW.apiErrorFrom)(res.status, text, { url: res.url, what });
    if (res.status >= 500 && res.status !== 501) return "background";
    if (res.status === 403) {
      throw new import_chunk_6RHUR5LI.ApiError(`${what}: the manifest is still referenced by another tag or image`, {
        status: 403,
        apiCode: err.apiCode,
        url: res.url,
        hint: "Delete the images or tags that reference it first."
      });
    }
    if (res.status === 405 || res.status === 501 || res.status === 400 && err.apiCode === "UNSUPPORTED") {
      throw new import_chunk_6RHUR5LI.ApiError(
        `${what}: the registry does not allow deletes (${err.message.replace(`${what}: `, "")})`,
        {
          status: res.status,
          apiCode: err.apiCode,
          url: res.url
        }
      );
    }
    if (res.status === 404) throw new import_chunk_6RHUR5LI.NotFoundError(err.message, { cause: err });
    throw err;
  }
  // ---- blobs ------------------------------------------------------------------------------
  /** HEAD a blob: its size when it exists, undefined when not. */
  async headBlob(repo, digest) {
    const what = `checking blob ${digest} in ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: "HEAD",
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions: ["pull"],
      what
    });
    await res.dump().catch(() => void 0);
    if (res.status === 404) return void 0;
    await this.expect(res, [200], what, "HEAD");
    const size = Number(res.headers["content-length"]);
    return Number.isFinite(size) ? size : -1;
  }
  /** GET a blob, from `start` with a Range request when start > 0. The caller verifies the digest. */
  async getBlob(repo, digest, start = 0) {
    const what = `pulling blob ${digest} from ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions: ["pull"],
      headers: start > 0 ? { range: `bytes=${start}-` } : {},
      what
    });
    if (res.status === 404) {
      const text = await res.text().catch(() => "");
      throw new import_chunk_6RHUR5LI.NotFoundError((0, import_chunk_JRLMFXFW.apiErrorFrom)(404, text, { url: res.url, what }).message);
    }
    await this.expect(res, [200, 206], what);
    if (res.status === 206) {
      const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(res.headers["content-range"] ?? "");
      const from = m ? Number(m[1]) : start;
      if (from !== start) {
        res.body.destroy();
        throw new import_chunk_6RHUR5LI.NetworkError(`${what}: asked for bytes from ${start}, the registry sent from ${from}`);
      }
      return { body: res.body, start, size: m && m[3] !== "*" ? Number(m[3]) : void 0 };
    }
    const len = Number(res.headers["content-length"]);
    return { body: res.body, start: 0, size: Number.isFinite(len) ? len : void 0 };
  }
  // ---- uploads ----------------------------------------------------------------------------
  /** POST /blobs/uploads/: a new upload, or a mount from another repository of the same registry. */
  async startUpload(repo, mount) {
    const what = mount ? `mounting blob ${mount.digest} from ${mount.from} into ${repo.registry}/${repo.repository}` : `starting an upload to ${repo.registry}/${repo.repository}`;
    const query = mount ? `?mount=${encodeURIComponent(mount.digest)}&from=${encodeURIComponent(mount.from)}` : "";
    const res = await this.send(repo, {
      method: "POST",
      url: `v2/${repo.repository}/blobs/uploads/${query}`,
      actions: ["pull", "push"],
      extraScopes: mount ? [scopeFor(mount.from, ["pull"])] : [],
      headers: { "content-length": "0" },
      body: "",
      what
    });
    await this.expect(res, [201, 202], what);
    await res.dump().catch(() => void 0);
    if (res.status === 201) return { mounted: true };
    return { mounted: false, location: this.location(res, what) };
  }
  /** PATCH one chunk (`start` is its first byte); answers the new location and offset. */
  async patchUpload(repo, location, body, start, length) {
    const what = `uploading to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: "PATCH",
      url: location,
      actions: ["pull", "push"],
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(length),
        "content-range": `${start}-${start + length - 1}`
      },
      body,
      timeoutMs: 12e4,
      what
    });
    await this.expect(res, [202, 204], what);
    await res.dump().catch(() => void 0);
    const next = this.location(res, what, location);
    const reported = rangeEnd(res.headers.range);
    return { location: next, offset: Math.max(reported ?? 0, start + length) };
  }
  /** PUT ?digest= to finish an upload, with the rest of the bytes (monolithic) or none. */
  async completeUpload(repo, location, digest, body) {
    const what = `finishing the upload of ${digest} to ${repo.registry}/${repo.repository}`;
    const url = new URL(location, `${this.baseUrl(repo.registry)}/`);
    url.searchParams.append("digest", digest);
    const res = await this.send(repo, {
      method: "PUT",
      url: url.toString(),
      actions: ["pull", "push"],
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(body?.length ?? 0)
      },
      body: body?.data ?? "",
      timeoutMs: 12e4,
      what
    });
    await this.expect(res, [201, 204], what);
    await res.dump().catch(() => void 0);
    const got = res.headers["docker-content-digest"] ?? res.headers["registry-content-digest"];
    if (got && got !== digest) {
      throw new import_chunk_6RHUR5LI.NetworkError(`${what}: the registry stored ${got}`);
    }
  }
  /** GET an upload's status: its offset, or undefined when the registry no longer has it. */
  async uploadStatus(repo, location) {
    const what = `asking the status of an upload to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, { url: location, actions: ["pull", "push"], what, follow: false });
    if (res.status === 404 || res.status === 400) {
      await res.dump().catch(() => void 0);
      return void 0;
    }
    await this.expect(res, [204, 200], what);
    await res.dump().catch(() => void 0);
    return { location: this.location(res, what, location), offset: rangeEnd(res.headers.range) ?? 0 };
  }
  /** DELETE an upload (cancel). A 404 (already gone) is fine. */
  async cancelUpload(repo, location) {
    const what = `cancelling an upload to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: "DELETE",
      url: location,
      actions: ["pull", "push"],
      what,
      ignoreAbort: true
    });
    await res.dump().catch(() => void 0);
    if (res.status !== 404) await this.expect(res, [200, 202, 204], what, "HEAD");
  }
  // ---- tags -------------------------------------------------------------------------------
  /** Every tag of a repository, following `Link: <…>; rel="next"`. */
  listTags(repo) {
    const what = `listing tags of ${repo.registry}/${repo.repository}`;
    return (0, import_chunk_NXKWY5E6.paginate)(async (cursor) => {
      const res = await this.send(repo, {
        url: cursor ?? `v2/${repo.repository}/tags/list`,
        actions: ["pull"],
        what
      });
      if (res.status === 404) {
        const text = await res.text().catch(() => "");
        throw new import_chunk_6RHUR5LI.NotFoundError((0, import_chunk_JRLMFXFW.apiErrorFrom)(404, text, { url: res.url, what }).message);
      }
      await this.expect(res, [200], what);
      const body = await (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_WWXBSODL.TagListAnswer, what);
      const next = nextLink(res.headers.link);
      return { items: body.tags ?? [], next: next ? new URL(next, res.url).toString() : null };
    });
  }
};
var MAX_AGE_MS = 24 * 60 * 60 * 1e3;
var UploadStateStore = class {
  constructor(dir, now) {
    this.dir = dir;
    this.now = now;
  }
  dir;
  now;
  file(registry, repository, digest) {
    const key = (0, import_node_crypto3.createHash)("sha256").update(`${registry}
${repository}
${digest}`).digest("hex").slice(0, 32);
    return (0, import_node_path2.join)(this.dir, `${key}.json`);
  }
  async load(registry, repository, digest) {
    try {
      const saved = JSON.parse(
        await (0, import_promises4.readFile)(this.file(registry, repository, digest), "utf8")
      );
      if (saved.registry !== registry || saved.repository !== repository || saved.digest !== digest)
        return void 0;
      if (this.now() - saved.updatedAt > MAX_AGE_MS) return void 0;
      return saved;
    } catch {
      return void 0;
    }
  }
  async save(entry) {
    await (0, import_promises4.mkdir)(this.dir, { recursive: true, mode: 448 });
    await (0, import_chunk_WWXBSODL.atomicWrite)(
      this.file(entry.registry, entry.repository, entry.digest),
      JSON.stringify({ ...entry, updatedAt: this.now() })
    );
  }
  async remove(registry, repository, digest) {
    await (0, import_promises4.unlink)(this.file(registry, repository, digest)).catch(() => void 0);
  }
  async list() {
    let names;
    try {
      names = await (0, import_promises4.readdir)(this.dir);
    } catch {
      return [];
    }
    const out = [];
    for (const name of names.filter((n) => n.endsWith(".json"))) {
      try {
        out.push(JSON.parse(await (0, import_promises4.readFile)((0, import_node_path2.join)(this.dir, name), "utf8")));
      } catch {
      }
    }
    return out;
  }
};
var KnownBlobs = class {
  constructor(path) {
    this.path = path;
  }
  path;
  cache;
  async read() {
    if (this.cache) return this.cache;
    try {
      this.cache = JSON.parse(await (0, import_promises4.readFile)(this.path, "utf8"));
    } catch {
      this.cache = {};
    }
    return this.cache;
  }
  /** Another repository of `registry` known to hold `digest`. */
  async repositoryWith(registry, digest, except) {
    const map = await this.read();
    return map[`${registry} ${digest}`]?.find((r) => r !== except);
  }
  async remember(registry, repository, digests) {
    const map = await this.read();
    for (const d of digests) {
      const key = `${registry} ${d}`;
      const list = (map[key] ?? []).filter((r) => r !== repository);
      list.unshift(repository);
      delete map[key];
      map[key] = list.slice(0, 4);
    }
    const keys = Object.keys(map);
    if (keys.length > 5e3) for (const k of keys.slice(0, keys.length - 5e3)) delete map[k];
    await (0, import_promises4.mkdir)((0, import_node_path2.join)(this.path, ".."), { recursive: true, mode: 448 });
    await (0, import_chunk_WWXBSODL.atomicWrite)(this.path, JSON.stringify(map));
  }
};
var noop = { begin() {
}, update() {
}, done() {
}, stop() {
} };
function formatBytes(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}
function shortDigest(digest) {
  return (0, import_chunk_2HDC4PJR.escapeControl)(digest.replace(/^sha256:/, "").slice(0, 12));
}
async function createTransferProgress(io, opts) {
  if (opts.json || opts.quiet) return noop;
  if (!io.stderrIsTTY) return lineProgress(io);
  return barProgress(io);
}
function lineProgress(io) {
  return {
    begin() {
    },
    update() {
    },
    done(digest, size, action) {
      io.stderr.write(`${action} ${shortDigest(digest)} ${formatBytes(size)}
`);
    },
    stop() {
    }
  };
}
async function barProgress(io) {
  const cliProgress = (await Promise.resolve().then(() => __toESM(require("cli-progress")))).default;
  const stream = {
    isTTY: true,
    get columns() {
      return io.columns ?? 80;
    },
    write(chunk) {
      io.stderr.write(chunk);
      return true;
    },
    on() {
      return stream;
    },
    removeListener() {
      return stream;
    }
  };
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: " {label} [{bar}] {percentage}% | {done}/{size} | {state}",
      barCompleteChar: "\u2588",
      barIncompleteChar: "\u2591",
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
      fps: 10
    },
    cliProgress.Presets.shades_classic
  );
  const bars = /* @__PURE__ */ new Map();
  let totalSize = 0;
  let totalHave = 0;
  const total = multi.create(0, 0, {
    label: "total       ",
    size: formatBytes(0),
    done: formatBytes(0),
    state: ""
  });
  const refreshTotal = () => {
    total.setTotal(Math.max(totalSize, 1));
    total.update(totalHave, { size: formatBytes(totalSize), done: formatBytes(totalHave) });
  };
  const ensure = (digest, size) => {
    let b = bars.get(digest);
    if (!b) {
      b = {
        bar: multi.create(Math.max(size, 1), 0, {
          label: shortDigest(digest),
          size: formatBytes(size),
          done: formatBytes(0),
          state: "waiting"
        }),
        have: 0,
        size
      };
      bars.set(digest, b);
      totalSize += size;
      refreshTotal();
    }
    return b;
  };
  return {
    begin(digest, size) {
      ensure(digest, size).bar.update(0, { state: "transferring" });
    },
    update(digest, have) {
      const b = ensure(digest, 0);
      totalHave += have - b.have;
      b.have = have;
      b.bar.update(have, { done: formatBytes(have), state: "transferring" });
      refreshTotal();
    },
    done(digest, size, action) {
      const b = ensure(digest, size);
      totalHave += size - b.have;
      b.have = size;
      b.bar.update(Math.max(size, 1), { done: formatBytes(size), state: action });
      refreshTotal();
    },
    stop() {
      multi.stop();
    }
  };
}
async function registryClient(ctx) {
  const http = await ctx.http();
  let chain;
  return new RegistryClient({
    http,
    clock: ctx.clock,
    plainHttpHosts: ctx.globals.plainHttp,
    signal: ctx.signal,
    credentials: async (registry) => {
      chain ??= await ctx.credentials();
      const cred = await chain.registry(registry.toLowerCase());
      return cred ? { username: cred.username, secret: cred.secret } : void 0;
    }
  });
}
function wantedPlatform(ctx, flag) {
  if (flag) return parsePlatform(flag);
  if (ctx.env.HUBCTL_PLATFORM) return parsePlatform(ctx.env.HUBCTL_PLATFORM);
  return platformOf((0, import_node_os.platform)(), (0, import_node_os.arch)());
}
function stores(ctx) {
  const dir = ctx.stateDir();
  return {
    uploads: new UploadStateStore((0, import_node_path.join)(dir, "uploads"), () => ctx.clock.now()),
    known: new KnownBlobs((0, import_node_path.join)(dir, "known-blobs.json"))
  };
}
function uploadSizes(ctx) {
  const num = (name) => {
    const v = ctx.env[name];
    if (v === void 0 || v === "") return void 0;
    if (!/^\d+$/.test(v) || Number(v) < 1)
      throw new import_chunk_6RHUR5LI.UsageError(`${name} must be a whole number of bytes (got "${v}")`);
    return Number(v);
  };
  return { monolithicMax: num("HUBCTL_MONOLITHIC_MAX"), chunkSize: num("HUBCTL_CHUNK_SIZE") };
}
async function transferWithProgress(ctx, verb, transfer) {
  const progress = await createTransferProgress(ctx.io, { json: ctx.globals.json, quiet: ctx.globals.quiet });
  let result;
  try {
    result = await transfer(progress);
  } finally {
    progress.stop();
  }
  printTransfer(ctx, verb, result);
}
function note(ctx) {
  return (line) => ctx.debug(line);
}
function printTransfer(ctx, verb, result) {
  if (ctx.output.json) {
    ctx.output.printJson({ reference: result.reference, digest: result.digest, blobs: result.blobs });
    return;
  }
  const counts = /* @__PURE__ */ new Map();
  for (const b of result.blobs) counts.set(b.action, (counts.get(b.action) ?? 0) + 1);
  const summary = [...counts].map(([a, n]) => `${n} ${a}`).join(", ");
  ctx.output.info(
    `${verb} ${result.reference} (${result.blobs.length} blobs${summary ? `: ${summary}` : ""})`
  );
  ctx.output.line(`${result.reference.replace(/@sha256:[a-f0-9]{64}$/, "")}@${result.digest}`);
}
function concurrencyOption(value) {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 32) {
    throw new import_chunk_6RHUR5LI.UsageError(`--concurrency must be a whole number from 1 to 32 (got "${value}")`);
  }
  return Number(value);
}
function register(group, host, runner = run) {
  const cmd = group.command("copy").description("Copy an image between registries or repositories, streaming (digests preserved)").argument("<src-ref>", "source image reference").argument("<dst-ref>", "destination image reference").option("--all-platforms", "copy the index and every platform").option(
    "--platform <os/arch[/variant]>",
    "picked from an index; a single image must have it (default: this machine's)"
  ).option("--concurrency <n>", "blobs transferred at once", concurrencyOption, 4).action(
    (src, dst, o) => {
      if (o.platform && o.allPlatforms)
        throw new import_chunk_6RHUR5LI.UsageError("--platform and --all-platforms cannot be used together");
      const opts = {
        src: (0, import_chunk_P2IX73DH.parseReference)(src),
        dst: (0, import_chunk_P2IX73DH.parseReference)(dst),
        platform: o.platform,
        allPlatforms: Boolean(o.allPlatforms),
        concurrency: o.concurrency
      };
      return host.run((ctx) => runner(ctx, opts));
    }
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl image copy alpine:3.20 localhost:5000/mirror/alpine:3.20 --all-platforms",
    "hubctl image copy localhost:5000/team/app:1 localhost:5000/team/app:stable"
  ]);
}
async function run(ctx, opts) {
  const client = await registryClient(ctx);
  await transferWithProgress(
    ctx,
    "Copied",
    (progress) => copyImage({
      client,
      src: opts.src,
      dst: opts.dst,
      platform: wantedPlatform(ctx, opts.platform),
      platformExplicit: opts.platform !== void 0,
      allPlatforms: opts.allPlatforms,
      concurrency: opts.concurrency,
      progress,
      signal: ctx.signal,
      known: stores(ctx).known,
      note: note(ctx)
    })
  );
}
async function resolveTarget(client, ref) {
  const reference = (0, import_chunk_P2IX73DH.manifestReference)(ref);
  const head = await client.headManifest(ref, reference);
  if (!head) throw new import_chunk_6RHUR5LI.NotFoundError(`${(0, import_chunk_P2IX73DH.formatReference)(ref)} does not exist`);
  if (ref.digest) return { digest: ref.digest, mediaType: head.mediaType };
  if (head.digest?.startsWith("sha256:")) return { digest: head.digest, mediaType: head.mediaType };
  const got = await client.getManifest(ref, reference);
  return { digest: got.digest, mediaType: got.mediaType };
}
async function resolveDigest(client, ref) {
  if (ref.digest) return ref.digest;
  return (await resolveTarget(client, ref)).digest;
}
async function planDelete(client, ref) {
  const target = await resolveTarget(client, ref);
  const { digest } = target;
  const tagNames = [];
  for await (const t of client.listTags(ref)) tagNames.push(t);
  const named = await runPool(tagNames, 8, async (t) => {
    if (t === ref.tag) return { tag: t, digest };
    const head = await client.headManifest(ref, t).catch(() => void 0);
    return { tag: t, digest: head?.digest };
  });
  const list = named.filter((n) => n.digest === digest).map((n) => n.tag);
  list.sort();
  if (ref.tag && !list.includes(ref.tag) && !ref.digest) list.unshift(ref.tag);
  const plan = { reference: (0, import_chunk_P2IX73DH.formatReference)(ref), digest, tags: list };
  if ((0, import_chunk_WWXBSODL.isIndexType)(target.mediaType)) plan.kept = await manifestsKept(client, ref, digest, named);
  return plan;
}
async function manifestsKept(client, ref, digest, named) {
  const top = await client.getManifest(ref, digest);
  const entries = /* @__PURE__ */ new Map();
  const below = await manifestsBelow(
    top,
    (entry) => {
      entries.set(entry.digest, entry);
      return client.getManifest(ref, entry.digest);
    },
    (0, import_chunk_P2IX73DH.formatReference)(ref)
  );
  return below.map((m) => {
    const platform2 = entries.get(m.digest)?.platform;
    return {
      digest: m.digest,
      mediaType: m.mediaType,
      ...platform2 ? { platform: formatPlatform(platform2) } : {},
      tags: named.filter((n) => n.digest === m.digest).map((n) => n.tag).sort()
    };
  });
}
function executeDelete(client, ref, digest) {
  return client.deleteManifest(ref, digest);
}
function register2(group, host, runner = run2) {
  const cmd = group.command("delete").description("Delete a manifest by digest; lists every tag that goes with it and asks first").argument("<ref>", "image reference (tag or @sha256:\u2026)").option("--dry-run", "only list what would be deleted").action((ref, o) => {
    const opts = {
      ref: (0, import_chunk_P2IX73DH.parseReference)(ref, { defaultTag: true }),
      dryRun: Boolean(o.dryRun)
    };
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl image delete localhost:5000/team/app:old --dry-run",
    "hubctl image delete localhost:5000/team/app@sha256:\u2026 --yes"
  ]);
}
async function run2(ctx, opts) {
  const client = await registryClient(ctx);
  const plan = await planDelete(client, opts.ref);
  const repo = `${opts.ref.registry}/${opts.ref.repository}`;
  const tagList = plan.tags.length > 0 ? plan.tags.join(", ") : "(no tags)";
  if (opts.dryRun) {
    if (ctx.output.json)
      ctx.output.printJson({
        reference: plan.reference,
        digest: plan.digest,
        tags: plan.tags,
        ...plan.kept ? { kept: plan.kept } : {},
        deleted: false
      });
    else {
      ctx.output.line(`${repo}@${plan.digest}`);
      for (const t of plan.tags) ctx.output.line(`${repo}:${t}`);
      for (const line of keptLines(plan)) ctx.output.info(line);
      ctx.output.info("Dry run: nothing was deleted.");
    }
    return void 0;
  }
  if (!ctx.output.json && !ctx.globals.yes) {
    ctx.output.warn(`Deleting ${repo}@${plan.digest} also removes the tags: ${tagList}`);
    for (const line of keptLines(plan)) ctx.output.warn(line);
  }
  const keptNote = plan.kept ? ` The ${count(plan.kept.length, "manifest")} below it ${plan.kept.length === 1 ? "stays" : "stay"}.` : "";
  if (!await (0, import_chunk_JQMFCPN3.confirmDestructive)(ctx, `Delete ${repo}@${plan.digest} and its tags (${tagList})?${keptNote}`)) {
    throw new import_chunk_6RHUR5LI.CancelledError("nothing was deleted");
  }
  const outcome = await executeDelete(client, opts.ref, plan.digest);
  if (ctx.output.json) {
    ctx.output.printJson({
      reference: plan.reference,
      digest: plan.digest,
      tags: plan.tags,
      ...plan.kept ? { kept: plan.kept } : {},
      deleted: true,
      outcome
    });
  } else if (outcome === "background") {
    ctx.output.info(
      `The registry will finish the deletion of ${repo}@${plan.digest} in the background.${keptNote}`
    );
  } else {
    ctx.output.info(`Deleted ${repo}@${plan.digest} (tags: ${tagList}).${keptNote}`);
  }
  return void 0;
}
function keptLines(plan) {
  if (!plan.kept) return [];
  const indexes = plan.kept.filter((m) => (0, import_chunk_WWXBSODL.isIndexType)(m.mediaType)).length;
  const images = plan.kept.length - indexes;
  return [
    `Not deleted: the ${count(plan.kept.length, "manifest")} below this index (${count(indexes, "index", "indexes")}, ${count(images, "image")}); other images may list ${plan.kept.length === 1 ? "it" : "them"} too:`,
    ...plan.kept.map((m) => {
      const what = (0, import_chunk_WWXBSODL.isIndexType)(m.mediaType) ? "index" : m.platform ?? "image";
      const tags = m.tags.length > 0 ? ` (${m.tags.length === 1 ? "tag" : "tags"}: ${m.tags.join(", ")})` : " (untagged)";
      return `  ${m.digest} ${what}${tags}`;
    }),
    "Untagged ones stay until the registry's garbage collection removes what nothing references."
  ];
}
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
function register3(group, host, runner = run3) {
  const cmd = group.command("digest").description("Print the digest of an image's manifest (or index)").argument("<ref>", "image reference (host/repository:tag)").action((ref) => {
    const parsed = (0, import_chunk_P2IX73DH.parseReference)(ref);
    return host.run((ctx) => runner(ctx, parsed));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl image digest localhost:5000/team/app:1"]);
}
async function run3(ctx, ref) {
  const client = await registryClient(ctx);
  const digest = await resolveDigest(client, ref);
  if (ctx.output.json) ctx.output.printJson({ reference: (0, import_chunk_P2IX73DH.formatReference)(ref), digest });
  else ctx.output.line(digest);
}
function register4(group, host, runner = run4) {
  const cmd = group.command("inspect").description("Show a manifest or index: platforms, sizes, config").argument("<ref>", "image reference (host/repository:tag or @sha256:\u2026)").option("--platform <os/arch[/variant]>", "picked from an index; a single image must have it").option("--raw", "print the manifest bytes exactly as the registry sent them").action((ref, o) => {
    const opts = { ref: (0, import_chunk_P2IX73DH.parseReference)(ref), raw: Boolean(o.raw) };
    if (o.platform) opts.platform = parsePlatform(o.platform);
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl image inspect alpine:3.20",
    "hubctl image inspect localhost:5000/team/app:1 --platform linux/arm64 --json",
    "hubctl image inspect localhost:5000/team/app:1 --raw | jq ."
  ]);
}
function entryLabel(d) {
  if (!(0, import_chunk_WWXBSODL.isIndexType)(d.mediaType)) return formatPlatform(d.platform);
  return d.platform ? `${formatPlatform(d.platform)} (index)` : "index";
}
async function run4(ctx, opts) {
  const client = await registryClient(ctx);
  const { ref } = opts;
  let m = await client.getManifest(ref, (0, import_chunk_P2IX73DH.manifestReference)(ref));
  let configBytes;
  if (opts.platform && m.parsed.kind === "image") {
    configBytes = await checkSingleImage({
      client,
      repo: ref,
      what: (0, import_chunk_P2IX73DH.formatReference)(ref),
      config: m.parsed.manifest.config,
      want: opts.platform,
      explicit: true
    });
  } else if (opts.platform) {
    m = await findPlatform(m, opts.platform, (d) => client.getManifest(ref, d.digest), (0, import_chunk_P2IX73DH.formatReference)(ref));
  }
  if (opts.raw) {
    ctx.output.verbatim(m.bytes.toString("utf8"));
    return;
  }
  const manifest = JSON.parse(m.bytes.toString("utf8"));
  const base = {
    reference: (0, import_chunk_P2IX73DH.formatReference)(ref),
    digest: m.digest,
    mediaType: m.mediaType,
    size: m.bytes.length
  };
  if (m.parsed.kind === "index") {
    const entries = m.parsed.index.manifests;
    if (ctx.output.json) {
      ctx.output.printJson({ ...base, platforms: entries.map(entryLabel), manifest });
      return;
    }
    await ctx.output.fields([
      ["Reference", base.reference],
      ["Digest", base.digest],
      ["Media type", base.mediaType],
      ["Manifests", entries.length]
    ]);
    if (ctx.output.isTTY) ctx.output.line();
    await ctx.output.table(
      ["PLATFORM", "DIGEST", { header: "SIZE", align: "right" }],
      entries.map((d) => [entryLabel(d), d.digest, d.size])
    );
    return;
  }
  const img = m.parsed.manifest;
  configBytes ??= await fetchConfig(client, ref, img.config);
  const config = (0, import_chunk_WWXBSODL.parseImageConfig)(configBytes, (0, import_chunk_P2IX73DH.formatReference)(ref), ref.registry);
  const layersSize = img.layers.reduce((s, l) => s + l.size, 0);
  if (ctx.output.json) {
    ctx.output.printJson({ ...base, layersSize, manifest, config });
    return;
  }
  const plat = [config.os, config.architecture, config.variant].filter(Boolean).join("/");
  await ctx.output.fields([
    ["Reference", base.reference],
    ["Digest", base.digest],
    ["Media type", base.mediaType],
    ["Platform", plat || "unknown"],
    ["Created", typeof config.created === "string" ? ctx.output.time(config.created) : ""],
    ["Config", img.config.digest],
    ["Layers", `${img.layers.length} (${formatBytes(layersSize)})`]
  ]);
  if (ctx.output.isTTY) ctx.output.line();
  await ctx.output.table(
    ["LAYER", "MEDIA TYPE", { header: "SIZE", align: "right" }],
    img.layers.map((l) => [l.digest, l.mediaType, l.size])
  );
}
var TAG_RE = new RegExp(`^${import_chunk_P2IX73DH.TAG_PATTERN}$`);
var FORMS = "oci:DIR[:tag] or docker-archive:FILE";
function parseImageLocation(input) {
  if (input.startsWith("oci:")) {
    const rest = input.slice(4);
    const colon = rest.lastIndexOf(":");
    if (colon > 0) {
      const tag = rest.slice(colon + 1);
      const path = rest.slice(0, colon);
      if (!TAG_RE.test(tag)) {
        throw new import_chunk_6RHUR5LI.ValidationError(`invalid location "${input}": tag "${tag}" must match ${import_chunk_P2IX73DH.TAG_PATTERN}`);
      }
      return Object.freeze({ transport: "oci", path, tag });
    }
    if (rest === "" || colon === 0)
      throw new import_chunk_6RHUR5LI.ValidationError(`invalid location "${input}": the directory is empty`);
    return Object.freeze({ transport: "oci", path: rest });
  }
  if (input.startsWith("docker-archive:")) {
    const path = input.slice("docker-archive:".length);
    if (path === "") throw new import_chunk_6RHUR5LI.ValidationError(`invalid location "${input}": the file name is empty`);
    return Object.freeze({ transport: "docker-archive", path });
  }
  throw new import_chunk_6RHUR5LI.UsageError(`"${input}" is not a local image location: write ${FORMS}`);
}
function register5(group, host, runner = run5) {
  const cmd = group.command("pull").description("Download an image to an OCI layout or a docker archive (resumes a broken pull)").argument("<ref>", "image reference").argument("<dest>", "oci:DIR[:tag] or docker-archive:FILE").option(
    "--platform <os/arch[/variant]>",
    "picked from an index; a single image must have it (default: this machine's)"
  ).option("--all-platforms", "every platform of an index (oci: only)").option("--concurrency <n>", "blobs transferred at once", concurrencyOption, 4).action(
    (ref, dest, o) => {
      if (o.platform && o.allPlatforms)
        throw new import_chunk_6RHUR5LI.UsageError("--platform and --all-platforms cannot be used together");
      const opts = {
        ref: (0, import_chunk_P2IX73DH.parseReference)(ref),
        dest: parseImageLocation(dest),
        platform: o.platform,
        allPlatforms: Boolean(o.allPlatforms),
        concurrency: o.concurrency
      };
      if (opts.allPlatforms && opts.dest.transport === "docker-archive") {
        throw new import_chunk_6RHUR5LI.UsageError(
          "a docker archive holds one platform: pull --all-platforms into oci:DIR instead"
        );
      }
      return host.run((ctx) => runner(ctx, opts));
    }
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl image pull alpine:3.20 oci:./alpine:3.20",
    "hubctl image pull localhost:5000/team/app:1 docker-archive:app.tar --platform linux/arm64"
  ]);
}
async function run5(ctx, opts) {
  const client = await registryClient(ctx);
  const platform2 = wantedPlatform(ctx, opts.platform);
  await transferWithProgress(
    ctx,
    "Pulled",
    (progress) => pullImage({
      client,
      ref: opts.ref,
      dest: opts.dest,
      platform: platform2,
      platformExplicit: opts.platform !== void 0,
      notice: (line) => ctx.output.info(line),
      allPlatforms: opts.allPlatforms,
      concurrency: opts.concurrency,
      progress,
      signal: ctx.signal,
      known: stores(ctx).known
    })
  );
}
async function openLocalImage(location) {
  if (location.transport === "docker-archive") {
    const { readDockerArchive } = await Promise.resolve().then(() => __toESM(require("./docker-archive-YDXV5FRI.js")));
    return readDockerArchive(location.path);
  }
  const layout = await import_chunk_WWXBSODL.OciLayout.open(location.path);
  const desc = await layout.resolve(location.tag);
  const bytes = await layout.readBlob(desc.digest);
  return {
    top: { bytes, digest: desc.digest, mediaType: desc.mediaType },
    blobs: layout,
    describe: `oci:${location.path}${location.tag ? `:${location.tag}` : ""}`
  };
}
async function pushImage(opts) {
  const { client, source, dest } = opts;
  const what = source.describe;
  const parsed = (0, import_chunk_WWXBSODL.parseManifest)(source.top.bytes, source.top.mediaType, what);
  const top = { ...source.top, mediaType: parsed.mediaType, parsed };
  const below = await manifestsBelow(
    top,
    async (d) => {
      const bytes = await source.blobs.readBlob(d.digest);
      if ((0, import_chunk_WWXBSODL.sha256Digest)(bytes) !== d.digest)
        throw new import_chunk_6RHUR5LI.IntegrityError(`${what}: the manifest ${d.digest} does not match its digest`);
      const m = (0, import_chunk_WWXBSODL.parseManifest)(bytes, d.mediaType, `${what} (${d.digest})`);
      return { digest: d.digest, mediaType: m.mediaType, bytes, parsed: m };
    },
    what
  );
  const blobs = blobsOf([top, ...below]);
  const open2 = /* @__PURE__ */ new Set();
  const uc = {
    client,
    repo: dest,
    progress: opts.progress,
    signal: opts.signal,
    open: open2,
    uploads: opts.uploads,
    known: opts.known,
    monolithicMax: opts.monolithicMax,
    chunkSize: opts.chunkSize,
    note: opts.note
  };
  let results;
  try {
    results = await runPool(blobs, opts.concurrency ?? 4, async (d) => {
      const size = await source.blobs.blobSize(d.digest) ?? d.size;
      const action = await pushBlob(
        uc,
        d.digest,
        size,
        (start, end) => source.blobs.openBlob(d.digest, start, end)
      );
      return { digest: d.digest, size, action };
    });
  } catch (err) {
    if (opts.signal.aborted) await cancelOpenUploads(client, open2, opts.uploads);
    throw err;
  }
  await opts.known?.remember(
    dest.registry,
    dest.repository,
    blobs.map((d) => d.digest)
  ).catch(() => void 0);
  for (const m of below) await client.putManifest(dest, m.digest, m.bytes, m.mediaType);
  const tagOrDigest = dest.tag ?? dest.digest ?? source.top.digest;
  const digest = await client.putManifest(dest, tagOrDigest, source.top.bytes, top.mediaType);
  return { reference: (0, import_chunk_P2IX73DH.formatReference)(dest), digest, mediaType: top.mediaType, blobs: results };
}
function register6(group, host, runner = run6) {
  const cmd = group.command("push").description("Upload an OCI layout or docker archive (skips, mounts, resumes unfinished uploads)").argument("<src>", "oci:DIR[:tag] or docker-archive:FILE").argument("<ref>", "destination image reference").option("--concurrency <n>", "blobs transferred at once", concurrencyOption, 4).action((src, ref, o) => {
    const opts = {
      src: parseImageLocation(src),
      ref: (0, import_chunk_P2IX73DH.parseReference)(ref),
      concurrency: o.concurrency
    };
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl image push oci:./build:latest localhost:5000/team/app:1",
    "hubctl image push docker-archive:app.tar registry.example.com/team/app:1 --concurrency 8"
  ]);
}
async function run6(ctx, opts) {
  const source = await openLocalImage(opts.src);
  const client = await registryClient(ctx);
  const { uploads, known } = stores(ctx);
  await transferWithProgress(
    ctx,
    "Pushed",
    (progress) => pushImage({
      client,
      source,
      dest: opts.ref,
      concurrency: opts.concurrency,
      progress,
      signal: ctx.signal,
      uploads,
      known,
      note: note(ctx),
      ...uploadSizes(ctx)
    })
  );
}
function register7(group, host, runner = run7) {
  const cmd = group.command("tags").description("List the tags of a repository (follows pagination)").argument("<repository>", "repository (host/name, no tag)").action((repository) => {
    const repo = (0, import_chunk_P2IX73DH.parseRepository)(repository);
    return host.run((ctx) => runner(ctx, repo));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl image tags localhost:5000/team/app", "hubctl image tags alpine --json"]);
}
async function run7(ctx, repo) {
  const client = await registryClient(ctx);
  const tags = [];
  for await (const t of client.listTags(repo)) tags.push(t);
  if (ctx.output.json) {
    ctx.output.printJson({ repository: (0, import_chunk_P2IX73DH.formatRepository)(repo), tags });
    return;
  }
  for (const t of tags) ctx.output.line(t);
}
function register8(group, host) {
  register4(group, host);
  register3(group, host);
  register7(group, host);
  register5(group, host);
  register6(group, host);
  register(group, host);
  register2(group, host);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  register
});
