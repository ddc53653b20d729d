/**
 * Text a server sent, shown so it cannot pass for the console's own words: in quotes, in the
 * server-words style (monospace, dotted outline), with a tooltip saying where it came from. The
 * text was cleaned and cut at the boundary (response/server-text.ts); this only shows it.
 * `own`: the words of the console's own server (state/own-server.ts), shown plainly, since quoting
 * the console's own "v0.1.0" or "OK" reads as noise.
 */
import type { JSX } from 'react';

export function ServerWords(props: { text: string; testId?: string; className?: string; own?: boolean }): JSX.Element {
  if (props.own) {
    return (
      <span className={props.className} data-testid={props.testId} data-words="own-server">
        {props.text}
      </span>
    );
  }
  return (
    <span className={`server-words${props.className ? ` ${props.className}` : ''}`} title="Sent by the server, shown as text" data-testid={props.testId}>
      {props.text}
    </span>
  );
}
