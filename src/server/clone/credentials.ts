/**
 * How the clone and `workspace from-describe` sign in to the source: a bearer token, or a username
 * and password exchanged for one with `system.User.login`; either is read from standard input, never
 * from the command line (where every user of the machine can see it in the process list).
 */
import { readFirstLine } from '../read-first-line.ts';
import { RemoteError, throwIfFailed, type RemoteServer } from './remote-server.ts';

export type Credentials = { kind: 'none' } | { kind: 'token'; token: string } | { kind: 'password'; username: string; password: string };

export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
}

/** `--user NAME --password-stdin` or `--token-stdin`, from the parsed options. */
export async function readCredentials(values: { user?: string; 'password-stdin'?: boolean; 'token-stdin'?: boolean }, input: NodeJS.ReadableStream = process.stdin): Promise<Credentials> {
  const { user } = values;
  const passwordStdin = values['password-stdin'] === true;
  const tokenStdin = values['token-stdin'] === true;
  if (tokenStdin && (passwordStdin || user !== undefined)) throw new CredentialsError('Give either --token-stdin or --user NAME --password-stdin, not both');
  if (passwordStdin && user === undefined) throw new CredentialsError('--password-stdin needs --user NAME');
  if (user !== undefined && !passwordStdin) throw new CredentialsError('--user NAME needs --password-stdin: the password is read from standard input, never from the command line');
  if (tokenStdin) {
    const token = (await readFirstLine(input)).trim();
    if (!token) throw new CredentialsError('--token-stdin reads the token from the first line of standard input, and it was empty');
    return { kind: 'token', token };
  }
  if (passwordStdin) {
    const password = await readFirstLine(input);
    if (!password) throw new CredentialsError('--password-stdin reads the password from the first line of standard input, and it was empty');
    return { kind: 'password', username: user as string, password };
  }
  return { kind: 'none' };
}

/** Puts the credentials in place on the source connection (a login is one request to the source). */
export async function signIn(remote: RemoteServer, credentials: Credentials): Promise<void> {
  if (credentials.kind === 'none') return;
  if (credentials.kind === 'token') {
    remote.useToken(credentials.token);
    return;
  }
  const answer = await remote.post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: credentials.username, password: credentials.password });
  throwIfFailed(answer, `Signing in to ${remote.origin} as ${credentials.username}`);
  const token = (answer.payload as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || token === '') throw new RemoteError(answer.status, 'invalid_answer', `${remote.origin} answered the login without a token`);
  remote.useToken(token);
}
