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
  MAX_POLICIES: () => MAX_POLICIES,
  MAX_RULES: () => MAX_RULES,
  createGovernanceClient: () => createGovernanceClient
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_HMES2ZMI = require("./chunk-HMES2ZMI.js");
var import_chunk_NXKWY5E6 = require("./chunk-NXKWY5E6.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var MAX_POLICIES = 100;
var MAX_RULES = 250;
function createGovernanceClient(session, governanceUrl, org) {
  const policies = `${governanceUrl}/orgs/${encodeURIComponent(org)}/governance/policies`;
  const policyUrl = (id) => `${policies}/${encodeURIComponent(id)}`;
  const ruleUrl = (id, ruleId) => `${policyUrl(id)}/rules${ruleId === void 0 ? "" : `/${encodeURIComponent(ruleId)}`}`;
  const orgNotFound = `org ${org}`;
  const send = async (op, schema, method, url, json) => {
    try {
      const res = await session.request({ method, url, json, what: op.what });
      return await (0, import_chunk_47AE722P.readAnswer)(res, schema, op.what);
    } catch (err) {
      throw translate(err, op, method, org);
    }
  };
  const policyOp = (what, id) => ({
    what,
    notFound: `policy ${id} was not found in org ${org}`
  });
  const ruleOp = (what, id, ruleId) => ({
    what,
    notFound: ruleId === void 0 ? `policy ${id} was not found in org ${org}` : `rule ${ruleId} was not found in policy ${id} of org ${org}`,
    limit: `policy ${id} already has the maximum number of rules (${MAX_RULES})`
  });
  const client = {
    org,
    async *listPolicies() {
      yield* (0, import_chunk_NXKWY5E6.paginate)(async (cursor) => {
        const url = new URL(policies);
        if (cursor) url.searchParams.set("page_token", cursor);
        const page = await send(
          { what: `listing policies of org ${org}`, notFound: `${orgNotFound} was not found` },
          import_chunk_HMES2ZMI.PolicyListAnswer,
          "GET",
          url
        );
        return { items: page.data, next: page.next_page_token ?? null };
      });
    },
    allPolicies: () => (0, import_chunk_NXKWY5E6.collect)(client.listPolicies()),
    getPolicy: (id) => send(policyOp(`reading policy ${id} of org ${org}`, id), import_chunk_HMES2ZMI.PolicyAnswer, "GET", policyUrl(id)),
    createPolicy: (body) => send(
      {
        what: `creating policy "${body.name}" in org ${org}`,
        notFound: `${orgNotFound} was not found`,
        conflict: `a policy named "${body.name}" already exists in org ${org}`,
        limit: `org ${org} already has the maximum number of policies (${MAX_POLICIES})`
      },
      import_chunk_HMES2ZMI.PolicyAnswer,
      "POST",
      policies,
      body
    ),
    updatePolicy: (id, body) => send(
      {
        ...policyOp(`updating policy ${id} of org ${org}`, id),
        ...body.name === void 0 ? {} : { conflict: `a policy named "${body.name}" already exists in org ${org}` }
      },
      import_chunk_HMES2ZMI.PolicyUpdateAnswer,
      "PATCH",
      policyUrl(id),
      body
    ),
    deletePolicy: (id) => send(policyOp(`deleting policy ${id} of org ${org}`, id), import_chunk_HMES2ZMI.PolicyDeleteAnswer, "DELETE", policyUrl(id)),
    createRule: (id, body) => send(ruleOp(`adding rule "${body.name}" to policy ${id}`, id), import_chunk_HMES2ZMI.RuleAnswer, "POST", ruleUrl(id), body),
    updateRule: (id, ruleId, body) => send(
      ruleOp(`updating rule ${ruleId} of policy ${id}`, id, ruleId),
      import_chunk_HMES2ZMI.RuleUpdateAnswer,
      "PATCH",
      ruleUrl(id, ruleId),
      body
    ),
    deleteRule: (id, ruleId) => send(
      ruleOp(`deleting rule ${ruleId} of policy ${id}`, id, ruleId),
      import_chunk_HMES2ZMI.RuleDeleteAnswer,
      "DELETE",
      ruleUrl(id, ruleId)
    )
  };
  return client;
}
var WRITE_MAY_HAVE_LANDED = "The server took the request before its answer went wrong: the change may have taken effect. Check with `hubctl policy get` before trying again.";
function serverWords(err, what) {
  return err.message.startsWith(`${what}: `) ? err.message.slice(what.length + 2) : err.message;
}
function translate(err, op, method, org) {
  if (err instanceof import_chunk_6RHUR5LI.UnexpectedAnswerError && method !== "GET") {
    return new import_chunk_6RHUR5LI.UnexpectedAnswerError(err.message, { hint: WRITE_MAY_HAVE_LANDED, cause: err });
  }
  if (!(err instanceof import_chunk_6RHUR5LI.ApiError)) return err;
  const words = serverWords(err, op.what);
  const code = err.apiCode?.toLowerCase();
  if (err.status === 403 && code === "limit_exceeded") {
    return new import_chunk_6RHUR5LI.ConflictError(`${op.what}: ${op.limit ?? "a limit was reached"} (${words})`, {
      hint: "Delete what is no longer needed first.",
      cause: err
    });
  }
  if (err.status === 403) {
    return new import_chunk_6RHUR5LI.AuthError(
      `${op.what}: you lack permission for org ${org} or it is not entitled to governance (${words})`,
      { hint: "Check --org, and ask an owner of the organization for access to governance.", cause: err }
    );
  }
  if (err.status === 404) {
    return new import_chunk_6RHUR5LI.NotFoundError(`${op.what}: ${op.notFound} (${words})`, { cause: err });
  }
  if (err.status === 409) {
    return new import_chunk_6RHUR5LI.ConflictError(op.conflict ?? `${op.what}: ${words}`, {
      hint: op.conflict ? "Choose another name, or change the existing policy." : void 0,
      cause: err
    });
  }
  if (err.status >= 500) {
    const tried = method === "GET" ? " after retries" : "";
    return new import_chunk_6RHUR5LI.NetworkError(`${op.what}: the governance service failed${tried} (${words})`, {
      hint: method === "GET" ? "Try again later." : "The request was not repeated: it may or may not have taken effect. Check with `hubctl policy get` before trying again.",
      cause: err
    });
  }
  return err;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  MAX_POLICIES,
  MAX_RULES,
  createGovernanceClient
});
