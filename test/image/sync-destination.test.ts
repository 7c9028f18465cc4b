// tagsThere: when sync lists a destination instead of asking each tag with a HEAD, and what a
// failed or oversized list falls back to.
import { expect, it } from 'vitest';
import { AuthError, NotFoundError } from '../../src/errors.js';
import { LIST_DESTINATION_FROM, listDestinationMax, tagsThere } from '../../src/image/sync-destination.js';

const live = new AbortController().signal;
async function* list(tags: string[], fail?: Error) {
  for (const t of tags) yield t;
  if (fail) throw fail;
}
const wanted = ['1', '2', '3', '4', '5'];

it('names the wanted tags the destination lists, and only those', async () => {
  expect(await tagsThere(list(['0', '2', '4', 'x']), wanted, live)).toEqual(new Set(['2', '4']));
});

it('a mapping keeping few tags asks each with a HEAD (no list)', async () => {
  let listed = false;
  async function* spy() {
    listed = true;
    yield '1';
  }
  expect(await tagsThere(spy(), wanted.slice(0, LIST_DESTINATION_FROM - 1), live)).toBeUndefined();
  expect(listed).toBe(false);
});

it('a repository that does not exist holds none; another failure leaves it to the HEADs', async () => {
  expect(await tagsThere(list([], new NotFoundError('repository name not known')), wanted, live)).toEqual(
    new Set(),
  );
  expect(await tagsThere(list(['1'], new AuthError('denied')), wanted, live)).toBeUndefined();
});

it('a destination far larger than what is kept is given up for HEADs', async () => {
  const many = Array.from({ length: listDestinationMax(wanted.length) + 1 }, (_, i) => `t${i}`);
  expect(await tagsThere(list(many), wanted, live)).toBeUndefined();
  expect(await tagsThere(list(many.slice(1)), wanted, live)).toEqual(new Set());
});

it('Ctrl-C during the list is not taken for a missing repository', async () => {
  const c = new AbortController();
  c.abort();
  await expect(tagsThere(list([], new NotFoundError('x')), wanted, c.signal)).rejects.toThrow('x');
});
