/**
 * "Show all" of a long string draws one piece of it, whatever its length (issue 31: a 50 MB string put
 * in a text box at once froze the window), says what is not drawn, and every piece put together is
 * the exact string.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TEXT_PIECE_CHARS, textPiece } from './bounded-json.ts';
import { LongTextPanel } from './LongTextPanel.tsx';

const drawn = (value: string, initialPiece?: number) => renderToStaticMarkup(<LongTextPanel label="body" value={value} onClose={() => undefined} initialPiece={initialPiece} />);

describe('show all of a long string', () => {
  it('draws a bounded number of characters whatever the length, and says how many are not drawn', () => {
    const long = 's'.repeat(5 * 1024 * 1024);
    const html = drawn(long);
    expect(html.length).toBeLessThan(TEXT_PIECE_CHARS + 2_000);
    expect(html).toContain('Showing characters 1–100,000 of 5,242,880 (piece 1 of 53): 5,142,880 characters are not drawn.');
    expect(html).toContain('Copy whole string');
    // The same bound for a string ten times longer.
    expect(drawn('s'.repeat(50 * 1024 * 1024)).length).toBeLessThan(TEXT_PIECE_CHARS + 2_000);
    // A later piece is drawn alone too, and the last one is what is left.
    const last = drawn(long, 52);
    expect(last).toContain('Showing characters 5,200,001–5,242,880 of 5,242,880 (piece 53 of 53)');
    expect(last.length).toBeLessThan(TEXT_PIECE_CHARS + 2_000);
  });

  it('draws a string that fits in one piece whole, without a cut notice', () => {
    const html = drawn('a'.repeat(5000));
    expect(html).toContain('a'.repeat(5000));
    expect(html).not.toContain('not drawn');
  });

  it('puts the pieces together into the exact string, never splitting a character in two', () => {
    // An emoji (two UTF-16 units) across every piece boundary, and a zero-width space.
    const value = Array.from({ length: 40 }, (_, i) => `${'x'.repeat(9)}😀\u200b${i}`).join('');
    const size = 10;
    let joined = '';
    let count = 0;
    for (let i = 0, piece = textPiece(value, 0, size); ; piece = textPiece(value, ++i, size)) {
      expect(piece.from).toBe(joined.length);
      // At most one unit more: a character across the edge goes whole to the next piece.
      expect(piece.text.length).toBeLessThanOrEqual(size + 1);
      expect(piece.text.charCodeAt(piece.text.length - 1) >= 0xd800 && piece.text.charCodeAt(piece.text.length - 1) <= 0xdbff).toBe(false);
      joined += piece.text;
      count = piece.count;
      if (i === piece.count - 1) break;
    }
    expect(joined).toBe(value);
    expect(textPiece(value, count + 5, size).index).toBe(count - 1);
  });
});
