/**
 * `documents:*`: the console's tabs and saved collections in SQLite (src/main/documents). The
 * arguments were checked by validators.ts (documents/validate.ts) before a handler runs.
 */
import type { SqliteDocumentStore } from '../documents/sqlite-document-store.ts';
import type { Handlers } from './register.ts';

export function documentHandlers(store: Pick<SqliteDocumentStore, 'get' | 'write'>): Pick<Handlers, 'documents:get' | 'documents:write'> {
  return {
    'documents:get': (key) => store.get(key),
    'documents:write': (changes) => store.write(changes),
  };
}
