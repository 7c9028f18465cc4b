// The full YAML reader of authored policy files (the subset reader hands it what it declines). The
// `yaml` library parses; this walks its syntax tree to the value, refusing what a policy file has
// no use for and what could hide a mistake or a bomb: duplicate keys, tags (`!foo`, `!!binary`),
// more than a few anchors and aliases, an alias inside an anchored node, keys that are not plain
// names, and deep nesting. It records where each key starts. Pure: no IO (`yaml` is loaded here,
// lazily, only when a file leaves the subset).
import type { Document, Node as YamlNode } from 'yaml';
import { type KeyOffsets, lineCol, noteKey, setOwn } from './source-text.js';

/** Anchors and aliases allowed in one file: a few for a shared list, nothing for a "billion laughs". */
export const MAX_YAML_ALIASES = 8;
const MAX_DEPTH = 64;

/** A problem at an offset of the text; the caller names the file and the line. */
export class YamlProblem extends Error {
  constructor(
    readonly offset: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

type Yaml = typeof import('yaml');

/** The values of the documents of a YAML text (empty documents left out); throws YamlProblem. */
export async function readYamlFull(text: string, offsets?: KeyOffsets): Promise<unknown[]> {
  const YAML: Yaml = await import('yaml');
  try {
    return walkDocuments(YAML, text, offsets);
  } catch (err) {
    // the library recurses on nesting: thousands of levels are nothing a policy file holds
    if (err instanceof RangeError) throw new YamlProblem(undefined, `nested deeper than ${MAX_DEPTH} levels`);
    throw err;
  }
}

function walkDocuments(YAML: Yaml, text: string, offsets: KeyOffsets | undefined): unknown[] {
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: unknown[] = [];
  let aliases = 0;
  for (const doc of list) {
    const e = doc.errors[0];
    if (e) throw new YamlProblem(e.pos[0], `not valid YAML: ${plainMessage(e.message)}`);
    const walk = (node: unknown, depth: number, insideAnchor: boolean): unknown => {
      if (node === null || node === undefined) return null;
      if (!YAML.isNode(node)) throw new YamlProblem(undefined, 'not valid YAML: a node of an unknown kind');
      const at = node.range?.[0];
      if (depth > MAX_DEPTH) throw new YamlProblem(at, `nested deeper than ${MAX_DEPTH} levels`);
      if (node.tag !== undefined) {
        const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
        // the node starts after its tag: point at the tag itself
        const bang = at === undefined ? -1 : text.lastIndexOf('!', at);
        throw new YamlProblem(
          bang === -1 ? at : bang - (text[bang - 1] === '!' ? 1 : 0),
          `${JSON.stringify(tag)} is a YAML tag, which policy files do not use; did you mean the plain value without it, or a quoted string?`,
        );
      }
      if (YAML.isAlias(node)) {
        const target = node.resolve(doc as Document.Parsed);
        if (!target) {
          // `resources: [*.example.com]`: a star starts an alias in YAML
          throw new YamlProblem(
            at,
            `*${node.source} is read by YAML as an alias (a value starting with "*"); did you mean to quote it: "*${node.source}"?`,
          );
        }
        if (insideAnchor) {
          throw new YamlProblem(
            at,
            `the alias *${node.source} is inside an anchored node (an alias bomb?); did you mean to write the values out?`,
          );
        }
        if (++aliases > MAX_YAML_ALIASES) {
          throw new YamlProblem(
            at,
            `more than ${MAX_YAML_ALIASES} YAML anchors and aliases; did you mean to write the values out?`,
          );
        }
        return walk(target, depth, true);
      }
      let anchored = insideAnchor;
      if ((node as YamlNode).anchor !== undefined) {
        anchored = true;
        if (!insideAnchor && ++aliases > MAX_YAML_ALIASES) {
          throw new YamlProblem(
            at,
            `more than ${MAX_YAML_ALIASES} YAML anchors and aliases; did you mean to write the values out?`,
          );
        }
      }
      if (YAML.isScalar(node)) {
        const v = node.value;
        if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
        throw new YamlProblem(at, 'a value that is not text, a number, true, false or null');
      }
      if (YAML.isSeq(node)) return node.items.map((item) => walk(item, depth + 1, anchored));
      if (YAML.isMap(node)) {
        const obj: Record<string, unknown> = {};
        const seen = new Map<string, number | undefined>();
        for (const pair of node.items) {
          const k = pair.key;
          const keyAt = YAML.isNode(k) ? k.range?.[0] : at;
          if (YAML.isNode(k) && k.tag !== undefined) walk(k, depth + 1, anchored); // says it is a tag
          if (!YAML.isScalar(k) || (k.value !== null && typeof k.value === 'object')) {
            throw new YamlProblem(keyAt, 'a key must be a plain name, not a list, a mapping or an alias');
          }
          const key = String(k.value);
          if (seen.has(key)) {
            const first = seen.get(key);
            const where = first === undefined ? '' : ` (first at line ${lineCol(text, first).line})`;
            throw new YamlProblem(
              keyAt,
              `key ${JSON.stringify(key.slice(0, 40))} is given twice in one mapping${where}; did you mean to merge the two into one?`,
            );
          }
          seen.set(key, keyAt);
          if (keyAt !== undefined) noteKey(offsets, obj, key, keyAt);
          setOwn(obj, key, walk(pair.value, depth + 1, anchored));
        }
        return obj;
      }
      throw new YamlProblem(at, 'not valid YAML: a node of an unknown kind');
    };
    const value = walk(doc.contents, 0, false);
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** The first line of a `yaml` message, without its position (the caller gives the line). */
function plainMessage(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
}
