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

  constructor(connection: Sqlite) {
    this.connection = connection;
  }

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.connection.prepare(sql)));
    return statement;
  }
}
