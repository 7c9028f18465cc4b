import { describe, expect, it } from 'vitest';
import { checkAnswer, readAnswer, v } from '../../src/api/answer.js';
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
