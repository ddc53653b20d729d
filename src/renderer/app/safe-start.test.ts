import { describe, expect, it } from 'vitest';
import { MemoryDocumentStorage } from '../state/document-storage.ts';
import { sanitizeTab } from '../state/tabs-store.ts';
import { exportStoredDocuments, withoutStoredDocuments } from './safe-start.ts';

describe('a start without the stored documents', () => {
  it('keeps nothing in the stored storage and says why', () => {
    const documents = withoutStoredDocuments('boom');
    expect(documents.tabs).toBeNull();
    expect(documents.storage).toBeInstanceOf(MemoryDocumentStorage);
    expect(documents.problems[0]).toContain('could not start with the stored tabs (boom)');
  });

  it('exports the stored records as they were stored, even ones that are not JSON', async () => {
    const storage = new MemoryDocumentStorage();
    await storage.write([
      { key: 'tabs', value: JSON.stringify({ ids: ['a', 'b'], activeId: 'a' }) },
      { key: 'tab:a', value: '{"id":"a","text":"{}"' },
      { key: 'saved-queries', value: '{"collections":[]}' },
    ]);
    const exported = JSON.parse(await exportStoredDocuments(storage)) as { records: Record<string, string | null> };
    expect(exported.records).toEqual({ tabs: '{"ids":["a","b"],"activeId":"a"}', 'saved-queries': '{"collections":[]}', 'tab:a': '{"id":"a","text":"{}"', 'tab:b': null });
  });

  it('drops a stored run summary whose numbers are not numbers (it was drawn on start)', () => {
    const tab = sanitizeTab({ id: 't', text: '{}', lastRun: { status: 200, timeMs: 'slow' as unknown as number, size: 1, at: 1 } }, 'embedded');
    expect(tab?.lastRun).toBeNull();
  });
});
