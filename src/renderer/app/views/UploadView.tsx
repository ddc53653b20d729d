/**
 * Upload: the multipart form on the left, the server's answer in the envelope viewer on the right.
 * Stored files open (Electron: in the system browser) or download through the transport when they
 * need the bearer token.
 */
import { useRef, useState, type JSX } from 'react';
import { RunAnywayDialog } from '../../components/RunAnyway.tsx';
import { UPLOAD_EFFECT } from '../../state/safety/classify-document.ts';
import { refuseWrite, type Refusal } from '../../state/safety/write-guard.ts';
import { ResultViewer } from '../../features/envelope-viewer/EnvelopeViewer.tsx';
import { UploadFormPanel, type FileLink, type UploadOutcome } from '../../features/upload-form/index.ts';
import type { RunState } from '../../state/results-store.ts';
import { useServices } from '../../state/services.ts';
import { useDescribes } from '../../state/use-describes.ts';
import { callJql, credentialParts, jqlEndpoint } from '../../transport/jql-client.ts';
import { SplitPane } from '../SplitPane.tsx';
import { useWorkbench } from '../workbench-context.ts';
import { useViewConnection } from './use-view-connection.ts';
import { ConnectionPicker, ViewHeader } from './ViewHeader.tsx';

export function UploadView(): JSX.Element {
  const services = useServices();
  const { platform, connections, toasts } = services;
  const { uploadTransport, openExternal } = useWorkbench();
  const { connection, connections: all, select } = useViewConnection('upload');
  const describes = useDescribes(connection ? [connection] : []);
  const info = connection ? describes.get(connection.id) : undefined;
  const server = connection ? connections.target(connection.id) : null;
  const [result, setResult] = useState<RunState | undefined>(undefined);
  const [title, setTitle] = useState('upload');
  const runIds = useRef(0);
  // A refused upload waits here for "Run once anyway" or Cancel.
  const [asking, setAsking] = useState<{ refusal: Refusal; answer: (send: boolean) => void } | null>(null);
  const confirmSend = (): Promise<boolean> => {
    const refusal = connection ? refuseWrite(UPLOAD_EFFECT, connection) : null;
    if (!refusal) return Promise.resolve(true);
    return new Promise((resolve) => setAsking({ refusal, answer: resolve }));
  };

  const onResult = (outcome: UploadOutcome) => {
    if (!server) return;
    const meta = (JSON.parse(outcome.queryText) as { __meta__?: { namespace?: string; intent?: string } }).__meta__;
    setTitle(`${meta?.namespace ?? 'upload'}-${meta?.intent ?? ''}`);
    setResult({
      status: 'done',
      runId: ++runIds.current,
      request: { connectionId: server.connectionId, url: jqlEndpoint(server.baseUrl), method: 'PUT', headers: {}, body: outcome.queryText, withCredentials: server.authClass === 'session' },
      queryText: outcome.queryText,
      view: outcome.view,
      raw: new Blob([outcome.response.body], { type: 'application/json' }),
      size: outcome.response.body.byteLength,
      timeMs: outcome.response.timeMs,
      statusText: outcome.response.statusText,
      at: Date.now(),
    });
  };

  const download = async (link: FileLink) => {
    const target = connection ? connections.target(connection.id) : null;
    if (!target) return;
    try {
      // The credential goes only if the link is on the connection's own origin (credentialParts).
      const res = await platform.transport.send({ connectionId: target.connectionId, url: link.href, method: 'GET', ...credentialParts(target, link.href), timeoutMs: 10 * 60_000 });
      if (res.status !== 200) throw new Error(`the server answered ${res.status} ${res.statusText}`);
      const where = await platform.saveFile(link.value.name, new Blob([res.body], { type: link.value.content_type || 'application/octet-stream' }));
      if (where) toasts.show(`Saved ${link.value.name} (${where})`);
    } catch (err) {
      toasts.show(`Could not download ${link.value.name}: ${(err as Error).message}`, 'error');
    }
  };

  const picker = (
    <ViewHeader title="Upload" hint="multipart PUT /jql with files">
      {connection && <ConnectionPicker label="Upload connection" value={connection.id} connections={all} onChange={select} />}
    </ViewHeader>
  );

  return (
    <SplitPane
      storageKey="jql.split.upload.v1"
      left={
        <div className="view-column">
          {picker}
          <div className="view-scroll">
            <UploadFormPanel
              key={connection?.id ?? 'none'}
              describe={info?.describe ?? null}
              server={server}
              transport={uploadTransport}
              fetchRecords={server ? (query) => callJql(platform.transport, server, query) : undefined}
              onResult={onResult}
              onOpenFile={openExternal ? (link) => openExternal(link.href) : undefined}
              onDownloadFile={(link) => void download(link)}
              confirmSend={confirmSend}
            />
            {asking && (
              <RunAnywayDialog
                sentence={asking.refusal.sentence}
                confirmName={asking.refusal.confirmName}
                onConfirm={() => asking.answer(true)}
                onClose={() => {
                  asking.answer(false);
                  setAsking(null);
                }}
              />
            )}
          </div>
        </div>
      }
      right={
        <ResultViewer
          run={result}
          title={title}
          snippets={false}
          empty={
            <div className="empty" data-testid="upload-response-empty">
              <p>The server&apos;s answer to an upload shows here.</p>
            </div>
          }
        />
      }
    />
  );
}
