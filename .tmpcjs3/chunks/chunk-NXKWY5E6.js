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
  collect: () => collect,
  paginate: () => paginate
});
module.exports = __toCommonJS(stdin_exports);
async function* paginate(fetchPage) {
  const seen = /* @__PURE__ */ new Set();
  let cursor;
  for (; ; ) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (!page.next || seen.has(page.next)) return;
    seen.add(page.next);
    cursor = page.next;
  }
}
async function collect(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  collect,
  paginate
});
