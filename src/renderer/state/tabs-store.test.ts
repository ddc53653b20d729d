import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from './external-store.ts';
import { TabsStore, tabTitle } from './tabs-store.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('TabsStore', () => {
  it('starts with one tab on the default connection', () => {
    const store = new TabsStore(memoryStorage(), 'embedded');
    expect(store.getSnapshot().tabs).toHaveLength(1);
    expect(store.active.connectionId).toBe('embedded');
    expect(store.active.text).toContain('tickets.Ticket');
  });

  it('keeps tabs, their text and connection across restarts', () => {
    const storage = memoryStorage();
    const store = new TabsStore(storage, 'embedded');
    const second = store.open({ text: '{"a": 1}', connectionId: 'conn-x' });
    store.setText(second, '{"a": 2}');
    store.setQueryInfoLevel(second, 2);
    store.recordRun(second, { status: 200, timeMs: 3, size: 40_000_000, at: 1 });
    vi.runAllTimers();
    const again = new TabsStore(storage, 'embedded');
    expect(again.getSnapshot().tabs).toHaveLength(2);
    expect(again.active).toMatchObject({ id: second, text: '{"a": 2}', connectionId: 'conn-x', queryInfoLevel: 2 });
    // Only the summary of a run is kept, never the response.
    expect(again.active.lastRun).toEqual({ status: 200, timeMs: 3, size: 40_000_000, at: 1 });
  });

  it('debounces saving typed text', () => {
    const storage = memoryStorage();
    const store = new TabsStore(storage, 'embedded');
    store.flush();
    store.setText(store.active.id, 'x');
    expect(storage.getItem('jql.tabs.v1')).not.toContain('"text":"x"');
    vi.advanceTimersByTime(400);
    expect(storage.getItem('jql.tabs.v1')).toContain('"text":"x"');
  });

  it('activates a neighbour when the active tab closes, and never ends with no tab', () => {
    const store = new TabsStore(memoryStorage(), 'embedded');
    const first = store.active.id;
    const second = store.open();
    const third = store.open();
    store.activate(second);
    store.close(second);
    expect(store.getSnapshot().activeId).toBe(third);
    store.close(third);
    store.close(first);
    expect(store.getSnapshot().tabs).toHaveLength(1);
    expect(store.active.id).not.toBe(first);
  });

  it('moves tabs off a deleted connection', () => {
    const store = new TabsStore(memoryStorage(), 'embedded');
    store.open({ connectionId: 'gone' });
    store.reassignConnection('gone', 'embedded');
    expect(store.getSnapshot().tabs.every((t) => t.connectionId === 'embedded')).toBe(true);
  });

  it('survives corrupt saved state', () => {
    const storage = memoryStorage();
    storage.setItem('jql.tabs.v1', JSON.stringify({ tabs: [{ id: 1 }, { id: 'ok', text: 't', queryInfoLevel: 7 }], activeId: 'nope' }));
    const store = new TabsStore(storage, 'embedded');
    expect(store.getSnapshot().tabs).toEqual([{ id: 'ok', text: 't', connectionId: 'embedded', queryInfoLevel: 0, lastRun: null }]);
    expect(store.active.id).toBe('ok');
  });
});

describe('tabTitle', () => {
  it('names a tab after its query', () => {
    expect(tabTitle('{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}')).toBe('Ticket · retrieve');
    expect(tabTitle('{\n  "open": {"__meta__": {"namespace": "a.B", "intent": "retrieve"}}}')).toBe('multi-query (1)');
    expect(tabTitle('{}')).toBe('Query');
  });
});
