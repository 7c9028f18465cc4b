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
  createCredentialChain: () => createCredentialChain,
  isDockerHubRegistry: () => isDockerHubRegistry
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_node_child_process = require("node:child_process");
var import_promises = require("node:fs/promises");
var import_node_os = require("node:os");
var import_node_path = require("node:path");
var DOCKER_HUB_KEYS = [
  "https://index.docker.io/v1/",
  "index.docker.io",
  "docker.io",
  "registry-1.docker.io"
];
function dockerConfigPath(env) {
  return (0, import_node_path.join)(env.DOCKER_CONFIG || (0, import_node_path.join)(env.HOME || (0, import_node_os.homedir)(), ".docker"), "config.json");
}
var runHelper = (helper, serverUrl) => new Promise((resolve, reject) => {
  const child = (0, import_node_child_process.execFile)(
    `docker-credential-${helper}`,
    ["get"],
    { timeout: 1e4 },
    (err, stdout) => err ? reject(err) : resolve(stdout)
  );
  child.stdin?.end(serverUrl);
});
async function dockerCredential(env, host, runner = runHelper) {
  let config;
  try {
    const parsed = JSON.parse(await (0, import_promises.readFile)(dockerConfigPath(env), "utf8"));
    if (!isRecord(parsed)) return void 0;
    config = parsed;
  } catch {
    return void 0;
  }
  const keys = DOCKER_HUB_KEYS.includes(host) ? DOCKER_HUB_KEYS : [host, `https://${host}`, `http://${host}`];
  const helpers = isRecord(config.credHelpers) ? config.credHelpers : {};
  const helper = [...keys.map((k) => helpers[k]), config.credsStore].find(isHelperName);
  if (helper) {
    for (const key of keys.slice(0, 1)) {
      try {
        const out = JSON.parse(await runner(helper, key));
        if (isRecord(out) && nonEmpty(out.Username) && nonEmpty(out.Secret)) {
          return { username: out.Username, secret: out.Secret, source: `docker-credential-${helper}` };
        }
      } catch {
      }
    }
  }
  const auths = isRecord(config.auths) ? config.auths : {};
  for (const key of keys) {
    const entry = auths[key];
    if (!isRecord(entry)) continue;
    if (nonEmpty(entry.username) && nonEmpty(entry.password)) {
      return { username: entry.username, secret: entry.password, source: "docker config.json (auths)" };
    }
    if (nonEmpty(entry.auth)) {
      const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0) {
        return {
          username: decoded.slice(0, colon),
          secret: decoded.slice(colon + 1),
          source: "docker config.json (auths)"
        };
      }
    }
  }
  return void 0;
}
function isRecord(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
function nonEmpty(v) {
  return typeof v === "string" && v !== "";
}
function isHelperName(v) {
  return typeof v === "string" && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(v);
}
var DOCKER_HUB_API_HOSTS = /* @__PURE__ */ new Set(["hub.docker.com"]);
function isDockerHubRegistry(host) {
  return DOCKER_HUB_KEYS.includes(host);
}
function createCredentialChain(deps) {
  const { env, settings } = deps;
  async function hub() {
    if (env.HUBCTL_TOKEN) {
      const username = settings.username;
      if (!username) {
        throw new import_chunk_6RHUR5LI.AuthError("HUBCTL_TOKEN is set but no account name is", {
          hint: "Set HUBCTL_USERNAME (or the organization name for an organization token)."
        });
      }
      return { username, secret: env.HUBCTL_TOKEN, source: "environment (HUBCTL_USERNAME, HUBCTL_TOKEN)" };
    }
    const stored = deps.store().hubCredential(settings.profile);
    if (stored) {
      return { ...stored, source: `stored credential of profile "${settings.profile}"` };
    }
    if (DOCKER_HUB_API_HOSTS.has(new URL(settings.baseUrl).hostname)) {
      const docker = await dockerCredential(env, DOCKER_HUB_KEYS[0], deps.helperRunner);
      if (docker) return { username: docker.username, secret: docker.secret, source: docker.source };
    }
    return void 0;
  }
  async function registry(host) {
    if (isDockerHubRegistry(host)) {
      if (DOCKER_HUB_API_HOSTS.has(new URL(settings.baseUrl).hostname)) return hub();
      const docker2 = await dockerCredential(env, DOCKER_HUB_KEYS[0], deps.helperRunner);
      return docker2 ? { username: docker2.username, secret: docker2.secret, source: docker2.source } : void 0;
    }
    const stored = deps.store().registryCredential(host);
    if (stored) return { ...stored, source: `stored credential for ${host}` };
    const docker = await dockerCredential(env, host, deps.helperRunner);
    return docker ? { username: docker.username, secret: docker.secret, source: docker.source } : void 0;
  }
  return { hub, registry };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  createCredentialChain,
  isDockerHubRegistry
});
