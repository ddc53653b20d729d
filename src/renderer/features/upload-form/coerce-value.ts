/**
 * One form input's text to the JSON value the server expects for its field type, or the reason it
 * cannot be. The rules mirror the server's (docs/protocol.md "Errors": required, type, choices, max length),
 * so bad input is caught before a file is sent over the wire for nothing.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { FormFieldSpec } from './form-model.ts';

export type Coerced = { ok: true; value: JsonValue } | { ok: false; error: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** What an `<input type="datetime-local">` gives: no zone, read as the user's local time. */
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

const fail = (error: string): Coerced => ({ ok: false, error });

function byType(spec: FormFieldSpec, raw: string): Coerced {
  const text = raw.trim();
  switch (spec.type) {
    case 'string':
    case 'text':
      return { ok: true, value: raw };
    case 'integer':
    case 'ref': {
      if (!/^-?\d+$/.test(text)) return fail(spec.type === 'ref' ? 'must be the id (an integer) of a record' : 'must be an integer');
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return fail('is too large for an integer');
      if (spec.type === 'ref' && n <= 0) return fail('must be a positive id');
      return { ok: true, value: n };
    }
    case 'number': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return fail('must be a number');
      return { ok: true, value: n };
    }
    case 'boolean':
      if (text === 'true') return { ok: true, value: true };
      if (text === 'false') return { ok: true, value: false };
      return fail('must be true or false');
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? { ok: true, value: text } : fail('must be a date YYYY-MM-DD');
    case 'datetime':
      if (DATETIME.test(text) && !Number.isNaN(Date.parse(text))) return { ok: true, value: text };
      if (LOCAL_DATETIME.test(text)) {
        const t = new Date(text);
        if (!Number.isNaN(t.getTime())) return { ok: true, value: t.toISOString() };
      }
      return fail('must be a date-time such as 2026-01-01T09:30:00Z');
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue };
      } catch (err) {
        return fail(`is not valid JSON (${(err as Error).message})`);
      }
    case 'file':
      return fail('is a file: choose it with the file picker');
  }
}

/** Coerces a non-empty input; the caller decides what an empty one means (omitted or missing). */
export function coerceValue(spec: FormFieldSpec, raw: string): Coerced {
  // Choices are matched on their JSON text, so `3` picks the number 3 and `open` the string "open".
  if (spec.choices && spec.choices.length > 0) {
    const match = spec.choices.find((c) => (typeof c === 'string' ? c : JSON.stringify(c)) === raw);
    if (match === undefined) return fail(`must be one of ${spec.choices.map((c) => JSON.stringify(c)).join(', ')}`);
    return { ok: true, value: match };
  }
  const coerced = byType(spec, raw);
  if (!coerced.ok) return coerced;
  const value = coerced.value;
  if (typeof value === 'string' && spec.maxLength !== undefined && [...value].length > spec.maxLength) {
    return fail(`is longer than ${spec.maxLength} characters`);
  }
  if (typeof value === 'number') {
    if (spec.min !== undefined && value < spec.min) return fail(`must be at least ${spec.min}`);
    if (spec.max !== undefined && value > spec.max) return fail(`must be at most ${spec.max}`);
  }
  return coerced;
}

/** The text an input starts from for a choice or default value. */
export function inputText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
