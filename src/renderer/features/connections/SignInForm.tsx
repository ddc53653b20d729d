/** Sign in to a connection with system.User login; the token goes to the secret store only. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type JSX } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import type { Connection } from '../../state/connections-store.ts';
import { touchesConnection } from '../../state/query-keys.ts';
import { useServices } from '../../state/services.ts';
import { login } from '../../transport/jql-client.ts';

export function SignInForm(props: { connection: Connection; onClose: () => void }): JSX.Element {
  const { platform, connections, queryClient, toasts } = useServices();
  const [username, setUsername] = useState(props.connection.kind === 'remote' ? (props.connection.user?.username ?? '') : '');
  const [password, setPassword] = useState('');

  const signIn = useMutation({
    mutationFn: async () => {
      const target = connections.target(props.connection.id);
      if (!target) throw new Error('The connection is gone.');
      return login(platform.transport, target, username, password);
    },
    onSuccess: async (result) => {
      await connections.signIn(props.connection.id, result.token, result.user);
      await queryClient.invalidateQueries({ predicate: (q) => touchesConnection(q.queryKey, props.connection.id) });
      toasts.show(`Signed in to ${props.connection.name} as ${result.user.username}`);
      props.onClose();
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (username && password) signIn.mutate();
  };

  return (
    <Dialog title={`Sign in to ${props.connection.name}`} onClose={props.onClose} testId="sign-in-form">
      <form className="form" onSubmit={submit}>
        <p className="form-note">{props.connection.baseUrl}</p>
        <label className="field">
          <span>Username</span>
          <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" autoFocus spellCheck={false} />
        </label>
        <label className="field">
          <span>Password</span>
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
        </label>
        {signIn.error && (
          <p className="form-error" role="alert">
            {signIn.error.message}
          </p>
        )}
        {!platform.secrets.persistent && <p className="form-note">In a browser tab the token is kept in memory only: reloading the page signs you out.</p>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!username || !password || signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
