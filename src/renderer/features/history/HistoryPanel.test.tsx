import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HistoryPanel, historyKeys, MemoryHistoryStore, type HistoryRun } from './index.ts';

const runs: HistoryRun[] = [
  { id: 'a', connectionId: 'c1', connectionName: 'Embedded', document: '{"__meta__": {"namespace": "tickets.Ticket"}}', status: 200, timeMs: 12, size: 2048, summary: 'retrieve · 3 records', at: Date.now() },
  { id: 'b', connectionId: 'c2', connectionName: 'Prod', document: '{}', status: 0, timeMs: 0, size: 0, summary: 'no answer: timeout', at: Date.now() - 1000 },
];

describe('HistoryPanel', () => {
  it('lists runs with status, summary, connection and actions', () => {
    const client = new QueryClient();
    client.setQueryData(historyKeys.list({ text: '', connectionId: null, outcome: null }), runs);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <HistoryPanel store={new MemoryHistoryStore(50)} connections={[{ id: 'c1', name: 'Embedded' }]} onRerun={() => {}} onOpen={() => {}} />
      </QueryClientProvider>,
    );
    expect(html).toContain('2 runs · the newest 50 are kept');
    expect(html).toContain('retrieve · 3 records');
    expect(html).toContain('Embedded · ');
    expect(html).toContain('2.0 KiB');
    expect(html).toContain('no answer');
    expect(html.match(/Re-run/g)).toHaveLength(2);
    expect(html).toContain('<option value="c1">Embedded</option>');
  });
});
