/**
 * `jql-console collection import EXPORT.json --into DIR`: the console's saved-queries export as
 * collection folders under DIR (import-export.ts), for teams moving saved queries into Git.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CommandHelp } from '../cli-help.ts';
import { FileReadError, readBoundedFile } from '../read-bounded-file.ts';
import { CollectionError } from './folder.ts';
import { importExport } from './import-export.ts';
import { RunUsageError } from './run-command.ts';

export const IMPORT_HELP: CommandHelp = {
  words: ['collection', 'import'],
  usage: 'EXPORT.json --into DIR',
  summary: "Writes the console's saved-queries export as collection folders under DIR.",
  options: [{ flag: '--into', value: 'DIR', help: 'The existing folder the collections are written into.' }],
};

/** An export larger than this is refused unread. */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

export function importCommand(argv: readonly string[], out: (line: string) => void = console.log): number {
  const { values, positionals } = parseArgs({ args: [...argv], options: { into: { type: 'string' } }, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0 || !values.into) throw new RunUsageError(`Usage: jql-console collection import ${IMPORT_HELP.usage}`);
  if (!existsSync(values.into) || !statSync(values.into).isDirectory()) throw new RunUsageError(`--into ${values.into}: no such folder`);
  try {
    for (const folder of importExport(values.into, readBoundedFile(file, { maxBytes: MAX_EXPORT_BYTES }))) out(`Imported "${folder.name}" into ${folder.folder} (${folder.requests} request${folder.requests === 1 ? '' : 's'})`);
  } catch (error) {
    if (error instanceof CollectionError || error instanceof FileReadError) throw new RunUsageError(error.message);
    throw error;
  }
  return 0;
}
