/**
 * Puts the server's errors (docs/protocol.md "Errors") on the form input they name: by `field`, by `path`
 * (`["__meta__","unique_object","id"]`, `["title"]`), or by part name; what names nothing the form
 * shows goes to the form as a whole.
 */
import type { JqlError } from '../../../shared/protocol.ts';
import { visibleText } from '../../components/visible-controls.tsx';
import type { UploadPlan } from './build-upload.ts';
import type { FormModel } from './form-model.ts';
import { addError, ARGUMENTS_KEY, extraPartKey, FORM_KEY, UNIQUE_OBJECT_KEY, type FormErrors, type FormState } from './form-state.ts';

const UNIQUE_OBJECT_NAMES = new Set(['unique_object', 'uniqueObject']);
const MAPPING_NAMES = new Set(['file_field_mapping', 'fileFieldMapping', 'side_effects', 'sideEffects']);

export function mapServerErrors(errors: readonly JqlError[], model: FormModel, state: FormState, plan: UploadPlan | null): FormErrors {
  const out: FormErrors = {};
  const fieldNames = new Set([...model.fields, ...model.files].map((f) => f.name));
  const partToKey = new Map<string, string>();
  for (const f of model.files) partToKey.set(f.name, f.name);
  state.extraParts.forEach((p, i) => partToKey.set(p.name.trim(), extraPartKey(i)));
  if (plan) {
    for (const part of plan.parts) if (part.kind === 'file' && part.field) partToKey.set(part.name, part.field);
  }
  const fileKeys = [...new Set(partToKey.values())];

  const keyFor = (error: JqlError): string => {
    const path = (error.path ?? []).map(String);
    if (path.some((p) => UNIQUE_OBJECT_NAMES.has(p))) return UNIQUE_OBJECT_KEY;
    const named = [error.field, ...path.filter((p) => p !== '__meta__' && !MAPPING_NAMES.has(p))].filter((n): n is string => typeof n === 'string');
    for (const name of named) {
      if (fieldNames.has(name)) return name;
      const part = partToKey.get(name);
      if (part) return part;
    }
    if (error.code === 'not_found' && model.needsUniqueObject) return UNIQUE_OBJECT_KEY;
    if (error.code === 'payload_too_large' && fileKeys.length === 1) return fileKeys[0]!;
    if (model.takesJsonArguments && error.field) return ARGUMENTS_KEY;
    return FORM_KEY;
  };

  for (const error of errors) {
    const key = keyFor(error);
    // An argument's name is not shown next to the arguments box, so the message carries it.
    const message = key === ARGUMENTS_KEY && error.field && !error.message.includes(error.field) ? `${visibleText(error.field)}: ${error.message}` : error.message;
    addError(out, key, message);
  }
  return out;
}
