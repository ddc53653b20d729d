import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SavedQueriesPanel, SavedQueriesStore } from './index.ts';

describe('SavedQueriesPanel', () => {
  it('shows collections, their queries with variables marked defined or not, and the environment', () => {
    const store = new SavedQueriesStore();
    const c = store.createCollection('Tickets');
    store.saveQuery(c, { name: 'One ticket', document: '{"id": "{{ticketId}}", "t": "{{title}}"}', description: 'by id' });
    store.setEnvironment('local', [{ name: 'ticketId', value: '5' }]);
    const html = renderToStaticMarkup(<SavedQueriesPanel store={store} connection={{ id: 'local', name: 'Embedded' }} currentDocument="{}" onOpen={() => {}} onRun={() => {}} />);
    expect(html).toContain('data-collection="Tickets"');
    expect(html).toContain('One ticket');
    expect(html).toContain('by id');
    expect(html).toMatch(/title="defined for this connection">\{\{ticketId\}\}/);
    expect(html).toMatch(/title="not defined for this connection">\{\{title\}\}/);
    expect(html).toContain('Variables of Embedded');
    expect(html).toContain('value="ticketId"');
    expect(html).toContain('Save current query');
  });

  it('invites to create a collection and to pick a connection', () => {
    const html = renderToStaticMarkup(<SavedQueriesPanel store={new SavedQueriesStore()} connection={null} onOpen={() => {}} onRun={() => {}} />);
    expect(html).toContain('No collections yet');
    expect(html).toContain('Pick a connection to edit its variables.');
  });
});
