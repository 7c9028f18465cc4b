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
  PROFILE_KEYS: () => import_chunk_YNFT2PJU.PROFILE_KEYS,
  isProfileKey: () => import_chunk_YNFT2PJU.isProfileKey,
  openConfigStore: () => import_chunk_YNFT2PJU.openConfigStore
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_YNFT2PJU = require("./chunk-YNFT2PJU.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  PROFILE_KEYS,
  isProfileKey,
  openConfigStore
});
