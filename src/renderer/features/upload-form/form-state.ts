/**
 * What the user has entered in the upload form, as raw text per input (so a half-typed number is
 * kept as typed), plus the chosen files. validate-form.ts turns it into JSON values or errors.
 */
import type { FormModel } from './form-model.ts';

export interface ExtraPart {
  name: string;
  file: File | null;
}

export interface FormState {
  /** Raw input per data field; an empty string means "not sent". */
  values: Record<string, string>;
  /** Fields the user explicitly set to null (nullable fields only). */
  nulls: Record<string, boolean>;
  files: Record<string, File | null>;
  /** JSON text of `uniqueObject` for update, e.g. `{"id": 4}`. */
  uniqueObject: string;
  /** JSON object text of a controller's arguments (its data keys). */
  argumentsJson: string;
  /** More named file parts, for controllers that read parts beyond their declared ones. */
  extraParts: ExtraPart[];
}

/** Keys of FormErrors that are not field names. */
export const UNIQUE_OBJECT_KEY = '__uniqueObject__';
export const ARGUMENTS_KEY = '__arguments__';
export const FORM_KEY = '__form__';
export const extraPartKey = (index: number) => `__extraPart__${index}`;

/** Error messages by field name (or one of the keys above). */
export type FormErrors = Record<string, string[]>;

export function emptyFormState(model: FormModel): FormState {
  const values: Record<string, string> = {};
  for (const field of model.fields) values[field.name] = '';
  const files: Record<string, File | null> = {};
  for (const file of model.files) files[file.name] = null;
  return { values, nulls: {}, files, uniqueObject: '', argumentsJson: '{}', extraParts: [] };
}

export function hasErrors(errors: FormErrors): boolean {
  return Object.values(errors).some((list) => list.length > 0);
}

export function addError(errors: FormErrors, key: string, message: string): void {
  (errors[key] ??= []).push(message);
}
