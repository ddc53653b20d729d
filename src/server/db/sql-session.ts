/**
 * Runs one request's SQL: every statement goes through here so `__extras__.queries` and the
 * `query_info_level` diagnostics (docs/protocol.md "Diagnostics") count and show exactly what ran.
 */
import type { JsonValue, SqlTrace } from '../../shared/protocol.ts';
import { exactInteger } from '../exact-integers.ts';
import type { Statement } from './connection.ts';
import { allExact, getExact, iterateExact, runExact, type Row, type SqlParam } from './exact-reads.ts';
import type { StatementCache } from './statements.ts';

export type { Row, SqlParam } from './exact-reads.ts';

/**
 * Counts the rows a request reads as they come (query/answer-budget.ts); throws to stop the read.
 * A metered session reads row by row instead of all at once, so it never holds more than one row past
 * the bound; only rows the workspace's limits prove cannot pass what is left are read at once.
 */
export interface RowMeter {
  /** Whether rows that weigh at most `bytes` fit in what is left, so that reading them cannot be refused. */
  hasRoomFor(bytes: number): boolean;
  charge(row: Row): void;
  /** Counts what an answer that was not read row by row (a cached one) weighs sent. */
  spend(bytes: number): void;
}

/** What runs statements: a request's session, or the server's own bookkeeping on the same connection. */
export interface SqlRunner {
  all(sql: string, params?: SqlParam[]): Row[];
  get(sql: string, params?: SqlParam[]): Row | undefined;
  run(sql: string, params?: SqlParam[]): { changes: number; lastInsertRowid: number | bigint };
}

/** Statements that are not the request's own (the event log, file rows): same connection, not counted. */
export function untracked(cache: StatementCache): SqlRunner {
  return {
    all: (sql, params = []) => allExact(cache.get(sql), params, cache.integerCheck),
    get: (sql, params = []) => getExact(cache.get(sql), params, cache.integerCheck),
    run: (sql, params = []) => runExact(cache.get(sql), params),
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

  private readonly meter: RowMeter | null;

  constructor(cache: StatementCache, trace: boolean, meter: RowMeter | null = null) {
    this.statements = cache;
    this.traces = trace ? [] : null;
    this.meter = meter;
  }

  /** The server's own statements on this session's connection (event log, file rows): not counted. */
  get untracked(): SqlRunner {
    return (this.bookkeeping ??= untracked(this.statements));
  }

  /**
   * All rows of a statement. `weighsAtMost`: what its rows can weigh at most as the answer budget
   * counts them (query/answer-budget.ts rowBytesAtMost times the statement's LIMIT), when the caller knows.
   */
  all(sql: string, params: SqlParam[] = [], weighsAtMost?: number): Row[] {
    // The untraced path calls the statement directly: these run on every request, and a closure per
    // statement is measurable there.
    this.queries += 1;
    if (this.meter) {
      if (this.traces) return this.traced(sql, params, (statement) => this.metered(statement, params, weighsAtMost));
      return this.metered(this.statements.get(sql), params, weighsAtMost);
    }
    const check = this.statements.integerCheck;
    if (!this.traces) return allExact(this.statements.get(sql), params, check);
    return this.traced(sql, params, (statement) => allExact(statement, params, check));
  }

  get(sql: string, params: SqlParam[] = []): Row | undefined {
    this.queries += 1;
    const check = this.statements.integerCheck;
    const row = this.traces ? this.traced(sql, params, (statement) => getExact(statement, params, check)) : getExact(this.statements.get(sql), params, check);
    if (row && this.meter) this.meter.charge(row);
    return row;
  }

  /**
   * Reads row by row, counting each before the next is read; a refusal ends the statement. Rows that
   * fit in what is left of the budget whatever they hold are read in one call and counted after:
   * better-sqlite3's iterate() costs about 0.35 µs a row more than all() (7 µs of a 20-row page,
   * 1.5% of a filtered page's CPU in the benchmark, issue 14.2).
   */
  private metered(statement: Statement, params: SqlParam[], weighsAtMost: number | undefined): Row[] {
    const meter = this.meter as RowMeter;
    const check = this.statements.integerCheck;
    if (weighsAtMost !== undefined && meter.hasRoomFor(weighsAtMost)) {
      const all = allExact(statement, params, check);
      for (const row of all) meter.charge(row);
      return all;
    }
    const rows: Row[] = [];
    // Each row is counted exact: an integer past 2^53 weighs its digits, not its neighbour's.
    for (const row of iterateExact(statement, params, check)) {
      meter.charge(row);
      rows.push(row);
    }
    return rows;
  }

  /** Counts `bytes` of an answer not read through this session (a cache hit) against the request's budget. */
  spend(bytes: number): void {
    this.meter?.spend(bytes);
  }

  run(sql: string, params: SqlParam[] = []): { changes: number; lastInsertRowid: number | bigint } {
    this.queries += 1;
    if (!this.traces) return runExact(this.statements.get(sql), params);
    return this.traced(sql, params, (statement) => runExact(statement, params));
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
  // Its digits: a bigint is written exact (exact-integers.ts), where Number() would show a neighbour.
  if (typeof value === 'bigint') return exactInteger(value) as JsonValue;
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  return value;
}

export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
