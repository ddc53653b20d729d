/**
 * The banner on a connection whose `serve --watch` server did not apply the last save of its
 * workspace file: the server's error, and its migration preview change by change (the rows each
 * touches, a sample of their values, all shown as text). When the server holds the save back only
 * because it would stop serving stored values, an admin may Apply it (after a confirmation that names
 * the rows) or Cancel it (the server keeps its workspace and the banner goes until the next save).
 */
import { useState, type JSX } from 'react';
import { ServerWords } from '../../components/ServerWords.tsx';
import type { WatchReport } from '../../response/schema/account-schema.ts';
import type { Connection } from '../../state/connections-store.ts';
import { connectionKeys } from '../../state/query-keys.ts';
import { useServices } from '../../state/services.ts';
import { settleWorkspacePreview } from '../../transport/jql-client.ts';
import { applyConfirmation, KIND_LABEL } from './watch-preview.ts';

export function WatchBanner(props: { connection: Connection; watch: WatchReport; own: boolean; isAdmin: boolean }): JSX.Element {
  const { connection, watch, own } = props;
  const { platform, connections, queryClient } = useServices();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const digest = watch.pendingDigest;
  // A read-only connection changes nothing on its server, and only an admin may apply or cancel.
  const mayDecide = digest !== null && props.isAdmin && !connection.readOnly;

  const settle = async (verb: 'apply' | 'cancel'): Promise<void> => {
    if (digest === null) return;
    if (verb === 'apply' && !window.confirm(applyConfirmation(watch.changes ?? [], connection.name))) return;
    const target = connections.target(connection.id);
    if (!target) return;
    setBusy(true);
    setFailure(null);
    try {
      await settleWorkspacePreview(platform.transport, target, verb, digest);
      await queryClient.invalidateQueries({ queryKey: connectionKeys.health(connection.id, connection.baseUrl) });
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    // The server runs its previous workspace: the words are the server's (the same the terminal shows).
    <div className="conn-watch banner banner-warn" role="alert" data-testid="connection-watch">
      <span className="conn-watch-head">The last save of the workspace file was not applied.</span>
      {watch.error && <ServerWords text={watch.error} own={own} testId="connection-watch-error" className="conn-watch-error" />}
      {watch.changes && watch.changes.length > 0 ? (
        <ul className="conn-watch-changes" aria-label="Migration preview" data-testid="connection-watch-changes">
          {watch.changes.map((change, i) => (
            <li key={i} className={`conn-watch-change is-${change.kind}`} data-testid="connection-watch-change">
              <span className="conn-watch-kind">{KIND_LABEL[change.kind]}</span> <ServerWords text={change.target} own={own} /> <ServerWords text={change.what} own={own} />
              {change.rows !== null && <span className="conn-watch-rows" data-testid="connection-watch-rows">{` ${change.rows} row${change.rows === 1 ? '' : 's'}`}</span>}
              {change.sample.length > 0 && (
                <span className="conn-watch-sample">
                  {' e.g. '}
                  {change.sample.map((value, j) => (
                    <ServerWords key={j} text={value} own={own} testId="connection-watch-sample" />
                  ))}
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : (
        watch.preview && (
          <pre className="conn-watch-preview" data-testid="connection-watch-preview">
            {watch.preview}
          </pre>
        )
      )}
      {mayDecide && (
        <div className="conn-watch-actions">
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void settle('apply')} aria-label={`Apply the saved workspace to ${connection.name}`}>
            Apply
          </button>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void settle('cancel')} aria-label={`Cancel the saved workspace; ${connection.name} keeps the one it runs`}>
            Cancel
          </button>
        </div>
      )}
      {digest !== null && !mayDecide && <span className="muted">{connection.readOnly ? 'This connection is read-only: it applies nothing.' : 'An admin of this server may apply or cancel it.'}</span>}
      {failure && (
        <span className="text-error" data-testid="connection-watch-failure">
          <ServerWords text={failure} own={own} />
        </span>
      )}
    </div>
  );
}
