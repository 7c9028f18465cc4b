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
  KNOWN_ACTIONS: () => KNOWN_ACTIONS,
  POLICY_ID: () => POLICY_ID,
  RULE_ID: () => RULE_ID,
  checkPolicyName: () => checkPolicyName,
  checkTeams: () => checkTeams,
  confirmFirst: () => confirmFirst,
  domainOfAction: () => domainOfAction,
  fetchPolicy: () => fetchPolicy,
  matchByName: () => matchByName,
  policyDomain: () => policyDomain,
  policyType: () => policyType,
  requireAllowlist: () => requireAllowlist,
  resolvePolicy: () => resolvePolicy,
  resolveRule: () => resolveRule,
  rulesOf: () => rulesOf
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var KNOWN_ACTIONS = {
  network: ["connect:tcp", "connect:udp"],
  filesystem: ["read", "write"]
};
function domainOfAction(action) {
  if (action === "connect:tcp" || action === "connect:udp") return "network";
  if (action === "read" || action === "write") return "filesystem";
  return void 0;
}
var RULE_SET_KEY = /^[a-z][a-z0-9]*_v\d+$/;
function policyType(p) {
  if (p.allowlist_v0 !== void 0 && p.allowlist_v0 !== null) return "allowlist_v0";
  for (const key of Object.keys(p)) {
    const v = p[key];
    if (RULE_SET_KEY.test(key) && v !== null && typeof v === "object") return key;
  }
  if (typeof p.type === "string" && p.type !== "") return p.type;
  return "allowlist_v0";
}
function rulesOf(p) {
  const set = p.allowlist_v0;
  return set && Array.isArray(set.rules) ? set.rules : [];
}
function policyDomain(p) {
  const set = p.allowlist_v0;
  if (set?.domain === "network" || set?.domain === "filesystem") return set.domain;
  for (const r of rulesOf(p)) {
    for (const a of Array.isArray(r.actions) ? r.actions : []) {
      const d = domainOfAction(a);
      if (d) return d;
    }
  }
  return void 0;
}
var POLICY_ID = /^pol_/;
var RULE_ID = /^rule_/;
function matchByName(items, ref) {
  const exact = items.filter((i) => i.name === ref);
  if (exact.length > 0) return exact;
  const folded = ref.toLowerCase();
  return items.filter((i) => typeof i.name === "string" && i.name.toLowerCase() === folded);
}
function ambiguous(kind, ref, where, candidates) {
  return new import_chunk_6RHUR5LI.UsageError(
    `${candidates.length} ${kind === "policy" ? "policies" : `${kind}s`} ${where} match the name "${ref}": ${candidates.map((c) => `${c.id} (${c.name})`).join(", ")}`,
    { hint: `Name the ${kind} by its id instead.` }
  );
}
async function resolvePolicy(client, ref) {
  if (POLICY_ID.test(ref)) return { id: ref };
  const summaries = await client.allPolicies();
  const found = matchByName(summaries, ref);
  if (found.length === 0) {
    throw new import_chunk_6RHUR5LI.NotFoundError(`no policy named "${ref}" in org ${client.org}`, {
      hint: "Run `hubctl policy list` to see the policies."
    });
  }
  if (found.length > 1) throw ambiguous("policy", ref, `of org ${client.org}`, found);
  return { id: found[0].id, summaries };
}
async function fetchPolicy(client, ref) {
  const { id, summaries } = await resolvePolicy(client, ref);
  return { policy: await client.getPolicy(id), summaries };
}
function requireAllowlist(policy) {
  const type = policyType(policy);
  if (type !== "allowlist_v0") {
    throw new import_chunk_6RHUR5LI.ValidationError(
      `policy "${policy.name}" (${policy.id}) is a ${type} policy; hubctl manages rules of allowlist_v0 policies only`,
      { hint: `Use \`hubctl policy get ${policy.id} --json\` to see its rule set as the API returns it.` }
    );
  }
}
function resolveRule(policy, ref) {
  const rules = rulesOf(policy);
  if (RULE_ID.test(ref)) {
    const rule = rules.find((r) => r.id === ref);
    if (!rule) throw new import_chunk_6RHUR5LI.NotFoundError(`rule ${ref} was not found in policy "${policy.name}" (${policy.id})`);
    return rule;
  }
  const found = matchByName(rules, ref);
  if (found.length === 0) {
    throw new import_chunk_6RHUR5LI.NotFoundError(`no rule named "${ref}" in policy "${policy.name}" (${policy.id})`, {
      hint: `Run \`hubctl rule list ${policy.id}\` to see its rules.`
    });
  }
  if (found.length > 1) throw ambiguous("rule", ref, `of policy "${policy.name}"`, found);
  return found[0];
}
var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function checkTeams(teams) {
  for (const t of teams) {
    if (!UUID.test(t)) {
      throw new import_chunk_6RHUR5LI.UsageError(
        `--team takes a team UUID (like 6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b), not "${t}"`
      );
    }
  }
  return [...new Set(teams.map((t) => t.toLowerCase()))];
}
function checkPolicyName(name, flag = "the policy name") {
  if (name.trim() === "") throw new import_chunk_6RHUR5LI.UsageError(`${flag} must not be empty`);
  return name;
}
async function confirmFirst(ctx, yes) {
  if (yes || ctx.globals.yes) return async () => true;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) await (0, import_chunk_JQMFCPN3.confirmDestructive)(ctx, "");
  return (question) => (0, import_chunk_JQMFCPN3.confirmDestructive)(ctx, question);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  KNOWN_ACTIONS,
  POLICY_ID,
  RULE_ID,
  checkPolicyName,
  checkTeams,
  confirmFirst,
  domainOfAction,
  fetchPolicy,
  matchByName,
  policyDomain,
  policyType,
  requireAllowlist,
  resolvePolicy,
  resolveRule,
  rulesOf
});
