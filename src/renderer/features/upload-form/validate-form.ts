/**
 * Checks the whole form before anything is sent: required fields and files, value types, file sizes
 * against the server's limits (`maxFileBytes` per file, `maxUploadBytes` for the files together, as
 * its describe reports them), `uniqueObject` for update, a controller's arguments, and the names of
 * extra parts. Returns the JSON values to send, or errors keyed by field.
 */
import type { JsonObject, JsonValue, WorkspaceLimits } from '../../../shared/protocol.ts';
import { coerceValue } from './coerce-value.ts';
import { formatBytes } from './format-bytes.ts';
import type { FormModel } from './form-model.ts';
import { addError, ARGUMENTS_KEY, extraPartKey, FORM_KEY, hasErrors, UNIQUE_OBJECT_KEY, type FormErrors, type FormState } from './form-state.ts';

export interface ValidForm {
  ok: true;
  /** Data keys of the query (model fields, or controller arguments). */
  data: JsonObject;
  uniqueObject: JsonObject | null;
  /** File part name -> file, in form order. */
  files: Array<{ part: string; field: string | null; file: File }>;
}

export type FormValidation = ValidForm | { ok: false; errors: FormErrors };

const RESERVED_PART = 'query';

function parseObject(text: string, what: string): { value: JsonObject } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `${what} is not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: `${what} must be a JSON object` };
  return { value: value as JsonObject };
}

function checkFileSize(errors: FormErrors, key: string, file: File, limits: WorkspaceLimits | null): void {
  if (limits && limits.maxFileBytes > 0 && file.size > limits.maxFileBytes) {
    addError(errors, key, `${file.name} is ${formatBytes(file.size)}; the server accepts at most ${formatBytes(limits.maxFileBytes)} per file`);
  }
}

/** The whole multipart body is bounded by `maxUploadBytes`: files that pass one by one may not together. */
function checkUploadSize(errors: FormErrors, files: readonly File[], limits: WorkspaceLimits | null): void {
  const max = limits?.maxUploadBytes;
  if (!max || files.length < 2) return;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > max) addError(errors, FORM_KEY, `The files together are ${formatBytes(total)}; the server accepts at most ${formatBytes(max)} in one upload`);
}

/** The files chosen so far: model file fields, then extra parts. */
function chosenFiles(model: FormModel, state: FormState): Array<{ key: string; file: File }> {
  const chosen: Array<{ key: string; file: File }> = [];
  for (const spec of model.files) {
    const file = state.files[spec.name];
    if (file) chosen.push({ key: spec.name, file });
  }
  state.extraParts.forEach((part, index) => {
    if (part.file) chosen.push({ key: extraPartKey(index), file: part.file });
  });
  return chosen;
}

/** The chosen files over the size limits: said as soon as a file is chosen, before Upload is clicked. */
export function fileSizeErrors(model: FormModel, state: FormState, limits: WorkspaceLimits | null): FormErrors {
  const errors: FormErrors = {};
  const chosen = chosenFiles(model, state);
  for (const { key, file } of chosen) checkFileSize(errors, key, file, limits);
  checkUploadSize(errors, chosen.map((c) => c.file), limits);
  return errors;
}

export function validateForm(model: FormModel, state: FormState, limits: WorkspaceLimits | null): FormValidation {
  const errors: FormErrors = {};
  const data: JsonObject = {};
  const files: ValidForm['files'] = [];

  for (const field of model.fields) {
    if (state.nulls[field.name] && field.nullable) {
      data[field.name] = null;
      continue;
    }
    const raw = state.values[field.name] ?? '';
    if (raw.trim() === '' && field.type !== 'string' && field.type !== 'text') {
      if (field.required) addError(errors, field.name, 'is required');
      continue;
    }
    if (raw === '') {
      if (field.required) addError(errors, field.name, 'is required');
      continue;
    }
    const coerced = coerceValue(field, raw);
    if (coerced.ok) data[field.name] = coerced.value;
    else addError(errors, field.name, coerced.error);
  }

  for (const spec of model.files) {
    const file = state.files[spec.name] ?? null;
    if (!file) {
      if (spec.required) addError(errors, spec.name, 'needs a file');
      continue;
    }
    checkFileSize(errors, spec.name, file, limits);
    files.push({ part: spec.name, field: model.target.kind === 'model' ? spec.name : null, file });
  }

  let uniqueObject: JsonObject | null = null;
  if (model.needsUniqueObject) {
    if (state.uniqueObject.trim() === '') {
      addError(errors, UNIQUE_OBJECT_KEY, 'Pick the record to update');
    } else {
      const parsed = parseObject(state.uniqueObject, 'uniqueObject');
      if ('error' in parsed) addError(errors, UNIQUE_OBJECT_KEY, parsed.error);
      else if (Object.keys(parsed.value).length === 0) addError(errors, UNIQUE_OBJECT_KEY, 'uniqueObject must name at least one field, e.g. {"id": 4}');
      else uniqueObject = parsed.value;
    }
  }

  if (model.takesJsonArguments && state.argumentsJson.trim() !== '') {
    const parsed = parseObject(state.argumentsJson, 'The arguments');
    if ('error' in parsed) addError(errors, ARGUMENTS_KEY, parsed.error);
    else if ('__meta__' in parsed.value) addError(errors, ARGUMENTS_KEY, 'The arguments cannot hold __meta__: the form writes it');
    else Object.assign(data, parsed.value as Record<string, JsonValue>);
  }

  const taken = new Set(model.files.map((f) => f.name));
  state.extraParts.forEach((part, index) => {
    const key = extraPartKey(index);
    const name = part.name.trim();
    if (name === '') addError(errors, key, 'needs a part name');
    else if (name === RESERVED_PART) addError(errors, key, '"query" is the name of the query part');
    else if (taken.has(name)) addError(errors, key, `"${name}" is already a part`);
    taken.add(name);
    if (!part.file) addError(errors, key, 'needs a file');
    else {
      checkFileSize(errors, key, part.file, limits);
      if (name !== '') files.push({ part: name, field: null, file: part.file });
    }
  });

  checkUploadSize(errors, chosenFiles(model, state).map((c) => c.file), limits);
  if (hasErrors(errors)) return { ok: false, errors };
  return { ok: true, data, uniqueObject, files };
}
