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
  PROFILE_KEYS: () => PROFILE_KEYS,
  isProfileKey: () => isProfileKey,
  openConfigStore: () => openConfigStore
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_node_fs = require("node:fs");
var import_conf = __toESM(require("conf"));
var PROFILE_KEYS = {
  "base-url": "hub API base address (HUBCTL_BASE_URL)",
  "governance-url": "governance API base address (HUBCTL_GOVERNANCE_URL)",
  org: "organization name (HUBCTL_ORG)",
  username: "account name used by `auth login` (HUBCTL_USERNAME)"
};
function isProfileKey(key) {
  return Object.hasOwn(PROFILE_KEYS, key);
}
function openConfigStore(dir) {
  try {
    (0, import_node_fs.mkdirSync)(dir, { recursive: true, mode: 448 });
  } catch (err) {
    throw new import_chunk_6RHUR5LI.UsageError(`cannot create the config directory ${dir}`, { cause: err });
  }
  const common = {
    cwd: dir,
    projectName: "hubctl",
    projectSuffix: "",
    accessPropertiesByDotNotation: false
  };
  let config;
  let creds;
  try {
    config = new import_conf.default({
      ...common,
      configName: "config",
      defaults: { profiles: {} }
    });
  } catch (err) {
    throw new import_chunk_6RHUR5LI.UsageError(`cannot read the config file in ${dir}: ${err.message}`, { cause: err });
  }
  const credentials = () => {
    if (!creds) {
      try {
        creds = new import_conf.default({
          ...common,
          configName: "credentials",
          configFileMode: 384,
          defaults: { hub: {}, registries: {} }
        });
        (0, import_node_fs.chmodSync)(creds.path, 384);
      } catch (err) {
        throw new import_chunk_6RHUR5LI.UsageError(`cannot read the credentials file in ${dir}: ${err.message}`, {
          cause: err
        });
      }
    }
    return creds;
  };
  const profilesOf = () => ({ ...config.get("profiles") });
  const credentialsPath = `${dir}/credentials.json`;
  return {
    dir,
    path: config.path,
    credentialsPath,
    profiles: () => Object.keys(profilesOf()).sort(),
    getProfile: (profile) => ({ ...profilesOf()[profile] }),
    set(profile, key, value) {
      const all = profilesOf();
      all[profile] = { ...all[profile], [key]: value };
      config.set("profiles", all);
    },
    unset(profile, key) {
      const all = profilesOf();
      const current = { ...all[profile] };
      if (!(key in current)) return false;
      delete current[key];
      all[profile] = current;
      config.set("profiles", all);
      return true;
    },
    hubCredential: (profile) => credentials().get("hub")[profile],
    setHubCredential(profile, credential) {
      credentials().set("hub", { ...credentials().get("hub"), [profile]: credential });
    },
    deleteHubCredential(profile) {
      const hub = { ...credentials().get("hub") };
      if (!(profile in hub)) return false;
      delete hub[profile];
      credentials().set("hub", hub);
      return true;
    },
    registryCredential: (host) => credentials().get("registries")[host],
    setRegistryCredential(host, credential) {
      credentials().set("registries", { ...credentials().get("registries"), [host]: credential });
    },
    deleteRegistryCredential(host) {
      const registries = { ...credentials().get("registries") };
      if (!(host in registries)) return false;
      delete registries[host];
      credentials().set("registries", registries);
      return true;
    }
  };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  PROFILE_KEYS,
  isProfileKey,
  openConfigStore
});
