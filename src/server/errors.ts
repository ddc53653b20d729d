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

/**
 * A storage fault as its coded error (issue 30.6), or null for any other error: another process holds
 * the database's lock, the disk is full, or the data folder cannot be written. The message names the
 * cause and what to do, never a path (the server's log has the rest).
 */
export function storageFault(error: unknown): JqlFailure | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (isLockError(error)) return databaseBusy();
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return new JqlFailure([jqlError('storage_full', 'The server\'s disk is full: nothing of this request was written; try again once space is freed')]);
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || ((code === 'EACCES' || code === 'EPERM') && isWriteError(error))) {
    return new JqlFailure([jqlError('storage_read_only', 'The server\'s data folder cannot be written: nothing of this request was written')]);
  }
  return null;
}

/** SQLite's answer when another connection holds the lock asked for. */
export function isLockError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** A file system error of a write (open for writing, rename, mkdir), not of a read. */
function isWriteError(error: unknown): boolean {
  const syscall = (error as { syscall?: unknown }).syscall;
  return syscall === undefined || ['open', 'write', 'rename', 'mkdir', 'copyfile', 'link', 'unlink'].includes(String(syscall));
}

export function databaseBusy(): JqlFailure {
  return new JqlFailure([jqlError('database_busy', 'Another program holds the database\'s write lock: nothing of this request was written; try again shortly')]);
}

/** Seconds a client should wait before it sends the same request again, for the codes where waiting helps. */
const RETRY_AFTER_S: Partial<Record<ErrorCode, number>> = { database_busy: 1, server_busy: 1, storage_full: 30 };

/** The `Retry-After` of an answer whose first error is one of them, or null. */
export function retryAfterOf(errors: JqlError[]): string | null {
  const seconds = RETRY_AFTER_S[errors[0]?.code ?? 'internal_error'];
  return seconds === undefined ? null : String(seconds);
}
