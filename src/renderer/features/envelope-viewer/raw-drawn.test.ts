import { describe, expect, it } from 'vitest';
import { RAW_DRAWN_CHARS, rawDrawn } from './raw-drawn.ts';

// The body of the hostile entry deep-nesting: 200,002 characters on one line.
const deep = `{"__payload__":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

describe('rawDrawn', () => {
  it('lays out at most RAW_DRAWN_CHARS of a long body, from its start, and says how much is left', () => {
    const { drawn, cut } = rawDrawn(deep, { all: false });
    expect(drawn.length).toBe(RAW_DRAWN_CHARS);
    expect(deep.startsWith(drawn)).toBe(true);
    expect(cut).toBe(`Showing the first 65,536 of 200,016 characters; ${(200_016 - 65_536).toLocaleString('en')} more are not drawn yet.`);
  });

  it('draws a body within the cap whole, without a notice', () => {
    expect(rawDrawn('{"a":1}', { all: false })).toEqual({ drawn: '{"a":1}', cut: null });
  });

  it('draws all of it when asked', () => {
    expect(rawDrawn(deep, { all: true })).toEqual({ drawn: deep, cut: null });
  });

  it('draws as far as the current search match past the cap', () => {
    const { drawn } = rawDrawn(deep, { all: false, reveal: 150_000 });
    expect(drawn.length).toBe(150_000);
  });

  it('never ends on half of a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
    const { drawn } = rawDrawn(text, { all: false }, 10);
    expect(drawn).toBe(`${'a'.repeat(9)}😀`);
  });
});
