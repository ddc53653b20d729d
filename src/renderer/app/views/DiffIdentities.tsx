/**
 * "Same connection, two users": the identities a diff can run as on one connection. The connection's
 * own sign-in and "anyone" (no credentials) are always there; more are added by signing in here
 * (for the embedded demo server, one click per demo user). Their tokens stay in memory for this
 * window only: never stored, never in the connection.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type JSX } from 'react';
import type { Connection } from '../../state/connections-store.ts';
import { useServices } from '../../state/services.ts';
import { login } from '../../transport/jql-client.ts';
import { identityTarget } from '../run-diff-side.ts';
import { DEMO_USERS } from './demo-users.ts';

export interface DiffIdentity {
  id: string;
  /** "local admin", "viewer", "anyone (no credentials)". */
  label: string;
  /** undefined: the connection's own sign-in; null: anonymous. */
  token?: string | null;
  /** Seen as this user through the connection's own (admin) sign-in, without a password (docs/protocol.md "See as"). */
  seeAs?: string;
}

export function baseIdentities(connection: Connection): DiffIdentity[] {
  const who = connection.signedIn ? (connection.user?.username ?? 'its sign-in') : 'its sign-in (none)';
  return [
    { id: 'own', label: who },
    { id: 'anyone', label: 'anyone (no credentials)', token: null },
  ];
}

export function DiffIdentities(props: { connection: Connection; demo: boolean; seeAs?: boolean; identities: DiffIdentity[]; onAdd: (identity: DiffIdentity) => void }): JSX.Element {
  const { platform, connections } = useServices();
  const [username, setUsername] = useState('');
  const [seeAsName, setSeeAsName] = useState('');
  const addSeeAs = (e: FormEvent) => {
    e.preventDefault();
    const name = seeAsName.trim();
    if (!name) return;
    props.onAdd({ id: `see:${name}`, label: `${name} (seen as)`, seeAs: name });
    setSeeAsName('');
  };
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: async (credentials: { username: string; password: string }) => {
      const own = connections.target(props.connection.id);
      if (!own) throw new Error('The connection is gone.');
      // A bearer token of its own, asked for without the connection's credential: the connection's sign-in is untouched.
      const result = await login(platform.transport, identityTarget(own, null), credentials.username, credentials.password);
      return { id: `user:${result.user.username}`, label: result.user.username, token: result.token } satisfies DiffIdentity;
    },
    onSuccess: (identity) => {
      props.onAdd(identity);
      setPassword('');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (username && password) signIn.mutate({ username, password });
  };
  const have = new Set(props.identities.map((i) => i.label));

  return (
    <section className="diff-identities" aria-label="Identities">
      <p className="muted">
        Run the same read on <strong>{props.connection.name}</strong> as two identities: {props.identities.map((i) => i.label).join(', ')}.
      </p>
      {props.demo && (
        <p className="toolbar-row">
          <span className="muted">Demo users:</span>
          {DEMO_USERS.map((u) => (
            <button key={u.username} type="button" className="btn btn-small" disabled={have.has(u.username) || signIn.isPending} onClick={() => signIn.mutate(u)} title={`Sign in as ${u.username} (${u.role}) for this diff`}>
              {u.username}
            </button>
          ))}
        </p>
      )}
      {props.seeAs && (
        <form className="toolbar-row" onSubmit={addSeeAs} aria-label="See as">
          <input aria-label="See as username" placeholder="username" value={seeAsName} onChange={(e) => setSeeAsName(e.target.value)} autoComplete="off" spellCheck={false} />
          <button type="submit" className="btn btn-small" disabled={!seeAsName.trim()}>
            See as
          </button>
          <span className="muted">no password: the server runs the read as that user for an admin sign-in, and never writes</span>
        </form>
      )}
      <form className="toolbar-row" onSubmit={submit}>
        <input aria-label="Identity username" placeholder="username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" spellCheck={false} />
        <input aria-label="Identity password" placeholder="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" />
        <button type="submit" className="btn btn-small" disabled={!username || !password || signIn.isPending}>
          Add identity
        </button>
        {signIn.error && (
          <span className="text-error" role="alert">
            {signIn.error.message}
          </span>
        )}
      </form>
    </section>
  );
}
