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
    await putBackLongStrings(message, taken, { pieceBytes: 7, pause: async () => undefined });
    expect(message).toEqual(reply());
  });

  it('decodes a long string a piece at a time, pausing between pieces', async () => {
    const message = reply();
    const taken = takeLongStrings(message, 1000);
    const bytes = taken.reduce((n, s) => n + s.bytes.byteLength, 0);
    let pauses = 0;
    await putBackLongStrings(message, taken, {
      pieceBytes: 1024,
      pause: async () => {
        pauses++;
      },
    });
    // Each string pauses after every piece but its last.
    expect(pauses).toBe(taken.reduce((n, s) => n + Math.ceil(s.bytes.byteLength / 1024) - 1, 0));
    expect(pauses).toBeGreaterThan(bytes / 1024 - 4);
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
