/**
 * Full-text indexes for `search` (docs/protocol.md "`__meta__` keys"): one contentless FTS5 table with the trigram
 * tokenizer per model that has search fields, kept in step with the model's table by triggers, so a
 * term of 3+ characters finds its candidate rows through the index instead of a LIKE scan.
 *
 * The index is contentless (the text stays only in the model's table) and deletable by rowid. Its
 * columns are c0..cN in the order of the model's search fields, so a field named like an FTS5
 * reserved column (`rank`) needs no special case. The triggers' SQL text records which columns are
 * indexed: when it differs from what the workspace asks (a search field added or removed), the index
 * is dropped, created again and filled from the table's rows.
 */
import type { Sqlite } from '../db/database.ts';
import type { ModelDef, Workspace } from '../workspace/types.ts';
import { quoteIdent } from '../workspace/schema-sql.ts';

/** The FTS5 table of a model's search fields. */
export function ftsTableOf(model: Pick<ModelDef, 'table'>): string {
  return `jql_fts(${model.table})`;
}

interface FtsPlan {
  table: string;
  /** CREATE statements by object name, as SQLite keeps them in sqlite_master. */
  objects: Map<string, string>;
  backfill: string;
}

function planFor(model: ModelDef): FtsPlan | null {
  const columns = model.search.map((name) => model.fields.get(name)?.column ?? name);
  if (columns.length === 0) return null;
  const fts = quoteIdent(ftsTableOf(model));
  const source = quoteIdent(model.table);
  const slots = columns.map((_, i) => `c${i}`).join(', ');
  const values = (row: string) => columns.map((c) => `${row}.${quoteIdent(c)}`).join(', ');
  const insert = `INSERT INTO ${fts}(rowid, ${slots}) VALUES (new."id", ${values('new')});`;
  const remove = `DELETE FROM ${fts} WHERE rowid = old."id";`;
  const watched = ['id', ...columns].map(quoteIdent).join(', ');
  const names = {
    table: ftsTableOf(model),
    inserted: `jql_fts_ai(${model.table})`,
    deleted: `jql_fts_ad(${model.table})`,
    updated: `jql_fts_au(${model.table})`,
  };
  const objects = new Map<string, string>([
    [names.table, `CREATE VIRTUAL TABLE ${fts} USING fts5(${slots}, content='', contentless_delete=1, tokenize="trigram case_sensitive 0")`],
    [names.inserted, `CREATE TRIGGER ${quoteIdent(names.inserted)} AFTER INSERT ON ${source} BEGIN ${insert} END`],
    [names.deleted, `CREATE TRIGGER ${quoteIdent(names.deleted)} AFTER DELETE ON ${source} BEGIN ${remove} END`],
    [names.updated, `CREATE TRIGGER ${quoteIdent(names.updated)} AFTER UPDATE OF ${watched} ON ${source} BEGIN ${remove} ${insert} END`],
  ]);
  const backfill = `INSERT INTO ${fts}(rowid, ${slots}) SELECT "id", ${columns.map(quoteIdent).join(', ')} FROM ${source}`;
  return { table: names.table, objects, backfill };
}

/**
 * Creates, rebuilds or drops each model's search index to match the workspace. Runs in the startup
 * transaction after the tables are migrated; returns the models whose index was (re)built.
 */
export function ensureSearchIndexes(db: Sqlite, ws: Workspace): string[] {
  const rebuilt: string[] = [];
  const existing = new Map(
    // eslint-disable-next-line no-restricted-syntax -- the index objects by name prefix: a schema lookup, no request text
    (db.prepare("SELECT name, sql FROM sqlite_master WHERE name LIKE 'jql\\_fts%' ESCAPE '\\'").all() as Array<{ name: string; sql: string | null }>).map(
      (row) => [row.name, row.sql],
    ),
  );
  const wantedTables = new Set<string>();
  for (const model of ws.models.values()) {
    const plan = planFor(model);
    if (!plan) continue;
    wantedTables.add(model.table);
    const current = [...plan.objects].every(([name, sql]) => existing.get(name) === sql);
    if (current) continue;
    dropIndex(db, model.table);
    for (const sql of plan.objects.values()) db.exec(sql);
    db.exec(plan.backfill);
    rebuilt.push(model.key);
  }
  // Indexes of models that no longer search (or are gone from the workspace) stop being kept.
  for (const name of existing.keys()) {
    const match = /^jql_fts\((.*)\)$/.exec(name);
    if (match && !wantedTables.has(match[1] as string)) dropIndex(db, match[1] as string);
  }
  return rebuilt;
}

function dropIndex(db: Sqlite, table: string): void {
  for (const kind of ['ai', 'ad', 'au']) db.exec(`DROP TRIGGER IF EXISTS ${quoteIdent(`jql_fts_${kind}(${table})`)}`);
  db.exec(`DROP TABLE IF EXISTS ${quoteIdent(ftsTableOf({ table }))}`);
}
