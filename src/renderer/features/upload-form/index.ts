/** The upload form feature: one panel for the app to mount, and what the app needs to feed it. */
export { UploadFormPanel, type UploadFormPanelProps } from './UploadFormPanel.tsx';
export { createXhrUploadTransport, UploadCancelledError, UploadNetworkError, type UploadTransport, type UploadRequest, type UploadResponse, type UploadProgress } from './upload-transport.ts';
export type { UploadOutcome } from './send-upload.ts';
export type { FileLink } from './file-links.ts';
export { createBridgeUploadTransport, type UploadBridge } from './bridge-upload-transport.ts';
