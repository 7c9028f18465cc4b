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
  TAG_PATTERN: () => TAG_PATTERN,
  assertDigest: () => assertDigest,
  formatReference: () => formatReference,
  formatRepository: () => formatRepository,
  manifestReference: () => manifestReference,
  parseReference: () => parseReference,
  parseRepository: () => parseRepository,
  registryBaseUrl: () => registryBaseUrl
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var DOCKER_HUB = "docker.io";
var DOCKER_HUB_REGISTRY_HOST = "registry-1.docker.io";
var DEFAULT_TAG = "latest";
var COMPONENT_PATTERN = "[a-z0-9]+(?:[._-][a-z0-9]+)*";
var TAG_PATTERN = "[\\w][\\w.-]{0,127}";
var COMPONENT_RE = new RegExp(`^${COMPONENT_PATTERN}$`);
var TAG_RE = new RegExp(`^${TAG_PATTERN}$`);
var DIGEST_RE = /^sha256:[a-f0-9]{64}$/;
var DOMAIN_COMPONENT_RE = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;
var IPV6_BRACKET_RE = /^\[[0-9a-fA-F:.]+\]$/;
var PORT_RE = /^[0-9]{1,5}$/;
var NAME_MAX_LENGTH = 255;
function assertDigest(s, what = "digest") {
  if (!DIGEST_RE.test(s)) {
    throw new import_chunk_6RHUR5LI.ValidationError(
      `invalid ${what} "${s}": a digest is "sha256:" followed by 64 lowercase hex digits`
    );
  }
  return s;
}
function invalid(input, rule) {
  return new import_chunk_6RHUR5LI.ValidationError(`invalid reference "${input}": ${rule}`);
}
function splitTagDigest(input) {
  let rest = input;
  let digest;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST_RE.test(digest)) {
      throw invalid(input, `digest "${digest}" must be "sha256:" followed by 64 lowercase hex digits`);
    }
  }
  let tag;
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG_RE.test(tag)) throw invalid(input, `tag "${tag}" must match ${TAG_PATTERN}`);
  }
  return { name: rest, tag, digest };
}
function validateDomain(input, domain) {
  let host = domain;
  let port;
  if (domain.startsWith("[")) {
    const end = domain.indexOf("]");
    host = domain.slice(0, end + 1);
    const after = domain.slice(end + 1);
    if (end < 0 || !IPV6_BRACKET_RE.test(host) || after !== "" && !after.startsWith(":")) {
      throw invalid(input, `registry "${domain}" is not a valid host`);
    }
    if (after) port = after.slice(1);
  } else {
    const c = domain.lastIndexOf(":");
    if (c >= 0) {
      host = domain.slice(0, c);
      port = domain.slice(c + 1);
    }
    const labels = host.split(".");
    if (!labels.every((l) => DOMAIN_COMPONENT_RE.test(l))) {
      throw invalid(input, `registry "${domain}" is not a valid host name`);
    }
  }
  if (port !== void 0 && (!PORT_RE.test(port) || Number(port) < 1 || Number(port) > 65535)) {
    throw invalid(input, `registry port "${port}" must be a number from 1 to 65535`);
  }
  if (domain === "index.docker.io") return DOCKER_HUB;
  return domain;
}
function parseName(input, name) {
  if (name === "") throw invalid(input, "the repository name is empty");
  let registry = DOCKER_HUB;
  let path = name;
  const slash = name.indexOf("/");
  if (slash >= 0) {
    const first = name.slice(0, slash);
    if (first.includes(".") || first.includes(":") || first === "localhost" || first !== first.toLowerCase()) {
      registry = validateDomain(input, first);
      path = name.slice(slash + 1);
    }
  }
  if (registry === DOCKER_HUB && !path.includes("/")) path = `library/${path}`;
  if (path !== path.toLowerCase()) throw invalid(input, "the repository name must be lowercase");
  for (const component of path.split("/")) {
    if (!COMPONENT_RE.test(component)) {
      throw invalid(
        input,
        component === "" ? "the repository name has an empty path component" : `path component "${component}" must match ${COMPONENT_PATTERN}`
      );
    }
  }
  const full = `${registry}/${path}`;
  if (full.length > NAME_MAX_LENGTH) {
    throw invalid(input, `the name is ${full.length} characters long; it must be fewer than 256`);
  }
  return { registry, repository: path };
}
function parseReference(input, opts = {}) {
  const trimmed = input.trim();
  if (trimmed === "") throw invalid(input, "the reference is empty");
  if (/\s/.test(trimmed)) throw invalid(input, "a reference cannot contain spaces");
  if (trimmed.includes("://")) throw invalid(input, "a reference has no scheme (write host/repository:tag)");
  const { name, tag, digest } = splitTagDigest(trimmed);
  const repo = parseName(input, name);
  const useDefault = opts.defaultTag !== false && tag === void 0 && digest === void 0;
  return Object.freeze({
    ...repo,
    ...useDefault ? { tag: DEFAULT_TAG } : tag !== void 0 ? { tag } : {},
    ...digest !== void 0 ? { digest } : {}
  });
}
function parseRepository(input) {
  const trimmed = input.trim();
  if (trimmed === "") throw invalid(input, "the repository name is empty");
  const { name, tag, digest } = splitTagDigest(trimmed);
  if (tag !== void 0 || digest !== void 0) {
    throw invalid(input, "a repository is named without a tag or digest");
  }
  return Object.freeze(parseName(input, name));
}
function manifestReference(ref) {
  return ref.digest ?? ref.tag ?? DEFAULT_TAG;
}
function registryHost(registry) {
  return registry === DOCKER_HUB ? DOCKER_HUB_REGISTRY_HOST : registry;
}
function formatRepository(r) {
  return `${r.registry}/${r.repository}`;
}
function formatReference(ref) {
  let s = formatRepository(ref);
  if (ref.tag !== void 0) s += `:${ref.tag}`;
  if (ref.digest !== void 0) s += `@${ref.digest}`;
  return s;
}
function hostWithoutPort(host) {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end > 0 ? host.slice(1, end) : host;
  }
  const colon = host.indexOf(":");
  if (colon >= 0 && host.indexOf(":", colon + 1) >= 0) return host;
  return colon >= 0 ? host.slice(0, colon) : host;
}
function isLoopbackV4(h) {
  const parts = h.split(".");
  if (parts.length !== 4 || parts[0] !== "127") return false;
  return parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}
function isLoopbackV6(h) {
  const lower = h.toLowerCase();
  if (lower === "::1") return true;
  const groups = lower.split(":");
  if (groups.length === 8 && groups.slice(0, 7).every((g) => /^0{1,4}$/.test(g)) && /^0{0,3}1$/.test(groups[7] ?? "")) {
    return true;
  }
  const mapped = /^::ffff:([0-9.]+)$/.exec(lower);
  return mapped !== null && isLoopbackV4(mapped[1] ?? "");
}
function plainHttpFor(host, plainHttpHosts = []) {
  const lower = host.toLowerCase();
  const bare = hostWithoutPort(lower);
  if (bare === "localhost" || bare.endsWith(".localhost") || isLoopbackV4(bare) || isLoopbackV6(bare))
    return true;
  return plainHttpHosts.some((h) => {
    const p = h.trim().toLowerCase();
    return p !== "" && (p === lower || p === bare);
  });
}
function registryBaseUrl(registry, plainHttpHosts = []) {
  const host = registryHost(registry);
  return `${plainHttpFor(host, plainHttpHosts) ? "http" : "https"}://${host}`;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  TAG_PATTERN,
  assertDigest,
  formatReference,
  formatRepository,
  manifestReference,
  parseReference,
  parseRepository,
  registryBaseUrl
});
