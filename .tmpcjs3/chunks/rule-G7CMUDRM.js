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
  register: () => register5
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_FYZT5LIY = require("./chunk-FYZT5LIY.js");
var import_chunk_VTTOAH4R = require("./chunk-VTTOAH4R.js");
var import_chunk_HMES2ZMI = require("./chunk-HMES2ZMI.js");
var import_chunk_JPTAMGNO = require("./chunk-JPTAMGNO.js");
var import_chunk_NXKWY5E6 = require("./chunk-NXKWY5E6.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
function register(group, host, runner = run) {
  const cmd = group.command("add").description("Add a rule to a policy (checked locally before anything is sent)").argument("<policy>", "policy id (pol_\u2026) or name").option("--name <name>", "rule name").option(
    "--action <action>",
    "connect:tcp, connect:udp (network) or read, write (filesystem); repeatable or comma-separated",
    import_chunk_JQMFCPN3.collectList
  ).option(
    "--resource <resource>",
    "host, *.host, **.host, host:port, CIDR (network) or a path with * and ** (filesystem); repeatable or comma-separated",
    import_chunk_JQMFCPN3.collectList
  ).option("--decision <decision>", "allow or deny").action(
    (policy, o) => {
      const missing = [
        o.name === void 0 && "--name",
        o.action === void 0 && "--action",
        o.resource === void 0 && "--resource",
        o.decision === void 0 && "--decision"
      ].filter(Boolean);
      if (missing.length > 0) throw new import_chunk_6RHUR5LI.UsageError(`rule add needs ${missing.join(", ")}`);
      if (o.name?.trim() === "") throw new import_chunk_6RHUR5LI.UsageError("--name must not be empty");
      const rule = (0, import_chunk_FYZT5LIY.validateRule)({
        name: o.name,
        actions: o.action,
        decision: o.decision,
        resources: o.resource
      });
      const opts = {
        policy,
        name: rule.name,
        actions: rule.actions,
        decision: rule.decision,
        resources: rule.resources
      };
      return host.run((ctx) => runner(ctx, opts));
    }
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl rule add egress --name github --action connect:tcp --resource github.com:443,**.github.com --decision allow",
    "hubctl rule add egress --name no-metadata --action connect:tcp,connect:udp --resource 169.254.169.254/32 --decision deny",
    "hubctl rule add workspace --name data --action read --action write --resource '/data/**' --decision allow"
  ]);
}
async function run(ctx, opts) {
  const client = await ctx.governance();
  const { policy } = await (0, import_chunk_JPTAMGNO.fetchPolicy)(client, opts.policy);
  (0, import_chunk_JPTAMGNO.requireAllowlist)(policy);
  const rules = (0, import_chunk_JPTAMGNO.rulesOf)(policy);
  const rule = (0, import_chunk_FYZT5LIY.validateRule)(opts, { policyDomain: rules.length > 0 ? (0, import_chunk_JPTAMGNO.policyDomain)(policy) : void 0 });
  if (rules.length >= import_chunk_VTTOAH4R.MAX_RULES) {
    throw new import_chunk_6RHUR5LI.ConflictError(
      `policy "${policy.name}" (${policy.id}) already has ${rules.length} rules, the maximum (${import_chunk_VTTOAH4R.MAX_RULES})`,
      { hint: "Delete a rule first, or put the rule in another policy." }
    );
  }
  const created = await client.createRule(policy.id, {
    name: rule.name,
    actions: rule.actions,
    decision: rule.decision,
    resources: rule.resources
  });
  if (ctx.output.json) {
    ctx.output.printJson(created);
    return;
  }
  await (0, import_chunk_FYZT5LIY.showRule)(ctx, created);
  ctx.output.info(`Added rule "${created.name}" (${created.id}) to policy "${policy.name}" (${policy.id}).`);
  if (rules.some((r) => r.name === created.name)) {
    ctx.output.warn(`The policy has another rule named "${created.name}": name these rules by their ids.`);
  }
  (0, import_chunk_FYZT5LIY.notePropagation)(ctx);
}
function register2(group, host, runner = run2) {
  const cmd = group.command("delete").description("Remove a rule from a policy (asks first; --yes without a terminal)").argument("<policy>", "policy id (pol_\u2026) or name").argument("<rule>", "rule id (rule_\u2026) or name within the policy").option("-y, --yes", "do not ask for confirmation").action(
    (policy, rule, o) => host.run((ctx) => runner(ctx, { policy, rule, yes: Boolean(o.yes) }))
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl rule delete egress github",
    "hubctl rule delete pol_3f2b8c1e rule_8a1f --yes"
  ]);
}
async function run2(ctx, opts) {
  const confirm = await (0, import_chunk_JPTAMGNO.confirmFirst)(ctx, opts.yes);
  const client = await ctx.governance();
  const { policy } = await (0, import_chunk_JPTAMGNO.fetchPolicy)(client, opts.policy);
  (0, import_chunk_JPTAMGNO.requireAllowlist)(policy);
  const rule = (0, import_chunk_JPTAMGNO.resolveRule)(policy, opts.rule);
  const what = `rule "${rule.name}" (${rule.id}) of policy "${policy.name}" (${policy.id})`;
  if (!await confirm(`Delete ${what}?`)) throw new import_chunk_6RHUR5LI.CancelledError("nothing was deleted");
  const result = await client.deleteRule(policy.id, rule.id);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  ctx.output.info(`Deleted ${what}.`);
  (0, import_chunk_FYZT5LIY.notePropagation)(ctx);
}
function register3(group, host, runner = run3) {
  const cmd = group.command("list").description("List the rules of a policy").argument("<policy>", "policy id (pol_\u2026) or name").action((policy) => host.run((ctx) => runner(ctx, { policy })));
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl rule list egress", "hubctl rule list pol_3f2b8c1e --json"]);
}
async function run3(ctx, opts) {
  const { policy } = await (0, import_chunk_JPTAMGNO.fetchPolicy)(await ctx.governance(), opts.policy);
  (0, import_chunk_JPTAMGNO.requireAllowlist)(policy);
  const rules = (0, import_chunk_JPTAMGNO.rulesOf)(policy);
  if (ctx.output.json) {
    ctx.output.printJson(rules);
    return;
  }
  if (rules.length === 0) {
    ctx.output.info(`Policy "${policy.name}" (${policy.id}) has no rules yet.`);
    return;
  }
  await (0, import_chunk_FYZT5LIY.showRulesTable)(ctx, rules);
}
function checkRuleName(name) {
  if (name.trim() === "") throw new import_chunk_6RHUR5LI.UsageError("--name must not be empty");
  return name;
}
function checkDecision(value) {
  if (value !== "allow" && value !== "deny") {
    throw new import_chunk_6RHUR5LI.ValidationError(`--decision "${value}" is not allowed; a decision is "allow" or "deny"`);
  }
  return value;
}
function checkResources(domain, resources) {
  if (resources.length === 0) throw new import_chunk_6RHUR5LI.UsageError(`--resource needs at least one ${domain} resource`);
  for (const r of resources) (0, import_chunk_FYZT5LIY.parseResource)(domain, r);
  return resources;
}
function checkRuleParts(parts) {
  const out = {};
  if (parts.name !== void 0) out.name = checkRuleName(parts.name);
  if (parts.actions !== void 0) {
    out.actions = [...new Set(parts.actions)];
    out.domain = (0, import_chunk_FYZT5LIY.domainOfActions)(out.actions);
  }
  if (parts.decision !== void 0) out.decision = checkDecision(parts.decision);
  if (parts.resources !== void 0) {
    if (parts.resources.length === 0) throw new import_chunk_6RHUR5LI.UsageError("--resource needs a value");
    out.resources = out.domain ? checkResources(out.domain, parts.resources) : parts.resources;
  }
  return out;
}
function register4(group, host, runner = run4) {
  const cmd = group.command("update").description("Change a rule in place (only the fields given change; its domain stays)").argument("<policy>", "policy id (pol_\u2026) or name").argument("<rule>", "rule id (rule_\u2026) or name within the policy").option("--name <name>", "new rule name").option("--action <action>", "replace the actions (repeatable or comma-separated)", import_chunk_JQMFCPN3.collectList).option("--resource <resource>", "replace the resources (repeatable or comma-separated)", import_chunk_JQMFCPN3.collectList).option("--decision <decision>", "allow or deny").action(
    (policy, rule, o) => {
      if ([o.name, o.action, o.resource, o.decision].every((v) => v === void 0)) {
        throw new import_chunk_6RHUR5LI.UsageError("nothing to change: give --name, --action, --resource or --decision");
      }
      const parts = checkRuleParts({
        name: o.name,
        actions: o.action,
        decision: o.decision,
        resources: o.resource
      });
      const opts = { policy, rule };
      if (parts.name !== void 0) opts.name = parts.name;
      if (parts.actions !== void 0) opts.actions = parts.actions;
      if (parts.decision !== void 0) opts.decision = parts.decision;
      if (parts.resources !== void 0) opts.resources = parts.resources;
      return host.run((ctx) => runner(ctx, opts));
    }
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl rule update egress github --resource github.com:443,api.github.com:443",
    "hubctl rule update egress rule_8a1f --decision deny",
    "hubctl rule update workspace data --action read --resource '/data/**,~/cache/*'"
  ]);
}
function firstKnownDomain(actions) {
  for (const a of Array.isArray(actions) ? actions : []) {
    const d = typeof a === "string" ? (0, import_chunk_JPTAMGNO.domainOfAction)(a) : void 0;
    if (d) return d;
  }
  return void 0;
}
async function run4(ctx, opts) {
  const client = await ctx.governance();
  const { policy } = await (0, import_chunk_JPTAMGNO.fetchPolicy)(client, opts.policy);
  (0, import_chunk_JPTAMGNO.requireAllowlist)(policy);
  const rule = (0, import_chunk_JPTAMGNO.resolveRule)(policy, opts.rule);
  const label = `rule "${rule.name}" (${rule.id})`;
  if (opts.actions !== void 0 || opts.resources !== void 0) {
    const actions = opts.actions ?? rule.actions;
    let domain;
    try {
      domain = (0, import_chunk_FYZT5LIY.domainOfActions)(actions);
    } catch (err) {
      if (err instanceof import_chunk_6RHUR5LI.ValidationError && opts.actions === void 0) {
        throw new import_chunk_6RHUR5LI.ValidationError(`${label} has actions hubctl cannot check (${err.message})`, {
          hint: "Give --action as well to change its resources."
        });
      }
      throw err;
    }
    const oldDomain = firstKnownDomain(rule.actions);
    if (oldDomain && domain !== oldDomain) {
      throw new import_chunk_6RHUR5LI.ValidationError(
        `${label} is a ${oldDomain} rule; its actions cannot change to ${domain} actions (${actions.join(", ")})`,
        { hint: `Delete it and add a ${domain} rule to a ${domain} policy instead.` }
      );
    }
    const others = (0, import_chunk_JPTAMGNO.rulesOf)(policy).filter((r) => r.id !== rule.id);
    (0, import_chunk_FYZT5LIY.validateRule)(
      {
        name: opts.name ?? rule.name,
        actions,
        decision: opts.decision ?? rule.decision,
        resources: opts.resources ?? rule.resources
      },
      { policyDomain: (0, import_chunk_JPTAMGNO.policyDomain)({ allowlist_v0: { rules: others } }) }
    );
  }
  const body = {};
  if (opts.name !== void 0) body.name = opts.name;
  if (opts.actions !== void 0) body.actions = opts.actions;
  if (opts.decision !== void 0) body.decision = opts.decision;
  if (opts.resources !== void 0) body.resources = opts.resources;
  const result = await client.updateRule(policy.id, rule.id, body);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  await (0, import_chunk_FYZT5LIY.showRule)(ctx, result.new);
  ctx.output.info(`Updated ${label} of policy "${policy.name}" (${policy.id}).`);
  (0, import_chunk_FYZT5LIY.notePropagation)(ctx);
}
function register5(group, host) {
  register3(group, host);
  register(group, host);
  register4(group, host);
  register2(group, host);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  register
});
