/**
 * The form the upload panel draws for a target, generated from the model's fields (type, required,
 * choices, limits). A controller target has no field list: its arguments are a JSON object and its
 * file parts are the ones its `files` map names.
 */
import type { DescribeField, FieldType, JsonValue } from '../../../shared/protocol.ts';
import type { UploadTarget } from './upload-targets.ts';

export type InputKind = 'text' | 'textarea' | 'integer' | 'number' | 'boolean' | 'select' | 'date' | 'datetime' | 'json' | 'ref' | 'file';

export interface FormFieldSpec {
  name: string;
  type: FieldType;
  input: InputKind;
  /** Must be given for the request to succeed (create of a non-null field without default). */
  required: boolean;
  nullable: boolean;
  choices?: JsonValue[];
  maxLength?: number;
  min?: number;
  max?: number;
  /** A `file` field whose URL is signed (docs/protocol.md "File URLs"). */
  protected?: boolean;
  /** The referenced model, for `ref` fields. */
  to?: string;
  defaultValue?: JsonValue;
}

export interface FormModel {
  target: UploadTarget;
  /** Data fields (no files), in declaration order. */
  fields: FormFieldSpec[];
  /** File inputs: model file fields, or the controller's part names. */
  files: FormFieldSpec[];
  /** Update needs `uniqueObject`; controllers take free JSON arguments. */
  needsUniqueObject: boolean;
  takesJsonArguments: boolean;
}

function inputKind(field: DescribeField): InputKind {
  if (field.choices && field.choices.length > 0) return 'select';
  switch (field.type) {
    case 'string':
      return 'text';
    case 'text':
      return 'textarea';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'json':
      return 'json';
    case 'ref':
      return 'ref';
    case 'file':
      return 'file';
  }
}

/** docs/protocol.md "Errors": not `null: true`, no `default`, not `auto` means it must be given on create. */
export function requiredOnCreate(field: DescribeField): boolean {
  return field.required || (!field.null && field.default === undefined && field.auto === undefined);
}

export function fieldSpec(name: string, field: DescribeField, intent: 'create' | 'update'): FormFieldSpec {
  const spec: FormFieldSpec = {
    name,
    type: field.type,
    input: inputKind(field),
    required: intent === 'create' && requiredOnCreate(field),
    nullable: field.null,
  };
  if (field.choices) spec.choices = field.choices;
  if (field.maxLength !== undefined) spec.maxLength = field.maxLength;
  if (field.min !== undefined) spec.min = field.min;
  if (field.max !== undefined) spec.max = field.max;
  if (field.protected) spec.protected = true;
  if (field.to) spec.to = field.to;
  if (field.default !== undefined) spec.defaultValue = field.default;
  return spec;
}

export function buildFormModel(target: UploadTarget): FormModel {
  if (target.kind === 'controller') {
    return {
      target,
      fields: [],
      // A controller reads the parts it needs; the form cannot know which are optional.
      files: target.parts.map((name) => ({ name, type: 'file', input: 'file', required: true, nullable: false })),
      needsUniqueObject: false,
      takesJsonArguments: true,
    };
  }
  const fields: FormFieldSpec[] = [];
  const files: FormFieldSpec[] = [];
  for (const [name, field] of Object.entries(target.fields)) {
    // `id` and auto-stamped fields are the server's to set.
    if (name === 'id' || field.auto !== undefined) continue;
    const spec = fieldSpec(name, field, target.intent);
    (field.type === 'file' ? files : fields).push(spec);
  }
  return { target, fields, files, needsUniqueObject: target.intent === 'update', takesJsonArguments: false };
}
