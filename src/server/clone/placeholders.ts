/**
 * What the clone stores in a required field whose value it could not copy (a `writeOnly` field the
 * source never serializes, a value the local model refuses): a value the field accepts, plainly a
 * stand-in, listed in the manifest. A password gets a random one that is hashed and never known, so
 * nobody can sign in with a copied user.
 */
import { randomBytes } from 'node:crypto';
import type { JsonValue } from '../../shared/protocol.ts';
import type { FieldDef } from '../workspace/types.ts';

const TEXT = 'not-copied';

/** The value to store and how the manifest shows it; null when no value can stand in (refs, files). */
export function placeholderFor(field: FieldDef): { value: JsonValue; shown: string } | null {
  if (field.password) return { value: randomBytes(24).toString('base64url'), shown: '(a random password nobody knows)' };
  if (field.choices && field.choices.length > 0) return shown(field.choices[0] as JsonValue);
  switch (field.type) {
    case 'string':
    case 'text':
      return shown(field.maxLength !== undefined ? TEXT.slice(0, field.maxLength) : TEXT);
    case 'integer':
    case 'number': {
      // 0, moved into [min, max] when they exclude it.
      let n = 0;
      if (field.min !== undefined && n < field.min) n = field.type === 'integer' ? Math.ceil(field.min) : field.min;
      if (field.max !== undefined && n > field.max) n = field.type === 'integer' ? Math.floor(field.max) : field.max;
      return shown(n);
    }
    case 'boolean':
      return shown(false);
    case 'date':
      return shown('1970-01-01');
    case 'datetime':
      return shown('1970-01-01T00:00:00.000Z');
    case 'json':
      return shown({});
    case 'ref':
    case 'file':
      return null;
  }
}

function shown(value: JsonValue): { value: JsonValue; shown: string } {
  return { value, shown: JSON.stringify(value) };
}
