/**
 * Small shape checks shared by the workspace validators. Each failure is a WorkspaceError at the
 * given location, so every check reads as one line at its call site.
 */
import type { WorkspaceErrorLocation } from './errors.ts';
import { WorkspaceError } from './errors.ts';

export type At = WorkspaceErrorLocation;

/** Apps, models and collections: they appear in namespaces `<app>.<Name>` and in table names. */
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/**
 * Fields and relations: snake_case, because requests' camelCase keys are rewritten to snake_case
 * (docs/protocol.md "The query document") and an upper-case field could never be reached; no `__` and no trailing `_`,
 * because `__` separates a field path from its lookup (`priority__gte`).
 */
const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

export function fail(at: At, problem: string): never {
  throw new WorkspaceError(problem, at);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short rendering of a bad value for a message. */
export function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function expectObject(value: unknown, at: At, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) fail(at, `${what} must be an object, got ${show(value)}`);
  return value;
}

export function expectKeys(value: Record<string, unknown>, allowed: readonly string[], at: At, what: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(at, `unknown key "${key}" in ${what} (allowed: ${allowed.join(', ')})`);
  }
}

export function expectStringArray(value: unknown, at: At, what: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
    fail(at, `${what} must be an array of non-empty strings, got ${show(value)}`);
  }
  return value as string[];
}

export function checkName(name: string, at: At, what: 'app' | 'model' | 'collection'): void {
  if (!NAME.test(name)) fail(at, `${what} name "${name}" must start with a letter and hold only letters, digits and _`);
}

export function checkFieldName(name: string, at: At, what: 'field' | 'relation'): void {
  if (name === 'id') fail(at, `"id" is reserved: every model has an integer primary key "id"`);
  if (!FIELD_NAME.test(name) || name.includes('__') || name.endsWith('_')) {
    fail(at, `${what} name "${name}" must be snake_case: a lower-case letter, then lower-case letters, digits and single _ (not at the end)`);
  }
}
