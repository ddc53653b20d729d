/** Status code, time and size of the response, with copy-as-curl/fetch (components/SnippetButtons) and save-to-file. */
import type { JSX } from 'react';
import { formatBytes, formatMs } from '../../components/format.ts';
import { ServerWords } from '../../components/ServerWords.tsx';
import { SnippetButtons } from '../../components/SnippetButtons.tsx';
import { serverLabel } from '../../response/server-text.ts';
import type { ResultView } from '../../response/result-view.ts';
import type { RunDone } from '../../state/results-store.ts';
import { useServices } from '../../state/services.ts';

const SHAPE_LABEL: Record<string, string> = { envelope: '', flat: 'flat envelope', 'data-only': 'only:data', 'not-json': 'not JSON' };

/** The colour of the status code: a failure, a warning, or a plain success. */
export function statusTone(view: Pick<ResultView, 'httpStatus' | 'failed' | 'duplicateKeys'>): 'err' | 'warn' | 'ok' {
  const status = view.httpStatus;
  // A key of the envelope sent twice (DuplicateKeysNote) leaves the answer's meaning in doubt: never 'ok'.
  const doubted = (view.duplicateKeys?.top.length ?? 0) > 0;
  return status >= 500 ? 'err' : status >= 400 ? 'warn' : view.failed || doubted ? 'warn' : 'ok';
}

/** `own`: the answer came from the console's own server, whose words are shown plainly. */
export function ResponseHeader(props: { run: RunDone; tabTitle: string; snippets?: boolean; own: boolean }): JSX.Element {
  const { toasts, platform } = useServices();
  const { run } = props;
  const status = run.view.httpStatus;
  const tone = statusTone(run.view);

  const save = async () => {
    const name = `${props.tabTitle.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-|-$/g, '') || 'response'}.json`;
    try {
      const where = await platform.saveFile(name, run.raw);
      if (where) toasts.show(`Saved ${name} (${where})`);
    } catch (err) {
      toasts.show(`Could not save: ${(err as Error).message}`, 'error');
    }
  };

  return (
    <div className="response-head">
      {/* The code is the console's reading; the words after it are the server's own. */}
      <span className={`status status-${tone}`} data-testid="response-status">
        {status}
      </span>
      {run.statusText && <ServerWords text={serverLabel(run.statusText, 60)} testId="response-status-text" own={props.own} />}
      <span className="metric" data-testid="response-time" title="Round trip">
        {formatMs(run.timeMs)}
      </span>
      <span className="metric" data-testid="response-size" title={`${run.size} bytes`}>
        {formatBytes(run.size)}
      </span>
      {run.view.intent && <ServerWords className="metric muted" text={run.view.intent} own={props.own} />}
      {SHAPE_LABEL[run.view.shape] && <span className="tag">{SHAPE_LABEL[run.view.shape]}</span>}
      <span className="toolbar-spacer" />
      {props.snippets !== false && <SnippetButtons request={run.request} />}
      <button type="button" className="btn btn-small" onClick={() => void save()} title="Save the raw body to a file">
        Save…
      </button>
    </div>
  );
}
