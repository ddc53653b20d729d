/**
 * Checks the values of a create or update against the model (docs/protocol.md "Errors" `validation_error`) and
 * converts them for SQLite. Every failing field is reported at once, one error per field.
 */
import type { JqlError, JsonValue } from '../../../shared/protocol.ts';
import { jqlError, JqlFailure } from '../../errors.ts';
import type { UploadedFile } from '../../context.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import { sizeProblem } from '../../query/value-size.ts';
import { toStored, valueProblem } from '../../workspace/field-codec.ts';
import type { FieldDef, ModelDef } from '../../workspace/types.ts';

export interface CheckedValues {
  /** Column -> value, ready to bind. */
  columns: Map<string, SqlParam>;
  /** Password fields, still plain: the caller hashes them before writing. */
  passwords: Map<string, string>;
  /** Reference fields given a non-null id, to check that the target exists. */
  refs: Array<{ field: FieldDef; id: number }>;
}

/**
 * `uploads` maps file fields to the ids of files uploaded with this request (`resolveUploads`): the
 * only way a file field gets a value, so a JSON client can never point a record at a stored file.
 */
export function checkValues(
  model: ModelDef,
  data: Record<string, JsonValue>,
  mode: 'create' | 'update',
  now: string,
  uploads: ReadonlyMap<string, string> = new Map(),
  maxValueBytes = Infinity,
): CheckedValues {
  const out: CheckedValues = { columns: new Map(), passwords: new Map(), refs: [] };
  // Every unknown key and every failing field, one error each (unknown keys first: they are 400s).
  const errors: JqlError[] = [];
  for (const key of Object.keys(data)) {
    const field = model.fields.get(key);
    if (!field || field.hidden) {
      const reason = key === 'id' ? 'id is assigned by the server' : model.relations.has(key) ? `"${key}" is a reverse relation; write it from the other side` : `Unknown field "${key}" on ${model.key}`;
      errors.push(jqlError('unknown_field', reason, { field: key, path: [key] }));
    }
  }
  for (const field of model.fields.values()) {
    if (field.hidden) continue;
    const given = Object.hasOwn(data, field.name);
    if (field.auto) {
      if (given) errors.push(invalid(field, 'is set by the server'));
      else if (mode === 'create' || field.auto === 'update') out.columns.set(field.column, now);
      continue;
    }
    const upload = uploads.get(field.name);
    if (upload !== undefined) {
      out.columns.set(field.column, upload);
      continue;
    }
    if (!given) {
      if (mode === 'update') continue;
      if (field.default !== undefined) out.columns.set(field.column, toStored(field.type, field.default));
      else if (field.required) errors.push(invalid(field, 'is required'));
      continue;
    }
    const value = data[field.name] as JsonValue;
    const problem = problemWith(field, value) ?? sizeProblem(value, maxValueBytes);
    if (problem) {
      errors.push(invalid(field, problem));
      continue;
    }
    if (field.password && typeof value === 'string') {
      out.passwords.set(field.column, value);
      continue;
    }
    if (field.type === 'ref' && typeof value === 'number') out.refs.push({ field, id: value });
    out.columns.set(field.column, toStored(field.type, value));
  }
  if (errors.length > 0) throw new JqlFailure(errors);
  return out;
}

/**
 * The files of a multipart create or update (docs/protocol.md "Multipart uploads"): `sideEffects.fileFieldMapping` maps
 * file fields to parts of the request. Every problem is reported at once as a validation error.
 */
export function resolveUploads(
  model: ModelDef,
  mapping: Record<string, string> | undefined,
  parts: ReadonlyMap<string, UploadedFile>,
  data: Record<string, JsonValue>,
): Map<string, UploadedFile> {
  const uploads = new Map<string, UploadedFile>();
  const errors: JqlError[] = [];
  for (const [name, part] of Object.entries(mapping ?? {})) {
    const where = { field: name, path: ['__meta__', 'side_effects', 'file_field_mapping', name] };
    const field = model.fields.get(name);
    const file = parts.get(part);
    if (!field || field.hidden) errors.push(jqlError('validation_error', `fileFieldMapping: ${model.key} has no field "${name}"`, where));
    else if (field.type !== 'file') errors.push(jqlError('validation_error', `fileFieldMapping: ${name} is a ${field.type} field, not a file field`, where));
    else if (Object.hasOwn(data, name)) errors.push(jqlError('validation_error', `${name} is given both as a value and as the file part "${part}"`, where));
    else if (!file) errors.push(jqlError('validation_error', `${name}: the request has no file part "${part}" (named in fileFieldMapping)`, where));
    else uploads.set(name, file);
  }
  if (errors.length > 0) throw new JqlFailure(errors);
  return uploads;
}

function invalid(field: FieldDef, problem: string): JqlError {
  return jqlError('validation_error', `${field.name} ${problem}`, { field: field.name, path: [field.name] });
}

/** Why `value` does not fit `field`, or null when it does (the type rule is the field codec's). */
export function problemWith(field: FieldDef, value: JsonValue): string | null {
  if (value === null) {
    return field.nullable ? null : field.required || field.strictRequired ? 'is required' : 'may not be null';
  }
  const expected = valueProblem(field.type, value);
  if (expected) return field.type === 'file' ? `takes ${expected}` : `must be ${expected}`;
  if (field.strictRequired && value === '') return 'is required';
  if (field.choices && !field.choices.some((choice) => sameValue(field, choice, value))) {
    return `must be one of ${field.choices.map((c) => JSON.stringify(c)).join(', ')}`;
  }
  if (field.maxLength !== undefined && typeof value === 'string' && [...value].length > field.maxLength) {
    return `is longer than ${field.maxLength} characters`;
  }
  // An integer past 2^53 is a bigint (exact-integers.ts): its bounds apply the same.
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (field.min !== undefined && value < field.min) return `must be at least ${field.min}`;
    if (field.max !== undefined && value > field.max) return `must be at most ${field.max}`;
  }
  return null;
}

/** Choices compare as stored: `10:00+02:00` is the choice `08:00Z`, and json choices by their text. */
function sameValue(field: FieldDef, choice: JsonValue, value: JsonValue): boolean {
  return choice === value || toStored(field.type, choice) === toStored(field.type, value);
}
