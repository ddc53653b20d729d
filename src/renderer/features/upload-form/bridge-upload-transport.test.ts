import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_CANCELLED_MESSAGE, type ProxyResponse, type UploadIpcRequest, type UploadProgressEvent } from '../../../shared/bridge.ts';
import { createBridgeUploadTransport, type UploadBridge } from './bridge-upload-transport.ts';
import { UploadCancelledError, UploadNetworkError } from './upload-transport.ts';

function fakeBridge(answer: (request: UploadIpcRequest) => Promise<ProxyResponse>) {
  const listeners = new Set<(p: UploadProgressEvent) => void>();
  const sent: UploadIpcRequest[] = [];
  const bridge: UploadBridge & { cancelUpload: ReturnType<typeof vi.fn> } = {
    upload: (request) => {
      sent.push(request);
      return answer(request);
    },
    cancelUpload: vi.fn(async () => {}),
    onUploadProgress: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const progress = (p: UploadProgressEvent) => listeners.forEach((l) => l(p));
  return { bridge, sent, progress, listeners };
}

const request = {
  connectionId: 'conn-1',
  url: 'https://remote.example/jql',
  headers: { Accept: 'application/json' },
  withCredentials: true,
  parts: [
    { kind: 'field' as const, name: 'query', value: '{"__meta__":{}}' },
    { kind: 'file' as const, name: 'file', field: 'file', file: new File(['hello'], 'hello.txt', { type: 'text/plain' }) },
  ],
};

describe('createBridgeUploadTransport', () => {
  it('sends the parts with the file bytes to main and reports its progress for this upload only', async () => {
    let release: (res: ProxyResponse) => void = () => {};
    const { bridge, sent, progress, listeners } = fakeBridge(() => new Promise((r) => (release = r)));
    const seen: unknown[] = [];
    const pending = createBridgeUploadTransport(bridge, () => 'up-1').upload(request, { onProgress: (p) => seen.push(p) });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ uploadId: 'up-1', connectionId: 'conn-1', url: 'https://remote.example/jql', headers: { Accept: 'application/json' } });
    expect(sent[0]!.parts[0]).toEqual({ kind: 'field', name: 'query', value: '{"__meta__":{}}' });
    expect(sent[0]!.parts[1]).toMatchObject({ kind: 'file', name: 'file', fileName: 'hello.txt', contentType: 'text/plain' });
    expect(new TextDecoder().decode((sent[0]!.parts[1] as { data: Uint8Array }).data)).toBe('hello');

    progress({ uploadId: 'other', loaded: 1, total: 9 });
    progress({ uploadId: 'up-1', loaded: 3, total: 9 });
    release({ status: 200, statusText: 'OK', headers: {}, body: new TextEncoder().encode('{"ok":1}'), timeMs: 7 });
    const res = await pending;
    expect(seen).toEqual([{ loaded: 3, total: 9 }]);
    expect(new TextDecoder().decode(res.body)).toBe('{"ok":1}');
    expect(res).toMatchObject({ status: 200, timeMs: 7 });
    expect(listeners.size).toBe(0);
  });

  it('cancels in main when the signal aborts', async () => {
    const { bridge, sent } = fakeBridge(() => new Promise((_r, reject) => bridge.cancelUpload.mockImplementation(async () => reject(new Error(`Error invoking remote method 'http:upload': Error: ${UPLOAD_CANCELLED_MESSAGE}`)))));
    const controller = new AbortController();
    const pending = createBridgeUploadTransport(bridge, () => 'up-2').upload(request, { signal: controller.signal });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(UploadCancelledError);
    expect(bridge.cancelUpload).toHaveBeenCalledWith('up-2');
  });

  it("words main's failures as network errors", async () => {
    const { bridge } = fakeBridge(async () => Promise.reject(new Error("Error invoking remote method 'http:upload': Error: Could not reach https://remote.example/jql (refused).")));
    const failed = createBridgeUploadTransport(bridge).upload(request, {});
    await expect(failed).rejects.toBeInstanceOf(UploadNetworkError);
    await expect(failed).rejects.toThrow('Could not reach https://remote.example/jql (refused).');
  });
});
