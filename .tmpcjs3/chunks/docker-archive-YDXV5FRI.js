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
  readDockerArchive: () => readDockerArchive,
  writeDockerArchive: () => writeDockerArchive
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_WWXBSODL = require("./chunk-WWXBSODL.js");
var import_chunk_P2IX73DH = require("./chunk-P2IX73DH.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var import_node_crypto = require("node:crypto");
var import_node_fs = require("node:fs");
var import_promises = require("node:fs/promises");
var import_node_fs2 = require("node:fs");
var import_promises2 = require("node:fs/promises");
var import_node_stream = require("node:stream");
var BLOCK = 512;
function readString(buf, off, len) {
  const slice = buf.subarray(off, off + len);
  const nul = slice.indexOf(0);
  return slice.subarray(0, nul < 0 ? len : nul).toString("utf8");
}
function readOctal(buf, off, len) {
  if ((buf[off] & 128) !== 0) {
    let n = 0;
    for (let i = off + 1; i < off + len; i++) n = n * 256 + buf[i];
    return n;
  }
  const s = readString(buf, off, len).trim();
  return s === "" ? 0 : Number.parseInt(s, 8);
}
function parsePax(data) {
  const out = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(32, i);
    if (space < 0) break;
    const len = Number(data.subarray(i, space).toString());
    if (!len) break;
    const record = data.subarray(space + 1, i + len - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    i += len;
  }
  return out;
}
async function indexTar(path) {
  const fh = await (0, import_promises2.open)(path, "r");
  const entries = /* @__PURE__ */ new Map();
  try {
    const { size: fileSize } = await fh.stat();
    const header = Buffer.alloc(BLOCK);
    let pos = 0;
    let longName;
    while (pos + BLOCK <= fileSize) {
      const { bytesRead } = await fh.read(header, 0, BLOCK, pos);
      if (bytesRead < BLOCK) break;
      if (header.every((b) => b === 0)) break;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
      if (sum !== readOctal(header, 148, 8))
        throw new import_chunk_6RHUR5LI.ValidationError(`${path} is not a tar archive (bad header checksum)`);
      const size = readOctal(header, 124, 12);
      const type = String.fromCharCode(header[156] || 48);
      const dataOffset = pos + BLOCK;
      pos = dataOffset + Math.ceil(size / BLOCK) * BLOCK;
      if (type === "x" || type === "L") {
        const data = Buffer.alloc(size);
        await fh.read(data, 0, size, dataOffset);
        longName = type === "L" ? readString(data, 0, size) : parsePax(data).path ?? longName;
        continue;
      }
      if (type === "g") continue;
      let name = readString(header, 0, 100);
      const magic = readString(header, 257, 6);
      const prefix = magic.startsWith("ustar") ? readString(header, 345, 155) : "";
      if (prefix) name = `${prefix}/${name}`;
      if (longName !== void 0) {
        name = longName;
        longName = void 0;
      }
      name = name.replace(/^\.\//, "");
      if (type === "0" || type === "\0" || type === "7")
        entries.set(name, { name, size, offset: dataOffset, type: "0" });
    }
  } finally {
    await fh.close();
  }
  return entries;
}
function openTarEntry(path, entry, start = 0, end = entry.size) {
  const stop = Math.min(end, entry.size);
  if (stop <= start) return import_node_stream.Readable.from([]);
  return (0, import_node_fs2.createReadStream)(path, {
    start: entry.offset + start,
    end: entry.offset + stop - 1,
    highWaterMark: import_chunk_WWXBSODL.READ_CHUNK
  });
}
async function readTarEntry(path, entry, limit = 64 * 1024 * 1024) {
  if (entry.size > limit)
    throw new import_chunk_6RHUR5LI.ValidationError(`${entry.name} in ${path} is too large (${entry.size} bytes)`);
  const fh = await (0, import_promises2.open)(path, "r");
  try {
    const buf = Buffer.alloc(entry.size);
    await fh.read(buf, 0, entry.size, entry.offset);
    return buf;
  } finally {
    await fh.close();
  }
}
function octal(n, len) {
  return `${n.toString(8).padStart(len - 1, "0")}\0`;
}
function paxRecord(key, value) {
  const body = ` ${key}=${value}
`;
  const base = Buffer.byteLength(body);
  let len = base + String(base).length;
  if (String(len).length > String(base).length) len = base + String(len).length;
  return `${len}${body}`;
}
function tarHeader(name, size, mtime = 0, type = "0") {
  if (Buffer.byteLength(name) > 100) {
    const pax = Buffer.from(paxRecord("path", name));
    const paxHeader = tarHeader(`PaxHeader/${name.slice(-80)}`.slice(0, 100), pax.length, mtime, "x");
    return Buffer.concat([
      paxHeader,
      pax,
      Buffer.alloc(padding(pax.length)),
      tarHeader(name.slice(-100), size, mtime, type)
    ]);
  }
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 100, "utf8");
  h.write(octal(type === "5" ? 493 : 420, 8), 100, 8, "ascii");
  h.write(octal(0, 8), 108, 8, "ascii");
  h.write(octal(0, 8), 116, 8, "ascii");
  if (size >= 8 ** 11) {
    h[124] = 128;
    let n = size;
    for (let i = 135; i > 124; i--) {
      h[i] = n % 256;
      n = Math.floor(n / 256);
    }
  } else {
    h.write(octal(size, 12), 124, 12, "ascii");
  }
  h.write(octal(mtime, 12), 136, 12, "ascii");
  h.write("        ", 148, 8, "ascii");
  h.write(type, 156, 1, "ascii");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}
function padding(size) {
  return (BLOCK - size % BLOCK) % BLOCK;
}
var TarWriter = class {
  constructor(out) {
    this.out = out;
  }
  out;
  write(chunk) {
    return new Promise((resolve, reject) => {
      const ok = this.out.write(chunk, (err) => {
        if (err) reject(err);
      });
      if (ok) resolve();
      else {
        const onError = (err) => reject(err);
        this.out.once("error", onError);
        this.out.once("drain", () => {
          this.out.off("error", onError);
          resolve();
        });
      }
    });
  }
  async addBuffer(name, data) {
    await this.write(tarHeader(name, data.length));
    await this.write(data);
    await this.write(Buffer.alloc(padding(data.length)));
  }
  async addStream(name, size, data) {
    await this.write(tarHeader(name, size));
    let n = 0;
    for await (const chunk of data) {
      n += chunk.length;
      if (n > size) throw new import_chunk_6RHUR5LI.ValidationError(`${name}: more bytes than the ${size} announced`);
      await this.write(chunk);
    }
    if (n !== size) throw new import_chunk_6RHUR5LI.ValidationError(`${name}: ${n} bytes instead of the ${size} announced`);
    await this.write(Buffer.alloc(padding(size)));
  }
  async addDirectory(name) {
    await this.write(tarHeader(name.endsWith("/") ? name : `${name}/`, 0, 0, "5"));
  }
  async finish() {
    await this.write(Buffer.alloc(BLOCK * 2));
    await new Promise((resolve, reject) => {
      this.out.once("error", reject);
      this.out.end(() => resolve());
    });
  }
};
var TarBlobs = class {
  constructor(path, byDigest) {
    this.path = path;
    this.byDigest = byDigest;
  }
  path;
  byDigest;
  entry(digest) {
    const e = this.byDigest.get(digest);
    if (!e) throw new import_chunk_6RHUR5LI.NotFoundError(`blob ${digest} is not in ${this.path}`);
    return e;
  }
  async readBlob(digest) {
    return readTarEntry(this.path, this.entry(digest));
  }
  async openBlob(digest, start = 0, end) {
    return openTarEntry(this.path, this.entry(digest), start, end);
  }
  async blobSize(digest) {
    return this.byDigest.get(digest)?.size;
  }
};
async function digestEntry(path, entry) {
  const hash = (0, import_node_crypto.createHash)("sha256");
  let first;
  for await (const chunk of openTarEntry(path, entry)) {
    first ??= chunk;
    hash.update(chunk);
  }
  return {
    digest: `sha256:${hash.digest("hex")}`,
    gzip: first !== void 0 && first[0] === 31 && first[1] === 139
  };
}
async function readDockerArchive(path) {
  let entries;
  try {
    entries = await indexTar(path);
  } catch (err) {
    if (err.code === "ENOENT") throw new import_chunk_6RHUR5LI.NotFoundError(`${path} does not exist`);
    throw err;
  }
  const blobs = /* @__PURE__ */ new Map();
  for (const e of entries.values()) {
    const m = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(e.name);
    if (m) blobs.set(`sha256:${m[1]}`, e);
  }
  const indexEntry = entries.get("index.json");
  if (indexEntry && entries.has("oci-layout")) {
    const index = JSON.parse((await readTarEntry(path, indexEntry)).toString("utf8"));
    const top = index.manifests?.[0];
    if (top && blobs.has(top.digest)) {
      if ((index.manifests?.length ?? 0) > 1) {
        throw new import_chunk_6RHUR5LI.UsageError(
          `${path} holds ${index.manifests?.length} images; hubctl pushes archives of one image`
        );
      }
      const source = new TarBlobs(path, blobs);
      const bytes2 = await source.readBlob(top.digest);
      if ((0, import_chunk_WWXBSODL.sha256Digest)(bytes2) !== top.digest)
        throw new import_chunk_6RHUR5LI.ValidationError(`${path}: ${top.digest} does not match its digest`);
      return {
        top: { bytes: bytes2, digest: top.digest, mediaType: top.mediaType },
        blobs: source,
        describe: `docker-archive:${path}`
      };
    }
  }
  const manifestEntry = entries.get("manifest.json");
  if (!manifestEntry) throw new import_chunk_6RHUR5LI.ValidationError(`${path} is not a docker archive (no manifest.json)`);
  const list = JSON.parse(
    (await readTarEntry(path, manifestEntry)).toString("utf8")
  );
  if (!Array.isArray(list) || list.length !== 1) {
    throw new import_chunk_6RHUR5LI.UsageError(
      `${path} holds ${Array.isArray(list) ? list.length : 0} images; hubctl pushes archives of one image`
    );
  }
  const item = list[0];
  const configEntry = entries.get(item.Config);
  if (!configEntry) throw new import_chunk_6RHUR5LI.ValidationError(`${path}: the config ${item.Config} is missing`);
  const byDigest = new Map(blobs);
  const configBytes = await readTarEntry(path, configEntry);
  const configDigest = (0, import_chunk_WWXBSODL.sha256Digest)(configBytes);
  byDigest.set(configDigest, configEntry);
  const layers = [];
  for (const name of item.Layers) {
    const entry = entries.get(name);
    if (!entry) throw new import_chunk_6RHUR5LI.ValidationError(`${path}: the layer ${name} is missing`);
    const { digest, gzip } = await digestEntry(path, entry);
    byDigest.set(digest, entry);
    layers.push({ mediaType: gzip ? import_chunk_WWXBSODL.DOCKER_LAYER_GZIP : import_chunk_WWXBSODL.DOCKER_LAYER_TAR, digest, size: entry.size });
  }
  const manifest = {
    schemaVersion: 2,
    mediaType: import_chunk_WWXBSODL.DOCKER_MANIFEST,
    config: { mediaType: import_chunk_WWXBSODL.DOCKER_CONFIG, digest: configDigest, size: configBytes.length },
    layers
  };
  const bytes = Buffer.from(JSON.stringify(manifest));
  return {
    top: { bytes, digest: (0, import_chunk_WWXBSODL.sha256Digest)(bytes), mediaType: import_chunk_WWXBSODL.DOCKER_MANIFEST },
    blobs: new TarBlobs(path, byDigest),
    describe: `docker-archive:${path}`
  };
}
async function writeDockerArchive(path, layout, top, manifest, repoTag) {
  const tmp = `${path}.partial`;
  const out = (0, import_node_fs.createWriteStream)(tmp);
  const tar = new TarWriter(out);
  try {
    const blobName = (d) => `blobs/sha256/${d.slice("sha256:".length)}`;
    await tar.addBuffer("oci-layout", Buffer.from(JSON.stringify({ imageLayoutVersion: "1.0.0" })));
    await tar.addDirectory("blobs");
    await tar.addDirectory("blobs/sha256");
    for (const d of [manifest.config, ...manifest.layers]) {
      await tar.addStream(blobName(d.digest), d.size, await layout.openBlob(d.digest));
    }
    await tar.addBuffer(blobName(top.digest), await layout.readBlob(top.digest));
    const index = {
      schemaVersion: 2,
      manifests: [
        {
          mediaType: top.mediaType,
          digest: top.digest,
          size: top.size,
          ...repoTag ? {
            annotations: {
              "io.containerd.image.name": repoTag,
              [import_chunk_WWXBSODL.REF_NAME]: repoTag.slice(repoTag.lastIndexOf(":") + 1)
            }
          } : {}
        }
      ]
    };
    await tar.addBuffer("index.json", Buffer.from(JSON.stringify(index)));
    const dockerManifest = [
      {
        Config: blobName(manifest.config.digest),
        RepoTags: repoTag ? [repoTag] : [],
        Layers: manifest.layers.map((l) => blobName(l.digest))
      }
    ];
    await tar.addBuffer("manifest.json", Buffer.from(JSON.stringify(dockerManifest)));
    await tar.finish();
    await (0, import_promises.rename)(tmp, path);
  } catch (err) {
    out.destroy();
    await (0, import_promises.unlink)(tmp).catch(() => void 0);
    throw err;
  }
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  readDockerArchive,
  writeDockerArchive
});
