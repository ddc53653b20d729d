/**
 * Whether a JSON value fits a field type. Used to check `default` and `choices` in the workspace
 * file; kept apart so the rule for each type is written once.
 */
import type { FieldType } from '../../shared/protocol.ts';

export const FIELD_TYPES: readonly FieldType[] = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'json', 'ref', 'file'];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// ISO-8601 with an explicit UTC designator or offset: a bare local time would mean different
// instants on different machines.
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

/** Null when `value` (not null) fits `type`, else what was expected. */
export function valueProblem(type: FieldType, value: unknown): string | null {
  switch (type) {
    case 'string':
    case 'text':
      return typeof value === 'string' ? null : 'a string';
    case 'integer':
      return Number.isSafeInteger(value) ? null : 'an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'a date "YYYY-MM-DD"';
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'an ISO-8601 date-time with a time zone, e.g. "2026-01-01T00:00:00Z"';
    case 'json':
      return null;
    case 'ref':
      return Number.isSafeInteger(value) && (value as number) > 0 ? null : 'a positive integer id';
    case 'file':
      return 'never given in the workspace (files are uploaded)';
  }
}
