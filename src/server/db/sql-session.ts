/**
 * Runs one request's SQL: every statement goes through here so `__extras__.queries` and the
 * `query_info_level` diagnostics (PROTOCOL.md 8) count and show exactly what ran.
 */
import type { JsonValue, SqlTrace } from '../../shared/protocol.ts';
import type { Statement } from './connection.ts';
import type { StatementCache } from './statements.ts';

export type SqlParam = string | number | bigint | null | Buffer;
export type Row = Record<string, unknown>;

/** What runs statements: a request's session, or the server's own bookkeeping on the same connection. */
export interface SqlRunner {
  all(sql: string, params?: SqlParam[]): Row[];
  get(sql: string, params?: SqlParam[]): Row | undefined;
  run(sql: string, params?: SqlParam[]): { changes: number; lastInsertRowid: number | bigint };
}

/** Statements that are not the request's own (the event log, file rows): same connection, not counted. */
export function untracked(cache: StatementCache): SqlRunner {
  return {
    all: (sql, params = []) => cache.get(sql).all(...params) as Row[],
    get: (sql, params = []) => cache.get(sql).get(...params) as Row | undefined,
    run: (sql, params = []) => cache.get(sql).run(...params),
  };
}

export class SqlSession implements SqlRunner {
  /** The connection's statements: the database tells by them whether this session is in a write. */
  readonly statements: StatementCache;
  private bookkeeping: SqlRunner | null = null;
  /** Statements run so far. */
  queries = 0;
  /** Filled only when the request asked for `query_info_level=2`. */
  readonly traces: SqlTrace[] | null;

  constructor(cache: StatementCache, trace: boolean) {
    this.statements = cache;
    this.traces = trace ? [] : null;
  }

  /** The server's own statements on this session's connection (event log, file rows): not counted. */
  get untracked(): SqlRunner {
    return (this.bookkeeping ??= untracked(this.statements));
  }

  // The untraced path calls the statement directly: these run on every request, and a closure per
  // statement is measurable there.
  all(sql: string, params: SqlParam[] = []): Row[] {
    this.queries += 1;
    if (!this.traces) return this.statements.get(sql).all(...params) as Row[];
    return this.traced(sql, params, (statement) => statement.all(...params) as Row[]);
  }

  get(sql: string, params: SqlParam[] = []): Row | undefined {
    this.queries += 1;
    if (!this.traces) return this.statements.get(sql).get(...params) as Row | undefined;
    return this.traced(sql, params, (statement) => statement.get(...params) as Row | undefined);
  }

  run(sql: string, params: SqlParam[] = []): { changes: number; lastInsertRowid: number | bigint } {
    this.queries += 1;
    if (!this.traces) return this.statements.get(sql).run(...params);
    return this.traced(sql, params, (statement) => statement.run(...params));
  }

  private traced<T>(sql: string, params: SqlParam[], exec: (statement: Statement) => T): T {
    const traces = this.traces as SqlTrace[];
    const started = performance.now();
    try {
      return exec(this.statements.get(sql));
    } finally {
      traces.push({ sql, params: params.map(traceParam), time_ms: round(performance.now() - started) });
    }
  }
}

function traceParam(value: SqlParam): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  return value;
}

export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
