/**
 * What a connection points at, so nobody runs against production by mistake: `local` (the
 * embedded server), `development`, `staging` or `production`. A remote connection is `production`
 * until the user says otherwise, and `production` starts in read-only mode (as DataGrip's
 * read-only connections and DBeaver's connection types do). The colour of each kind is in app.css
 * (`.deploy-<kind>`); the word is always shown with it, so the colour is never the only signal.
 */
export const DEPLOYMENT_KINDS = ['local', 'development', 'staging', 'production'] as const;
export type DeploymentKind = (typeof DEPLOYMENT_KINDS)[number];

/** The kinds a remote connection may have; `local` is the embedded server's. */
export const REMOTE_KINDS: readonly DeploymentKind[] = ['development', 'staging', 'production'];

export const DEFAULT_REMOTE_KIND: DeploymentKind = 'production';

export function isDeploymentKind(value: unknown): value is DeploymentKind {
  return typeof value === 'string' && (DEPLOYMENT_KINDS as readonly string[]).includes(value);
}

/** Read-only mode is on by default for production only. */
export function defaultReadOnly(kind: DeploymentKind): boolean {
  return kind === 'production';
}

/** Running a refused write anyway on production asks for the connection's name to be typed. */
export function needsTypedName(kind: DeploymentKind): boolean {
  return kind === 'production';
}
