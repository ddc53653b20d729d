/**
 * Prepared statements of one connection, keyed by SQL text. SQL is built only from workspace names,
 * so the set of distinct statements is small; the cache is bounded all the same.
 */
import { LRUCache } from 'lru-cache';
import type { Sqlite, Statement } from './connection.ts';

const MAX_STATEMENTS = 2000;

export class StatementCache {
  readonly connection: Sqlite;
  private readonly statements = new LRUCache<string, Statement>({ max: MAX_STATEMENTS });

  /** false: every statement is prepared afresh (a server without shortcuts, ServerState.shortcuts). */
  private readonly reuse: boolean;

  /**
   * Whether reads take the integer shortcut of db/exact-reads.ts (read as doubles, again exactly only
   * when a number may be rounded); false reads every statement with safe integers. A shortcut like
   * the reuse, so it follows it.
   */
  readonly integerCheck: boolean;

  constructor(connection: Sqlite, reuse = true) {
    this.connection = connection;
    this.reuse = reuse;
    this.integerCheck = reuse;
  }

  /**
   * The statement asked for last, by its text. Repeated reads of one shape ask for the same string
   * object each time (a plan keeps its SQL), and comparing it spares the cache's lookup (issue 14.2).
   */
  private lastSql: string | null = null;
  private lastStatement: Statement | null = null;

  get(sql: string): Statement {
    if (!this.reuse) return this.connection.prepare(sql);
    if (sql === this.lastSql && this.lastStatement !== null) return this.lastStatement;
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.connection.prepare(sql)));
    // Two fields, not an object: statements that alternate (a page and its count) allocate nothing.
    this.lastSql = sql;
    this.lastStatement = statement;
    return statement;
  }
}
