import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CloneJobStatus } from '../../../shared/clone.ts';
import { readCloneStatus } from './clone-status.ts';
import { Progress } from './ReproduceDialog.tsx';
import { reproduceRequest } from './reproduce-request.ts';

const remote = { name: 'Production', baseUrl: 'https://support.example/api', authClass: 'jwt' as const, token: 'tok' };
const progress = { phase: 'records' as const, level: 1, requests: 3, models: [{ namespace: 'tickets.Ticket', fetched: 40, total: 120 }] };

describe('reproduceRequest', () => {
  it('asks for a copy of the tab\'s query on its connection, with the dialog\'s choices', () => {
    const built = reproduceRequest('{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}', remote, { depth: 1, redact: ' email, ,system.User.username ', withFiles: true });
    expect(built).toEqual({
      ok: true,
      request: { url: remote.baseUrl, token: 'tok', query: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}', depth: 1, withFiles: true, redact: ['email', 'system.User.username'], name: 'Local copy of Production' },
    });
  });

  it('sends the tab\'s 64-bit ids as the digits typed, not parsed into other ids (issue 31 item 4)', () => {
    const document = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"id__in": [9007199254740993, 12345678901234567890]}}}';
    const built = reproduceRequest(document, remote, { depth: 1, redact: '', withFiles: false });
    expect(built.ok && built.request.query).toBe(document);
  });

  it('says why a tab cannot be reproduced', () => {
    expect(reproduceRequest('{"__meta__": ', remote, { depth: 2, redact: '', withFiles: false })).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid JSON/) });
    expect(reproduceRequest('[1]', remote, { depth: 2, redact: '', withFiles: false })).toMatchObject({ ok: false });
    expect(reproduceRequest('{}', { ...remote, authClass: 'session' }, { depth: 2, redact: '', withFiles: false })).toMatchObject({ ok: false, reason: expect.stringMatching(/session cookie/) });
  });
});

describe('readCloneStatus', () => {
  it('keeps a well-formed status and refuses other shapes with a sentence', () => {
    expect(readCloneStatus({ state: 'running', progress })).toEqual({ state: 'running', progress });
    expect(() => readCloneStatus({ state: 'exploded' })).toThrow(/shape/);
    expect(() => readCloneStatus(null)).toThrow(/unknown/);
    expect(() => readCloneStatus({ state: 'done', progress, connection: { url: 1 } })).toThrow(/where it listens/);
    expect(readCloneStatus({ state: 'running', progress: { models: [{ namespace: 'a.B', fetched: 'x', total: -1 }, 7] } }).progress.models).toEqual([{ namespace: 'a.B', fetched: 0, total: 0 }]);
  });
});

describe('Progress', () => {
  const render = (status: CloneJobStatus | null, error: string | null = null) => renderToStaticMarkup(<Progress status={status} error={error} onCancel={() => undefined} onClose={() => undefined} />);

  it('shows each model\'s records fetched of the total, and Cancel while it runs', () => {
    const html = render({ state: 'running', progress: { ...progress, rateLimitedMs: 12_000 } });
    expect(html).toContain('tickets.Ticket');
    expect(html).toMatch(/<progress max="120" value="40"[^>]*><\/progress> 40 of 120/);
    expect(html).toContain('Fetching records… (level 1, 3 requests)');
    expect(html).toContain('asks to wait 12 s');
    expect(html).toContain('>Cancel</button>');
  });

  it('offers Close once the copy failed or was cancelled', () => {
    expect(render({ state: 'failed', progress, message: 'The source answered 403' })).toMatch(/role="alert">The source answered 403.*>Close<\/button>/s);
    expect(render({ state: 'cancelled', progress })).toContain('Cancelled: nothing was kept.');
  });
});
