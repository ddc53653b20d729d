import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { FakeStreamServer, flush } from './fake-stream-server.ts';
import { createStreamSession, StreamInspectorPanel, StreamSession } from './index.ts';
import type { WebSocketLike } from './stream-socket.ts';

describe('StreamInspectorPanel', () => {
  it('draws the bar, the builder, the chart and the log state from the session', () => {
    const session = new StreamSession({ connect: new FakeStreamServer().connect });
    session.addSubscription({ namespace: 'tickets.Ticket', events: ['created'] });
    session.log.append({ kind: 'marker', level: 'ok', text: 'Resumed, nothing missed.', subscription: 's1', receivedAt: 0 });
    session.log.append({ kind: 'event', receivedAt: 0, subscription: 's1', event: 'created', namespace: 'tickets.Ticket', seq: 1041, at: '2026-01-01T10:00:00Z', record: { id: 7, title: 'Printer' }, recordId: 7, replayed: true, bytes: 80 });
    session.select(1);
    const html = renderToStaticMarkup(<StreamInspectorPanel session={session} describe={null} connectionLabel="Embedded" />);
    expect(html).toContain('Embedded: idle');
    expect(html).toContain('>Connect<');
    expect(html).toContain('tickets.Ticket · created');
    expect(html).toContain('Events / s');
    expect(html).toContain('2 shown · 2 held');
    expect(html).toContain('Resumed, nothing missed.');
    expect(html).toContain('data-seq="1041"');
    // The selected event's record in the detail pane.
    expect(html).toContain('&quot;Printer&quot;');
    expect(html).toContain('seq 1041 · 2026-01-01T10:00:00Z · s1 · replayed');
    expect(html).toContain('placeholder="app.Model"');
  });

  it("shows each subscription's count and cursor as events arrive, not only when it changes state", async () => {
    const server = new FakeStreamServer();
    const session = new StreamSession({ connect: server.connect, batch: { schedule: (run) => run() } });
    const id = session.addSubscription({ namespace: 'tickets.Ticket' });
    session.connect();
    await flush();
    server.last.push({ type: 'subscribed', id, seq: 10 });
    server.last.event(id, 11);
    server.last.event(id, 12);
    const html = renderToStaticMarkup(<StreamInspectorPanel session={session} describe={null} />);
    expect(html).toContain('active · seq 12 · 2 events');
    session.dispose();
  });

  it('uses the app filter editor when given', () => {
    const session = new StreamSession({ connect: new FakeStreamServer().connect });
    const html = renderToStaticMarkup(<StreamInspectorPanel session={session} describe={null} renderFilterEditor={({ namespace }) => <div data-testid="monaco">{`editor for ${namespace || 'none'}`}</div>} />);
    expect(html).toContain('editor for none');
    expect(html).not.toContain('aria-label="Filter"');
  });
});

describe('createStreamSession', () => {
  it('never puts the token in the socket URL: it signs in with the first message, with the token current at connect time', async () => {
    const urls: string[] = [];
    const sent: string[] = [];
    let token: string | null = 'first';
    const makeSocket = (url: string): WebSocketLike => {
      urls.push(url);
      const listeners: Record<string, Array<(e: unknown) => void>> = {};
      const ws = {
        send: (data: string) => {
          sent.push(data);
          // The server's answer to auth.
          queueMicrotask(() => listeners.message?.forEach((l) => l({ data: JSON.stringify({ type: 'authenticated', user: { id: 1, username: 'admin' } }) })));
        },
        close: () => {},
        addEventListener: (type: string, l: (e: unknown) => void) => void (listeners[type] ??= []).push(l),
      };
      queueMicrotask(() => listeners.open?.forEach((l) => l({})));
      return ws as WebSocketLike;
    };
    const session = createStreamSession({ baseUrl: 'http://127.0.0.1:9000', getToken: () => token, makeSocket });
    session.connect();
    await vi.waitFor(() => expect(session.getSnapshot().connection).toBe('open'));
    session.disconnect();
    token = null;
    session.connect();
    await vi.waitFor(() => expect(session.getSnapshot().connection).toBe('open'));
    session.dispose();
    expect(urls).toEqual(['ws://127.0.0.1:9000/jql-streams', 'ws://127.0.0.1:9000/jql-streams']);
    expect(sent.map((s) => JSON.parse(s))).toEqual([{ type: 'auth', token: 'first' }]);
  });
});
