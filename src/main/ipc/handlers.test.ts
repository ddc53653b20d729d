import { describe, expect, it, vi } from 'vitest';
import { cloneHandlers, CloneRequestError, validateCloneRequest } from './clone-handlers.ts';
import { fileHandlers } from './file-handlers.ts';
import { workspaceHandlers } from './workspace-handlers.ts';

describe('fileHandlers', () => {
  it('saves to the path the user picks, under a safe suggested name whose extension follows the content', async () => {
    const chooseSavePath = vi.fn(async () => '/home/u/out.json');
    const writeFile = vi.fn(async () => {});
    const handlers = fileHandlers({ chooseSavePath, writeFile, openExternal: vi.fn() });
    await expect(handlers['file:save']({ suggestedName: '../x.json', data: '{"a":1}' })).resolves.toEqual({ saved: true, path: '/home/u/out.json' });
    expect(chooseSavePath).toHaveBeenCalledWith('x.json', 'json');
    expect(writeFile).toHaveBeenCalledWith('/home/u/out.json', '{"a":1}');
    await handlers['file:save']({ suggestedName: 'report.json.exe', data: '{"a":1}' });
    expect(chooseSavePath).toHaveBeenLastCalledWith('report.json', 'json');
  });

  it('writes nothing when the dialog is cancelled', async () => {
    const writeFile = vi.fn();
    const handlers = fileHandlers({ chooseSavePath: async () => null, writeFile, openExternal: vi.fn() });
    await expect(handlers['file:save']({ suggestedName: 'x', data: 'b' })).resolves.toEqual({ saved: false });
    expect(writeFile).not.toHaveBeenCalled();
  });

  it('hands a link to the checked opener and answers whether it opened (external-open.test.ts has the rules)', async () => {
    const openExternal = vi.fn(async (url: string) => url.startsWith('https:'));
    const handlers = fileHandlers({ chooseSavePath: vi.fn(), writeFile: vi.fn(), openExternal });
    await expect(handlers['shell:open-external']('https://example.com')).resolves.toBe(true);
    await expect(handlers['shell:open-external']('file:///bin/sh')).resolves.toBe(false);
  });
});

describe('workspaceHandlers', () => {
  it('opens only workspaces that main put in the recent list', async () => {
    const openWorkspace = vi.fn(async () => {});
    const handlers = workspaceHandlers({ openWorkspaceDialog: vi.fn(), openWorkspace, recent: () => ['/ws/a.json'] });
    await handlers['workspace:open-recent']('/ws/a.json');
    expect(openWorkspace).toHaveBeenCalledWith('/ws/a.json');
    await expect(handlers['workspace:open-recent']('/etc/passwd')).rejects.toThrow(/not in the recent list/);
  });
});

describe('cloneHandlers', () => {
  const request = { url: 'https://support.example/api', token: 't', query: '{"__meta__": {"namespace": "a.B", "intent": "retrieve"}}', depth: 2, withFiles: false, redact: ['email'], name: 'Local copy' };

  it('hands a checked request to the clone jobs and answers their status', async () => {
    const jobs = { start: vi.fn(() => 'j1'), status: vi.fn(() => ({ state: 'cancelled' as const, progress: { phase: 'records' as const, level: 1, requests: 2, models: [] } })), cancel: vi.fn(() => null) };
    const handlers = cloneHandlers(jobs);
    expect(await handlers['clone:start'](validateCloneRequest(request))).toEqual({ id: 'j1' });
    expect(jobs.start).toHaveBeenCalledWith(request);
    expect(await handlers['clone:status']('j1')).toMatchObject({ state: 'cancelled' });
    expect(await handlers['clone:cancel']('nope')).toBeNull();
  });

  it('refuses a request of the wrong shape before main acts on it', () => {
    expect(() => validateCloneRequest({ ...request, depth: '2' })).toThrow(CloneRequestError);
    expect(() => validateCloneRequest({ ...request, redact: 'email' })).toThrow(/redaction/);
    expect(() => validateCloneRequest({ ...request, name: '' })).toThrow(/connection name/);
    expect(() => validateCloneRequest({ ...request, query: JSON.stringify({ big: 'x'.repeat(1024 * 1024) }) })).toThrow(/too large/);
    expect(() => validateCloneRequest({ ...request, query: { __meta__: {} } })).toThrow(/document's text/);
    expect(() => validateCloneRequest(null)).toThrow(CloneRequestError);
  });
});
