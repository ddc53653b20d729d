/** One connection in the sidebar: status, version, user, and its actions. */
import type { JSX } from 'react';
import { DeploymentBadge } from '../../components/DeploymentBadge.tsx';
import { ServerWords } from '../../components/ServerWords.tsx';
import type { Connection } from '../../state/connections-store.ts';
import { useConnectionStatus } from './use-connection-status.ts';
import { useWorkspaceWatch } from './use-workspace-watch.ts';
import { WatchBanner } from './WatchBanner.tsx';

export function ConnectionItem(props: {
  connection: Connection;
  inUse: boolean;
  onUse: () => void;
  onSignIn: () => void;
  onSignOut: () => void;
  onEdit: () => void;
  onDelete: () => void;
  /** Embedded only: back to the local admin after "Sign in as…". */
  onRestoreLocalAdmin: () => void;
  workspaceLabel?: string;
}): JSX.Element {
  const { connection } = props;
  const status = useConnectionStatus(connection);
  const watch = useWorkspaceWatch(connection);
  const state = status.isPending ? 'checking' : status.isError ? 'unreachable' : 'reachable';
  const user = status.data?.user?.username ?? (connection.signedIn ? connection.user?.username : undefined);
  const remote = connection.kind === 'remote';
  const local = connection.kind === 'local';
  const isAdmin = status.data?.user?.roles?.includes('admin') ?? false;

  return (
    <li className={`conn${props.inUse ? ' is-active' : ''}`} data-testid="connection" data-connection-id={connection.id} aria-label={connection.name}>
      <button type="button" className="conn-main" onClick={props.onUse} title={`Use ${connection.name} here`}>
        <span className={`dot dot-${state}`} aria-label={state} title={status.error?.message ?? state} />
        <span className="conn-text">
          <span className="conn-name">{connection.name}</span>
          <DeploymentBadge deployment={connection.deployment} readOnly={connection.readOnly} testId="connection-kind" />
          <span className="conn-url" title={connection.baseUrl}>
            {connection.baseUrl.replace(/^https?:\/\//, '')}
          </span>
          <span className="conn-meta" data-testid="connection-status">
            {state === 'unreachable' ? (
              <span className="text-error">unreachable</span>
            ) : (
              <>
                {/* Version and user name are the server's words (cleaned and cut at the boundary), marked unless the server is the console's own. */}
                {status.data ? <ServerWords text={`v${status.data.version}`} own={!remote} /> : '…'}
                {' · '}
                {user ? <ServerWords text={user} testId="connection-user" own={!remote} /> : <span className="muted">not signed in</span>}
              </>
            )}
          </span>
          {props.workspaceLabel && <span className="conn-url">{props.workspaceLabel}</span>}
        </span>
      </button>
      {watch && <WatchBanner connection={connection} watch={watch} own={!remote} isAdmin={isAdmin} />}
      {local && (
        <div className="conn-actions">
          {/* A copy made by "Reproduce locally": its server runs until the console's stops. */}
          <button type="button" className="link link-danger" onClick={props.onDelete}>
            Delete
          </button>
        </div>
      )}
      {connection.kind === 'embedded' && (
        <div className="conn-actions">
          {/* Signing in as another user (agent, viewer) shows what that user may do. */}
          <button type="button" className="link" onClick={props.onSignIn}>
            {connection.signedIn ? 'Sign in as…' : 'Sign in'}
          </button>
          {connection.canRestoreLocalAdmin && (
            <button type="button" className="link" onClick={props.onRestoreLocalAdmin}>
              Back to local admin
            </button>
          )}
          <button type="button" className="link" onClick={props.onEdit}>
            Edit
          </button>
        </div>
      )}
      {remote && (
        <div className="conn-actions">
          {connection.signedIn ? (
            <button type="button" className="link" onClick={props.onSignOut}>
              Sign out
            </button>
          ) : (
            <button type="button" className="link" onClick={props.onSignIn}>
              Sign in
            </button>
          )}
          <button type="button" className="link" onClick={props.onEdit}>
            Edit
          </button>
          <button type="button" className="link link-danger" onClick={props.onDelete}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
