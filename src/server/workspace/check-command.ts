/**
 * `jql-console workspace check FILE --data DIR` (docs/workspace.md "Changing a workspace while it
 * runs"): prints the migration preview of FILE over an existing data folder, changing nothing, so
 * that CI and a person can look before a start. Exit 0: nothing stored would be lost; 3: something
 * would be lost or refused; 2: the file (or the command line) is wrong.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CommandHelp } from '../cli-help.ts';
import { openReader } from '../db/connection.ts';
import { WorkspaceError } from './errors.ts';
import { formatPreview, previewMigration } from './migration-preview.ts';
import { loadWorkspace } from './resolve.ts';

export const CHECK_HELP: CommandHelp = {
  words: ['workspace', 'check'],
  usage: 'FILE --data DIR',
  summary: 'Prints what starting FILE on the data folder DIR would change, without changing anything. Exit 0: nothing stored is lost; 3: stored data would be lost or refused; 2: the file is wrong.',
  options: [{ flag: '--data', value: 'DIR', help: 'The data folder to compare with (one that does not exist yet is all additions).' }],
};

export interface CheckIo {
  out(line: string): void;
  err(line: string): void;
}

export function checkCommand(argv: readonly string[], io: CheckIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): number {
  let file: string | undefined;
  let data: string | undefined;
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: { data: { type: 'string' } }, allowPositionals: true, strict: true });
    [file] = positionals;
    data = values.data;
    if (!file || !data || positionals.length > 1) throw new Error(`Usage: jql-console workspace check ${CHECK_HELP.usage}`);
  } catch (error) {
    io.err(`jql-console: ${(error as Error).message}`);
    return 2;
  }
  let ws;
  try {
    ws = loadWorkspace(file);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    io.err(`jql-console: ${error.message}`);
    return 2;
  }
  const database = join(data, 'jql.sqlite');
  if (!existsSync(database)) {
    io.out(`${data} holds no database yet: starting ${file} there creates every model; nothing stored is lost.`);
    return 0;
  }
  const db = openReader(database);
  try {
    const preview = previewMigration(db, null, ws);
    io.out(formatPreview(preview));
    return preview.losesData ? 3 : 0;
  } finally {
    db.close();
  }
}
