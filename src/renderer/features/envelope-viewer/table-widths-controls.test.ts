/**
 * A column is as wide as its header and cells are drawn: a bidi or zero-width character is drawn as
 * a placeholder such as ⟨U+2066⟩ (issue 31 item 5), eight characters where the text holds one. Widths
 * counted from the raw text made such a header run over the next one, the two unreadable.
 */
import { describe, expect, it } from 'vitest';
import { columnWidths } from './table-model.ts';

describe('columnWidths with invisible characters', () => {
  it('makes room for the placeholders drawn in a header and in its cells', () => {
    const plain = columnWidths([{ name: 'x' }], ['name']);
    const header = columnWidths([{ 'na\u2066me': 'x' }], ['na\u2066me']);
    const cell = columnWidths([{ v: 'a\u200Bb\u200Bc\u200Bd' }], ['v']);
    // "na⟨U+2066⟩me" is 12 characters drawn: 14 with the header's room, at 7.3 px and 18 px of padding.
    expect(header[0]).toBe(Math.round(14 * 7.3 + 18));
    expect(header[0]).toBeGreaterThan(plain[0]!);
    // "a⟨U+200B⟩b⟨U+200B⟩c⟨U+200B⟩d" is 28 characters drawn.
    expect(cell[0]).toBe(Math.round(28 * 7.3 + 18));
  });
});
