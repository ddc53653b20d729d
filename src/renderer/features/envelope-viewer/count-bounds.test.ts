import { describe, expect, it } from 'vitest';
import { cutSentence, firstOf, SHOWN_COLUMNS } from './count-bounds.ts';

describe('count bounds', () => {
  it('keep the first items of a long list and count the rest', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => i);
    const { shown, cut } = firstOf(items, 500);
    expect(shown).toEqual(items.slice(0, 500));
    expect(cut).toBe(49_500);
  });

  it('keep a short list whole, with nothing to say', () => {
    const { shown, cut } = firstOf(['a', 'b'], SHOWN_COLUMNS);
    expect(shown).toEqual(['a', 'b']);
    expect(cut).toBe(0);
    expect(cutSentence(shown.length, cut, 'columns', 'the Raw view')).toBeNull();
  });

  it('say what was cut and where it is', () => {
    expect(cutSentence(500, 49_500, 'errors', 'the Raw view')).toBe('Showing the first 500 of 50,000 errors: 49,500 more are in the Raw view.');
    expect(cutSentence(200, 1, 'columns', 'the JSON and Raw views')).toBe('Showing the first 200 of 201 columns: 1 more is in the JSON and Raw views.');
  });
});
