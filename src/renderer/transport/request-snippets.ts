/**
 * "Copy as curl" and "Copy as fetch" for a request the console sent, in the credential form the
 * user picks:
 * - `anonymous`: no Authorization header and no cookies (the request as anyone may send it);
 * - `env`: the bearer token read from $JQL_TOKEN, with a comment on how to get one first; an unset
 *   variable stops the snippet with that sentence instead of sending "Bearer " (which a server
 *   answers 401 "The token is malformed");
 * - `token`: the user's own token, written into the snippet (the caller says it holds a secret).
 * A session-cookie request uses cookies.txt for `env`, with a comment on how to fill it.
 */
import type { HttpRequestSpec } from './transport.ts';

export type SnippetAuth = 'anonymous' | 'env' | 'token';

export interface SnippetOptions {
  auth: SnippetAuth;
  /** Who is signed in, for the sign-in hint of `env` (null: a placeholder). */
  username?: string | null;
}

const BEARER = /^Bearer\s+(.+)$/i;

function hasBearerHeader(request: HttpRequestSpec): boolean {
  return Object.entries(request.headers).some(([name, value]) => name.toLowerCase() === 'authorization' && BEARER.test(value));
}

/** The credential a request carries: a bearer token (in the page, or added by main in the desktop app), a session cookie, or none. */
export function requestCredential(request: HttpRequestSpec): 'bearer' | 'cookie' | 'none' {
  if (hasBearerHeader(request)) return 'bearer';
  if (request.withCredentials) return 'cookie';
  return request.connectionCredentials ? 'bearer' : 'none';
}

/** The credential forms worth offering for this request (the first is the default); the token itself only where the page has it. */
export function snippetChoices(request: HttpRequestSpec): SnippetAuth[] {
  const credential = requestCredential(request);
  if (credential === 'bearer') return hasBearerHeader(request) ? ['env', 'token', 'anonymous'] : ['env', 'anonymous'];
  if (credential === 'cookie') return ['env', 'anonymous'];
  return ['anonymous'];
}

/** POSIX shell single-quoting: the only character to handle inside '…' is ' itself. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function plainHeaders(request: HttpRequestSpec): Array<[string, string]> {
  return Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'authorization');
}

function bearerToken(request: HttpRequestSpec): string | null {
  for (const [name, value] of Object.entries(request.headers)) if (name.toLowerCase() === 'authorization') return BEARER.exec(value)?.[1] ?? null;
  return null;
}

function loginUrl(request: HttpRequestSpec): string {
  const url = new URL(request.url);
  url.search = '';
  return url.toString();
}

/** How to get a token (or a session cookie) into the shell, as comment lines. */
function signInHint(request: HttpRequestSpec, username: string | null | undefined, session: boolean): string[] {
  const user = username && username !== 'local admin' ? username : 'USERNAME';
  const meta = `{namespace: "system.User", intent: "login", schema: "controller"${session ? ', authenticationClass: "session"' : ''}}`;
  const build = `jq -n --arg u ${shellQuote(user)} --arg p "$PW" '{__meta__: ${meta}, username: $u, password: $p}'`;
  const post = `curl -s ${shellQuote(loginUrl(request))} -H 'Content-Type: application/json' --data-binary @-`;
  return session
    ? [
        '# This request runs as a signed-in user (session cookie): sign in into cookies.txt first, e.g. with jq',
        '# (the password is read without echo and stays out of your shell history):',
        "#   read -rsp 'Password: ' PW; echo",
        `#   ${build} | ${post} -c cookies.txt > /dev/null`,
      ]
    : [
        '# This request runs as a signed-in user: put a token in JQL_TOKEN first, e.g. with jq',
        '# (the password is read without echo and stays out of your shell history):',
        "#   read -rsp 'Password: ' PW; echo",
        `#   export JQL_TOKEN=$(${build} | ${post} | jq -r .__payload__.token)`,
      ];
}

export function toCurl(request: HttpRequestSpec, options: SnippetOptions = { auth: 'env' }): string {
  const credential = options.auth === 'anonymous' ? 'none' : requestCredential(request);
  const lines = [`curl -sS -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of plainHeaders(request)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (credential === 'bearer') {
    lines.push(
      options.auth === 'token'
        ? `-H ${shellQuote(`Authorization: Bearer ${bearerToken(request)}`)}`
        : // Double quotes so the variable expands; ${…:?} stops with a sentence when it is unset.
          `-H "Authorization: Bearer \${JQL_TOKEN:?set JQL_TOKEN to a token first, see the comment above}"`,
    );
  }
  if (credential === 'cookie') lines.push('-b cookies.txt');
  if (request.body !== undefined) lines.push(`--data-raw ${shellQuote(request.body)}`);
  const hint = options.auth === 'env' && credential !== 'none' ? signInHint(request, options.username, credential === 'cookie') : [];
  return [...hint, lines.join(' \\\n  ')].join('\n');
}

export function toFetch(request: HttpRequestSpec, options: SnippetOptions = { auth: 'env' }): string {
  const credential = options.auth === 'anonymous' ? 'none' : requestCredential(request);
  const headerLines = plainHeaders(request).map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
  const prelude: string[] = [];
  if (credential === 'bearer' && options.auth === 'token') headerLines.push(`    "Authorization": ${JSON.stringify(`Bearer ${bearerToken(request)}`)},`);
  if (credential === 'bearer' && options.auth === 'env') {
    prelude.push(
      '// This request runs as a signed-in user: set JQL_TOKEN to a token (system.User login answers one in __payload__.token).',
      'const JQL_TOKEN = process.env.JQL_TOKEN;',
      "if (!JQL_TOKEN) throw new Error('Set JQL_TOKEN to a token first (see the comment above).');",
    );
    headerLines.push('    "Authorization": `Bearer ${JQL_TOKEN}`,');
  }
  const parts = [`  method: ${JSON.stringify(request.method)},`, `  headers: {\n${headerLines.join('\n')}\n  },`];
  if (credential === 'cookie') {
    prelude.push('// This request runs as a signed-in user (session cookie): in a browser on the same site, sign in first.');
    parts.push(`  credentials: "include",`);
  }
  if (request.body !== undefined) parts.push(`  body: JSON.stringify(${prettyBody(request.body)}),`);
  return `${prelude.map((l) => `${l}\n`).join('')}const response = await fetch(${JSON.stringify(request.url)}, {\n${parts.join('\n')}\n});\nconst envelope = await response.json();`;
}

/** The body as a JavaScript literal when it is JSON (readable), else as a string. */
function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2).replace(/\n/g, '\n  ');
  } catch {
    return `JSON.parse(${JSON.stringify(body)})`;
  }
}
