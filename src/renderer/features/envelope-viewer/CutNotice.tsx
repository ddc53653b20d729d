/** The sentence that says what a view left out (count-bounds.ts); nothing when nothing was cut. */
import type { JSX } from 'react';

export function CutNotice(props: { sentence: string | null }): JSX.Element | null {
  if (props.sentence === null) return null;
  return (
    <p className="banner banner-warn" role="status" data-testid="cut-notice">
      {props.sentence}
    </p>
  );
}
