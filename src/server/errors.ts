/**
 * Coded JQL errors, made in one place (PROTOCOL.md 3.2). Every path that fails throws a `JqlFailure`
 * holding one or more error objects; the envelope builder turns it into `__errors__` and the status.
 */
import { ERROR_STATUS, type ErrorCode } from '../shared/error-codes.ts';
import type { JqlError } from '../shared/protocol.ts';

export type ErrorPath = Array<string | number>;

export class JqlFailure extends Error {
  readonly errors: JqlError[];
  readonly status: number;

  constructor(errors: JqlError[]) {
    super(errors[0]?.message ?? 'JQL error');
    this.name = 'JqlFailure';
    this.errors = errors;
    this.status = ERROR_STATUS[errors[0]?.code ?? 'internal_error'];
  }
}

export function jqlError(code: ErrorCode, message: string, where: { field?: string; path?: ErrorPath } = {}): JqlError {
  const error: JqlError = { code, message };
  if (where.field !== undefined) error.field = where.field;
  if (where.path !== undefined) error.path = where.path;
  return error;
}

/** Throws one coded error. */
export function fail(code: ErrorCode, message: string, where: { field?: string; path?: ErrorPath } = {}): never {
  throw new JqlFailure([jqlError(code, message, where)]);
}

export const invalidRequest = (message: string, path?: ErrorPath): never => fail('invalid_request', message, { path });

export function statusOf(errors: JqlError[]): number {
  return ERROR_STATUS[errors[0]?.code ?? 'internal_error'];
}
