// Cedar texts checked before they are sent (`policy apply`, `create`, `update`): what the service
// refuses (text that does not parse, `@id` annotations) and, when the policy names the MCP schema,
// what fails validation against it. Refused with exit 2 before any request; the engine loads only
// when there is a Cedar text to check.
import { ValidationError } from '../../errors.js';
import { type CedarV1, loadCedar, sendProblems } from '../../policy/index.js';
import { cedarSources } from './cedar-sources.js';
import type { PolicyTexts } from './sources.js';

export interface CedarToSend {
  name: string;
  /** Where it came from, for messages: a file name or an option. */
  source: string;
  cedar_v1?: CedarV1;
}

/** Throws ValidationError naming the first problem (and how many more) of any Cedar text given. */
export async function refuseUnsendableCedar(
  policies: readonly CedarToSend[],
  texts?: PolicyTexts,
): Promise<void> {
  const withCedar = policies.filter((p) => p.cedar_v1 !== undefined);
  if (withCedar.length === 0) return;
  const cedar = await loadCedar();
  const sources = cedarSources(
    withCedar.map((p) => ({
      name: p.name,
      source: p.source,
      type: 'cedar_v1',
      scope: {},
      rules: [],
      cedar_v1: p.cedar_v1,
    })),
    texts,
  );
  const problems = sources.flatMap((s) => sendProblems(cedar, s));
  if (problems.length === 0) return;
  const more =
    problems.length === 1
      ? ''
      : ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'}: \`hubctl policy lint -f\` on the file lists them all)`;
  throw new ValidationError(`${problems[0]}${more}; nothing was sent`);
}
