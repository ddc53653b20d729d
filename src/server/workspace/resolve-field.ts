/**
 * Validates one model field as written in the workspace file and resolves it to a FieldDef:
 * known type, only the options that type takes, option values of the right kind, and option
 * combinations that make sense (docs/workspace.md "Field types" and "Field options").
 */
import type { FieldType, JsonValue } from '../../shared/protocol.ts';
import type { FieldDef } from './types.ts';
import type { At } from './check.ts';
import { expectObject, fail, show } from './check.ts';
import { FIELD_TYPES, isFieldType, valueProblem } from './field-codec.ts';

export const COMMON_FIELD_OPTIONS = ['type', 'required', 'null', 'default', 'writeOnly', 'hidden'] as const;
const COMMON = COMMON_FIELD_OPTIONS;

/** The options each type takes besides the common ones. */
export const TYPE_OPTIONS: Record<FieldType, readonly string[]> = {
  string: ['choices', 'unique', 'maxLength'],
  text: ['choices', 'unique', 'maxLength'],
  integer: ['choices', 'unique', 'min', 'max'],
  number: ['choices', 'unique', 'min', 'max'],
  boolean: [],
  date: ['unique'],
  datetime: ['unique', 'auto'],
  json: [],
  ref: ['to', 'unique'],
  file: ['protected'],
};

const ALL_OPTIONS = new Set<string>([...COMMON, ...Object.values(TYPE_OPTIONS).flat()]);

/** `modelKeys`: every `<app>.<Model>` of the workspace, for `ref` targets. */
export function resolveField(name: string, raw: unknown, at: At, modelKeys: ReadonlySet<string>): FieldDef {
  const spec = expectObject(raw, at, 'a field');
  if (!isFieldType(spec.type)) {
    fail(at, spec.type === undefined ? `"type" is missing (one of ${FIELD_TYPES.join(', ')})` : `unknown type ${show(spec.type)} (known: ${FIELD_TYPES.join(', ')})`);
  }
  const type = spec.type;
  const allowed = [...COMMON, ...TYPE_OPTIONS[type]];
  for (const key of Object.keys(spec)) {
    if (!allowed.includes(key)) {
      fail(at, ALL_OPTIONS.has(key) ? `option "${key}" does not apply to type "${type}"` : `unknown option "${key}"`);
    }
  }

  const flag = (key: string): boolean => {
    const value = spec[key];
    if (value !== undefined && typeof value !== 'boolean') fail(at, `option "${key}" must be true or false, got ${show(value)}`);
    return value === true;
  };
  const nullable = flag('null');
  const unique = flag('unique');
  const writeOnly = flag('writeOnly');
  const hidden = flag('hidden');
  const isProtected = flag('protected');
  flag('required');
  const strictRequired = spec.required === true;

  const maxLength = optionalNumber(spec, 'maxLength', at, true);
  const min = optionalNumber(spec, 'min', at, false);
  const max = optionalNumber(spec, 'max', at, false);
  if (min !== undefined && max !== undefined && min > max) fail(at, `"min" (${min}) is greater than "max" (${max})`);

  const auto = spec.auto;
  if (auto !== undefined && auto !== 'create' && auto !== 'update') fail(at, `option "auto" must be "create" or "update", got ${show(auto)}`);

  let to: string | undefined;
  if (type === 'ref') {
    if (typeof spec.to !== 'string') fail(at, `a ref field needs "to": "<app>.<Model>", got ${show(spec.to)}`);
    if (!modelKeys.has(spec.to)) fail(at, `"to" names unknown model "${spec.to}"`);
    to = spec.to;
  }

  const fits = (value: unknown, what: string): void => {
    const problem = valueProblem(type, value);
    if (problem !== null) fail(at, `${what} ${show(value)} must be ${problem}`);
    if (typeof value === 'string' && maxLength !== undefined && [...value].length > maxLength) fail(at, `${what} ${show(value)} is longer than "maxLength" ${maxLength}`);
    if (typeof value === 'number' && min !== undefined && value < min) fail(at, `${what} ${value} is below "min" ${min}`);
    if (typeof value === 'number' && max !== undefined && value > max) fail(at, `${what} ${value} is above "max" ${max}`);
  };

  let choices: JsonValue[] | undefined;
  if (spec.choices !== undefined) {
    if (!Array.isArray(spec.choices) || spec.choices.length === 0) fail(at, `option "choices" must be a non-empty array, got ${show(spec.choices)}`);
    for (const choice of spec.choices) fits(choice, 'choice');
    if (new Set(spec.choices).size !== spec.choices.length) fail(at, 'option "choices" lists a value twice');
    choices = spec.choices as JsonValue[];
  }

  const hasDefault = Object.hasOwn(spec, 'default');
  const defaultValue = spec.default as JsonValue | undefined;
  if (hasDefault) {
    if (defaultValue === null) {
      if (!nullable) fail(at, '"default": null needs "null": true');
    } else {
      fits(defaultValue, 'default');
      if (choices && !choices.includes(defaultValue as JsonValue)) fail(at, `default ${show(defaultValue)} is not one of the choices`);
    }
    if (auto !== undefined) fail(at, 'a field with "auto" is set by the server and takes no "default"');
  }

  const required = !nullable && !hasDefault && auto === undefined;
  if (strictRequired && !required) fail(at, '"required": true contradicts "null": true, a "default" or "auto"');
  if (spec.required === false && required) fail(at, '"required": false needs "null": true or a "default" (a field without either must be given on create)');
  if (hidden && writeOnly) fail(at, '"hidden" and "writeOnly" exclude each other (hidden fields are not writable at all)');
  if (hidden && required) fail(at, 'a hidden field is never written by clients, so it needs "null": true, a "default" or "auto"');
  const password = name === 'password' && writeOnly;
  if (password && type !== 'string') fail(at, 'a writeOnly "password" field is hashed and must be of type "string"');

  const field: FieldDef = {
    name,
    column: name,
    type,
    required,
    strictRequired,
    nullable,
    unique,
    writeOnly,
    hidden,
    protected: isProtected,
    password,
  };
  if (hasDefault) field.default = defaultValue;
  if (choices) field.choices = choices;
  if (maxLength !== undefined) field.maxLength = maxLength;
  if (min !== undefined) field.min = min;
  if (max !== undefined) field.max = max;
  if (auto !== undefined) field.auto = auto;
  if (to !== undefined) field.to = to;
  return field;
}

function optionalNumber(spec: Record<string, unknown>, key: string, at: At, positiveInteger: boolean): number | undefined {
  const value = spec[key];
  if (value === undefined) return undefined;
  if (positiveInteger ? !(Number.isSafeInteger(value) && (value as number) > 0) : !(typeof value === 'number' && Number.isFinite(value))) {
    fail(at, `option "${key}" must be ${positiveInteger ? 'a positive integer' : 'a number'}, got ${show(value)}`);
  }
  return value as number;
}
