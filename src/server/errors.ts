/**
 * Coded JQL errors, made in one place (docs/protocol.md "Errors"). Every path that fails throws a `JqlFailure`
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

/** Codes about one part of a request's content: an answer lists every one of them, not only the first. */
const LISTED_CODES = new Set<ErrorCode>(['invalid_request', 'unknown_field', 'invalid_lookup', 'validation_error']);

/**
 * Collects the content errors of a request's parts (each filter entry, selected field, ordering path,
 * value), so one answer names every misspelled field and every bad value with its path (docs/protocol.md
 * 3.2). Anything else (a permission refusal, a missing record, a crash) still stops at once.
 */
export class ErrorList {
  private readonly errors: JqlError[] = [];

  /** Runs one check; its content errors are kept and `undefined` returned, any other failure propagates. */
  check<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      if (!(error instanceof JqlFailure) || !error.errors.every((e) => LISTED_CODES.has(e.code))) throw error;
      this.errors.push(...error.errors);
      return undefined;
    }
  }

  get empty(): boolean {
    return this.errors.length === 0;
  }

  /** Throws every kept error at once; the 400s (names the server does not know) before the 422s (values). */
  throwIfAny(): void {
    if (this.errors.length === 0) return;
    const byStatus = [...this.errors].sort((a, b) => ERROR_STATUS[a.code] - ERROR_STATUS[b.code]);
    throw new JqlFailure(byStatus);
  }
}

/** Runs every check and throws all their content errors together; returns their results otherwise. */
export function checkAll<T extends unknown[]>(...steps: { [K in keyof T]: () => T[K] }): T {
  const list = new ErrorList();
  const results = steps.map((step) => list.check(step));
  list.throwIfAny();
  return results as T;
}
