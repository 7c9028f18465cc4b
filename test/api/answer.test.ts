import { describe, expect, it } from 'vitest';
import { checkAnswer, object, readAnswer, v } from '../../src/api/answer.js';
import { ExitCode, UnexpectedAnswerError } from '../../src/errors.js';

const List = v.object({ data: v.array(v.object({ id: v.string(), name: v.string() })) });

describe('checkAnswer', () => {
  it('returns the value when it fits the schema', () => {
    const value = { data: [{ id: 'pol_1', name: 'a' }] };
    expect(checkAnswer(List, value, { host: 'hub.example' })).toEqual(value);
  });

  it.each([
    [{ data: 'abc' }, 'unexpected answer from hub.example: data: expected Array, got a string'],
    [null, 'unexpected answer from hub.example: expected Object, got null'],
    [
      { data: [{ id: 'pol_1', name: null }] },
      'unexpected answer from hub.example: data[0].name: expected string, got null',
    ],
    [{}, 'unexpected answer from hub.example: data: missing'],
    [[1], 'unexpected answer from hub.example: data: missing'],
  ])('names what was wrong in %j', (value, message) => {
    let caught: unknown;
    try {
      checkAnswer(List, value, { host: 'hub.example' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UnexpectedAnswerError);
    expect((caught as Error).message).toBe(message);
    expect((caught as UnexpectedAnswerError).exitCode).toBe(ExitCode.NETWORK);
  });

  it('prefixes what we were doing, and takes the host from the response URL', async () => {
    const res = { url: 'https://gov.example:8443/v2/x', json: async () => ({ data: [{ id: 1 }] }) };
    await expect(readAnswer(res as never, List, 'listing policies of org acme')).rejects.toThrow(
      'listing policies of org acme: unexpected answer from gov.example:8443: data[0].id: expected string, got a number',
    );
  });
});

describe('object', () => {
  const Tags = object({ tags: v.nullish(v.array(v.string()), null) });
  it('passes fields it does not know through, and refuses an array where an object belongs', () => {
    expect(checkAnswer(Tags, { tags: ['a'], next: 1 }, { host: 'r' })).toEqual({ tags: ['a'], next: 1 });
    expect(() => checkAnswer(Tags, [{ tags: [] }], { host: 'r' })).toThrow(
      'unexpected answer from r: expected Object, got an array',
    );
    expect(() => checkAnswer(Tags, null, { host: 'r' })).toThrow(
      'unexpected answer from r: expected Object, got null',
    );
  });
});
