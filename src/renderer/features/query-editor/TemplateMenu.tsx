/**
 * The "Templates" popover: every namespace of the server with a button per intent.
 *
 * A labelled dialog, not an ARIA menu: it holds a filter field and a list of namespaces, each a
 * group of buttons named by its namespace, which a menu may not hold (axe found 73 serious
 * violations with it open as a menu: `menuitem`s inside list items, a text field in a menu).
 */
import { useCallback, useMemo, useRef, useState, type JSX } from 'react';
import { useDismiss } from '../../components/use-dismiss.ts';
import { useViewportClamp } from '../../components/use-viewport-clamp.ts';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { listNamespaces, type NamespaceInfo } from '../../monaco/describe-index.ts';
import { buildMultiTemplate, buildTemplate } from '../../monaco/templates.ts';

const SHOWN_TEMPLATES = 200;

const GENERIC: NamespaceInfo = { namespace: 'app.Model', kind: 'model', intents: ['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count'] };

export function TemplateMenu(props: { describe: DescribeResult | null; onInsert: (text: string) => void }): JSX.Element {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const ref = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useDismiss(open, ref, close, trigger);
  useViewportClamp(open, menu);

  const namespaces = useMemo(() => (props.describe ? listNamespaces(props.describe) : [GENERIC]), [props.describe]);
  const matching = open ? namespaces.filter((n) => n.namespace.toLowerCase().includes(filter.toLowerCase())) : [];
  // A describe may name 100,000 namespaces: the list draws the first few, the filter finds the rest.
  const shown = matching.slice(0, SHOWN_TEMPLATES);
  const firstModel = namespaces.find((n) => n.kind === 'model')?.namespace ?? 'app.Model';
  const insert = (text: string) => {
    props.onInsert(text);
    setOpen(false);
  };

  return (
    <div className="popover-anchor" ref={ref}>
      <button ref={trigger} type="button" className="btn btn-small" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(!open)}>
        Templates ▾
      </button>
      {open && (
        <div ref={menu} className="popover templates" role="dialog" aria-label="Templates">
          <input className="popover-filter" placeholder="Filter namespaces" aria-label="Filter namespaces" value={filter} onChange={(e) => setFilter(e.target.value)} autoFocus />
          {!props.describe && <p className="muted small">This server has no describe: templates use a placeholder namespace.</p>}
          <ul>
            {shown.map((n) => (
              <li key={`${n.kind}:${n.namespace}`}>
                <div className="template-row" role="group" aria-label={`${n.namespace} ${n.kind}`}>
                  <span className="template-ns" aria-hidden="true">
                    {n.namespace} <span className={`kind kind-${n.kind}`}>{n.kind}</span>
                  </span>
                  <span className="template-intents">
                    {n.intents.map((intent) => (
                      <button key={intent} type="button" className="chip" onClick={() => insert(buildTemplate(props.describe, n, intent))}>
                        {intent}
                      </button>
                    ))}
                  </span>
                </div>
              </li>
            ))}
            {matching.length > shown.length && <li className="muted small">{(matching.length - shown.length).toLocaleString('en')} more: type to filter.</li>}
            <li>
              <div className="template-row" role="group" aria-label="Several queries in one request">
                <span className="template-ns" aria-hidden="true">
                  Several queries in one request
                </span>
                <span className="template-intents">
                  <button type="button" className="chip" onClick={() => insert(buildMultiTemplate(firstModel))}>
                    multi-query
                  </button>
                </span>
              </div>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
