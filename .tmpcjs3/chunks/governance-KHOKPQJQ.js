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
  MAX_POLICIES: () => import_chunk_VTTOAH4R.MAX_POLICIES,
  MAX_RULES: () => import_chunk_VTTOAH4R.MAX_RULES,
  createGovernanceClient: () => import_chunk_VTTOAH4R.createGovernanceClient
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_VTTOAH4R = require("./chunk-VTTOAH4R.js");
var import_chunk_HMES2ZMI = require("./chunk-HMES2ZMI.js");
var import_chunk_NXKWY5E6 = require("./chunk-NXKWY5E6.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  MAX_POLICIES,
  MAX_RULES,
  createGovernanceClient
});
