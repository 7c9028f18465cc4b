// The cedar_v1 policies among loaded policy documents, as Cedar sources: each with its file, and
// the line of that file on which its text starts when the text stands there line by line.
import { type CedarSource, firstLineIn, MCP_SCHEMA_URL, type PolicyDoc } from '../../policy/index.js';
/** The text of each policy file read, by path (for Cedar's line numbers). */
export type PolicyTexts = Map<string, string>;

export function cedarSources(docs: readonly PolicyDoc[], texts?: PolicyTexts): CedarSource[] {
  const out: CedarSource[] = [];
  for (const d of docs) {
    if (d.type !== 'cedar_v1' || !d.cedar_v1) continue;
    const file = texts?.get(d.source);
    const firstLine = file === undefined ? undefined : firstLineIn(file, d.cedar_v1.text);
    const src: CedarSource = { name: d.name, source: d.source, text: d.cedar_v1.text };
    if (d.cedar_v1.schema_url !== undefined) src.schemaUrl = d.cedar_v1.schema_url;
    if (firstLine !== undefined) src.firstLine = firstLine;
    out.push(src);
  }
  return out;
}

/** A raw Cedar file (`.cedar`) as a policy: one cedar_v1 policy named after the file, for the MCP schema. */
export function rawCedarDoc(path: string, text: string): PolicyDoc {
  const name = path.replace(/^.*[\\/]/, '').replace(/\.cedar$/i, '');
  return {
    name,
    source: path,
    type: 'cedar_v1',
    scope: {},
    rules: [],
    cedar_v1: { text, schema_url: MCP_SCHEMA_URL },
  };
}
