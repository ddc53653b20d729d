/**
 * The JSON file saved queries travel in. One format for one collection or many:
 * `{"format": "jql-console/collections", "version": 1, "collections": [{"name", "queries":
 * [{"name", "document", "description"?}]}]}`. Documents are kept as text, since a document with
 * `{{variables}}` need not be JSON until they are filled. Environments are never exported: they
 * are per connection and may hold secrets.
 */
import type { Collection } from './saved-types.ts';
import { FILE_FORMAT, FILE_VERSION } from '../../../shared/collections/saved-export.ts';

export * from '../../../shared/collections/saved-export.ts';

export function exportCollections(collections: readonly Collection[], now = new Date()): string {
  const file = {
    format: FILE_FORMAT,
    version: FILE_VERSION,
    exportedAt: now.toISOString(),
    collections: collections.map((c) => ({
      name: c.name,
      queries: c.queries.map((q) => ({ name: q.name, document: q.document, ...(q.description ? { description: q.description } : {}) })),
    })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function exportFileName(collections: readonly Collection[], now = new Date()): string {
  const base = collections.length === 1 ? collections[0]!.name : 'jql-collections';
  const safe = base.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'collection';
  return `${safe}-${now.toISOString().slice(0, 10)}.json`;
}

