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
  openConfigReader: () => openConfigReader
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var import_node_fs = require("node:fs");
var import_node_path = require("node:path");
function readJson(dir, name) {
  const path = (0, import_node_path.join)(dir, `${name}.json`);
  try {
    const value = JSON.parse((0, import_node_fs.readFileSync)(path, "utf8"));
    if (name === "credentials") (0, import_node_fs.chmodSync)(path, 384);
    return value && typeof value === "object" ? value : {};
  } catch (err) {
    if (err.code === "ENOENT") return {};
    throw new import_chunk_6RHUR5LI.UsageError(`cannot read the ${name} file in ${dir}: ${err.message}`, { cause: err });
  }
}
function entry(file, section, key) {
  const table = file[section];
  if (!table || typeof table !== "object" || !Object.hasOwn(table, key)) return void 0;
  return table[key];
}
function openConfigReader(dir) {
  return {
    getProfile: (profile) => ({ ...entry(readJson(dir, "config"), "profiles", profile) }),
    hubCredential: (profile) => entry(readJson(dir, "credentials"), "hub", profile),
    registryCredential: (host) => entry(readJson(dir, "credentials"), "registries", host)
  };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  openConfigReader
});
