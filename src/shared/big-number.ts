/**
 * Numbers that a double cannot hold (ids above 2^53, 20-digit integers, `1e400`) kept as the digits
 * the server sent, so two different ids never show as one (issue 31 item 4).
 *
 * Such a number is held as a string with a private-use prefix (U+E000) followed by its source text.
 * A string, not a marker object, because: it survives structured clone to and from the parse worker
 * unchanged; it stays a JSON value every later step (normalize, table, tree, search) already
 * handles; and a marker object like `{"$bigNumber": "…"}` is data a real answer can hold, while a
 * private-use character at the start of a value is not something a protocol answer carries. The
 * one other way to get such a string (a string in the data that starts with U+E000 and holds a
 * number's text) is shown as the number; the Raw view always shows the bytes as sent.
 */

export const BIG_NUMBER_PREFIX = '\uE000';

/**
 * Cheap precheck: only texts with 16+ digits in a row (a decimal point may sit among them) or a
 * 3-digit exponent can hold such a number; any decimal of 15 significant digits or fewer reads back
 * from a double as written.
 */
const MAY_LOSE_DIGITS = /(?:\d\.?){15}\d|[eE][+-]?\d{3}/;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

interface ReviverContext {
  source?: string;
}

/** A decimal's value as significant digits (no leading or trailing zeros; empty for zero) and a power of ten. */
export interface DecimalParts {
  negative: boolean;
  digits: string;
  /** The value is 0.<digits> × 10^exponent. */
  exponent: number;
}

/** The parts of a JSON number's text; null for a text that is not one. */
export function decimalParts(text: string): DecimalParts | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = '', power = '0'] = match;
  const all = `${whole}${fraction}`;
  const lead = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(lead).replace(/0+$/, '');
  return { negative: sign === '-' && digits !== '', digits, exponent: whole!.length - lead + Number(power) };
}

/**
 * True when the double JSON.parse made does not stand for the number that was sent: its shortest
 * text (String(value), which reads back as the same double) is another decimal than the source.
 * That is an integer whose digits changed (above 2^53), a decimal with more significant digits
 * than a double keeps (`12345678901234.5678` read as `12345678901234.568`), or a number out of a
 * double's range (`1e400`, `1e-400`).
 */
function losesDigits(value: number, source: string): boolean {
  if (!Number.isFinite(value)) return true;
  const sent = decimalParts(source);
  const held = decimalParts(String(value));
  if (!sent || !held) return false;
  return sent.digits !== held.digits || (sent.digits !== '' && sent.exponent !== held.exponent);
}

/** JSON.parse that keeps numbers which do not round-trip as their source text (see above). */
export function parseJsonKeepingNumbers(text: string): unknown {
  if (!MAY_LOSE_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(text, function revive(this: unknown, _key: string, value: unknown, context?: ReviverContext) {
    if (typeof value !== 'number' || context?.source === undefined) return value;
    return losesDigits(value, context.source) ? `${BIG_NUMBER_PREFIX}${context.source}` : value;
  } as (this: unknown, key: string, value: unknown) => unknown);
}

export function isBigNumber(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(BIG_NUMBER_PREFIX) && NUMBER_TEXT.test(value.slice(1));
}

/** The digits as sent (the prefix dropped). */
export function bigNumberText(value: string): string {
  return value.slice(BIG_NUMBER_PREFIX.length);
}

/** True for a number that is too large for a double (`1e400`): the view marks it. */
export function isOutOfRange(value: string): boolean {
  return !Number.isFinite(Number(bigNumberText(value)));
}

declare global {
  interface JSON {
    rawJSON?(text: string): unknown;
  }
}

/** JSON.stringify that writes a kept number as its digits, not as a string. */
export function stringifyKeepingNumbers(value: unknown, indent?: number): string {
  const raw = JSON.rawJSON;
  return JSON.stringify(value, (_key, v: unknown) => (isBigNumber(v) ? (raw ? raw(bigNumberText(v)) : bigNumberText(v)) : v), indent);
}
