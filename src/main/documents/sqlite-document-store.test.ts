import { openDatabase } from '../../server/index.ts';
import { describe, expect, it } from 'vitest';
import { documentHandlers } from '../ipc/document-handlers.ts';
import { validators } from '../ipc/validators.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';
import { DocumentInputError, MAX_DOCUMENT_CHARS, parseDocumentChanges } from './validate.ts';

const store = () => new SqliteDocumentStore(openDatabase(':memory:'), () => 1000);

describe('SqliteDocumentStore', () => {
  it('writes, overwrites, deletes and reads keys, a 5 MB document included', () => {
    const docs = store();
    const big = `{"text":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    docs.write([
      { key: 'tabs', value: '{"ids":["a"]}' },
      { key: 'tab:a', value: big },
    ]);
    expect(docs.get('tab:a')).toBe(big);
    docs.write([{ key: 'tabs', value: '{"ids":[]}' }, { key: 'tab:a', value: null }]);
    expect(docs.get('tab:a')).toBeNull();
    expect(docs.get('tabs')).toBe('{"ids":[]}');
  });

  it('writes all the keys of one call or none', () => {
    const db = openDatabase(':memory:');
    const docs = new SqliteDocumentStore(db);
    docs.write([{ key: 'tabs', value: 'before' }]);
    // A failure in the middle of a write (here: a trigger standing in for a full disk).
    db.exec(`CREATE TRIGGER full BEFORE INSERT ON documents WHEN NEW.key = 'tab:b' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    expect(() =>
      docs.write([
        { key: 'tabs', value: 'after' },
        { key: 'tab:b', value: 'x' },
      ]),
    ).toThrow('disk is full');
    expect(docs.get('tabs')).toBe('before');
  });

  it('keeps what it wrote across a reopen (the migrations run once)', () => {
    const db = openDatabase(':memory:');
    new SqliteDocumentStore(db).write([{ key: 'saved-queries', value: '{}' }]);
    expect(new SqliteDocumentStore(db).get('saved-queries')).toBe('{}');
  });
});

describe('documents channels', () => {
  it('check keys and changes before the store is touched', () => {
    const docs = store();
    const handlers = documentHandlers(docs);
    const call = <C extends keyof typeof handlers>(channel: C, ...args: unknown[]) => (handlers[channel] as (...a: unknown[]) => unknown)(...(validators[channel](args) as unknown[]));
    call('documents:write', [{ key: 'tab:x', value: 'v' }]);
    expect(call('documents:get', 'tab:x')).toBe('v');
    expect(() => call('documents:get', '../x')).toThrow(DocumentInputError);
    expect(() => call('documents:write', [])).toThrow(DocumentInputError);
    expect(() => call('documents:write', [{ key: 'a', value: 5 }])).toThrow('text, or null');
    expect(() => call('documents:write', [{ key: 'a', value: 'v', extra: 1 }])).toThrow(DocumentInputError);
    expect(() => parseDocumentChanges([{ key: 'a', value: 'x'.repeat(MAX_DOCUMENT_CHARS + 1) }])).toThrow('longer than');
    expect(docs.get('a')).toBeNull();
  });
});
