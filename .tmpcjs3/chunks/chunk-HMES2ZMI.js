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
  AccessTokenAnswer: () => AccessTokenAnswer,
  AccessTokenPageAnswer: () => AccessTokenPageAnswer,
  CreatedAccessTokenAnswer: () => CreatedAccessTokenAnswer,
  PolicyAnswer: () => PolicyAnswer,
  PolicyDeleteAnswer: () => PolicyDeleteAnswer,
  PolicyListAnswer: () => PolicyListAnswer,
  PolicyUpdateAnswer: () => PolicyUpdateAnswer,
  RuleAnswer: () => RuleAnswer,
  RuleDeleteAnswer: () => RuleDeleteAnswer,
  RuleUpdateAnswer: () => RuleUpdateAnswer,
  TokenExchangeAnswer: () => TokenExchangeAnswer
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var text = import_chunk_47AE722P.dist_exports.string();
var id = import_chunk_47AE722P.dist_exports.pipe(import_chunk_47AE722P.dist_exports.string(), import_chunk_47AE722P.dist_exports.minLength(1, "expected a non-empty string"));
var strings = import_chunk_47AE722P.dist_exports.array(import_chunk_47AE722P.dist_exports.string());
var scope = (0, import_chunk_47AE722P.object)({ teams: import_chunk_47AE722P.dist_exports.optional(strings) });
var rule = import_chunk_47AE722P.dist_exports.pipe(
  (0, import_chunk_47AE722P.object)({
    id,
    name: text,
    actions: strings,
    decision: import_chunk_47AE722P.dist_exports.picklist(["allow", "deny"]),
    resources: import_chunk_47AE722P.dist_exports.optional(strings),
    // Issue 14 gives their shape ({host, port?, path}); read here only as a list.
    http_resources: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.array(import_chunk_47AE722P.dist_exports.unknown()))
  }),
  import_chunk_47AE722P.dist_exports.check(
    (r) => r.resources !== void 0 || r.http_resources !== void 0,
    "a rule with neither resources nor http_resources"
  )
);
var policyFields = {
  id,
  name: text,
  org: text,
  scope,
  created_at: text,
  updated_at: text
};
var policy = (0, import_chunk_47AE722P.object)({
  ...policyFields,
  allowlist_v0: import_chunk_47AE722P.dist_exports.nullish(
    (0, import_chunk_47AE722P.object)({ domain: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.picklist(["network", "filesystem"])), rules: import_chunk_47AE722P.dist_exports.array(rule) })
  )
});
var policySummary = (0, import_chunk_47AE722P.object)({ ...policyFields, type: text });
var PolicyAnswer = policy;
var RuleAnswer = rule;
var PolicyListAnswer = (0, import_chunk_47AE722P.object)({
  data: import_chunk_47AE722P.dist_exports.array(policySummary),
  next_page_token: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string())
});
var PolicyUpdateAnswer = (0, import_chunk_47AE722P.object)({ old: PolicyAnswer, new: PolicyAnswer });
var PolicyDeleteAnswer = (0, import_chunk_47AE722P.object)({ deleted: PolicyAnswer });
var RuleUpdateAnswer = (0, import_chunk_47AE722P.object)({ old: RuleAnswer, new: RuleAnswer });
var RuleDeleteAnswer = (0, import_chunk_47AE722P.object)({ deleted: RuleAnswer });
var optionalText = import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.string());
var tokenEntries = {
  uuid: id,
  client_id: optionalText,
  token_label: text,
  scopes: strings,
  token: optionalText,
  is_active: import_chunk_47AE722P.dist_exports.boolean(),
  created_at: text,
  expires_at: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string()),
  last_used: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string()),
  generated_by: optionalText,
  creator_ip: optionalText,
  creator_ua: optionalText
};
var accessToken = (0, import_chunk_47AE722P.object)(tokenEntries);
var AccessTokenAnswer = accessToken;
var CreatedAccessTokenAnswer = (0, import_chunk_47AE722P.object)({
  ...tokenEntries,
  token: import_chunk_47AE722P.dist_exports.pipe(import_chunk_47AE722P.dist_exports.string(), import_chunk_47AE722P.dist_exports.minLength(1, "expected a non-empty string"))
});
var AccessTokenPageAnswer = (0, import_chunk_47AE722P.object)({
  active_count: import_chunk_47AE722P.dist_exports.optional(import_chunk_47AE722P.dist_exports.number()),
  count: import_chunk_47AE722P.dist_exports.number(),
  next: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string(), null),
  previous: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string(), null),
  results: import_chunk_47AE722P.dist_exports.array(AccessTokenAnswer)
});
var TokenExchangeAnswer = import_chunk_47AE722P.dist_exports.pipe(
  (0, import_chunk_47AE722P.object)({ access_token: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string()), token: import_chunk_47AE722P.dist_exports.nullish(import_chunk_47AE722P.dist_exports.string()) }),
  import_chunk_47AE722P.dist_exports.check((b) => Boolean(b.access_token || b.token), "no token in access_token or token"),
  import_chunk_47AE722P.dist_exports.transform((b) => b.access_token || b.token)
);
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  AccessTokenAnswer,
  AccessTokenPageAnswer,
  CreatedAccessTokenAnswer,
  PolicyAnswer,
  PolicyDeleteAnswer,
  PolicyListAnswer,
  PolicyUpdateAnswer,
  RuleAnswer,
  RuleDeleteAnswer,
  RuleUpdateAnswer,
  TokenExchangeAnswer
});
