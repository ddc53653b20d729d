/**
 * What the server sent that did not fit the protocol, each part named in one sentence (the
 * boundary wrote them), with the raw value a click away. The first few are in view; the rest fold.
 */
import { useState, type JSX } from 'react';
import type { Misfit } from '../../response/result-view.ts';
import { boundedJson } from './bounded-json.ts';

const SHOWN = 4;

function Item({ misfit }: { misfit: Misfit }): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <li>
      {misfit.sentence}{' '}
      {misfit.raw !== undefined && (
        <button type="button" className="link" onClick={() => setOpen(!open)}>
          {open ? 'hide what it sent' : 'show what it sent'}
        </button>
      )}
      {open && <pre>{boundedJson(misfit.raw)}</pre>}
    </li>
  );
}

export function MisfitsNote(props: { misfits: Misfit[] }): JSX.Element | null {
  const { misfits } = props;
  if (misfits.length === 0) return null;
  return (
    <div className="misfits banner-warn" role="note" data-testid="misfits">
      <strong>
        {misfits.length === 1 ? 'One part' : `${misfits.length} parts`} of the answer did not fit the protocol and {misfits.length === 1 ? 'is' : 'are'} not shown as sent:
      </strong>
      <ul>
        {misfits.slice(0, SHOWN).map((m, i) => (
          <Item key={i} misfit={m} />
        ))}
      </ul>
      {misfits.length > SHOWN && (
        <details>
          <summary>{misfits.length - SHOWN} more</summary>
          <ul>
            {misfits.slice(SHOWN).map((m, i) => (
              <Item key={i} misfit={m} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
