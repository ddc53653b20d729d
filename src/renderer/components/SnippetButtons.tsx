/**
 * "Copy as curl" and "Copy as fetch" for a response's request. An anonymous request copies at once
 * (no Authorization). A signed-in one opens a menu: with $JQL_TOKEN (the default, no secret in the
 * snippet), with my token (the toast says the snippet now holds a secret), or as anyone.
 */
import { useCallback, useRef, useState, type JSX } from 'react';
import { useServices } from '../state/services.ts';
import { snippetChoices, toCurl, toFetch, type SnippetAuth } from '../transport/request-snippets.ts';
import type { HttpRequestSpec } from '../transport/transport.ts';
import { copyToClipboard } from './clipboard.ts';
import { useDismiss } from './use-dismiss.ts';
import { useViewportClamp } from './use-viewport-clamp.ts';

type Kind = 'curl' | 'fetch';

const LABEL: Record<SnippetAuth, { title: (kind: Kind, session: boolean) => string; hint: string }> = {
  env: {
    title: (_kind, session) => (session ? 'with a session cookie (cookies.txt)' : 'with $JQL_TOKEN'),
    hint: 'No secret in the snippet; it says how to sign in first',
  },
  token: { title: () => 'with my token', hint: 'The snippet holds your token: a secret' },
  anonymous: { title: () => 'anonymous', hint: 'No credentials: what anyone may read' },
};

function SnippetButton(props: { kind: Kind; request: HttpRequestSpec; username: string | null }): JSX.Element {
  const { toasts } = useServices();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const choices = snippetChoices(props.request);
  const session = props.request.withCredentials && !choices.includes('token');

  useDismiss(open, ref, close, trigger);
  useViewportClamp(open, menu);

  const copy = (auth: SnippetAuth) => {
    setOpen(false);
    const make = props.kind === 'curl' ? toCurl : toFetch;
    const text = make(props.request, { auth, username: props.username });
    const what = `as ${props.kind}${auth === 'anonymous' && choices.length > 1 ? ' (anonymous)' : auth === 'env' ? (session ? ' with cookies.txt' : ' with $JQL_TOKEN') : ''}`;
    if (auth === 'token') void copyToClipboard(text, `as ${props.kind} with your token. The snippet holds a secret: paste it only where that token may be seen`, toasts);
    else void copyToClipboard(text, what, toasts);
  };

  const label = `Copy as ${props.kind}`;
  // In a narrow pane the button reads "curl"; its accessible name stays "Copy as curl".
  const text = (
    <span>
      <span className="compact-hidden">Copy as </span>
      {props.kind}
    </span>
  );
  if (choices.length === 1) {
    return (
      <button type="button" className="btn btn-small" onClick={() => copy(choices[0]!)} title={label}>
        {text}
      </button>
    );
  }
  return (
    <div className="popover-anchor" ref={ref}>
      <button ref={trigger} type="button" className="btn btn-small" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)} title={label}>
        {text} ▾
      </button>
      {open && (
        <div ref={menu} className="popover snippet-menu" role="menu" aria-label={label}>
          {choices.map((auth) => (
            <button key={auth} type="button" role="menuitem" onClick={() => copy(auth)}>
              {LABEL[auth].title(props.kind, session)}
              <small>{LABEL[auth].hint}</small>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export function SnippetButtons(props: { request: HttpRequestSpec }): JSX.Element {
  const { connections } = useServices();
  const username = connections.get(props.request.connectionId)?.user?.username ?? null;
  return (
    <>
      <SnippetButton kind="curl" request={props.request} username={username} />
      <SnippetButton kind="fetch" request={props.request} username={username} />
    </>
  );
}
