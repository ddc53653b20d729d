/** The live stream inspector: one panel, and the session the app keeps per connection. */
export { StreamInspectorPanel, type StreamInspectorPanelProps } from './StreamInspectorPanel.tsx';
export { StreamSession, type SessionState, type StreamSessionOptions } from './stream-session.ts';
export { createStreamSession, type BrowserSessionOptions } from './create-session.ts';
export { browserSocketConnector, streamUrl, type ConnectStreamSocket, type StreamSocket } from './stream-socket.ts';
export type { FilterEditorProps } from './SubscriptionBuilder.tsx';
export type { SubscriptionSpec } from './stream-messages.ts';
export { bridgeSocketConnector, type SocketBridge } from './bridge-stream-socket.ts';
