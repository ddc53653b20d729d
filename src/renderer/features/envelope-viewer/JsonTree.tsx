/**
 * The payload as a collapsible JSON tree, virtualized over the visible rows (json-tree-model.ts).
 * The response search marks the rows that match; the current one is opened to (its containers and
 * chunk groups expand) and scrolled to.
 */
import { VisibleControls } from '../../components/visible-controls.tsx';
import { isBigNumber, isOutOfRange } from '../../../shared/big-number.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { JsonValue } from '../../../shared/protocol.ts';
import { formatBytes } from '../../components/format.ts';
import { flattenTree, initialExpansion, type TreeRow } from './json-tree-model.ts';
import { LongTextPanel } from './LongTextPanel.tsx';
import { longTextOf } from '../../response/long-text.ts';
import { currentOf, treeMatches, type Searchable } from './response-search.ts';

const ROW_HEIGHT = 20;

export function JsonTree(props: { value: JsonValue } & Searchable): JSX.Element {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => initialExpansion(props.value));
  // A long string the user asked to see whole: a piece at a time, in a text box above the tree.
  const [whole, setWhole] = useState<TreeRow | null>(null);
  const rows = useMemo(() => flattenTree(props.value, expanded), [props.value, expanded]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });

  const { search, onMatches } = props;
  const query = search?.query ?? '';
  const matches = useMemo(() => treeMatches(props.value, query), [props.value, query]);
  const matched = useMemo(() => new Set(matches.map((m) => m.id)), [matches]);
  const current = currentOf(matches, search);
  useEffect(() => onMatches?.(matches.length), [matches, onMatches]);
  // A new current match: open what hides it; once its row exists, scroll to it.
  useEffect(() => {
    if (!current) return;
    setExpanded((open) => (current.reveal.every((id) => open.has(id)) ? open : new Set([...open, ...current.reveal])));
  }, [current]);
  const currentRow = current ? rows.findIndex((r) => r.id === current.id) : -1;
  useEffect(() => {
    if (currentRow >= 0) virtualizer.scrollToIndex(currentRow, { align: 'center' });
  }, [currentRow, search?.index, virtualizer]);

  const toggle = (id: string) => {
    const next = new Set(expanded);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setExpanded(next);
  };

  return (
    <>
    {whole && typeof whole.value === 'string' && <LongTextPanel key={whole.id} label={whole.label ?? 'value'} value={longTextOf(whole.value) ?? whole.value} onClose={() => setWhole(null)} />}
    <div ref={scrollRef} className="tree-scroll" role="tree" aria-label="Payload as JSON" data-testid="json-tree" tabIndex={0}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={row.id || 'root'}
              role="treeitem"
              aria-expanded={row.expandable ? row.expanded : undefined}
              aria-level={row.depth + 1}
              className={`tree-row${matched.has(row.id) ? ' is-match' : ''}${current?.id === row.id ? ' is-current-match' : ''}`}
              data-match={current?.id === row.id ? 'current' : matched.has(row.id) ? 'match' : undefined}
              style={{ transform: `translateY(${item.start}px)`, paddingLeft: 8 + row.depth * 16 }}
              onClick={() => row.expandable && toggle(row.id)}
            >
              <span className="caret">{row.expandable ? (row.expanded ? '▾' : '▸') : ''}</span>
              {row.label !== null && <span className={row.kind === 'group' ? 'tree-group' : 'tree-key'}><VisibleControls text={row.label} /></span>}
              {row.label !== null && row.kind !== 'group' && <span className="muted">: </span>}
              <span className={`tree-value t-${row.kind === 'value' ? (isBigNumber(row.value) ? `number${isOutOfRange(row.value) ? ' v-out-of-range' : ''}` : typeof row.value) : row.kind}${row.value === null && row.kind === 'value' ? ' t-null' : ''}`}>
                {row.kind === 'group' ? '' : row.expanded ? (row.kind === 'array' ? '[' : '{') : <VisibleControls text={row.preview} />}
              </span>
              {row.longString !== undefined && (
                <button
                  type="button"
                  className="link"
                  onClick={(e) => {
                    e.stopPropagation();
                    setWhole(row);
                  }}
                >
                  show all ({formatBytes(row.longString)})
                </button>
              )}
            </div>
          );
        })}
      </div>
    </div>
    </>
  );
}
