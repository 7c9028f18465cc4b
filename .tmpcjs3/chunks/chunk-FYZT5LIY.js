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
  DOTTED_QUAD: () => DOTTED_QUAD,
  destinationOf: () => destinationOf,
  domainOfActions: () => domainOfActions,
  homeAlias: () => homeAlias,
  homeSegmentsOf: () => homeSegmentsOf,
  homeTail: () => homeTail,
  hostChars: () => hostChars,
  loadHostChars: () => loadHostChars,
  normalPathStart: () => normalPathStart,
  notePropagation: () => notePropagation,
  parseFilesystemDestination: () => parseFilesystemDestination,
  parseFilesystemResource: () => parseFilesystemResource,
  parseNetworkDestination: () => parseNetworkDestination,
  parseNetworkResource: () => parseNetworkResource,
  parseResource: () => parseResource,
  scanDestination: () => scanDestination,
  scanHostChars: () => scanHostChars,
  scopeText: () => scopeText,
  showPolicy: () => showPolicy,
  showPolicyFields: () => showPolicyFields,
  showRule: () => showRule,
  showRulesTable: () => showRulesTable,
  v4OfHostChars: () => v4OfHostChars,
  v4Read: () => v4Read,
  validateRule: () => validateRule
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_VTTOAH4R = require("./chunk-VTTOAH4R.js");
var import_chunk_JPTAMGNO = require("./chunk-JPTAMGNO.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var PROPAGATION_NOTE = "The change takes up to five minutes to reach developer machines.";
function notePropagation(ctx) {
  ctx.output.info(PROPAGATION_NOTE);
}
function scopeText(scope) {
  const n = scope?.teams?.length ?? 0;
  if (n === 0) return "org-wide";
  return n === 1 ? "1 team" : `${n} teams`;
}
function scopeDetail(scope) {
  const teams = scope?.teams ?? [];
  return teams.length === 0 ? "org-wide" : `teams ${teams.join(", ")}`;
}
var RULE_FIELDS = /* @__PURE__ */ new Set(["id", "name", "actions", "decision", "resources"]);
function extraText(rule) {
  return Object.entries(rule).filter(([k]) => !RULE_FIELDS.has(k)).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : typeof v === "string" ? v : JSON.stringify(v)}`).join(" ");
}
function list(v) {
  return Array.isArray(v) ? v.join(",") : v === void 0 || v === null ? "" : String(v);
}
async function showPolicyFields(ctx, policy) {
  const type = (0, import_chunk_JPTAMGNO.policyType)(policy);
  const pairs = [
    ["ID", policy.id],
    ["Name", policy.name],
    ["Org", policy.org],
    ["Scope", scopeDetail(policy.scope)],
    ["Type", type]
  ];
  if (type === "allowlist_v0") {
    pairs.push(["Domain", (0, import_chunk_JPTAMGNO.policyDomain)(policy) ?? "none (no rules yet)"]);
    pairs.push(["Rules", String((0, import_chunk_JPTAMGNO.rulesOf)(policy).length)]);
  }
  pairs.push(
    ["Created", ctx.output.time(policy.created_at)],
    ["Updated", ctx.output.time(policy.updated_at)]
  );
  await ctx.output.fields(pairs);
}
async function showRulesTable(ctx, rules) {
  const extras = rules.map(extraText);
  const withOther = extras.some((e) => e !== "");
  await ctx.output.table(
    ["ID", "NAME", "DECISION", "ACTIONS", "RESOURCES", ...withOther ? ["OTHER"] : []],
    rules.map((r, i) => [
      r.id,
      r.name,
      r.decision,
      list(r.actions),
      list(r.resources),
      ...withOther ? [extras[i]] : []
    ])
  );
  const unknown = [
    ...new Set(
      rules.flatMap((r) => Array.isArray(r.actions) ? r.actions : []).filter((a) => !(0, import_chunk_JPTAMGNO.domainOfAction)(a))
    )
  ];
  if (unknown.length > 0) {
    ctx.output.warn(
      `Note: action${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} ${unknown.length > 1 ? "are" : "is"} not known to hubctl; such rules are shown as the API returned them.`
    );
  }
}
async function showPolicy(ctx, policy) {
  await showPolicyFields(ctx, policy);
  const type = (0, import_chunk_JPTAMGNO.policyType)(policy);
  if (type !== "allowlist_v0") {
    ctx.output.info(
      `Its rule set is ${type}, which hubctl does not show as a table; \`hubctl policy get ${policy.id} --json\` prints it.`
    );
    return;
  }
  const rules = (0, import_chunk_JPTAMGNO.rulesOf)(policy);
  if (rules.length === 0) {
    ctx.output.info(`No rules yet: add one with \`hubctl rule add ${policy.name} \u2026\`.`);
    return;
  }
  ctx.output.line();
  await showRulesTable(ctx, rules);
  if (rules.length >= import_chunk_VTTOAH4R.MAX_RULES) {
    ctx.output.warn(`This policy has ${rules.length} rules, the maximum: no rule can be added.`);
  }
}
async function showRule(ctx, rule) {
  const pairs = [
    ["ID", rule.id],
    ["Name", rule.name],
    ["Decision", String(rule.decision)],
    ["Actions", list(rule.actions)],
    ["Resources", list(rule.resources)]
  ];
  const other = extraText(rule);
  if (other) pairs.push(["Other", other]);
  await ctx.output.fields(pairs);
}
function parseIPv4(s, start = 0, end = s.length) {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 0) leadingZero = c === 48;
      else if (leadingZero) return -1;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else if (c === 46) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + part;
}
function formatIPv4(v) {
  return `${v >>> 24 & 255}.${v >>> 16 & 255}.${v >>> 8 & 255}.${v & 255}`;
}
function hexValue(c) {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}
function parseIPv6(s, start = 0, end = s.length) {
  const head = [];
  const tail = [];
  let cur = head;
  let seenDouble = false;
  let i = start;
  if (end - start < 2) return null;
  if (s.charCodeAt(i) === 58) {
    if (s.charCodeAt(i + 1) !== 58) return null;
    seenDouble = true;
    cur = tail;
    i += 2;
    if (i === end) return [0, 0, 0, 0, 0, 0, 0, 0];
  }
  while (i < end) {
    let j = i;
    let v = 0;
    while (j < end && j - i < 5) {
      const h = hexValue(s.charCodeAt(j));
      if (h < 0) break;
      v = v * 16 + h;
      j++;
    }
    if (j < end && s.charCodeAt(j) === 46) {
      const v4 = parseIPv4(s, i, end);
      if (v4 < 0) return null;
      cur.push(v4 >>> 16 & 65535, v4 & 65535);
      i = end;
      break;
    }
    if (j === i || j - i > 4) return null;
    cur.push(v);
    i = j;
    if (i === end) break;
    if (s.charCodeAt(i) !== 58) return null;
    i++;
    if (i < end && s.charCodeAt(i) === 58) {
      if (seenDouble) return null;
      seenDouble = true;
      cur = tail;
      i++;
      if (i === end) break;
    } else if (i === end) {
      return null;
    }
  }
  const total = head.length + tail.length;
  if (seenDouble ? total > 7 : total !== 8) return null;
  if (!seenDouble) return head;
  const res = head;
  for (let k = total; k < 8; k++) res.push(0);
  for (const t of tail) res.push(t);
  return res;
}
function isIPv4Mapped(g) {
  return g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 65535;
}
function mappedIPv4(g) {
  return g[6] * 65536 + g[7] >>> 0;
}
function formatIPv6(g) {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (k) => g[k].toString(16);
  if (bestStart < 0) return g.map((_, k) => hex(k)).join(":");
  const left = [];
  for (let k = 0; k < bestStart; k++) left.push(hex(k));
  const right = [];
  for (let k = bestStart + bestLen; k < 8; k++) right.push(hex(k));
  return `${left.join(":")}::${right.join(":")}`;
}
function maskV4(v, prefix) {
  if (prefix === 0) return 0;
  return (v & 4294967295 << 32 - prefix) >>> 0;
}
function maskV6(g, prefix) {
  const out = [];
  for (let k = 0; k < 8; k++) {
    const bits = Math.max(0, Math.min(16, prefix - k * 16));
    out.push(bits === 0 ? 0 : g[k] & (65535 << 16 - bits & 65535));
  }
  return out;
}
var NETWORK_FORMS = "a hostname (example.com), *.example.com (one label), **.example.com (any depth), ** (every host), any of these with :port, an IP address (10.1.2.3, 2001:db8::1, [2001:db8::1]:22) or a CIDR (10.0.0.0/8, 2001:db8::/32)";
function badResource(value, problem) {
  return new import_chunk_6RHUR5LI.ValidationError(`invalid network resource "${value}": ${problem}; allowed: ${NETWORK_FORMS}`);
}
function hostnameProblem(h, start = 0) {
  const end = h.length;
  if (end - start === 0) return "the host is empty";
  if (end - start > 253) return "a hostname has at most 253 characters";
  let labelStart = start;
  for (let i = start; i <= end; i++) {
    const c = i === end ? 46 : h.charCodeAt(i);
    if (c === 46) {
      const len = i - labelStart;
      if (len === 0) return i === end ? "it ends with an empty label" : 'it has an empty label ("..")';
      if (len > 63) return "a label has at most 63 characters";
      if (h.charCodeAt(labelStart) === 45 || h.charCodeAt(i - 1) === 45) {
        return 'a label cannot start or end with "-"';
      }
      labelStart = i + 1;
    } else if (!(c >= 97 && c <= 122 || c >= 48 && c <= 57 || c === 45 || c === 95)) {
      const ch = h[i];
      if (ch === "*") return "a wildcard is allowed only as the whole first label";
      if (c > 127) return `"${ch}" is not allowed; write internationalized names in punycode (xn--\u2026)`;
      return `the character "${ch}" is not allowed in a hostname`;
    }
  }
  return null;
}
function isDigitsAndDots(s) {
  let digits = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits = true;
    else if (c !== 46) return false;
  }
  return digits;
}
function parsePort(text) {
  if (text === "") return "the port is empty";
  if (text.length > 5 || !/^[0-9]+$/.test(text)) return `port "${text}" is not a number from 1 to 65535`;
  const n = Number(text);
  if (n < 1 || n > 65535) return `port ${n} is outside 1\u201365535`;
  return n;
}
function lowerHost(h) {
  let out = h.toLowerCase();
  if (out.length > 1 && out.charCodeAt(out.length - 1) === 46) out = out.slice(0, -1);
  return out;
}
function parseHost(raw) {
  if (raw.includes(":")) {
    const g = parseIPv6(raw);
    if (!g)
      return raw.includes("%") ? "zone ids (%\u2026) are not allowed" : `"${raw}" is not a valid IPv6 address`;
    if (isIPv4Mapped(g)) {
      const v4 = mappedIPv4(g);
      return { family: 4, v4, host: formatIPv4(v4) };
    }
    return { family: 6, v6: g, host: formatIPv6(g) };
  }
  if (isDigitsAndDots(raw)) {
    const v4 = parseIPv4(raw);
    if (v4 < 0) return `"${raw}" is not a valid IPv4 address (four numbers 0\u2013255 without leading zeros)`;
    return { family: 4, v4, host: formatIPv4(v4) };
  }
  const host = lowerHost(raw);
  const problem = hostnameProblem(host);
  if (problem) return problem;
  return { family: 0, host };
}
function splitHostPort(s) {
  if (s.startsWith("[")) {
    const close = s.indexOf("]");
    if (close < 0) return 'a "[" without its "]"';
    const host = s.slice(1, close);
    const rest = s.slice(close + 1);
    if (!host.includes(":")) return "brackets are only for IPv6 addresses";
    if (rest === "") return { host, port: 0, bracketed: true };
    if (!rest.startsWith(":")) return `unexpected "${rest}" after "]"`;
    const port2 = parsePort(rest.slice(1));
    if (typeof port2 === "string") return port2;
    return { host, port: port2, bracketed: true };
  }
  const first = s.indexOf(":");
  if (first < 0) return { host: s, port: 0, bracketed: false };
  if (s.indexOf(":", first + 1) >= 0) return { host: s, port: 0, bracketed: false };
  const port = parsePort(s.slice(first + 1));
  if (typeof port === "string") return port;
  return { host: s.slice(0, first), port, bracketed: false };
}
function withPort(text, port) {
  return port === 0 ? text : `${text}:${port}`;
}
function parseNetworkResource(value) {
  const s = value;
  if (s === "") throw badResource(s, "it is empty");
  if (/\s/.test(s)) throw badResource(s, "it contains whitespace");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(s);
  if (scheme) throw badResource(s, `a resource names a host, not a URL: drop "${scheme[0]}" and any path`);
  if (s.includes("@")) throw badResource(s, 'user names ("user@") are not allowed');
  const slash = s.indexOf("/");
  if (slash >= 0) {
    const addr = s.slice(0, slash);
    const len = s.slice(slash + 1);
    const looksIp = addr.includes(":") || isDigitsAndDots(addr);
    if (!looksIp || len.includes("/"))
      throw badResource(s, 'a resource has no path ("/\u2026") unless it is a CIDR');
    if (!/^[0-9]{1,3}$/.test(len)) throw badResource(s, `CIDR prefix length "${len}" is not a number`);
    const prefix = Number(len);
    if (addr.includes(":")) {
      const g = parseIPv6(addr);
      if (!g) throw badResource(s, `"${addr}" is not a valid IPv6 address`);
      if (prefix > 128) throw badResource(s, `an IPv6 prefix length is 0\u2013128, not ${prefix}`);
      if (isIPv4Mapped(g) && prefix >= 96) return cidr4(s, mappedIPv4(g), prefix - 96, `::ffff:\u2026/${prefix}`);
      const masked = maskV6(g, prefix);
      if (masked.some((x, k) => x !== g[k])) {
        throw badResource(s, `host bits are set; the network is ${formatIPv6(masked)}/${prefix}`);
      }
      return Object.freeze({
        kind: "cidr",
        family: 6,
        v4: 0,
        v6: Object.freeze(masked),
        prefix,
        port: 0,
        canonical: `${formatIPv6(masked)}/${prefix}`
      });
    }
    const v4 = parseIPv4(addr);
    if (v4 < 0) throw badResource(s, `"${addr}" is not a valid IPv4 address`);
    if (prefix > 32) throw badResource(s, `an IPv4 prefix length is 0\u201332, not ${prefix}`);
    return cidr4(s, v4, prefix, null);
  }
  const hp = splitHostPort(s);
  if (typeof hp === "string") throw badResource(s, hp);
  const { host: rawHost, port } = hp;
  if (rawHost.includes("*")) {
    if (hp.bracketed) throw badResource(s, "a wildcard is not an IPv6 address");
    if (rawHost === "**") return Object.freeze({ kind: "any", port, canonical: withPort("**", port) });
    let kind;
    let rest;
    if (rawHost.startsWith("**.")) {
      kind = "many";
      rest = rawHost.slice(3);
    } else if (rawHost.startsWith("*.")) {
      kind = "one";
      rest = rawHost.slice(2);
    } else if (rawHost === "*") {
      throw badResource(s, '"*" alone is not a pattern; use "**" for every host or "*.example.com"');
    } else {
      throw badResource(s, 'a wildcard is allowed only as the whole first label ("*." or "**.")');
    }
    if (rest.includes("*")) throw badResource(s, "a wildcard is allowed only as the whole first label");
    const suffix = lowerHost(rest);
    if (isDigitsAndDots(suffix)) throw badResource(s, "a wildcard pattern names a domain, not an IP address");
    const problem = hostnameProblem(suffix);
    if (problem) throw badResource(s, problem);
    const prefix = kind === "one" ? "*." : "**.";
    return Object.freeze({ kind, suffix, port, canonical: withPort(prefix + suffix, port) });
  }
  const hv = parseHost(rawHost);
  if (typeof hv === "string") throw badResource(s, hv);
  if (hv.family === 0) {
    if (hp.bracketed) throw badResource(s, "brackets are only for IPv6 addresses");
    return Object.freeze({ kind: "host", host: hv.host, port, canonical: withPort(hv.host, port) });
  }
  if (hv.family === 4) {
    return Object.freeze({
      kind: "cidr",
      family: 4,
      v4: hv.v4,
      v6: null,
      prefix: 32,
      port,
      canonical: withPort(hv.host, port)
    });
  }
  return Object.freeze({
    kind: "cidr",
    family: 6,
    v4: 0,
    v6: Object.freeze(hv.v6),
    prefix: 128,
    port,
    canonical: port === 0 ? hv.host : `[${hv.host}]:${port}`
  });
}
function cidr4(s, v4, prefix, mapped) {
  const masked = maskV4(v4, prefix);
  if (masked !== v4) {
    const shown = mapped ? `${formatIPv4(masked)}/${prefix} (as IPv4)` : `${formatIPv4(masked)}/${prefix}`;
    throw badResource(s, `host bits are set; the network is ${shown}`);
  }
  return Object.freeze({
    kind: "cidr",
    family: 4,
    v4: masked,
    v6: null,
    prefix,
    port: 0,
    canonical: prefix === 32 ? formatIPv4(masked) : `${formatIPv4(masked)}/${prefix}`
  });
}
var DESTINATION_FORMS = "host, host:port, [IPv6]:port or a URL (https://host/path)";
function badDestination(value, problem) {
  return new import_chunk_6RHUR5LI.ValidationError(
    `invalid network destination "${value}": ${problem}; a destination is ${DESTINATION_FORMS}`
  );
}
var DEFAULT_PORTS = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
  ssh: 22,
  git: 9418,
  ldap: 389,
  ldaps: 636,
  redis: 6379,
  postgres: 5432,
  postgresql: 5432,
  mysql: 3306,
  mongodb: 27017,
  amqp: 5672,
  amqps: 5671,
  smtp: 25
};
var DEFAULT_PORT = 443;
function parseNetworkDestination(value) {
  return destinationOf(value, scanDestination(value));
}
function scanDestination(value) {
  return loadHostChars(value) ? scanHostChars(value.length) : -1;
}
function destinationOf(value, scanned) {
  if (scanned >= 0) {
    const end = scanned & 255;
    return { host: value.slice(0, end), port: scanned >>> 8, family: 0, v4: 0, v6: null };
  }
  if (scanned === DOTTED_QUAD) {
    const colon = value.indexOf(":");
    const host = colon < 0 ? value : value.slice(0, colon);
    const v4 = parseIPv4(host);
    if (v4 >= 0) {
      const port = colon < 0 ? DEFAULT_PORT : Number(value.slice(colon + 1));
      return { host, port, family: 4, v4, v6: null };
    }
  }
  return parseSlow(value);
}
var hostChars = new Uint16Array(256);
function loadHostChars(value) {
  const n = value.length;
  if (n > 254) return false;
  for (let i = 0; i < n; i++) hostChars[i] = value.charCodeAt(i);
  return true;
}
var DOTTED_QUAD = -2;
var v4Read = new Int32Array(2);
function v4OfHostChars(n) {
  const v = hostChars;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let i = 0;
  for (; i < n; i++) {
    const c = v[i];
    if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return false;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return false;
    } else if (c === 46) {
      if (digits === 0 || ++dots > 3) return false;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else break;
  }
  if (digits === 0 || dots !== 3) return false;
  let port = i < n ? 0 : DEFAULT_PORT;
  for (let j = i + 1; j < n; j++) port = port * 10 + (v[j] - 48);
  v4Read[0] = value * 256 + part;
  v4Read[1] = port;
  return true;
}
function scanHostChars(n) {
  const v = hostChars;
  let i = 0;
  let c = 0;
  let digitsDots = true;
  let labelStart = 0;
  if (n === 0 || n > 254) return -1;
  for (; i < n; i++) {
    c = v[i];
    if (c === 46) {
      const len = i - labelStart;
      if (len === 0 || len > 63 || v[i - 1] === 45) return -1;
      labelStart = i + 1;
    } else if (c >= 97 && c <= 122 || c === 95) {
      digitsDots = false;
    } else if (c === 45) {
      digitsDots = false;
      if (i === labelStart) return -1;
    } else if (c < 48 || c > 57) {
      break;
    }
  }
  if (i === 0 || i < n && c !== 58) return -1;
  const last = i - labelStart;
  if (last > 63 || last > 0 && v[i - 1] === 45) return -1;
  if (last === 0 && (i < 2 || v[i - 2] === 46)) return -1;
  let port = DEFAULT_PORT;
  if (i < n) {
    let p = 0;
    let j = i + 1;
    if (j === n || n - j > 5) return -1;
    for (; j < n; j++) {
      const d = v[j];
      if (d < 48 || d > 57) return -1;
      p = p * 10 + (d - 48);
    }
    if (p < 1 || p > 65535) return -1;
    port = p;
  }
  if (digitsDots) return DOTTED_QUAD;
  const end = last === 0 ? i - 1 : i;
  if (end > 253) return -1;
  return port << 8 | end;
}
function parseSlow(value) {
  let s = value;
  if (s === "") throw badDestination(value, "it is empty");
  if (/\s/.test(s)) throw badDestination(value, "it contains whitespace");
  let defaultPort = DEFAULT_PORT;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(s);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    let authority = s.slice(scheme[0].length);
    const endAuth = authority.search(/[/?#]/);
    if (endAuth >= 0) authority = authority.slice(0, endAuth);
    const at = authority.lastIndexOf("@");
    if (at >= 0) authority = authority.slice(at + 1);
    if (authority === "") throw badDestination(value, "the URL has no host");
    const known = DEFAULT_PORTS[name];
    s = authority;
    if (known === void 0) {
      const hp2 = splitHostPort(s);
      if (typeof hp2 !== "string" && hp2.port === 0) {
        throw badDestination(value, `the scheme "${name}" has no default port hubctl knows; add :port`);
      }
    } else {
      defaultPort = known;
    }
  } else if (s.includes("/")) {
    throw badDestination(value, "a path needs a URL with a scheme (https://host/path)");
  }
  if (s.includes("*")) throw badDestination(value, "a destination names one host; wildcards are for rules");
  if (s.includes("@")) throw badDestination(value, 'user names ("user@") need a URL');
  const hp = splitHostPort(s);
  if (typeof hp === "string") throw badDestination(value, hp);
  const hv = parseHost(hp.host);
  if (typeof hv === "string") throw badDestination(value, hv);
  if (hv.family === 0 && hp.bracketed) throw badDestination(value, "brackets are only for IPv6 addresses");
  const port = hp.port === 0 ? defaultPort : hp.port;
  if (hv.family === 0) return { host: hv.host, port, family: 0, v4: 0, v6: null };
  if (hv.family === 4) return { host: hv.host, port, family: 4, v4: hv.v4, v6: null };
  return { host: hv.host, port, family: 6, v4: 0, v6: hv.v6 };
}
var FILESYSTEM_FORMS = "an absolute path (/data/file) or one under your home (~/src), with * inside a segment (/var/log/*.log) and ** across segments (/data/**)";
function badResource2(value, problem) {
  return new import_chunk_6RHUR5LI.ValidationError(
    `invalid filesystem resource "${value}": ${problem}; allowed: ${FILESYSTEM_FORMS}`
  );
}
function badPath(value, problem) {
  return new import_chunk_6RHUR5LI.ValidationError(
    `invalid filesystem path "${value}": ${problem}; a path is absolute (/\u2026) or starts with ~/`
  );
}
function rawSegments(value, start) {
  const out = [];
  let from = start;
  for (let i = start; i <= value.length; i++) {
    if (i === value.length || value.charCodeAt(i) === 47) {
      if (i > from) {
        const seg = value.slice(from, i);
        if (seg !== ".") out.push(seg);
      }
      from = i + 1;
    }
  }
  return out;
}
function rootOf(value) {
  if (value === "") return "it is empty";
  if (value.includes("\0")) return "it contains a NUL character";
  const c = value.charCodeAt(0);
  if (c === 47) return { home: false, start: 1 };
  if (c === 126) {
    if (value.length === 1 || value.charCodeAt(1) === 47) return { home: true, start: 1 };
    return '"~user" is not supported; write ~/\u2026 for your own home or an absolute path';
  }
  return "it is relative";
}
function render(home, segs) {
  if (segs.length === 0) return home ? "~" : "/";
  return (home ? "~/" : "/") + segs.join("/");
}
function parseFilesystemResource(value) {
  const root = rootOf(value);
  if (typeof root === "string") throw badResource2(value, root);
  const texts = rawSegments(value, root.start);
  const segments = [];
  let literal = true;
  for (const text of texts) {
    if (text === "..") throw badResource2(value, '".." is not allowed in a rule; write the resolved path');
    if (text === "**") {
      literal = false;
      if (segments[segments.length - 1]?.kind !== "globstar") segments.push({ kind: "globstar", text: "**" });
      continue;
    }
    if (text.includes("**")) throw badResource2(value, `"**" must be a whole segment, not part of "${text}"`);
    if (text.includes("*")) {
      literal = false;
      const parts = text.split("*");
      let min = 0;
      for (const p of parts) min += p.length;
      segments.push(Object.freeze({ kind: "glob", text, parts: Object.freeze(parts), min }));
      continue;
    }
    segments.push(Object.freeze({ kind: "lit", text }));
  }
  const canonical = render(
    root.home,
    segments.map((s) => s.text)
  );
  return Object.freeze({ home: root.home, segments: Object.freeze(segments), literal, canonical });
}
function parseFilesystemDestination(value) {
  const segments = normalSegments(value);
  if (segments !== null) return { home: value.charCodeAt(0) === 126, segments, path: value };
  const root = rootOf(value);
  if (typeof root === "string") throw badPath(value, root);
  const texts = rawSegments(value, root.start);
  let segs = texts;
  if (texts.includes("..")) {
    segs = [];
    for (const t of texts) {
      if (t !== "..") segs.push(t);
      else if (segs.length > 0) segs.pop();
      else if (root.home) throw badPath(value, '".." leaves the home directory, which hubctl cannot resolve');
    }
  }
  return { home: root.home, segments: segs, path: render(root.home, segs) };
}
function normalSegments(value) {
  const n = value.length;
  const c0 = value.charCodeAt(0);
  let from;
  if (c0 === 47) from = 1;
  else if (c0 === 126 && value.charCodeAt(1) === 47) from = 2;
  else return null;
  if (from >= n) return null;
  const segs = [];
  for (let i = from; i <= n; i++) {
    const c = i === n ? 47 : value.charCodeAt(i);
    if (c === 0) return null;
    if (c !== 47) continue;
    const len = i - from;
    if (len === 0) return null;
    if (value.charCodeAt(from) === 46 && (len === 1 || len === 2 && value.charCodeAt(from + 1) === 46)) {
      return null;
    }
    segs.push(value.slice(from, i));
    from = i + 1;
  }
  return segs;
}
function normalPathStart(b, s, e) {
  let from;
  if (b[s] === 47) from = s + 1;
  else if (b[s] === 126 && s + 1 < e && b[s + 1] === 47) from = s + 2;
  else return -1;
  if (from >= e) return -1;
  const first = from;
  for (let i = from; i <= e; i++) {
    if (i < e && b[i] !== 47) continue;
    const len = i - from;
    if (len === 0) return -1;
    if (b[from] === 46 && (len === 1 || len === 2 && b[from + 1] === 46)) return -1;
    from = i + 1;
  }
  return first;
}
function homeAlias(d, homeSegments) {
  if (d.home) {
    const segments2 = [...homeSegments, ...d.segments];
    return { home: false, segments: segments2, path: render(false, segments2) };
  }
  if (d.segments.length < homeSegments.length) return null;
  for (let i = 0; i < homeSegments.length; i++) if (d.segments[i] !== homeSegments[i]) return null;
  const segments = d.segments.slice(homeSegments.length);
  return { home: true, segments, path: render(true, segments) };
}
function homeTail(b, from, e, homeSegments) {
  let p = from;
  for (let k = 0; k < homeSegments.length; k++) {
    const seg = homeSegments[k];
    const q = p + seg.length;
    if (q > e) return -1;
    for (let j = 0; j < seg.length; j++) if (b[p + j] !== seg.charCodeAt(j)) return -1;
    if (q === e) return k === homeSegments.length - 1 ? e : -1;
    if (b[q] !== 47) return -1;
    p = q + 1;
  }
  return p;
}
function homeSegmentsOf(home) {
  if (!home?.startsWith("/")) return null;
  const d = parseFilesystemDestination(home);
  return d.segments.length > 0 ? Object.freeze([...d.segments]) : null;
}
function parseResource(domain, value) {
  if (domain === "network") return { domain, pattern: parseNetworkResource(value) };
  return { domain, pattern: parseFilesystemResource(value) };
}
var ALLOWED_ACTIONS = `network: ${import_chunk_JPTAMGNO.KNOWN_ACTIONS.network.join(", ")}; filesystem: ${import_chunk_JPTAMGNO.KNOWN_ACTIONS.filesystem.join(", ")}`;
function domainOfActions(actions) {
  if (actions.length === 0)
    throw new import_chunk_6RHUR5LI.ValidationError(`a rule needs at least one action (${ALLOWED_ACTIONS})`);
  let domain;
  let first = "";
  for (const a of actions) {
    const d = (0, import_chunk_JPTAMGNO.domainOfAction)(a);
    if (!d) throw new import_chunk_6RHUR5LI.ValidationError(`unknown action "${a}"; allowed actions are ${ALLOWED_ACTIONS}`);
    if (domain && d !== domain) {
      throw new import_chunk_6RHUR5LI.ValidationError(
        `actions "${first}" (${domain}) and "${a}" (${d}) mix domains; all actions of a rule belong to one domain (${ALLOWED_ACTIONS})`
      );
    }
    if (!domain) {
      domain = d;
      first = a;
    }
  }
  return domain;
}
function stringList(field, v) {
  if (!Array.isArray(v)) throw new import_chunk_6RHUR5LI.ValidationError(`"${field}" must be a list of strings`);
  for (const x of v) {
    if (typeof x !== "string")
      throw new import_chunk_6RHUR5LI.ValidationError(`"${field}" must be a list of strings, not ${JSON.stringify(x)}`);
  }
  return v;
}
function validateRule(input, opts = {}) {
  if (typeof input.name !== "string" || input.name.trim() === "") {
    throw new import_chunk_6RHUR5LI.ValidationError("a rule needs a non-empty name");
  }
  const actions = [...new Set(stringList("actions", input.actions))];
  const domain = domainOfActions(actions);
  if (input.decision !== "allow" && input.decision !== "deny") {
    throw new import_chunk_6RHUR5LI.ValidationError(
      `decision ${JSON.stringify(input.decision)} is not allowed; a decision is "allow" or "deny"`
    );
  }
  const decision = input.decision;
  const resources = stringList("resources", input.resources);
  if (resources.length === 0) throw new import_chunk_6RHUR5LI.ValidationError(`a rule needs at least one ${domain} resource`);
  for (const r of resources) parseResource(domain, r);
  if (opts.policyDomain && opts.policyDomain !== domain) {
    throw new import_chunk_6RHUR5LI.ValidationError(
      `the rule's actions (${actions.join(", ")}) are ${domain} actions but the policy's rules are ${opts.policyDomain}; a policy holds one domain (use ${import_chunk_JPTAMGNO.KNOWN_ACTIONS[opts.policyDomain].join(" or ")}, or another policy)`
    );
  }
  return { name: input.name, actions, decision, resources, domain };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  DOTTED_QUAD,
  destinationOf,
  domainOfActions,
  homeAlias,
  homeSegmentsOf,
  homeTail,
  hostChars,
  loadHostChars,
  normalPathStart,
  notePropagation,
  parseFilesystemDestination,
  parseFilesystemResource,
  parseNetworkDestination,
  parseNetworkResource,
  parseResource,
  scanDestination,
  scanHostChars,
  scopeText,
  showPolicy,
  showPolicyFields,
  showRule,
  showRulesTable,
  v4OfHostChars,
  v4Read,
  validateRule
});
