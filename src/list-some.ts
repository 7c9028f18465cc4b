// Lists of names in messages stay one short sentence, however large the input that holds them
// (issue 20: a missing tag in an archive of 100,000 images printed 1.5 MB of names).

/** Names shown before "and N more". */
export const LIST_SOME = 5;
/** Characters of one name shown; a longer one is cut with "…". */
const NAME_MAX = 100;

/** "a, b, c, d, e and 99,995 more": the first `max` names (each at most 100 characters), then the count. */
export function listSome(names: readonly string[], max = LIST_SOME): string {
  const shown = names
    .slice(0, max)
    .map((n) => (n.length > NAME_MAX ? `${n.slice(0, NAME_MAX - 1)}…` : n))
    .join(', ');
  const rest = names.length - max;
  return rest > 0 ? `${shown} and ${rest.toLocaleString('en-US')} more` : shown;
}
