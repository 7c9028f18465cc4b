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
  POLICY_ID: () => import_chunk_JPTAMGNO.POLICY_ID,
  RULE_ID: () => import_chunk_JPTAMGNO.RULE_ID,
  checkPolicyName: () => import_chunk_JPTAMGNO.checkPolicyName,
  checkTeams: () => import_chunk_JPTAMGNO.checkTeams,
  confirmFirst: () => import_chunk_JPTAMGNO.confirmFirst,
  fetchPolicy: () => import_chunk_JPTAMGNO.fetchPolicy,
  matchByName: () => import_chunk_JPTAMGNO.matchByName,
  requireAllowlist: () => import_chunk_JPTAMGNO.requireAllowlist,
  resolvePolicy: () => import_chunk_JPTAMGNO.resolvePolicy,
  resolveRule: () => import_chunk_JPTAMGNO.resolveRule
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_JPTAMGNO = require("./chunk-JPTAMGNO.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  POLICY_ID,
  RULE_ID,
  checkPolicyName,
  checkTeams,
  confirmFirst,
  fetchPolicy,
  matchByName,
  requireAllowlist,
  resolvePolicy,
  resolveRule
});
