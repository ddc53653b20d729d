/**
 * `--redact`: deterministic fake values of the same type and shape, for customer data that must not
 * leave the source. A fake is derived from the value alone (HMAC-SHA256 under a fixed key, or under
 * JQL_REDACT_KEY when set), so the same input always gives the same output: equal values stay equal
 * across records, fields and clones, and a unique field stays unique (bar a collision, which the
 * clone reports). Shape: a string keeps its length and where its letters, digits and other characters
 * are (`ann@example.com` -> `qzv@hwkrbtd.xvm`), a number its sign and digits, a date stays a date,
 * JSON keeps its keys and structure; choices, min and max still hold.
 */
import { createHmac } from 'node:crypto';
import type { FileValue, JsonValue } from '../../shared/protocol.ts';
import { defineKey, isPlainObject } from '../query/normalize.ts';
import type { FieldDef } from '../workspace/types.ts';

const DEFAULT_KEY = 'jql-console redact v1';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const DAY_MS = 86_400_000;
/** Fake dates fall in 1970-2069: far enough from the original that it tells nothing. */
const DATE_SPAN_DAYS = 36_525;

type Constraints = Pick<FieldDef, 'choices' | 'min' | 'max'>;

export class Redactor {
  private readonly key: string;

  constructor(key: string = process.env.JQL_REDACT_KEY || DEFAULT_KEY) {
    this.key = key;
  }

  /** A fake for a value of a model field (not `ref` or `file`: see `file`). */
  field(field: FieldDef, value: JsonValue): JsonValue {
    if (value === null) return null;
    if (field.choices && field.choices.length > 0) return field.choices[this.number(`choice:${canonical(value)}`) % field.choices.length] as JsonValue;
    switch (field.type) {
      case 'date':
        return typeof value === 'string' ? this.date(value).slice(0, 10) : this.any(value);
      case 'datetime':
        return typeof value === 'string' ? this.date(value) : this.any(value);
      case 'integer':
      case 'number':
        return typeof value === 'number' ? this.numberLike(value, field) : this.any(value);
      default:
        return this.any(value);
    }
  }

  /** A fake for any JSON value (document keys, json fields): each leaf by its JSON type. */
  any(value: JsonValue): JsonValue {
    if (value === null) return null;
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number') return this.numberLike(value, {});
    if (typeof value === 'boolean') return (this.number(`bool:${value}`) & 1) === 1;
    if (Array.isArray(value)) return value.map((item) => this.any(item));
    if (isPlainObject(value)) {
      const out: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(value)) defineKey(out, key, this.any(item));
      return out;
    }
    return value;
  }

  /** A file's name (its extension kept) and hash are faked; its bytes are never copied. */
  file(value: FileValue): FileValue {
    const dot = value.name.lastIndexOf('.');
    const name = dot > 0 ? `${this.text(value.name.slice(0, dot))}${value.name.slice(dot)}` : this.text(value.name);
    return { ...value, name, sha256: this.stream(`sha:${value.sha256}`, 32).toString('hex') };
  }

  private text(value: string): string {
    const bytes = this.stream(`text:${value}`, [...value].length);
    let i = 0;
    return [...value]
      .map((char) => {
        const byte = bytes[i++] as number;
        if (/[0-9]/.test(char)) return DIGITS[byte % 10];
        if (/\p{Lu}/u.test(char)) return UPPER[byte % 26];
        if (/\p{L}/u.test(char)) return LOWER[byte % 26];
        return char;
      })
      .join('');
  }

  private numberLike(value: number, limits: Constraints): number {
    const integer = Number.isInteger(value);
    const digits = String(Math.trunc(Math.abs(value))).length;
    const decimals = integer ? 0 : Math.min(6, (String(value).split('.')[1] ?? '').length);
    const h = this.number(`number:${value}`);
    const low = digits === 1 ? 0 : 10 ** (digits - 1);
    let fake = low + (h % (10 ** digits - low));
    if (decimals > 0) fake += (this.number(`fraction:${value}`) % 10 ** decimals) / 10 ** decimals;
    if (value < 0) fake = -fake;
    const { min, max } = limits;
    if ((min !== undefined && fake < min) || (max !== undefined && fake > max)) {
      const lo = min ?? (max as number) - 10 ** digits;
      const hi = max ?? (min as number) + 10 ** digits;
      fake = integer ? lo + (h % (Math.floor(hi - lo) + 1)) : lo + ((h % 1_000_000) / 1_000_000) * (hi - lo);
    }
    return integer ? Math.trunc(fake) : Number(fake.toFixed(decimals));
  }

  /** An ISO date-time in 1970-2069, with a time of day; `date` fields take its first ten characters. */
  private date(value: string): string {
    const days = this.number(`date:${value}`) % DATE_SPAN_DAYS;
    const ms = this.number(`time:${value}`) % DAY_MS;
    return new Date(days * DAY_MS + ms).toISOString();
  }

  private number(input: string): number {
    return this.stream(input, 6).readUIntBE(0, 6);
  }

  /** `length` bytes from HMAC-SHA256(key, input), in counter mode for more than 32. */
  private stream(input: string, length: number): Buffer {
    const blocks: Buffer[] = [];
    for (let counter = 0; blocks.length * 32 < length; counter += 1) blocks.push(createHmac('sha256', this.key).update(`${counter}\0${input}`).digest());
    return Buffer.concat(blocks).subarray(0, length);
  }
}

function canonical(value: JsonValue): string {
  return JSON.stringify(value);
}
