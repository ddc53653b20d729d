/**
 * The payload as table rows: columns from the records' keys, a type-aware stable sort, and the
 * text of a cell. Framework-free so 100,000-row behaviour is tested without a DOM.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { bigNumberText, isBigNumber, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { visibleText } from '../../components/visible-controls.tsx';
import { longTextOf } from '../../response/long-text.ts';

export type SortDirection = 'asc' | 'desc';
export interface SortSpec {
  column: string;
  direction: SortDirection;
}

/** The column of a payload whose records are not objects (an array of numbers, a count). */
export const VALUE_COLUMN = '(value)';

const isRecord = (v: JsonValue | undefined): v is { [k: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rows of a payload: an array as is, one record as a one-row table; null when there is no table. */
export function tableRows(payload: JsonValue): JsonValue[] | null {
  if (Array.isArray(payload)) return payload;
  if (isRecord(payload)) return [payload];
  return null;
}

/** `id` first, then keys in the order they first appear; scanning a prefix keeps 100k rows cheap. */
export function columnsOf(rows: JsonValue[], scanLimit = 2000): string[] {
  const seen = new Set<string>();
  let hasScalar = false;
  const n = Math.min(rows.length, scanLimit);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (isRecord(row)) for (const key of Object.keys(row)) seen.add(key);
    else hasScalar = true;
  }
  const columns = [...seen];
  const idAt = columns.indexOf('id');
  if (idAt > 0) {
    columns.splice(idAt, 1);
    columns.unshift('id');
  }
  if (hasScalar) columns.unshift(VALUE_COLUMN);
  return columns;
}

export function cellValue(row: JsonValue | undefined, column: string): JsonValue | undefined {
  if (column === VALUE_COLUMN) return isRecord(row) ? undefined : row;
  return isRecord(row) ? row[column] : undefined;
}

const typeRank = (v: JsonValue | undefined): number => {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'boolean') return 1;
  if (typeof v === 'number' || isBigNumber(v)) return 2;
  if (typeof v === 'string') return 3;
  return 4;
};

/** A kept number (see big-number.ts) against a number or another kept one: by value, exactly for integers. */
function compareNumbers(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ta = typeof a === 'number' ? String(a) : bigNumberText(a);
  const tb = typeof b === 'number' ? String(b) : bigNumberText(b);
  const integer = /^-?\d+$/;
  if (integer.test(ta) && integer.test(tb)) {
    const d = BigInt(ta) - BigInt(tb);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  return Number(ta) - Number(tb) || 0;
}

/** NULLs first ascending (as the server orders), numbers numerically, strings by code point. */
export function compareValues(a: JsonValue | undefined, b: JsonValue | undefined): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 2) return compareNumbers(a as number | string, b as number | string);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') {
    // A long text sorts by the characters it shows (its head), not by its placeholder's mark.
    const sa = longTextOf(a)?.head ?? a;
    const sb = longTextOf(b)?.head ?? b;
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  if (ra === 4) {
    const sa = stringifyKeepingNumbers(a);
    const sb = stringifyKeepingNumbers(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return 0;
}

/** Row order as indices into `rows` (the rows themselves are never copied); stable. */
export function sortedOrder(rows: JsonValue[], sort: SortSpec | null): number[] {
  const order = Array.from({ length: rows.length }, (_, i) => i);
  if (!sort) return order;
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keys = rows.map((r) => cellValue(r, sort.column));
  order.sort((x, y) => sign * compareValues(keys[x], keys[y]) || x - y);
  return order;
}

/** Header click: ascending, then descending, then back to the server's order. */
export function nextSort(current: SortSpec | null, column: string): SortSpec | null {
  if (!current || current.column !== column) return { column, direction: 'asc' };
  if (current.direction === 'asc') return { column, direction: 'desc' };
  return null;
}

export function isNested(value: JsonValue | undefined): boolean {
  return typeof value === 'object' && value !== null;
}

export function cellText(value: JsonValue | undefined, maxLength = 300): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[…] ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return `{…} ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}`;
  }
  const long = longTextOf(value);
  if (long) return `${long.head.slice(0, maxLength)}…`;
  const text = isBigNumber(value) ? bigNumberText(value) : String(value);
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

/**
 * Column widths in pixels from a sample of the rows: wide enough for most values (and the header),
 * capped so one long text does not push every other column off screen.
 */
export function columnWidths(rows: JsonValue[], columns: readonly string[], options: { sample?: number; charPx?: number; min?: number; max?: number } = {}): number[] {
  const { sample = 200, charPx = 7.3, min = 56, max = 340 } = options;
  const n = Math.min(rows.length, sample);
  return columns.map((column) => {
    // Counted as drawn: a bidi or zero-width character is drawn as a 8-character placeholder (⟨U+200B⟩).
    let chars = visibleText(column).length + 2;
    for (let i = 0; i < n; i++) chars = Math.max(chars, Math.min(visibleText(cellText(cellValue(rows[i], column), 80)).length + (isNested(cellValue(rows[i], column)) ? 2 : 0), 80));
    return Math.round(Math.min(max, Math.max(min, chars * charPx + 18)));
  });
}

/**
 * What "copy cell" puts on the clipboard: text as is, anything else as JSON. Not for a long text
 * (copyLongText), nor a value that holds one (`holdsLongText`): its placeholder is not its text.
 */
export function copyText(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (isBigNumber(value)) return bigNumberText(value);
  if (typeof value === 'string') return value;
  return stringifyKeepingNumbers(value, 2);
}

/**
 * The cell an arrow key (or Home/End) moves the selection to, in the table's current order; the first
 * cell when nothing is selected yet; null for any other key.
 */
export function moveSelection(key: string, selected: { row: number; column: string } | null, order: readonly number[], columns: readonly string[]): { row: number; column: string } | null {
  if (!['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key) || order.length === 0 || columns.length === 0) return null;
  if (!selected) return { row: order[0]!, column: columns[0]! };
  const at = Math.max(0, order.indexOf(selected.row));
  const col = Math.max(0, columns.indexOf(selected.column));
  const clamp = (n: number, max: number) => Math.min(Math.max(n, 0), max - 1);
  const rowAt = key === 'ArrowUp' ? at - 1 : key === 'ArrowDown' ? at + 1 : key === 'Home' ? 0 : key === 'End' ? order.length - 1 : at;
  const colAt = key === 'ArrowLeft' ? col - 1 : key === 'ArrowRight' ? col + 1 : col;
  return { row: order[clamp(rowAt, order.length)]!, column: columns[clamp(colAt, columns.length)]! };
}

/** True when `value` is or holds a long text (response/long-text.ts): its JSON would hold placeholders. */
export function holdsLongText(value: JsonValue | undefined): boolean {
  const stack: Array<JsonValue | undefined> = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string' && longTextOf(v)) return true;
    if (typeof v === 'object' && v !== null) stack.push(...(Array.isArray(v) ? v : Object.values(v)));
  }
  return false;
}

/** A nested value as the row's detail shows it: JSON, with each long text as its head and its length. */
export function detailText(value: JsonValue | undefined): string {
  if (!holdsLongText(value)) return stringifyKeepingNumbers(value, 2);
  return stringifyKeepingNumbers(
    JSON.parse(JSON.stringify(value ?? null, (_key, v: unknown) => {
      const long = longTextOf(v);
      return long ? `${long.head}… (${long.length.toLocaleString('en')} characters: show all in the JSON view)` : v;
    })) as JsonValue,
    2,
  );
}
