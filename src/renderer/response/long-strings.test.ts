import { describe, expect, it } from 'vitest';
import { putBackLongStrings, takeLongStrings } from './long-strings.ts';

/** Every string in `value` (own walk, for the assertions). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) strings(v, out);
  return out;
}

describe('long strings cross from the parse worker as bytes (issue 31)', () => {
  // Multi-byte characters (a euro sign, an emoji, a right-to-left mark and a zero-width space) so
  // that pieces of the decode cut through characters.
  const long = `start ${'€😀\u200f\u200b'.repeat(500)} end`;
  const reply = () => ({
    id: 7,
    view: { sections: [{ payload: [{ id: 1, body: long, 'odd/key~': [long, 'short'] }] }], extras: { note: long } },
  });

  it('leaves no string over the limit in the message and puts the exact text back', async () => {
    const message = reply();
    const taken = takeLongStrings(message, 1000);
    expect(taken).toHaveLength(3);
    expect(Math.max(...strings(message).map((s) => s.length))).toBeLessThanOrEqual(1000);
    await putBackLongStrings(message, taken, { pause: async () => undefined });
    expect(message).toEqual(reply());
  });

  it('decodes each long string in a task of its own, into a whole string, before the answer is read', async () => {
    const message = reply();
    const taken = takeLongStrings(message, 1000);
    // What is put back when each pause comes: the task boundaries.
    const seen: number[] = [];
    await putBackLongStrings(message, taken, {
      pause: async () => {
        seen.push(strings(message).filter((s) => s === long).length);
      },
    });
    // A pause before each string and after the last: no two decodes (nor the drawing after them) share a task.
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('walks a deeply nested answer without overflowing the stack', () => {
    let deep: unknown = long;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const message = { view: deep };
    const taken = takeLongStrings(message, 1000);
    expect(taken).toHaveLength(1);
    expect(taken[0]!.path).toHaveLength(100_001);
  });
});
