/**
 * Nothing stored may keep the console from starting. When the start with the stored documents
 * fails (reading them, building the stores from them, or the first drawing of the app), the
 * console starts again without them, in memory only, and says so; the stored documents are left
 * as they are, and can be exported as they were stored, for a person (or a bug report) to read.
 */
import { SAVED_QUERIES_KEY } from '../features/saved-queries/index.ts';
import { MemoryDocumentStorage, type DocumentStorage } from '../state/document-storage.ts';
import { TABS_INDEX_KEY, tabKey } from '../state/tabs-persistence.ts';
import type { LoadedDocuments } from './load-documents.ts';

/** The documents of a start without the stored ones: nothing, written nowhere. */
export function withoutStoredDocuments(reason: string): LoadedDocuments {
  return {
    storage: new MemoryDocumentStorage(),
    tabs: null,
    saved: null,
    savedMigrated: false,
    problems: [`The console could not start with the stored tabs (${reason}): it started without them. They are kept as they were; "Export stored tabs" saves them to a file.`],
  };
}

/** Every stored document record, as stored (text, not parsed: it may be what failed). */
export async function exportStoredDocuments(storage: DocumentStorage): Promise<string> {
  const records: Record<string, string | null> = {};
  const read = async (key: string) => {
    try {
      records[key] = await storage.get(key);
    } catch (err) {
      records[key] = `(could not be read: ${(err as Error).message})`;
    }
  };
  await read(TABS_INDEX_KEY);
  await read(SAVED_QUERIES_KEY);
  let ids: unknown = [];
  try {
    ids = (JSON.parse(records[TABS_INDEX_KEY] ?? '{}') as { ids?: unknown }).ids;
  } catch {
    // An index that is not JSON is exported as it is, with no tabs found through it.
  }
  if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') await read(tabKey(id));
  return JSON.stringify({ exportedAt: new Date().toISOString(), records }, null, 2);
}
