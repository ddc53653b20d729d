/**
 * Runs one request's SQL: every statement goes through here so `__extras__.queries` and the
 * `query_info_level` diagnostics (PROTOCOL.md 8) count and show exactly what ran.
 */
import type { JsonValue, SqlTrace } from '../../shared/protocol.ts';
import type { Statement, StatementCache } from './database.ts';

export type SqlParam = string | number | bigint | null | Buffer;
export type Row = Record<string, unknown>;

export class SqlSession {
  private readonly cache: StatementCache;
  /** Statements run so far. */
  queries = 0;
  /** Filled only when the request asked for `query_info_level=2`. */
  readonly traces: SqlTrace[] | null;

  constructor(cache: StatementCache, trace: boolean) {
    this.cache = cache;
    this.traces = trace ? [] : null;
  }

  // The untraced path calls the statement directly: these run on every request, and a closure per
  // statement is measurable there.
  all(sql: string, params: SqlParam[] = []): Row[] {
    this.queries += 1;
    if (!this.traces) return this.cache.get(sql).all(...params) as Row[];
    return this.traced(sql, params, (statement) => statement.all(...params) as Row[]);
  }

  get(sql: string, params: SqlParam[] = []): Row | undefined {
    this.queries += 1;
    if (!this.traces) return this.cache.get(sql).get(...params) as Row | undefined;
    return this.traced(sql, params, (statement) => statement.get(...params) as Row | undefined);
  }

  run(sql: string, params: SqlParam[] = []): { changes: number; lastInsertRowid: number | bigint } {
    this.queries += 1;
    if (!this.traces) return this.cache.get(sql).run(...params);
    return this.traced(sql, params, (statement) => statement.run(...params));
  }

  private traced<T>(sql: string, params: SqlParam[], exec: (statement: Statement) => T): T {
    const traces = this.traces as SqlTrace[];
    const started = performance.now();
    try {
      return exec(this.cache.get(sql));
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
