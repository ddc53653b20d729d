/**
 * Imports the console's saved-queries export (the JSON file its Saved view writes) into collection
 * folders under a root: one folder per collection, one request file per saved query, numbered in
 * their saved order so a run keeps it. Nothing saved before collections became folders is lost.
 * An existing folder is never overwritten: the new one gets a free name.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLLECTION_FILE, requestFileName, serializeManifest, serializeRequestFile } from '../../shared/collections/format.ts';
import { parseCollectionsFile } from '../../shared/collections/saved-export.ts';
import { CollectionError } from './folder.ts';

export interface ImportedFolder {
  name: string;
  /** The new folder, relative to the root. */
  folder: string;
  requests: number;
}

function folderName(name: string): string {
  return name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-').replace(/^[.\s-]+|[\s-]+$/g, '').slice(0, 100) || 'collection';
}

export function importExport(root: string, exportText: string): ImportedFolder[] {
  const parsed = parseCollectionsFile(exportText);
  if (!parsed.ok) throw new CollectionError(`The file was not imported: ${parsed.errors.join('; ')}`);
  const imported: ImportedFolder[] = [];
  for (const collection of parsed.collections) {
    let folder = folderName(collection.name);
    for (let n = 2; existsSync(join(root, folder)); n++) folder = `${folderName(collection.name)}-${n}`;
    const dir = join(root, folder);
    mkdirSync(dir, { recursive: true });
    try {
      const width = String(collection.queries.length).length;
      const used = new Set<string>();
      collection.queries.forEach((query, index) => {
        let file = requestFileName(`${String(index + 1).padStart(width, '0')}-${query.name}`);
        for (let n = 2; used.has(file); n++) file = requestFileName(`${String(index + 1).padStart(width, '0')}-${query.name}-${n}`);
        used.add(file);
        const request = { document: query.document, options: {}, assertions: [], captures: [], tags: [], ...(query.description ? { description: query.description } : {}) };
        writeFileSync(join(dir, file), serializeRequestFile(request), { flag: 'wx' });
      });
      // The manifest last: a folder without it is not a collection, so a failure leaves none half-made.
      writeFileSync(join(dir, COLLECTION_FILE), serializeManifest({ name: collection.name, format: 1 }), { flag: 'wx' });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    imported.push({ name: collection.name, folder, requests: collection.queries.length });
  }
  return imported;
}
