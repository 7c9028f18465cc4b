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
  register: () => register8
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
var import_promises = require("node:fs/promises");
function register(group, host, runner = run) {
  const cmd = group.command("create").description("Create a policy (org-wide, or for the teams given); add rules with `hubctl rule add`").argument("<name>", "policy name, unique in the organization").option("--team <uuid>", "apply only to this team (repeatable, or comma-separated)", import_chunk_JQMFCPN3.collectList, []).action((name, o) => {
    const opts = { name: (0, import_chunk_JPTAMGNO.checkPolicyName)(name), teams: (0, import_chunk_JPTAMGNO.checkTeams)(o.team) };
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl policy create egress",
    "hubctl policy create build-cache --team 6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b",
    "ID=$(hubctl policy create egress --json | jq -r .id)"
  ]);
}
async function run(ctx, opts) {
  const client = await ctx.governance();
  const policy = await client.createPolicy({
    name: opts.name,
    ...opts.teams.length > 0 ? { scope: { teams: opts.teams } } : {}
  });
  if (ctx.output.json) {
    ctx.output.printJson(policy);
    return;
  }
  await (0, import_chunk_FYZT5LIY.showPolicyFields)(ctx, policy);
  ctx.output.info(`Created policy "${policy.name}" (${policy.id}) in org ${client.org}.`);
  (0, import_chunk_FYZT5LIY.notePropagation)(ctx);
}
function register2(group, host, runner = run2) {
  const cmd = group.command("delete").description("Delete a policy and all its rules (asks first; --yes without a terminal)").argument("<policy>", "policy id (pol_\u2026) or name").option("-y, --yes", "do not ask for confirmation").action(
    (policy, o) => host.run((ctx) => runner(ctx, { policy, yes: Boolean(o.yes) }))
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl policy delete egress", "hubctl policy delete pol_3f2b8c1e --yes --json"]);
}
async function run2(ctx, opts) {
  const confirm = await (0, import_chunk_JPTAMGNO.confirmFirst)(ctx, opts.yes);
  const client = await ctx.governance();
  const { policy } = await (0, import_chunk_JPTAMGNO.fetchPolicy)(client, opts.policy);
  const n = (0, import_chunk_JPTAMGNO.rulesOf)(policy).length;
  const what = `policy "${policy.name}" (${policy.id}) of org ${client.org}${n > 0 ? ` and its ${n} rule${n === 1 ? "" : "s"}` : ""}`;
  if (!await confirm(`Delete ${what}?`)) throw new import_chunk_6RHUR5LI.CancelledError("nothing was deleted");
  const result = await client.deletePolicy(policy.id);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  ctx.output.info(`Deleted ${what}.`);
  (0, import_chunk_FYZT5LIY.notePropagation)(ctx);
}
var Hits = class {
  ids = new Int32Array(64);
  n = 0;
  push(id) {
    if (this.n === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.n++] = id;
  }
};
var Bucket = class {
  any = [];
  ports = null;
  add(id, port) {
    if (port === 0) {
      this.any.push(id);
      return;
    }
    this.ports ??= /* @__PURE__ */ new Map();
    const list = this.ports.get(port);
    if (list) list.push(id);
    else this.ports.set(port, [id]);
  }
};
function collect(b, port, out) {
  const any = b.any;
  for (let i = 0; i < any.length; i++) out.push(any[i]);
  if (b.ports !== null) {
    const list = b.ports.get(port);
    if (list !== void 0) for (let i = 0; i < list.length; i++) out.push(list[i]);
  }
}
function addRef(refs, at2, buckets, id, port) {
  const ref = refs[at2];
  if (ref === -1) {
    refs[at2] = id;
    refs[at2 + 1] = port;
    return;
  }
  if (ref >= 0) {
    const b = new Bucket();
    b.add(ref, refs[at2 + 1]);
    refs[at2] = -2 - buckets.length;
    buckets.push(b);
  }
  buckets[-2 - refs[at2]].add(id, port);
}
function emitRef(refs, at2, buckets, port, out) {
  const ref = refs[at2];
  if (ref >= 0) {
    const p = refs[at2 + 1];
    if (p === 0 || p === port) out.push(ref);
  } else if (ref !== -1) collect(buckets[-2 - ref], port, out);
}
var FNV_OFFSET = 2166136261 | 0;
var FNV_PRIME = 16777619;
function finish(h) {
  let k = Math.imul(h ^ h >>> 16, 2246822507);
  k ^= k >>> 13;
  return k | 0;
}
var DECISION_JSON = /* @__PURE__ */ Symbol("decisionJson");
function renderDecisionJson(r) {
  return `"decision":"${r.decision}","reason":${JSON.stringify(r.reason)},"matched":${JSON.stringify(r.matched)}`;
}
function shared(r) {
  Object.defineProperty(r, DECISION_JSON, { value: renderDecisionJson(r), enumerable: false });
  return Object.freeze(r);
}
function decisionJson(r) {
  return r[DECISION_JSON] ?? renderDecisionJson(r);
}
function reasonOf(deny, deciding) {
  const first = deciding[0];
  const more = deciding.length > 1 ? ` and ${deciding.length - 1} more rule${deciding.length > 2 ? "s" : ""}` : "";
  return `${deny ? "denied" : "allowed"} by rule "${first.rule}" of policy "${first.policy}"${more}`;
}
function sharedResults(entries, notEvaluated, noMatchReason) {
  const n = entries.length;
  const reasons = entries.map((e) => reasonOf(e.deny, [e.out]));
  const matched = entries.map((e) => Object.freeze([e.out]));
  const list = [];
  for (let i = 0; i < n; i++) {
    const decision = entries[i].out.decision;
    list.push({ decision, reason: reasons[i], matched: matched[i], notEvaluated });
  }
  list.push({
    decision: "deny",
    reason: noMatchReason,
    matched: Object.freeze([]),
    notEvaluated
  });
  const texts = list.map((r) => `,${decisionJson(shared(r))}}
`);
  let size = 0;
  for (const t of texts) size += t.length;
  const tails = new Uint8Array(size * 3);
  const tailAt = new Int32Array(n + 2);
  const utf8 = new TextEncoder();
  let at2 = 0;
  for (let i = 0; i <= n; i++) {
    tailAt[i] = at2;
    at2 += utf8.encodeInto(texts[i], tails.subarray(at2)).written;
  }
  tailAt[n + 1] = at2;
  const denies = Uint8Array.from(list, (r) => r.decision === "deny" ? 1 : 0);
  return { list, tails: tails.slice(0, at2), tailAt, denies };
}
var PAIR_CACHE_LIMIT = 1e5;
function pairResult(cache, notEvaluated, x, y) {
  const [a, b] = x.seq < y.seq ? [x, y] : [y, x];
  const key = a.seq * 4294967296 + b.seq;
  let r = cache.get(key);
  if (r !== void 0) return r;
  const deny = a.deny || b.deny;
  const deciding = [];
  if (a.deny === deny) deciding.push(a.out);
  if (b.deny === deny && !(a.deny === deny && a.ruleKey === b.ruleKey)) deciding.push(b.out);
  r = shared({
    decision: deny ? "deny" : "allow",
    reason: reasonOf(deny, deciding),
    matched: Object.freeze(deciding),
    notEvaluated
  });
  if (cache.size >= PAIR_CACHE_LIMIT) cache.clear();
  cache.set(key, r);
  return r;
}
function matchGlobSegment(parts, min, s) {
  if (s.length < min) return false;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!s.startsWith(first) || !s.endsWith(last)) return false;
  let pos = first.length;
  const limit = s.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const p = parts[k];
    if (p === "") continue;
    const at2 = s.indexOf(p, pos);
    if (at2 < 0 || at2 + p.length > limit) return false;
    pos = at2 + p.length;
  }
  return true;
}
function matchSegment(seg, s) {
  if (seg.kind === "lit") return seg.text === s;
  if (seg.kind === "glob") return matchGlobSegment(seg.parts, seg.min, s);
  return true;
}
function matchPath(p, d) {
  return alignPath(p, d) !== null;
}
function alignPath(p, d) {
  if (p.home !== d.home) return null;
  const ps = p.segments;
  const ds = d.segments;
  const start = new Array(ps.length + 1).fill(0);
  let i = 0;
  let j = 0;
  let starI = -1;
  let starJ = 0;
  while (j < ds.length) {
    const seg = ps[i];
    if (seg !== void 0 && seg.kind === "globstar") {
      start[i] = j;
      starI = i++;
      starJ = j;
    } else if (seg !== void 0 && matchSegment(seg, ds[j])) {
      start[i] = j;
      i++;
      j++;
    } else if (starI >= 0) {
      i = starI + 1;
      j = ++starJ;
    } else {
      return null;
    }
  }
  while (i < ps.length && ps[i].kind === "globstar") start[i++] = j;
  if (i !== ps.length) return null;
  start[ps.length] = ds.length;
  return start;
}
function describePathMatch(p, d) {
  const start = alignPath(p, d);
  if (start === null) return null;
  const ps = p.segments;
  const ds = d.segments;
  const parts = [];
  ps.forEach((seg, k) => {
    if (seg.kind === "globstar") {
      const taken = ds.slice(start[k], start[k + 1]);
      parts.push(taken.length === 0 ? '"**" took nothing' : `"**" took "${taken.join("/")}"`);
    } else if (seg.kind === "glob") {
      parts.push(`"${seg.text}" took "${ds[start[k]]}"`);
    }
  });
  return parts.join(", ");
}
function portWhy(port, d) {
  return port === 0 ? `any port (${d.port})` : `port ${port}`;
}
function whyOf(e, nd, fd) {
  if (e.net && nd) {
    const p = e.net;
    switch (p.kind) {
      case "host":
        return `host ${nd.host} is exactly ${p.host}; ${portWhy(p.port, nd)}`;
      case "any":
        return `"**" matches every host (${nd.host}); ${portWhy(p.port, nd)}`;
      case "one": {
        const label = nd.host.slice(0, nd.host.length - p.suffix.length - 1);
        return `"*.${p.suffix}" matches one label ("${label}") below ${p.suffix}; ${portWhy(p.port, nd)}`;
      }
      case "many": {
        const labels = nd.host.slice(0, nd.host.length - p.suffix.length - 1);
        const n = labels.split(".").length;
        return `"**.${p.suffix}" matches ${n} label${n > 1 ? "s" : ""} ("${labels}") below ${p.suffix}; ${portWhy(p.port, nd)}`;
      }
      case "cidr": {
        const full = p.prefix === (p.family === 4 ? 32 : 128);
        const what = full ? `address ${nd.host} is exactly the rule's address` : `${p.canonical} contains ${nd.host}`;
        return `${what}; ${portWhy(p.port, nd)}`;
      }
    }
  }
  if (e.fs && fd) {
    const p = e.fs;
    if (p.literal) return `path ${fd.path} is exactly ${p.canonical}`;
    const took = describePathMatch(p, fd);
    return `pattern ${p.canonical} matches ${fd.path}${took ? `: ${took}` : ""}`;
  }
  return "";
}
function roomFor(recs, need) {
  if (need <= recs.length) return recs;
  const grown = new Int32Array(Math.max(recs.length * 2, need));
  grown.set(recs);
  return grown;
}
function placeInSlots(table, mask, key, r) {
  let i = key & mask;
  while (table[2 * i + 1] !== 0) i = i + 1 & mask;
  table[2 * i] = key;
  table[2 * i + 1] = r + 1;
}
var NameTable = class {
  count = 0;
  /**
   * Records: [length, then per kind (exact, `*.`, `**.`) a ref and a port, then the characters two
   * to an int]. A ref is -1 (none), an entry id (one entry, on `port`, 0 for any), or -2 - i for
   * `buckets[i]` (several entries).
   */
  recs = new Int32Array(4096);
  chars = new Uint16Array(this.recs.buffer);
  used = 0;
  /** Per slot, 2 ints: the name's key, and its record's offset + 1 (0: empty). */
  table = new Int32Array(256);
  mask = 127;
  buckets = [];
  /**
   * One bit per name, at bits of its key that pick no slot: small enough to stay in the CPU's
   * caches, so that most suffixes no rule names (a random host's whole name, the labels a `**.`
   * suffix took) are ruled out without a load from the table. 16 bits per slot, at most 32 KiB.
   */
  filter = new Int32Array(32);
  filterShift = 22;
  /** The record of the name s[start, end) whose key is `key`, or -1. */
  find(key, s, start, end) {
    const table = this.table;
    const mask = this.mask;
    const len = end - start;
    for (let i = key & mask; ; i = i + 1 & mask) {
      const v = table[2 * i + 1];
      if (v === 0) return -1;
      if (table[2 * i] !== key) continue;
      const r = v - 1;
      if (this.recs[r] !== len) continue;
      const chars = this.chars;
      const off = 2 * (r + REC_CHARS);
      let j = 0;
      while (j < len && chars[off + j] === s[start + j]) j++;
      if (j === len) return r;
    }
  }
  /** Adds entry `id` on `port` to `name` for `kind` (EXACT, ONE or MANY). */
  add(name, kind, id, port) {
    const text = Uint16Array.from(name, (ch) => ch.charCodeAt(0));
    const key = nameKey(text, 0, text.length);
    let r = this.find(key, text, 0, text.length);
    if (r < 0) r = this.insert(key, name);
    addRef(this.recs, r + 1 + 2 * kind, this.buckets, id, port);
  }
  /** Adds the entries of record `r` for `kind` that apply on `port`. */
  emit(r, kind, port, out) {
    emitRef(this.recs, r + 1 + 2 * kind, this.buckets, port, out);
  }
  insert(key, name) {
    const size = REC_CHARS + (name.length + 1 >> 1);
    const recs = roomFor(this.recs, this.used + size);
    if (recs !== this.recs) {
      this.recs = recs;
      this.chars = new Uint16Array(recs.buffer);
    }
    const r = this.used;
    this.used += size;
    this.recs[r] = name.length;
    for (let k = 1; k < REC_CHARS; k += 2) this.recs[r + k] = -1;
    const off = 2 * (r + REC_CHARS);
    for (let i = 0; i < name.length; i++) this.chars[off + i] = name.charCodeAt(i);
    this.count++;
    if (this.count * 2 > this.mask + 1) this.rehash();
    else this.place(key, r);
    this.mark(key);
    return r;
  }
  place(key, r) {
    placeInSlots(this.table, this.mask, key, r);
  }
  /** False when no name has the key `key` (true: maybe one has). */
  maybe(key) {
    const bit = key >>> this.filterShift;
    return (this.filter[bit >>> 5] & 1 << (bit & 31)) !== 0;
  }
  mark(key) {
    const bit = key >>> this.filterShift;
    const f = this.filter;
    f[bit >>> 5] = f[bit >>> 5] | 1 << (bit & 31);
  }
  rehash() {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    const bits = Math.min(size * 16, 1 << 18);
    this.filter = new Int32Array(bits >>> 5);
    this.filterShift = 32 - Math.log2(bits);
    for (let r = 0; r < this.used; r += REC_CHARS + (this.recs[r] + 1 >> 1)) {
      const off = 2 * (r + REC_CHARS);
      let h = FNV_OFFSET;
      for (let i = off + this.recs[r] - 1; i >= off; i--) h = Math.imul(h ^ this.chars[i], FNV_PRIME);
      const key = finish(h);
      this.place(key, r);
      this.mark(key);
    }
  }
};
var EXACT = 0;
var ONE = 1;
var MANY = 2;
var REC_CHARS = 7;
function nameKey(s, start, end) {
  let h = FNV_OFFSET;
  for (let i = end - 1; i >= start; i--) h = Math.imul(h ^ s[i], FNV_PRIME);
  return finish(h);
}
var V4Table = class {
  count = 0;
  slots = new Int32Array(3 * 16).fill(-1);
  mask = 15;
  buckets = [];
  /** Adds entry `id` on `port` under `key`. */
  add(key, id, port) {
    const at2 = this.slotOf(key);
    const fresh = this.slots[at2 + 1] === -1;
    if (fresh) this.slots[at2] = key;
    addRef(this.slots, at2 + 1, this.buckets, id, port);
    if (fresh && ++this.count * 2 > this.mask + 1) this.grow();
  }
  /** Adds the entries under `key` that apply on `port`. */
  emit(key, port, out) {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = slotHash(key) & mask; ; i = i + 1 & mask) {
      const at2 = 3 * i;
      const ref = slots[at2 + 1];
      if (ref === -1) return;
      if (slots[at2] !== key) continue;
      emitRef(slots, at2 + 1, this.buckets, port, out);
      return;
    }
  }
  /** The slot of `key`, or the empty slot where it goes. */
  slotOf(key) {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = slotHash(key) & mask; ; i = i + 1 & mask) {
      const at2 = 3 * i;
      if (slots[at2 + 1] === -1 || slots[at2] === key) return at2;
    }
  }
  grow() {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array(3 * (this.mask + 1)).fill(-1);
    for (let at2 = 0; at2 < old.length; at2 += 3) {
      if (old[at2 + 1] === -1) continue;
      const to = this.slotOf(old[at2]);
      this.slots[to] = old[at2];
      this.slots[to + 1] = old[at2 + 1];
      this.slots[to + 2] = old[at2 + 2];
    }
  }
};
function slotHash(key) {
  return finish(Math.imul(key, 2654435761));
}
var BitNode = class {
  zero = null;
  one = null;
  bucket = null;
};
function bitChild(n, bit) {
  if (bit === 0) {
    n.zero ??= new BitNode();
    return n.zero;
  }
  n.one ??= new BitNode();
  return n.one;
}
var NetworkIndex = class {
  names = new NameTable();
  anyHost = null;
  /** IPv4 CIDRs: one table per prefix length in use, keyed by the prefix's bits (as an int32). */
  v4Lengths = [];
  v4Tables = [];
  v6 = new BitNode();
  hasV6 = false;
  /** Adds entry `id` for the pattern `p`. */
  add(p, id) {
    switch (p.kind) {
      case "host": {
        this.names.add(p.host, EXACT, id, p.port);
        return;
      }
      case "any":
        this.anyHost ??= new Bucket();
        this.anyHost.add(id, p.port);
        return;
      case "one":
      case "many": {
        this.names.add(p.suffix, p.kind === "one" ? ONE : MANY, id, p.port);
        return;
      }
      case "cidr": {
        if (p.family === 4) {
          let k = this.v4Lengths.indexOf(p.prefix);
          if (k < 0) {
            this.v4Lengths.push(p.prefix);
            this.v4Tables.push(new V4Table());
            k = this.v4Lengths.length - 1;
          }
          this.v4Tables[k].add(v4Key(p.v4, p.prefix), id, p.port);
          return;
        }
        this.hasV6 = true;
        let node = this.v6;
        const g = p.v6;
        for (let i = 0; i < p.prefix; i++) node = bitChild(node, g[i >>> 4] >>> 15 - (i & 15) & 1);
        node.bucket ??= new Bucket();
        node.bucket.add(id, p.port);
        return;
      }
    }
  }
  lookup(d, out) {
    const port = d.port;
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    const family = d.family;
    if (family === 0) {
      if ((0, import_chunk_FYZT5LIY.loadHostChars)(d.host)) this.lookupName(d.host.length, port, out);
      return;
    }
    if (family === 4) {
      this.lookupV4(d.v4, port, out);
      return;
    }
    if (!this.hasV6) return;
    let node = this.v6;
    const g = d.v6;
    for (let i = 0; node !== null; i++) {
      if (node.bucket !== null) collect(node.bucket, port, out);
      if (i === 128) break;
      node = (g[i >>> 4] >>> 15 - (i & 15) & 1) === 0 ? node.zero : node.one;
    }
  }
  /** The CIDRs that contain the IPv4 address `v4` (its 32 bits, signed or not) and apply on `port`. */
  lookupV4(v4, port, out) {
    const lengths = this.v4Lengths;
    for (let i = 0; i < lengths.length; i++) this.v4Tables[i].emit(v4Key(v4, lengths[i]), port, out);
  }
  /**
   * The lookup of hostChars[0, n), scanned by scanHostChars: a hostname, or an IPv4 address read in
   * place. False, having looked nothing up, for any other form (the general parser's).
   */
  lookupChars(scanned, n, out) {
    if (scanned >= 0) {
      this.lookupHost(scanned & 255, scanned >>> 8, out);
      return true;
    }
    if (scanned !== import_chunk_FYZT5LIY.DOTTED_QUAD || !(0, import_chunk_FYZT5LIY.v4OfHostChars)(n)) return false;
    const port = import_chunk_FYZT5LIY.v4Read[1];
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    this.lookupV4(import_chunk_FYZT5LIY.v4Read[0], port, out);
    return true;
  }
  /** The lookup of the hostname hostChars[0, end) on `port` (see scanHostChars). */
  lookupHost(end, port, out) {
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    this.lookupName(end, port, out);
  }
  /** Probes the name table with every suffix of whole labels of hostChars[0, end), the longest last. */
  lookupName(end, port, out) {
    const t = this.names;
    if (t.count === 0) return;
    const h = import_chunk_FYZT5LIY.hostChars;
    let firstDot = -1;
    let hash = FNV_OFFSET;
    for (let i = end - 1; ; i--) {
      const c = i < 0 ? 46 : h[i];
      if (c === 46) {
        const key = finish(hash);
        const r = t.maybe(key) ? t.find(key, h, i + 1, end) : -1;
        if (r >= 0) {
          if (i < 0) {
            t.emit(r, EXACT, port, out);
            return;
          }
          t.emit(r, MANY, port, out);
          if (firstDot < 0) {
            firstDot = 0;
            while (h[firstDot] !== 46) firstDot++;
          }
          if (i === firstDot) t.emit(r, ONE, port, out);
        }
        if (i < 0) return;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
  }
};
function v4Key(v4, prefix) {
  return prefix === 0 ? 0 : v4 >>> 32 - prefix | 0;
}
var EdgeTable = class {
  count = 0;
  recs = new Int32Array(1024);
  chars = new Uint16Array(this.recs.buffer);
  used = 0;
  /** Per slot, 2 ints: the edge's key, and its record's offset + 1 (0: empty). */
  table = new Int32Array(256);
  mask = 127;
  /** The child of `parent` through segment `s` whose key is `key`, or -1. */
  find(key, parent, s) {
    const table = this.table;
    const mask = this.mask;
    const len = s.length;
    for (let i = key & mask; ; i = i + 1 & mask) {
      const v = table[2 * i + 1];
      if (v === 0) return -1;
      if (table[2 * i] !== key) continue;
      const r = v - 1;
      const recs = this.recs;
      if (recs[r] !== parent || recs[r + 2] !== len) continue;
      const chars = this.chars;
      const off = 2 * (r + 3);
      let j = 0;
      while (j < len && chars[off + j] === s.charCodeAt(j)) j++;
      if (j === len) return recs[r + 1];
    }
  }
  /** `find` for the segment b[s, s + len), all ASCII (a byte is then its character's code). */
  findBytes(key, parent, b, s, len) {
    const table = this.table;
    const mask = this.mask;
    for (let i = key & mask; ; i = i + 1 & mask) {
      const v = table[2 * i + 1];
      if (v === 0) return -1;
      if (table[2 * i] !== key) continue;
      const r = v - 1;
      const recs = this.recs;
      if (recs[r] !== parent || recs[r + 2] !== len) continue;
      const chars = this.chars;
      const off = 2 * (r + 3);
      let j = 0;
      while (j < len && chars[off + j] === b[s + j]) j++;
      if (j === len) return recs[r + 1];
    }
  }
  insert(key, parent, s, child) {
    const size = 3 + (s.length + 1 >> 1);
    const recs = roomFor(this.recs, this.used + size);
    if (recs !== this.recs) {
      this.recs = recs;
      this.chars = new Uint16Array(recs.buffer);
    }
    const r = this.used;
    this.used += size;
    this.recs[r] = parent;
    this.recs[r + 1] = child;
    this.recs[r + 2] = s.length;
    for (let i = 0; i < s.length; i++) this.chars[2 * (r + 3) + i] = s.charCodeAt(i);
    this.count++;
    if (this.count * 2 > this.mask + 1) this.rehash();
    else this.place(key, r);
  }
  place(key, r) {
    placeInSlots(this.table, this.mask, key, r);
  }
  rehash() {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let r = 0; r < this.used; r += 3 + (this.recs[r + 2] + 1 >> 1)) {
      const off = 2 * (r + 3);
      let h = FNV_OFFSET;
      for (let i = 0; i < this.recs[r + 2]; i++) h = Math.imul(h ^ this.chars[off + i], FNV_PRIME);
      this.place(edgeKey(h, this.recs[r]), r);
    }
  }
};
function segmentHash(s) {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}
function bytesHash(b, s, e) {
  let h = FNV_OFFSET;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i], FNV_PRIME);
  return h;
}
function edgeKey(h, parent) {
  return finish(h ^ Math.imul(parent + 1, 2654435761));
}
function asciiOf(b, s, e) {
  let out = "";
  for (let i = s; i < e; i++) out += String.fromCharCode(b[i]);
  return out;
}
var FilesystemIndex = class {
  edges = new EdgeTable();
  /** Per node: 1 when entered through `**` (it may take any further segments itself). */
  loops = [];
  /** Per node: 1 when it has literal children (in `edges`). */
  hasLit = [];
  /** Per node: the node reached through a `**` segment, or -1. */
  globstar = [];
  globs = [];
  /**
   * Per node, the entries of the paths that end there: -1 (none), an entry id (one entry, the
   * common case: no object to load), or -2 - i for `buckets[i]`.
   */
  end = [];
  buckets = [];
  /** Per node: the step of the walk that last added it (no node twice in one step). */
  mark = new Int32Array(16);
  gen = 0;
  absolute = this.node(false);
  home = this.node(false);
  cur = [];
  nxt = [];
  node(loops) {
    const n = this.loops.length;
    this.loops.push(loops ? 1 : 0);
    this.hasLit.push(0);
    this.globstar.push(-1);
    this.globs.push(null);
    this.end.push(-1);
    this.mark = roomFor(this.mark, n + 1);
    return n;
  }
  /** Adds entry `id` for the pattern `p`. */
  add(p, id) {
    let node = p.home ? this.home : this.absolute;
    for (const seg of p.segments) {
      if (seg.kind === "lit") {
        const key = edgeKey(segmentHash(seg.text), node);
        let child = this.edges.find(key, node, seg.text);
        if (child < 0) {
          child = this.node(false);
          this.edges.insert(key, node, seg.text, child);
          this.hasLit[node] = 1;
        }
        node = child;
      } else if (seg.kind === "glob") {
        const list = this.globs[node] ?? [];
        this.globs[node] = list;
        let g = list.find((x) => x.seg.text === seg.text);
        if (!g) {
          g = { seg, node: this.node(false) };
          list.push(g);
        }
        node = g.node;
      } else {
        if (this.globstar[node] < 0) this.globstar[node] = this.node(true);
        node = this.globstar[node];
      }
    }
    const ref = this.end[node];
    if (ref === -1) {
      this.end[node] = id;
      return;
    }
    if (ref >= 0) {
      const b = new Bucket();
      b.add(ref, 0);
      this.end[node] = -2 - this.buckets.length;
      this.buckets.push(b);
    }
    this.buckets[-2 - this.end[node]].add(id, 0);
  }
  push(list, n) {
    if (this.mark[n] === this.gen) return;
    this.mark[n] = this.gen;
    list.push(n);
    const g = this.globstar[n];
    if (g >= 0) this.push(list, g);
  }
  /** A new step of the walk; marks restart before the counter could wrap around to an old one. */
  step() {
    if (this.gen === 2147483647) {
      this.mark.fill(0);
      this.gen = 0;
    }
    this.gen++;
  }
  lookup(d, out) {
    this.begin(d.home);
    const segs = d.segments;
    for (let k = 0; k < segs.length && this.cur.length > 0; k++) this.stepText(segs[k]);
    this.ends(out);
  }
  /**
   * `lookup` of a path read in place: the ASCII segments of b[from, end) (a path in normal form, its
   * root already read: `home` for `~/`), after the segments of `prefix` if any (home's, for the
   * absolute spelling of a `~/` path). No string is made but for a segment a `*` matcher reads.
   */
  lookupBytes(home, prefix, b, from, end, out) {
    this.begin(home);
    if (prefix !== null) {
      for (let k = 0; k < prefix.length && this.cur.length > 0; k++) this.stepText(prefix[k]);
    }
    let s = from;
    while (s < end && this.cur.length > 0) {
      let e = s;
      while (e < end && b[e] !== 47) e++;
      this.stepBytes(b, s, e);
      s = e + 1;
    }
    this.ends(out);
  }
  /** The walk's first step: its root. */
  begin(home) {
    const cur = this.cur;
    while (cur.length > 0) cur.pop();
    this.step();
    this.push(cur, home ? this.home : this.absolute);
  }
  /** One step of the walk through the segment `s`. */
  stepText(s) {
    const cur = this.cur;
    const nxt = this.nxt;
    const h = segmentHash(s);
    this.step();
    while (nxt.length > 0) nxt.pop();
    for (let i = 0; i < cur.length; i++) {
      const n = cur[i];
      if (this.loops[n] === 1) this.push(nxt, n);
      if (this.hasLit[n] === 1) {
        const c = this.edges.find(edgeKey(h, n), n, s);
        if (c >= 0) this.push(nxt, c);
      }
      const globs = this.globs[n];
      if (globs) {
        for (const g of globs) if (matchSegment(g.seg, s)) this.push(nxt, g.node);
      }
    }
    this.cur = nxt;
    this.nxt = cur;
  }
  /** `stepText` for the ASCII segment b[s, e). */
  stepBytes(b, s, e) {
    const cur = this.cur;
    const nxt = this.nxt;
    const h = bytesHash(b, s, e);
    let text = null;
    this.step();
    while (nxt.length > 0) nxt.pop();
    for (let i = 0; i < cur.length; i++) {
      const n = cur[i];
      if (this.loops[n] === 1) this.push(nxt, n);
      if (this.hasLit[n] === 1) {
        const c = this.edges.findBytes(edgeKey(h, n), n, b, s, e - s);
        if (c >= 0) this.push(nxt, c);
      }
      const globs = this.globs[n];
      if (globs) {
        if (text === null) text = asciiOf(b, s, e);
        for (const g of globs) if (matchSegment(g.seg, text)) this.push(nxt, g.node);
      }
    }
    this.cur = nxt;
    this.nxt = cur;
  }
  /** The entries of the paths that end at the walk's nodes. */
  ends(out) {
    const cur = this.cur;
    for (let i = 0; i < cur.length; i++) {
      const ref = this.end[cur[i]];
      if (ref >= 0) out.push(ref);
      else if (ref !== -1) collect(this.buckets[-2 - ref], 0, out);
    }
  }
};
var NO_MATCH_REASON = "no rule matched: denied by default";
function compilePolicies(policies, options = {}) {
  const network = /* @__PURE__ */ new Map();
  const filesystem = /* @__PURE__ */ new Map();
  for (const a of import_chunk_JPTAMGNO.KNOWN_ACTIONS.network) network.set(a, new NetworkIndex());
  for (const a of import_chunk_JPTAMGNO.KNOWN_ACTIONS.filesystem) filesystem.set(a, new FilesystemIndex());
  const notEvaluated = [];
  const entries = [];
  let seq = 0;
  let ruleKey = 0;
  let ruleCount = 0;
  for (const p of policies) {
    if (p.notEvaluated) {
      notEvaluated.push(Object.freeze({ policy: p.name, reason: p.notEvaluated }));
      continue;
    }
    for (const r of p.rules) {
      ruleKey++;
      if (r.notEvaluated) {
        notEvaluated.push(Object.freeze({ policy: p.name, rule: r.name, reason: r.notEvaluated }));
        continue;
      }
      if (r.decision !== "allow" && r.decision !== "deny") {
        throw new import_chunk_6RHUR5LI.ValidationError(
          `rule "${r.name}" of policy "${p.name}": decision must be "allow" or "deny"`
        );
      }
      ruleCount++;
      const decision = r.decision;
      for (const resource of r.resources) {
        const domain = (0, import_chunk_JPTAMGNO.domainOfAction)(r.actions[0] ?? "");
        const net = domain === "network" ? (0, import_chunk_FYZT5LIY.parseNetworkResource)(resource) : null;
        const fs = domain === "filesystem" ? (0, import_chunk_FYZT5LIY.parseFilesystemResource)(resource) : null;
        const out = Object.freeze({ policy: p.name, rule: r.name, resource, decision });
        const e = { seq: seq++, ruleKey, deny: decision === "deny", out, net, fs };
        entries.push(e);
        for (const a of new Set(r.actions)) {
          if (net) network.get(a)?.add(net, e.seq);
          else if (fs) filesystem.get(a)?.add(fs, e.seq);
        }
      }
    }
  }
  const frozenNE = Object.freeze(notEvaluated);
  const shared2 = sharedResults(entries, frozenNE, NO_MATCH_REASON);
  return {
    policies,
    notEvaluated: frozenNE,
    ruleCount,
    network,
    filesystem,
    noMatch: shared2.list[entries.length],
    entries,
    results: shared2.list,
    tails: shared2.tails,
    tailAt: shared2.tailAt,
    denies: shared2.denies,
    pairs: /* @__PURE__ */ new Map(),
    tcp: network.get("connect:tcp"),
    udp: network.get("connect:udp"),
    read: filesystem.get("read"),
    write: filesystem.get("write"),
    homeSegments: (0, import_chunk_FYZT5LIY.homeSegmentsOf)(options.home)
  };
}
var ALLOWED = `${import_chunk_JPTAMGNO.KNOWN_ACTIONS.network.join(", ")}, ${import_chunk_JPTAMGNO.KNOWN_ACTIONS.filesystem.join(", ")}`;
function unknownAction(action) {
  return new import_chunk_6RHUR5LI.ValidationError(`unknown action "${action}"; hubctl evaluates ${ALLOWED}`);
}
var hits = new Hits();
var scratch = [];
var MIXED = -1;
var NOT_PLAIN = -2;
function evaluate(set, action, destination, opts) {
  if (opts !== void 0 && opts.explain === true) return explained(set, action, destination);
  const code = decide(set, action, destination);
  return code >= 0 ? set.results[code] : mixedResult(set);
}
function decide(set, action, destination) {
  hits.n = 0;
  const net = networkIndex(set, action);
  if (net !== null) {
    const scanned = (0, import_chunk_FYZT5LIY.scanDestination)(destination);
    if (!net.lookupChars(scanned, destination.length, hits)) {
      net.lookup((0, import_chunk_FYZT5LIY.destinationOf)(destination, scanned), hits);
    }
  } else {
    const fs = pathIndex(set, action);
    lookupPath(set, fs, (0, import_chunk_FYZT5LIY.parseFilesystemDestination)(destination));
  }
  return hitsCode(set);
}
function decideHostChars(set, udp, n) {
  hits.n = 0;
  if (!(udp ? set.udp : set.tcp).lookupChars((0, import_chunk_FYZT5LIY.scanHostChars)(n), n, hits)) return NOT_PLAIN;
  return hitsCode(set);
}
function decidePathBytes(set, write2, b, s, e) {
  const from = (0, import_chunk_FYZT5LIY.normalPathStart)(b, s, e);
  if (from < 0) return NOT_PLAIN;
  hits.n = 0;
  const fs = write2 ? set.write : set.read;
  const home = b[s] === 126;
  fs.lookupBytes(home, null, b, from, e, hits);
  const hs = set.homeSegments;
  if (hs !== null) {
    if (home) fs.lookupBytes(false, hs, b, from, e, hits);
    else {
      const tail = (0, import_chunk_FYZT5LIY.homeTail)(b, from, e, hs);
      if (tail >= 0) fs.lookupBytes(true, null, b, tail, e, hits);
    }
  }
  return hitsCode(set);
}
function mixedResult(set) {
  if (hits.n === 2) {
    const ids = hits.ids;
    return pairResult(
      set.pairs,
      set.notEvaluated,
      set.entries[ids[0]],
      set.entries[ids[1]]
    );
  }
  return combine(set, false, null, null, null);
}
function hitsCode(set) {
  const n = hits.n;
  if (n === 1) return hits.ids[0];
  return n === 0 ? set.entries.length : MIXED;
}
function networkIndex(set, action) {
  return action === "connect:tcp" ? set.tcp : action === "connect:udp" ? set.udp : null;
}
function pathIndex(set, action) {
  const fs = action === "read" ? set.read : action === "write" ? set.write : null;
  if (fs === null) throw unknownAction(action);
  return fs;
}
function lookupPath(set, fs, fd) {
  fs.lookup(fd, hits);
  const alias = set.homeSegments === null ? null : (0, import_chunk_FYZT5LIY.homeAlias)(fd, set.homeSegments);
  if (alias !== null) fs.lookup(alias, hits);
  return alias;
}
function explained(set, action, destination) {
  hits.n = 0;
  const net = networkIndex(set, action);
  if (net !== null) {
    const nd = (0, import_chunk_FYZT5LIY.parseNetworkDestination)(destination);
    net.lookup(nd, hits);
    return combine(set, true, nd, null, null);
  }
  const fs = pathIndex(set, action);
  const fd = (0, import_chunk_FYZT5LIY.parseFilesystemDestination)(destination);
  const alias = lookupPath(set, fs, fd);
  return combine(set, true, null, fd, alias);
}
function combine(set, explain, nd, fd, alias) {
  const n = hits.n;
  if (n === 0) return explain ? { ...set.noMatch, matched: [] } : set.noMatch;
  const ids = hits.ids;
  const out = scratch;
  while (out.length > 0) out.pop();
  for (let i = 0; i < n; i++) out.push(set.entries[ids[i]]);
  sortBySeq(out);
  let deny = false;
  for (let i = 0; i < out.length; i++) if (out[i].deny) deny = true;
  const decision = deny ? "deny" : "allow";
  const matched = [];
  let lastRule = -1;
  const deciding = [];
  for (let i = 0; i < out.length; i++) {
    const e = out[i];
    const first = e.ruleKey !== lastRule;
    lastRule = e.ruleKey;
    if (e.deny === deny && first) deciding.push(e.out);
    const spelled = alias !== null && e.fs !== null && e.fs.home === alias.home ? alias : fd;
    if (explain) matched.push({ ...e.out, why: whyOf(e, nd, spelled) });
  }
  return {
    decision,
    reason: reasonOf(deny, deciding),
    matched: explain ? matched : deciding,
    notEvaluated: set.notEvaluated
  };
}
function sortBySeq(a) {
  for (let i = 1; i < a.length; i++) {
    const x = a[i];
    let j = i - 1;
    while (j >= 0 && a[j].seq > x.seq) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
}
var HEAD = '{"action":"';
var MIDDLE = '","destination":"';
function parseCompact(s) {
  if (!s.startsWith(HEAD)) return null;
  const a0 = HEAD.length;
  const a1 = s.indexOf('"', a0);
  if (a1 < 0 || !s.startsWith(MIDDLE, a1)) return null;
  const d0 = a1 + MIDDLE.length;
  const d1 = s.indexOf('"', d0);
  if (d1 !== s.length - 2 || s.charCodeAt(s.length - 1) !== 125) return null;
  for (let i = a0; i < d1; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 || c < 32) return null;
  }
  return { action: s.slice(a0, a1), destination: s.slice(d0, d1) };
}
function parseRequestLine(line) {
  let s = line;
  if (s.length > 0 && (s.charCodeAt(s.length - 1) === 13 || s.charCodeAt(0) <= 32)) s = s.trim();
  if (s === "" || s.charCodeAt(0) === 35) return null;
  if (s.charCodeAt(0) === 123) {
    const fast = parseCompact(s);
    if (fast !== null) return fast;
    let v;
    try {
      v = JSON.parse(s);
    } catch (err) {
      throw new import_chunk_6RHUR5LI.ValidationError(`not valid JSON: ${err.message}`);
    }
    const o = v;
    if (typeof o.action !== "string" || typeof o.destination !== "string") {
      throw new import_chunk_6RHUR5LI.ValidationError('a JSON request needs string fields "action" and "destination"');
    }
    return { action: o.action, destination: o.destination };
  }
  const sp = s.search(/\s/);
  if (sp < 0) throw new import_chunk_6RHUR5LI.ValidationError('a request is `action destination` or {"action":\u2026,"destination":\u2026}');
  const action = s.slice(0, sp);
  const destination = s.slice(sp + 1).trim();
  if (/\s/.test(destination)) throw new import_chunk_6RHUR5LI.ValidationError("a request is `action destination`: too many words");
  return { action, destination };
}
function quote(v) {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 34 || c === 92 || c < 32 || c >= 55296 && c <= 57343) return JSON.stringify(v);
  }
  return `"${v}"`;
}
function actionHead(action) {
  switch (action) {
    case "connect:tcp":
      return '{"action":"connect:tcp","destination":';
    case "connect:udp":
      return '{"action":"connect:udp","destination":';
    case "read":
      return '{"action":"read","destination":';
    case "write":
      return '{"action":"write","destination":';
    default:
      return `{"action":${quote(action)},"destination":`;
  }
}
function formatDecisionLine(req, r) {
  return `${actionHead(req.action)}${quote(req.destination)},${decisionJson(r)}}`;
}
function formatErrorLine(lineNo, input, err) {
  const code = err instanceof import_chunk_6RHUR5LI.HubctlError ? err.code : "ERROR";
  const message = err instanceof Error ? err.message : String(err);
  return JSON.stringify({ line: lineNo, input, error: { code, message } });
}
function evaluateLine(set, line, lineNo, opts) {
  let req;
  try {
    req = parseRequestLine(line);
    if (req === null) return null;
    const r = evaluate(set, req.action, req.destination, opts);
    return { text: formatDecisionLine(req, r), denied: r.decision === "deny", error: false };
  } catch (err) {
    if (!(err instanceof import_chunk_6RHUR5LI.HubctlError)) throw err;
    const input = line.endsWith("\r") ? line.slice(0, -1) : line;
    return { text: formatErrorLine(lineNo, input, err), denied: false, error: true };
  }
}
var TextBatch = class {
  constructor(set, opts) {
    this.set = set;
    this.opts = opts;
  }
  set;
  opts;
  counts = { total: 0, denied: 0, errors: 0 };
  rest = "";
  lineNo = 0;
  /** Feed text as it arrives (any chunking); get back the output of the complete lines. */
  push(text) {
    const all = this.rest === "" ? text : this.rest + text;
    const lastNl = all.lastIndexOf("\n");
    if (lastNl < 0) {
      this.rest = all;
      return "";
    }
    this.rest = all.slice(lastNl + 1);
    return this.lines(all, lastNl);
  }
  end() {
    const rest = this.rest;
    this.rest = "";
    return rest === "" ? "" : this.lines(rest, rest.length);
  }
  lines(text, end) {
    const out = [];
    let start = 0;
    while (start <= end && start < text.length) {
      let nl = text.indexOf("\n", start);
      if (nl < 0 || nl > end) nl = end;
      const r = evaluateLine(this.set, text.slice(start, nl), ++this.lineNo, this.opts);
      start = nl + 1;
      if (r === null) continue;
      this.counts.total++;
      if (r.error) this.counts.errors++;
      else if (r.denied) this.counts.denied++;
      out.push(r.text);
    }
    return out.length === 0 ? "" : `${out.join("\n")}
`;
  }
};
var utf8Out = new TextEncoder();
var utf8In = new TextDecoder("utf-8", { ignoreBOM: true });
var ACTIONS = ["connect:tcp", "connect:udp", "read", "write"];
var HEAD_BYTES = utf8Out.encode(HEAD);
var MIDDLE_BYTES = utf8Out.encode(MIDDLE);
function actionAt(b, start, end) {
  const len = end - start;
  if (len === 11) {
    if (b[start] !== 99 || b[start + 1] !== 111 || b[start + 2] !== 110 || b[start + 3] !== 110 || b[start + 4] !== 101 || b[start + 5] !== 99 || b[start + 6] !== 116 || b[start + 7] !== 58 || b[start + 9] !== 99 || b[start + 10] !== 112)
      return -1;
    const c = b[start + 8];
    return c === 116 ? 0 : c === 117 ? 1 : -1;
  }
  if (len === 4)
    return b[start] === 114 && b[start + 1] === 101 && b[start + 2] === 97 && b[start + 3] === 100 ? 2 : -1;
  if (len === 5)
    return b[start] === 119 && b[start + 1] === 114 && b[start + 2] === 105 && b[start + 3] === 116 && b[start + 4] === 101 ? 3 : -1;
  return -1;
}
function asciiString(b, start, end) {
  const slice = b.latin1Slice;
  if (slice !== void 0) return slice.call(b, start, end);
  return utf8In.decode(b.subarray(start, end));
}
var SLAB = 1 << 20;
var BatchProcessor = class extends TextBatch {
  /**
   * `readOnly` (for the bench's parse-only figure): read every request exactly as the batch does,
   * then stop: no evaluation, no output; `counts.total` counts the requests read.
   */
  constructor(set, opts, readOnly = false) {
    super(set, opts);
    this.readOnly = readOnly;
  }
  readOnly;
  /** Bytes of an incomplete last line, waiting for the next chunk (joined once, when it ends). */
  parts = [];
  slab = new Uint8Array(SLAB);
  /** slab[flushed, pos) is output not yet handed out. */
  flushed = 0;
  pos = 0;
  started = false;
  /** The chunk being scanned, as a plain Uint8Array. */
  view = new Uint8Array(0);
  /**
   * The byte form of `push`: feed the input as it arrives (any chunking), get back the UTF-8 output
   * for the complete lines, or null when there is none yet. The returned bytes are never written
   * again, so a stream may hold on to them. Same output, byte for byte, as `push` on decoded text:
   * compact `{"action":…,"destination":…}` lines of plain ASCII are read in place without decoding,
   * and their output is assembled from precomputed bytes; any other line goes through the text path.
   */
  pushBytes(input) {
    let chunk = input;
    let start = 0;
    if (!this.started) {
      if (this.parts.length > 0) chunk = this.joinParts(chunk, chunk.length);
      if (chunk.length < 3) {
        if (chunk.length > 0) this.parts.push(chunk.slice());
        return null;
      }
      this.started = true;
      if (chunk[0] === 239 && chunk[1] === 187 && chunk[2] === 191) start = 3;
    } else if (this.parts.length > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.parts.push(chunk.slice());
        return null;
      }
      const line = this.joinParts(chunk, nl + 1);
      this.scan(line, 0, line.length);
      start = nl + 1;
    }
    const done = this.scan(chunk, start, chunk.length);
    if (done < chunk.length) this.parts.push(chunk.slice(done));
    return this.take();
  }
  /** The output of a last line without newline, or null. */
  endBytes() {
    if (this.parts.length > 0) {
      const rest = this.joinParts(new Uint8Array(0), 0);
      let s = 0;
      if (!this.started && rest.length >= 3 && rest[0] === 239 && rest[1] === 187 && rest[2] === 191)
        s = 3;
      this.started = true;
      s = this.scan(rest, s, rest.length);
      if (s < rest.length) this.line(rest, s, rest.length);
    }
    return this.take();
  }
  /** The waiting parts and b[0, bEnd) as one array; no parts wait afterwards. */
  joinParts(b, bEnd) {
    let n = bEnd;
    for (const p of this.parts) n += p.length;
    const out = new Uint8Array(n);
    let at2 = 0;
    for (const p of this.parts) {
      out.set(p, at2);
      at2 += p.length;
    }
    out.set(b.subarray(0, bEnd), at2);
    this.parts = [];
    return out;
  }
  take() {
    if (this.pos === this.flushed) return null;
    const out = this.slab.subarray(this.flushed, this.pos);
    this.flushed = this.pos;
    return out;
  }
  /** Room for `n` more bytes of output (the slab's unflushed part moves to a new slab if needed). */
  room(n) {
    if (this.pos + n <= this.slab.length) return this.slab;
    const kept = this.pos - this.flushed;
    const next = new Uint8Array(Math.max(SLAB, 2 * (kept + n)));
    next.set(this.slab.subarray(this.flushed, this.pos));
    this.slab = next;
    this.flushed = 0;
    this.pos = kept;
    return next;
  }
  /**
   * Reads the complete lines of b[from, end); returns where the first incomplete line starts (end
   * when every line was complete).
   */
  scan(b, from, end) {
    this.view = b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.length);
    let s = from;
    while (s < end) {
      const next = this.fast(b, s, end);
      if (next >= 0) {
        s = next;
        continue;
      }
      let nl = s;
      while (nl < end && b[nl] !== 10) nl++;
      if (nl === end) return s;
      this.line(b, s, nl);
      s = nl + 1;
    }
    return end;
  }
  /**
   * The fast path for one line at b[s…]: the compact form with ASCII fields free of escapes, a known
   * action and a destination the engine takes. Returns where the next line starts, or -1 when the
   * line must take the text path (or is not complete in this chunk).
   */
  fast(b, s, end) {
    if (this.opts !== void 0 && this.opts.explain === true) return -1;
    const head = HEAD_BYTES;
    if (end - s < head.length + MIDDLE_BYTES.length + 4) return -1;
    for (let k = 0; k < head.length; k++) if (b[s + k] !== head[k]) return -1;
    const a0 = s + head.length;
    let i = a0;
    let c = 0;
    for (; i < end; i++) {
      c = b[i];
      if (c === 34 || c === 92 || c < 32 || c > 126) break;
    }
    if (c !== 34 || i >= end) return -1;
    const action = actionAt(b, a0, i);
    if (action < 0) return -1;
    const middle = MIDDLE_BYTES;
    if (i + middle.length > end) return -1;
    for (let k = 0; k < middle.length; k++) if (b[i + k] !== middle[k]) return -1;
    const d0 = i + middle.length;
    const chars = import_chunk_FYZT5LIY.hostChars;
    for (i = d0; i < end; i++) {
      c = b[i];
      if (c === 34 || c === 92 || c < 32 || c > 126) break;
      chars[i - d0 & 255] = c;
    }
    const d1 = i;
    if (c !== 34 || d1 + 2 >= end || b[d1 + 1] !== 125) return -1;
    let nl = d1 + 2;
    if (b[nl] === 13) nl++;
    if (nl >= end || b[nl] !== 10) return -1;
    if (this.readOnly) {
      const destination = asciiString(b, d0, d1);
      this.lineNo++;
      this.counts.total++;
      if (destination.length === 0) this.counts.errors++;
      return nl + 1;
    }
    const set = this.set;
    let code;
    if (action < 2) code = decideHostChars(set, action === 1, d1 - d0);
    else code = decidePathBytes(set, action === 3, this.view, d0, d1);
    if (code === NOT_PLAIN) {
      try {
        code = decide(set, ACTIONS[action], asciiString(b, d0, d1));
      } catch {
        return -1;
      }
    }
    this.lineNo++;
    const counts = this.counts;
    counts.total++;
    const headLen = d1 + 1 - s;
    if (code >= 0) {
      if (set.denies[code] === 1) counts.denied++;
      const t0 = set.tailAt[code];
      const t1 = set.tailAt[code + 1];
      const out2 = this.room(headLen + t1 - t0);
      const p2 = this.pos;
      out2.set(this.view.subarray(s, d1 + 1), p2);
      out2.set(set.tails.subarray(t0, t1), p2 + headLen);
      this.pos = p2 + headLen + t1 - t0;
      return nl + 1;
    }
    const r = mixedResult(set);
    if (r.decision === "deny") counts.denied++;
    const json = `,${decisionJson(r)}}
`;
    const out = this.room(headLen + json.length * 3);
    const p = this.pos;
    out.set(this.view.subarray(s, d1 + 1), p);
    this.pos = p + headLen + utf8Out.encodeInto(json, out.subarray(p + headLen)).written;
    return nl + 1;
  }
  /** The text path for the line b[s, e) (its newline excluded). */
  line(b, s, e) {
    if (this.readOnly) {
      this.lineNo++;
      try {
        if (parseRequestLine(utf8In.decode(b.subarray(s, e))) !== null) this.counts.total++;
      } catch {
        this.counts.total++;
        this.counts.errors++;
      }
      return;
    }
    const r = evaluateLine(this.set, utf8In.decode(b.subarray(s, e)), ++this.lineNo, this.opts);
    if (r === null) return;
    this.counts.total++;
    if (r.error) this.counts.errors++;
    else if (r.denied) this.counts.denied++;
    const out = this.room(r.text.length * 3 + 1);
    const p = this.pos + utf8Out.encodeInto(r.text, out.subarray(this.pos)).written;
    out[p] = 10;
    this.pos = p + 1;
  }
};
var DECLINED = /* @__PURE__ */ Symbol("declined");
var Decline = class extends Error {
};
var INDICATORS = new Set("-?:,[]{}#&*!|>'\"%@`");
var UNSUPPORTED_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
var KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +|$)/;
var NUMBER = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
function readYamlSubset(source) {
  if (UNSUPPORTED_CHARS.test(source)) return DECLINED;
  const lines = [];
  for (const raw of source.split("\n")) {
    const indent = leadingSpaces(raw, 0);
    const text = trimTrailingSpaces(raw.slice(indent));
    if (text === "" || text.startsWith("#")) continue;
    if (indent === 0 && /^(?:---|\.\.\.|%)/.test(text)) return DECLINED;
    lines.push({ indent, text });
  }
  if (lines.length === 0) return DECLINED;
  try {
    const reader = new Reader(lines);
    const value = reader.node(lines[0]?.indent ?? 0);
    if (!reader.done()) return DECLINED;
    return value;
  } catch (err) {
    if (err instanceof Decline) return DECLINED;
    throw err;
  }
}
var Reader = class {
  constructor(lines) {
    this.lines = lines;
  }
  lines;
  i = 0;
  done() {
    return this.i === this.lines.length;
  }
  peek() {
    return this.lines[this.i];
  }
  /** The block node starting on the current line, which is indented at least `min`. */
  node(min) {
    const line = this.peek();
    if (!line || line.indent < min) return null;
    if (isSequenceEntry(line.text)) return this.sequence(line.indent);
    if (KEY.test(line.text)) return this.mapping(line.indent);
    this.i++;
    return inlineValue(line.text);
  }
  sequence(indent) {
    const items2 = [];
    for (let line = this.peek(); line?.indent === indent && isSequenceEntry(line.text); line = this.peek()) {
      const rest = line.text.slice(leadingSpaces(line.text, 1));
      if (rest === "" || rest.startsWith("#")) {
        this.i++;
        items2.push(this.node(indent + 1));
        continue;
      }
      this.lines[this.i] = { indent: indent + line.text.length - rest.length, text: rest };
      items2.push(this.node(indent + 1));
    }
    return items2;
  }
  mapping(indent) {
    const map = {};
    for (let line = this.peek(); line?.indent === indent; line = this.peek()) {
      const m = KEY.exec(line.text);
      if (!m) throw new Decline();
      const key = m[1];
      if (key === "__proto__" || typeof plainValue(key) !== "string" || Object.hasOwn(map, key)) {
        throw new Decline();
      }
      const rest = line.text.slice(m[0].length);
      this.i++;
      if (rest !== "" && !rest.startsWith("#")) {
        map[key] = inlineValue(rest);
        continue;
      }
      const next = this.peek();
      if (next && next.indent === indent && isSequenceEntry(next.text)) map[key] = this.sequence(indent);
      else map[key] = this.node(indent + 1);
    }
    return map;
  }
};
function leadingSpaces(s, from) {
  let j = from;
  while (s[j] === " ") j++;
  return j;
}
function trimTrailingSpaces(s) {
  let end = s.length;
  while (s[end - 1] === " ") end--;
  return s.slice(0, end);
}
function isSequenceEntry(text) {
  return text === "-" || text.startsWith("- ");
}
function inlineValue(text) {
  const first = text[0];
  if (first === "[") return flowSequence(text);
  if (first === '"' || first === "'") {
    const [value, end] = quoted(text, 0);
    expectLineEnd(text, end);
    return value;
  }
  const comment = text.indexOf(" #");
  const plain = trimTrailingSpaces(comment < 0 ? text : text.slice(0, comment));
  if (plain.includes(": ") || plain.endsWith(":")) throw new Decline();
  return plainValue(plain);
}
function flowSequence(text) {
  const items2 = [];
  let j = 1;
  for (; ; ) {
    while (text[j] === " ") j++;
    if (text[j] === "]") break;
    let item;
    const c = text[j];
    if (c === '"' || c === "'") {
      [item, j] = quoted(text, j);
    } else {
      const start = j;
      while (j < text.length && text[j] !== "," && text[j] !== "]") {
        if ("[]{}#".includes(text[j])) throw new Decline();
        j++;
      }
      const plain = trimTrailingSpaces(text.slice(start, j));
      if (plain === "" || /:(?: |$)/.test(plain)) throw new Decline();
      item = plainValue(plain);
    }
    items2.push(item);
    while (text[j] === " ") j++;
    if (text[j] === ",") {
      j++;
      continue;
    }
    if (text[j] === "]") break;
    throw new Decline();
  }
  expectLineEnd(text, j + 1);
  return items2;
}
function quoted(text, at2) {
  const q = text[at2];
  let value = "";
  for (let j = at2 + 1; j < text.length; j++) {
    const c = text[j];
    if (q === '"' && c === "\\") throw new Decline();
    if (c !== q) {
      value += c;
      continue;
    }
    if (q === "'" && text[j + 1] === "'") {
      value += "'";
      j++;
      continue;
    }
    return [value, j + 1];
  }
  throw new Decline();
}
function expectLineEnd(text, at2) {
  const rest = text.slice(at2);
  if (rest !== "" && !/^ +#/.test(rest)) throw new Decline();
}
function plainValue(s) {
  if (INDICATORS.has(s[0])) throw new Decline();
  if (s === "~" || s === "null" || s === "Null" || s === "NULL") return null;
  if (s === "true" || s === "True" || s === "TRUE") return true;
  if (s === "false" || s === "False" || s === "FALSE") return false;
  if (NUMBER.test(s)) throw new Decline();
  return s;
}
function isObj(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function fail(where2, message) {
  throw new import_chunk_6RHUR5LI.ValidationError(`${where2}: ${message}`);
}
function join(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}
function at(source, path) {
  return path === "" ? source : `${source}: ${path}`;
}
function parseScope(source, path, v) {
  if (v === void 0 || v === null) return {};
  if (!isObj(v)) fail(at(source, path), "scope must be an object like {teams: [<uuid>, \u2026]}");
  const teams = v.teams;
  if (teams === void 0 || teams === null) return {};
  if (!Array.isArray(teams) || teams.some((t) => typeof t !== "string")) {
    fail(at(source, join(path, "teams")), "teams must be a list of team UUIDs");
  }
  return { teams };
}
function stringsOrEmpty(v) {
  return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
}
function parseRule(source, path, v, index) {
  if (!isObj(v)) fail(at(source, path), "a rule must be an object {name, actions, decision, resources}");
  const id = typeof v.id === "string" ? v.id : void 0;
  const actions = stringsOrEmpty(v.actions);
  const unknown = actions.filter((a) => (0, import_chunk_JPTAMGNO.domainOfAction)(a) === void 0);
  let notEvaluated;
  if (v.http_resources !== void 0) notEvaluated = "it has http_resources (a newer rule format)";
  else if (unknown.length > 0)
    notEvaluated = `its action${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} ${unknown.length > 1 ? "are" : "is"} not known to hubctl`;
  if (notEvaluated) {
    const name = typeof v.name === "string" && v.name !== "" ? v.name : id ?? `rule ${index + 1}`;
    const decision = typeof v.decision === "string" ? v.decision : "";
    return { id, name, actions, decision, resources: stringsOrEmpty(v.resources), notEvaluated };
  }
  for (const field of ["name", "actions", "decision", "resources"]) {
    if (v[field] === void 0) fail(at(source, join(path, field)), `a rule needs "${field}"`);
  }
  const where2 = (field) => at(source, join(path, field));
  const guard = (field, f) => {
    try {
      return f();
    } catch (err) {
      if (err instanceof import_chunk_6RHUR5LI.HubctlError) fail(where2(field), err.message);
      throw err;
    }
  };
  const r = guard(
    "name",
    () => (0, import_chunk_FYZT5LIY.validateRule)({ name: v.name, actions: ["read"], decision: "allow", resources: ["/"] })
  );
  const domain = guard("actions", () => {
    if (!Array.isArray(v.actions) || v.actions.some((a) => typeof a !== "string")) {
      throw new import_chunk_6RHUR5LI.ValidationError('"actions" must be a list of strings');
    }
    return (0, import_chunk_FYZT5LIY.domainOfActions)(v.actions);
  });
  guard(
    "decision",
    () => (0, import_chunk_FYZT5LIY.validateRule)({ name: "x", actions: ["read"], decision: v.decision, resources: ["/"] })
  );
  if (!Array.isArray(v.resources)) fail(where2("resources"), '"resources" must be a list of strings');
  if (v.resources.length === 0) fail(where2("resources"), `a rule needs at least one ${domain} resource`);
  v.resources.forEach((res, i) => {
    if (typeof res !== "string")
      fail(where2(`resources[${i}]`), `a resource is a string, not ${JSON.stringify(res)}`);
    guard(`resources[${i}]`, () => (0, import_chunk_FYZT5LIY.parseResource)(domain, res));
  });
  const rule = {
    name: r.name,
    actions: [...new Set(v.actions)],
    decision: v.decision,
    resources: v.resources,
    domain
  };
  if (id !== void 0) rule.id = id;
  return rule;
}
function finishRules(source, path, rules) {
  let domain;
  let first = -1;
  rules.forEach((r, i) => {
    if (!r.domain) return;
    if (domain && r.domain !== domain) {
      fail(
        at(source, join(join(path, i), "actions")),
        `rule "${r.name}" is ${r.domain} but rule "${rules[first].name}" is ${domain}; a policy holds rules of one domain`
      );
    }
    if (!domain) {
      domain = r.domain;
      first = i;
    }
  });
  return domain;
}
function parseRules(source, path, v) {
  if (v === void 0 || v === null) return [];
  if (!Array.isArray(v)) fail(at(source, path), "rules must be a list");
  return v.map((r, i) => parseRule(source, join(path, i), r, i));
}
function policyName(source, path, v) {
  if (typeof v.name !== "string" || v.name.trim() === "")
    fail(at(source, join(path, "name")), "a policy needs a non-empty name");
  return v.name;
}
function parsePolicyObject(source, path, v) {
  if (!isObj(v))
    fail(at(source, path), "a policy must be an object (the API Policy, or {name, scope?, rules})");
  const name = policyName(source, path, v);
  const id = typeof v.id === "string" ? v.id : void 0;
  const scope = parseScope(source, join(path, "scope"), v.scope);
  if ("rules" in v && !("allowlist_v0" in v)) {
    const rules2 = parseRules(source, join(path, "rules"), v.rules);
    const domain2 = finishRules(source, join(path, "rules"), rules2);
    return withId({ name, source, type: "allowlist_v0", scope, domain: domain2, rules: rules2 }, id);
  }
  const type = (0, import_chunk_JPTAMGNO.policyType)(v);
  if (type !== "allowlist_v0") {
    return withId(
      {
        name,
        source,
        type,
        scope,
        rules: [],
        notEvaluated: `it is a ${type} policy; hubctl evaluates allowlist_v0 only`
      },
      id
    );
  }
  const set = v.allowlist_v0;
  if (set !== void 0 && set !== null && !isObj(set))
    fail(at(source, join(path, "allowlist_v0")), "must be an object {domain?, rules}");
  const rulesPath = join(join(path, "allowlist_v0"), "rules");
  const rules = isObj(set) ? parseRules(source, rulesPath, set.rules) : [];
  const domain = finishRules(source, rulesPath, rules);
  if (isObj(set) && set.domain !== void 0 && domain !== void 0 && set.domain !== domain) {
    fail(
      at(source, join(join(path, "allowlist_v0"), "domain")),
      `says ${String(set.domain)} but the rules are ${domain}`
    );
  }
  return withId({ name, source, type, scope, domain, rules }, id);
}
function withId(doc, id) {
  if (doc.domain === void 0) delete doc.domain;
  return id === void 0 ? doc : { id, ...doc };
}
function policyDocFromApi(p, source = "live") {
  return parsePolicyObject(source, `policy ${JSON.stringify(p?.name ?? p?.id ?? "?")}`, p);
}
function looksJson(sourceName, text) {
  if (/\.json$/i.test(sourceName)) return true;
  const t = text.trimStart();
  return t.startsWith("{") || t.startsWith("[");
}
async function parseText(text, sourceName) {
  if (looksJson(sourceName, text)) {
    try {
      return [JSON.parse(text)];
    } catch (err) {
      if (/\.json$/i.test(sourceName)) fail(sourceName, `not valid JSON: ${err.message}`);
    }
  }
  const quick = readYamlSubset(text);
  if (quick !== DECLINED) return quick === null ? [] : [quick];
  const YAML = await Promise.resolve().then(() => __toESM(require("./browser-COT233EQ.js")));
  const docs = YAML.parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const out = [];
  for (const d of list) {
    const e = d.errors[0];
    if (e) fail(sourceName, `not valid YAML: ${e.message.split("\n")[0].replace(/:$/, "")}`);
    const value = d.toJS();
    if (value !== null && value !== void 0) out.push(value);
  }
  return out;
}
async function parsePolicyDocument(text, sourceName) {
  const values = await parseText(text, sourceName);
  const out = [];
  const multi = values.length > 1;
  values.forEach((value, d) => {
    const base = multi ? `document ${d + 1}` : "";
    if (!Array.isArray(value)) {
      out.push(parsePolicyObject(sourceName, base, value));
      return;
    }
    value.forEach((p, i) => {
      out.push(parsePolicyObject(sourceName, join(base, i), p));
    });
  });
  if (out.length === 0) fail(sourceName, "holds no policy");
  return out;
}
function applicablePolicies(policies, teams = []) {
  const wanted = new Set(teams);
  return policies.filter((p) => {
    const scoped = p.scope?.teams ?? [];
    return scoped.length === 0 || scoped.some((t) => wanted.has(t));
  });
}
async function readPolicyFile(path) {
  let text;
  try {
    text = await (0, import_promises.readFile)(path, "utf8");
  } catch (err) {
    const code = err.code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : String(code ?? err);
    throw new import_chunk_6RHUR5LI.UsageError(`cannot read policy file ${path}: ${why}`);
  }
  return parsePolicyDocument(text, path);
}
async function loadPolicies(ctx, src) {
  const out = [];
  for (const f of src.files) out.push(...await readPolicyFile(f));
  if (src.policies.length === 0 && src.teams.length === 0 && !src.live) return out;
  const client = await ctx.governance();
  const { fetchPolicy: fetchPolicy2 } = await Promise.resolve().then(() => __toESM(require("./resolve-BP7BVKJK.js")));
  for (const ref of src.policies) {
    const { policy } = await fetchPolicy2(client, ref);
    const type = (0, import_chunk_JPTAMGNO.policyType)(policy);
    if (type !== "allowlist_v0") {
      throw new import_chunk_6RHUR5LI.ValidationError(
        `policy "${policy.name}" (${policy.id}) is a ${type} policy; hubctl evaluates allowlist_v0 policies only`
      );
    }
    out.push(policyDocFromApi(policy, `policy ${policy.id}`));
  }
  if (src.teams.length > 0 || src.live) {
    const summaries = applicablePolicies(await client.allPolicies(), src.teams);
    for (const s of summaries) {
      const type = (0, import_chunk_JPTAMGNO.policyType)(s);
      if (type !== "allowlist_v0") {
        out.push({
          id: s.id,
          name: s.name,
          source: `policy ${s.id}`,
          type,
          scope: s.scope ?? {},
          rules: [],
          notEvaluated: `it is a ${type} policy; hubctl evaluates allowlist_v0 only`
        });
        continue;
      }
      out.push(policyDocFromApi(await client.getPolicy(s.id), `policy ${s.id}`));
    }
  }
  return out;
}
function describeNotEvaluated(items2) {
  return items2.map(
    (n) => n.rule === void 0 ? `not evaluated: policy "${n.policy}": ${n.reason}` : `not evaluated: rule "${n.rule}" of policy "${n.policy}": ${n.reason}`
  );
}
function register3(group, host, runner = run3) {
  const cmd = group.command("eval").description(
    "Decide whether a request would be allowed, and by which rule: offline with --file, else the policies of --org"
  ).argument("[action]", "connect:tcp, connect:udp, read or write").argument("[destination]", "host, host:port, [v6]:port, URL, or a path (/\u2026 or ~/\u2026)").option("-f, --file <path>", "policy file, YAML or JSON (repeatable)", import_chunk_JQMFCPN3.collectRepeat).option("--policy <policy>", "fetch this policy by id or name (repeatable)", import_chunk_JQMFCPN3.collectRepeat).option(
    "--team <uuid>",
    "evaluate the policies that apply to this team in --org (repeatable)",
    import_chunk_JQMFCPN3.collectRepeat
  ).option("--explain", "show every rule that matched and why").option(
    "--batch",
    'read requests from stdin (NDJSON or "action destination" lines), write one JSON a line'
  ).option("--fail-on-deny", "with --batch: exit 3 when any request was denied").action((action, destination, raw) => {
    const opts = {
      action,
      destination,
      files: raw.file ?? [],
      policies: raw.policy ?? [],
      teams: raw.team ?? [],
      live: false,
      explain: Boolean(raw.explain),
      batch: Boolean(raw.batch),
      failOnDeny: Boolean(raw.failOnDeny)
    };
    if (opts.batch && action !== void 0) {
      throw new import_chunk_6RHUR5LI.UsageError("--batch reads requests from stdin: give no action or destination");
    }
    if (!opts.batch && (action === void 0 || destination === void 0)) {
      throw new import_chunk_6RHUR5LI.UsageError(
        "give an action and a destination, e.g. `hubctl policy eval connect:tcp github.com -f policy.yaml`"
      );
    }
    if (opts.failOnDeny && !opts.batch) throw new import_chunk_6RHUR5LI.UsageError("--fail-on-deny applies to --batch");
    opts.live = opts.files.length === 0 && opts.policies.length === 0;
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl policy eval connect:tcp api.github.com:443 -f examples/network.yaml",
    "hubctl policy eval read ~/src/app/main.go -f examples/filesystem.yaml --explain",
    "hubctl policy eval connect:tcp 169.254.169.254:80 --policy egress --json",
    "hubctl policy eval --batch -f policy.yaml --fail-on-deny < requests.ndjson > decisions.ndjson"
  ]);
}
async function run3(ctx, opts) {
  const policies = await loadPolicies(ctx, opts);
  const set = compilePolicies(policies, { home: ctx.env.HOME });
  for (const line of describeNotEvaluated(set.notEvaluated)) ctx.output.warn(line);
  if (opts.batch) return runBatch(ctx, set, opts);
  const result = evaluate(set, opts.action, opts.destination, { explain: opts.explain });
  await show(ctx, result);
  return result.decision === "allow" ? import_chunk_6RHUR5LI.ExitCode.OK : import_chunk_6RHUR5LI.ExitCode.DENIED;
}
async function show(ctx, r) {
  if (ctx.output.json) {
    const out = { decision: r.decision, reason: r.reason, matched: r.matched };
    if (r.notEvaluated.length > 0) out.not_evaluated = r.notEvaluated;
    ctx.output.printJson(out);
    return;
  }
  ctx.output.line(await ctx.output.style(r.decision, "bold", r.decision === "allow" ? "green" : "red"));
  ctx.output.line(`reason: ${r.reason}`);
  for (const m of r.matched) {
    const head = `  ${m.decision.padEnd(5)}  rule "${m.rule}" of policy "${m.policy}": ${m.resource}`;
    ctx.output.line(head);
    if (m.why) ctx.output.line(`         ${m.why}`);
  }
}
async function write(out, chunk) {
  if (out.write(chunk) === false && typeof out.once === "function") {
    await new Promise((resolve) => out.once("drain", resolve));
  }
}
async function runBatch(ctx, set, opts) {
  const batch = new BatchProcessor(set, { explain: opts.explain });
  const out = ctx.io.stdout;
  const bytesOut = typeof out.writableHighWaterMark === "number";
  const decoder = new TextDecoder();
  const emit = (bytes) => {
    if (bytes === null) return void 0;
    return write(out, bytesOut ? bytes : decoder.decode(bytes, { stream: true }));
  };
  const encoder = new TextEncoder();
  for await (const chunk of ctx.io.stdin) {
    const input = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    const pending2 = emit(batch.pushBytes(input));
    if (pending2 !== void 0) await pending2;
  }
  const pending = emit(batch.endBytes());
  if (pending !== void 0) await pending;
  const { total, denied, errors } = batch.counts;
  ctx.output.info(
    `${total} request${total === 1 ? "" : "s"}: ${total - denied - errors} allowed, ${denied} denied, ${errors} malformed`
  );
  return opts.failOnDeny && denied > 0 ? import_chunk_6RHUR5LI.ExitCode.DENIED : import_chunk_6RHUR5LI.ExitCode.OK;
}
function register4(group, host, runner = run4) {
  const cmd = group.command("get").description("Show a policy and its rules").argument("<policy>", "policy id (pol_\u2026) or name").action((policy) => host.run((ctx) => runner(ctx, { policy })));
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl policy get egress", "hubctl policy get pol_3f2b8c1e --json > egress.json"]);
}
async function run4(ctx, opts) {
  const { policy } = await (0, import_chunk_JPTAMGNO.fetchPolicy)(await ctx.governance(), opts.policy);
  if (ctx.output.json) {
    ctx.output.printJson(policy);
    return;
  }
  await (0, import_chunk_FYZT5LIY.showPolicy)(ctx, policy);
}
function under(host, suffix) {
  return host.length > suffix.length + 1 && host.endsWith(`.${suffix}`);
}
function oneBelow(host, suffix) {
  return under(host, suffix) && host.indexOf(".") === host.length - suffix.length - 1;
}
function maskedEqualV6(a, b, prefix) {
  for (let i = 0; i < prefix; i++) {
    const bit = (g) => g[i >>> 4] >>> 15 - (i & 15) & 1;
    if (bit(a) !== bit(b)) return false;
  }
  return true;
}
function networkCovers(d, r) {
  if (d.port !== 0 && d.port !== r.port) return false;
  if (d.kind === "any") return true;
  switch (r.kind) {
    case "any":
      return false;
    case "host":
      if (d.kind === "host") return d.host === r.host;
      if (d.kind === "one") return oneBelow(r.host, d.suffix);
      if (d.kind === "many") return under(r.host, d.suffix);
      return false;
    case "one":
      if (d.kind === "one") return d.suffix === r.suffix;
      if (d.kind === "many") return d.suffix === r.suffix || under(r.suffix, d.suffix);
      return false;
    case "many":
      if (d.kind === "many") return d.suffix === r.suffix || under(r.suffix, d.suffix);
      return false;
    case "cidr": {
      if (d.kind !== "cidr" || d.family !== r.family || r.prefix < d.prefix) return false;
      if (d.family === 4) {
        const mask = d.prefix === 0 ? 0 : 4294967295 << 32 - d.prefix >>> 0;
        return (r.v4 & mask) >>> 0 === d.v4;
      }
      return maskedEqualV6(d.v6, r.v6, d.prefix);
    }
  }
}
function filesystemCovers(d, r) {
  if (d.home !== r.home) return false;
  if (d.canonical === r.canonical) return true;
  if (r.literal) {
    return matchPath(d, { home: r.home, segments: r.segments.map((s) => s.text), path: r.canonical });
  }
  const ds = d.segments;
  const last = ds[ds.length - 1];
  if (last?.kind !== "globstar") return false;
  if (ds.length - 1 > r.segments.length) return false;
  for (let i = 0; i < ds.length - 1; i++) {
    const a = ds[i];
    const b = r.segments[i];
    if (a.kind !== "lit" || b.kind !== "lit" || a.text !== b.text) return false;
  }
  return true;
}
function covers(d, r) {
  if (d.net && r.net) return networkCovers(d.net, r.net);
  if (d.fs && r.fs) return filesystemCovers(d.fs, r.fs);
  return false;
}
function shareAction(a, b) {
  for (const x of a.actions) if (b.actions.has(x)) return x;
  return void 0;
}
function items(policies) {
  const out = [];
  let ruleKey = 0;
  for (const p of policies) {
    if (p.notEvaluated) continue;
    for (const r of p.rules) {
      ruleKey++;
      if (r.notEvaluated || r.decision !== "allow" && r.decision !== "deny") continue;
      const domain = (0, import_chunk_JPTAMGNO.domainOfAction)(r.actions[0] ?? "");
      for (const resource of r.resources) {
        out.push({
          policy: p.name,
          rule: r.name,
          ruleKey,
          decision: r.decision,
          actions: new Set(r.actions),
          resource,
          net: domain === "network" ? (0, import_chunk_FYZT5LIY.parseNetworkResource)(resource) : null,
          fs: domain === "filesystem" ? (0, import_chunk_FYZT5LIY.parseFilesystemResource)(resource) : null
        });
      }
    }
  }
  return out;
}
function where(x) {
  return `rule "${x.rule}" of policy "${x.policy}"`;
}
function lintPolicies(policies) {
  const all = items(policies);
  const warnings = [];
  const warn = (code, x, message) => warnings.push({ code, policy: x.policy, rule: x.rule, resource: x.resource, message });
  for (const x of all) {
    const n = x.net;
    if (n && (n.kind === "one" || n.kind === "many")) {
      const apex = { kind: "host", host: n.suffix, port: n.port, canonical: n.suffix };
      const covered = [...x.actions].every(
        (a) => all.some((y) => y.decision === x.decision && y.actions.has(a) && y.net && networkCovers(y.net, apex))
      );
      if (!covered) {
        const verb = x.decision === "allow" ? "allowed" : "denied";
        warn(
          "APEX_NOT_COVERED",
          x,
          `"${x.resource}" in ${where(x)} does not match ${n.suffix} itself, and no rule ${x.decision}s it; add "${n.suffix}" if it should be ${verb} too`
        );
      }
    }
    if (n && n.kind === "any" && x.decision === "allow") {
      warn(
        "ALLOW_ALL_HOSTS",
        x,
        `"${x.resource}" in ${where(x)} allows every host${n.port ? ` on port ${n.port}` : ""}: the allowlist allows everything`
      );
    }
    if (x.fs && x.decision === "allow" && x.actions.has("write")) {
      const readable = all.some((y) => y.decision === "allow" && y.actions.has("read") && covers(y, x));
      if (!readable) {
        warn(
          "WRITE_WITHOUT_READ",
          x,
          `${where(x)} allows write on "${x.resource}" but no rule allows read there; writes usually need reads`
        );
      }
    }
    if (x.decision === "allow") {
      for (const y of all) {
        if (y.decision !== "deny") continue;
        const a = shareAction(x, y);
        if (a && covers(y, x)) {
          warn(
            "DEAD_ALLOW",
            x,
            `allow "${x.resource}" in ${where(x)} never takes effect for ${a}: deny "${y.resource}" in ${where(y)} covers it`
          );
          break;
        }
      }
    }
  }
  for (let i = 0; i < all.length; i++) {
    const x = all[i];
    for (let j = i + 1; j < all.length; j++) {
      const y = all[j];
      if (x.decision !== y.decision || !shareAction(x, y)) continue;
      const cx = x.net?.canonical ?? x.fs?.canonical;
      const cy = y.net?.canonical ?? y.fs?.canonical;
      if (cx === cy) {
        const place = x.ruleKey === y.ruleKey ? `twice in ${where(x)}` : `in ${where(x)} and ${where(y)}`;
        warn("DUPLICATE_RESOURCE", y, `"${y.resource}" appears ${place}`);
      } else if (covers(x, y)) {
        warn(
          "OVERLAPPING_RESOURCE",
          y,
          `"${y.resource}" in ${where(y)} is already covered by "${x.resource}" in ${where(x)}`
        );
      } else if (covers(y, x)) {
        warn(
          "OVERLAPPING_RESOURCE",
          x,
          `"${x.resource}" in ${where(x)} is already covered by "${y.resource}" in ${where(y)}`
        );
      }
    }
  }
  return warnings;
}
function register5(group, host, runner = run5) {
  const cmd = group.command("lint").description("Warn about rules that do not do what they seem to (exit 1 on warnings)").argument("[policy...]", "live policies, by id (pol_\u2026) or name").option("-f, --file <path>", "policy file, YAML or JSON (repeatable)", import_chunk_JQMFCPN3.collectRepeat).action((policies, raw) => {
    const opts = { files: raw.file ?? [], policies };
    if (opts.files.length === 0 && opts.policies.length === 0) {
      throw new import_chunk_6RHUR5LI.UsageError("name a policy file with --file, or a policy by id or name");
    }
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl policy lint -f examples/network.yaml", "hubctl policy lint egress --json"]);
}
async function run5(ctx, opts) {
  const policies = await loadPolicies(ctx, {
    files: opts.files,
    policies: opts.policies,
    teams: [],
    live: false
  });
  const warnings = lintPolicies(policies);
  const notEvaluated = compilePolicies(policies).notEvaluated;
  if (ctx.output.json) {
    const out = { warnings };
    if (notEvaluated.length > 0) out.not_evaluated = notEvaluated;
    ctx.output.printJson(out);
  } else {
    for (const w of warnings)
      ctx.output.line([await ctx.output.style("warning", "yellow"), `: ${w.message} [${w.code}]`]);
    for (const line of describeNotEvaluated(notEvaluated)) ctx.output.warn(line);
    const rules = policies.reduce((n, p) => n + p.rules.length, 0);
    const summary = `${policies.length} polic${policies.length === 1 ? "y" : "ies"}, ${rules} rule${rules === 1 ? "" : "s"}`;
    ctx.output.info(
      warnings.length === 0 ? `no problems found (${summary})` : `${warnings.length} warning${warnings.length === 1 ? "" : "s"} (${summary})`
    );
  }
  return warnings.length === 0 ? import_chunk_6RHUR5LI.ExitCode.OK : import_chunk_6RHUR5LI.ExitCode.ERROR;
}
function register6(group, host, runner = run6) {
  const cmd = group.command("list").description("List the policies of the organization (all pages)").action(() => host.run((ctx) => runner(ctx)));
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl policy list", "hubctl --org acme policy list --json"]);
}
async function run6(ctx) {
  const client = await ctx.governance();
  const summaries = await client.allPolicies();
  if (ctx.output.json) {
    ctx.output.printJson(summaries);
    return;
  }
  if (summaries.length === 0) {
    ctx.output.info(`No policies in org ${client.org} yet: create one with \`hubctl policy create NAME\`.`);
    return;
  }
  await ctx.output.table(
    ["ID", "NAME", "SCOPE", "TYPE", "UPDATED"],
    summaries.map((p) => [p.id, p.name, (0, import_chunk_FYZT5LIY.scopeText)(p.scope), (0, import_chunk_JPTAMGNO.policyType)(p), ctx.output.time(p.updated_at)])
  );
  if (summaries.length >= import_chunk_VTTOAH4R.MAX_POLICIES) {
    ctx.output.warn(
      `Org ${client.org} has ${summaries.length} policies, the maximum: no policy can be created until one is deleted.`
    );
  }
}
function register7(group, host, runner = run7) {
  const cmd = group.command("update").description("Rename a policy or change its scope (only the fields given change; rules don't)").argument("<policy>", "policy id (pol_\u2026) or name").option("--name <name>", "new name").option("--team <uuid>", "replace the team list (repeatable, or comma-separated)", import_chunk_JQMFCPN3.collectList).option("--org-wide", "apply to the whole organization (clears the team list)").action((policy, o) => {
    if (o.team !== void 0 && o.orgWide) {
      throw new import_chunk_6RHUR5LI.UsageError("--team and --org-wide cannot be used together");
    }
    if (o.name === void 0 && o.team === void 0 && !o.orgWide) {
      throw new import_chunk_6RHUR5LI.UsageError("nothing to change: give --name, --team or --org-wide");
    }
    const opts = { policy };
    if (o.name !== void 0) opts.name = (0, import_chunk_JPTAMGNO.checkPolicyName)(o.name, "--name");
    if (o.team !== void 0) {
      opts.teams = (0, import_chunk_JPTAMGNO.checkTeams)(o.team);
      if (opts.teams.length === 0) throw new import_chunk_6RHUR5LI.UsageError("--team needs a team UUID (or use --org-wide)");
    }
    if (o.orgWide) opts.teams = [];
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl policy update egress --name egress-prod",
    "hubctl policy update egress --team 6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b --team 0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d",
    "hubctl policy update pol_3f2b8c1e --org-wide --json"
  ]);
}
async function run7(ctx, opts) {
  const client = await ctx.governance();
  const { id } = await (0, import_chunk_JPTAMGNO.resolvePolicy)(client, opts.policy);
  const body = {};
  if (opts.name !== void 0) body.name = opts.name;
  if (opts.teams !== void 0) body.scope = { teams: opts.teams };
  const result = await client.updatePolicy(id, body);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  await (0, import_chunk_FYZT5LIY.showPolicyFields)(ctx, result.new);
  const changes = [];
  if (result.old.name !== result.new.name)
    changes.push(`renamed "${result.old.name}" to "${result.new.name}"`);
  const before = (0, import_chunk_FYZT5LIY.scopeText)(result.old.scope);
  const after = (0, import_chunk_FYZT5LIY.scopeText)(result.new.scope);
  if (opts.teams !== void 0)
    changes.push(before === after ? `scope ${after}` : `scope ${before} \u2192 ${after}`);
  ctx.output.info(
    `Updated policy "${result.new.name}" (${result.new.id})${changes.length ? `: ${changes.join("; ")}` : ""}.`
  );
  (0, import_chunk_FYZT5LIY.notePropagation)(ctx);
}
function register8(group, host) {
  register6(group, host);
  register4(group, host);
  register(group, host);
  register7(group, host);
  register2(group, host);
  register3(group, host);
  register5(group, host);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  register
});
