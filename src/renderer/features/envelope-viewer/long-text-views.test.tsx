/**
 * The views of a Run's payload read a long text (response/long-text.ts) a bounded piece at a time,
 * whatever its length (issue 31, huge-string): the tree, the table cell, the row's detail, search and
 * "show all" never draw or build more than their bound.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/protocol.ts';
import { LONG_TEXT_HEAD, longTextOf, longTextUnits, placeholderOf, registerLongTexts } from '../../response/long-text.ts';
import { TEXT_PIECE_CHARS } from './bounded-json.ts';
import { flattenTree } from './json-tree-model.ts';
import { LongTextPanel } from './LongTextPanel.tsx';
import { SEARCHED_LONG_TEXT_CHARS, tableMatches, treeMatches } from './response-search.ts';
import { cellText, compareValues, detailText, holdsLongText } from './table-model.ts';

let made = 0;
/** A long text as a Run's answer holds it: registered for as long as `owner` lives. */
function longText(value: string, owner: object): string {
  const units = longTextUnits(value, `view-test.${++made}`);
  registerLongTexts(owner, [units]);
  return placeholderOf(units.id, value);
}

const LENGTH = 5 * 1024 * 1024;
// A needle past the head (which the placeholder carries) but inside the searched part, and one past it.
const value = `${'s'.repeat(700_000)}needle${'s'.repeat(SEARCHED_LONG_TEXT_CHARS)}haystack${'s'.repeat(LENGTH - 1_700_014)}`;
const owner = {};
const placeholder = longText(value, owner);
const payload: JsonValue = [{ id: 1, body: placeholder, nested: { more: placeholder } }];

describe('a long text in the views', () => {
  it('is a bounded tree row with show all and its whole length', () => {
    const rows = flattenTree(payload, new Set(['', '/0']));
    const row = rows.find((r) => r.id === '/0/body')!;
    expect(row.longString).toBe(LENGTH);
    expect(row.preview.length).toBeLessThanOrEqual(LONG_TEXT_HEAD + 3);
    expect(row.preview.startsWith('"sss')).toBe(true);
  });

  it('is a bounded table cell, and a bounded part of the row\'s detail', () => {
    expect(cellText(placeholder)).toBe(`${'s'.repeat(300)}…`);
    const detail = detailText((payload as Array<Record<string, JsonValue>>)[0]!.nested);
    expect(detail.length).toBeLessThan(LONG_TEXT_HEAD + 200);
    expect(detail).toContain('5,242,880 characters');
  });

  it('is not copied as JSON with a row: the row says it holds one', () => {
    expect(holdsLongText(payload)).toBe(true);
    expect(holdsLongText([{ id: 1, body: 'short' }])).toBe(false);
  });

  it('sorts by the characters it shows, not its placeholder', () => {
    expect(compareValues(placeholder, 'zzz')).toBeLessThan(0);
    expect(compareValues(placeholder, 'a')).toBeGreaterThan(0);
  });

  it('is searched in its first SEARCHED_LONG_TEXT_CHARS characters, past its head', () => {
    expect(treeMatches(payload, 'NEEDLE').map((m) => m.id)).toEqual(['/0/body', '/0/nested/more']);
    expect(tableMatches(payload as JsonValue[], [0], ['id', 'body'], 'needle')).toEqual([{ row: 0, column: 'body' }]);
    // Past the searched part: not found, as the search bar says (LONG_TEXT_SEARCH_NOTE).
    expect(treeMatches(payload, 'haystack')).toEqual([]);
  });

  it('shows all a piece at a time, ten times longer or not, and the pieces are the string', () => {
    const drawn = (text: string, piece = 0) => renderToStaticMarkup(<LongTextPanel label="body" value={longTextOf(text)!} onClose={() => undefined} initialPiece={piece} />);
    const html = drawn(placeholder);
    expect(html.length).toBeLessThan(TEXT_PIECE_CHARS + 2_000);
    expect(html).toContain('Showing characters 1–100,000 of 5,242,880 (piece 1 of 53)');
    const tenTimes = longText(`${value}${'t'.repeat(9 * LENGTH)}`, owner);
    expect(drawn(tenTimes, 400).length).toBeLessThan(TEXT_PIECE_CHARS + 2_000);
    expect(drawn(placeholder, 7)).toContain(`>${value.slice(700_000, 800_000)}</textarea>`);
  });
});
