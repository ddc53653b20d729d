/** `http:upload` and `http:upload-cancel`: multipart uploads performed by main, with progress events. */
import type { UploadProxy } from '../upload-proxy.ts';
import type { Handlers } from './register.ts';

export function uploadHandlers(uploads: Pick<UploadProxy, 'perform' | 'cancel'>): Pick<Handlers, 'http:upload' | 'http:upload-cancel'> {
  return {
    'http:upload': (request) => uploads.perform(request),
    'http:upload-cancel': (uploadId) => uploads.cancel(uploadId),
  };
}
