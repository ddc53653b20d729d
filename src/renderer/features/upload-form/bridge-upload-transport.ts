/**
 * The upload transport of the desktop app: main performs the multipart PUT (`http:upload`) with
 * the connection's cookie jar, as it does every request, so no server needs CORS for the app://
 * page. The files' bytes cross IPC once; progress comes back as events under the upload's id, and
 * cancel is `http:upload-cancel`.
 */
import { UPLOAD_CANCELLED_MESSAGE, type JqlBridge, type UploadPartData } from '../../../shared/bridge.ts';
import type { UploadPart } from './build-upload.ts';
import { UploadCancelledError, UploadNetworkError, type UploadResponse, type UploadTransport } from './upload-transport.ts';

export type UploadBridge = Pick<JqlBridge, 'upload' | 'cancelUpload' | 'onUploadProgress'>;

async function partData(part: UploadPart): Promise<UploadPartData> {
  if (part.kind === 'field') return { kind: 'field', name: part.name, value: part.value };
  return { kind: 'file', name: part.name, fileName: part.file.name, contentType: part.file.type || 'application/octet-stream', data: new Uint8Array(await part.file.arrayBuffer()) };
}

let counter = 0;
const defaultId = () => `up-${Date.now().toString(36)}-${(++counter).toString(36)}`;

/** ipcRenderer.invoke wraps main's error: "Error invoking remote method 'http:upload': Error: ...". */
function mainMessage(err: unknown): string {
  return String((err as Error)?.message ?? err).replace(/^Error invoking remote method '[^']+': (Error: )?/, '');
}

export function createBridgeUploadTransport(bridge: UploadBridge, newId: () => string = defaultId): UploadTransport {
  return {
    async upload(request, { onProgress, signal } = {}): Promise<UploadResponse> {
      if (signal?.aborted) throw new UploadCancelledError();
      const uploadId = newId();
      const parts = await Promise.all(request.parts.map(partData));
      if (signal?.aborted) throw new UploadCancelledError();
      const off = bridge.onUploadProgress((p) => {
        if (p.uploadId === uploadId) onProgress?.({ loaded: p.loaded, total: p.total });
      });
      const onAbort = () => void bridge.cancelUpload(uploadId).catch(() => undefined);
      signal?.addEventListener('abort', onAbort);
      try {
        const res = await bridge.upload({ uploadId, connectionId: request.connectionId, url: request.url, headers: request.headers, parts });
        // A fresh ArrayBuffer: the IPC view may be a slice of a larger buffer.
        return { status: res.status, statusText: res.statusText, body: res.body.slice().buffer as ArrayBuffer, timeMs: res.timeMs };
      } catch (err) {
        const message = mainMessage(err);
        if (signal?.aborted || message === UPLOAD_CANCELLED_MESSAGE) throw new UploadCancelledError();
        throw new UploadNetworkError(message);
      } finally {
        off();
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
