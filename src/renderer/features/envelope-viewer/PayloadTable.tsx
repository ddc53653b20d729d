/**
 * The payload as a table: virtualized rows (only what is on screen is in the DOM, so 100,000
 * records scroll smoothly), sortable columns, nested values that expand under their row,
 * copy cell / copy row (buttons, or Ctrl/Cmd+C on the selected cell), and the response search's
 * matches marked, the current one selected and scrolled to.
 *
 * For the keyboard and screen readers it is a grid (WAI-ARIA's data grid): its cells are gridcells
 * and the grid is one tab stop, the selected cell (or the first cell on screen when the selected one
 * was scrolled away). Arrow keys, Home and End move the selection and the focus with it; Enter or
 * Space opens a nested value; ArrowUp from the first row reaches the column headers, whose buttons sort.
 * With `explainRecord`, a record's context menu (right-click, ContextMenu key, Shift+F10) asks why a
 * user cannot see it.
 */
import { VisibleControls, visibleText } from '../../components/visible-controls.tsx';
import { isBigNumber, isOutOfRange, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type KeyboardEvent, type MouseEvent } from 'react';
import type { JsonValue } from '../../../shared/protocol.ts';
import { copyToClipboard } from '../../components/clipboard.ts';
import { formatCount } from '../../components/format.ts';
import { useServices } from '../../state/services.ts';
import { cutSentence, firstOf, SHOWN_COLUMNS } from './count-bounds.ts';
import { CutNotice } from './CutNotice.tsx';
import { opensContextMenu, recordIdOf, type ExplainRecord } from './record-actions.ts';
import { RecordMenu, type MenuPlace } from './RecordMenu.tsx';
import { currentOf, tableMatches, type Searchable } from './response-search.ts';
import { WhyNotRecordDialog } from './WhyNotRecordDialog.tsx';
import { cellText, cellValue, columnWidths, columnsOf, copyText, detailText, holdsLongText, isNested, moveSelection, nextSort, sortedOrder, type SortSpec } from './table-model.ts';
import { copyLongText, LONG_COPY_FAILED, TOO_LONG_TO_COPY } from './long-text-copy.ts';
import { longTextOf } from '../../response/long-text.ts';

const ROW_HEIGHT = 25;
const INDEX_WIDTH = 56;

/** The key of a cell in the DOM (`data-cell`), to move the focus to it once it is drawn. */
const cellKey = (row: number, column: string) => `${row}:${column}`;

function valueClass(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'v-null';
  if (typeof value === 'number') return 'v-num';
  if (isBigNumber(value)) return isOutOfRange(value) ? 'v-num v-out-of-range' : 'v-num';
  if (typeof value === 'boolean') return 'v-bool';
  if (typeof value === 'object') return 'v-nested';
  return 'v-str';
}

export function PayloadTable(props: { rows: JsonValue[]; explainRecord?: ExplainRecord } & Searchable): JSX.Element {
  const { toasts } = useServices();
  const { rows } = props;
  // A row of 5,000 columns would put 5,000 cells per row in the DOM: the first SHOWN_COLUMNS are drawn.
  const { shown: columns, cut: columnsCut } = useMemo(() => firstOf(columnsOf(rows), SHOWN_COLUMNS), [rows]);
  const widths = useMemo(() => new Map(columnWidths(rows, columns).map((w, i) => [columns[i]!, w])), [rows, columns]);
  const widthOf = (column: string) => widths.get(column) ?? 120;
  const [sort, setSort] = useState<SortSpec | null>(null);
  const order = useMemo(() => sortedOrder(rows, sort), [rows, sort]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<{ row: number; column: string } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  // Set by a key that moved the selection: the focus follows once the cell is drawn (it may be a
  // row the virtualizer has yet to render).
  const focusWanted = useRef(false);
  // The record menu, where it opened, and the "why not" dialog it leads to.
  const [menu, setMenu] = useState<{ at: MenuPlace; row: number; column: string; id: number } | null>(null);
  const [asking, setAsking] = useState<{ row: number; column: string; id: number } | null>(null);
  const totalWidth = INDEX_WIDTH + columns.reduce((w, c) => w + widthOf(c), 0);

  const { search, onMatches } = props;
  const query = search?.query ?? '';
  const matches = useMemo(() => tableMatches(rows, order, columns, query), [rows, order, columns, query]);
  const matched = useMemo(() => new Set(matches.map((m) => `${m.row}\u0000${m.column}`)), [matches]);
  const current = currentOf(matches, search);
  useEffect(() => onMatches?.(matches.length), [matches, onMatches]);

  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  const toggle = (row: number, column: string) => {
    const key = `${row}\u0000${column}`;
    const next = new Set(expanded);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setExpanded(next);
  };

  // The current match becomes the selected cell, scrolled into view down and across.
  useEffect(() => {
    if (!current) return;
    setSelected(current);
    virtualizer.scrollToIndex(order.indexOf(current.row), { align: 'center' });
    const scroller = scrollRef.current;
    if (!scroller) return;
    const at = columns.indexOf(current.column);
    const left = INDEX_WIDTH + columns.slice(0, at).reduce((w, c) => w + widthOf(c), 0);
    const right = left + widthOf(current.column);
    if (left < scroller.scrollLeft + INDEX_WIDTH) scroller.scrollLeft = left - INDEX_WIDTH;
    else if (right > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = right - scroller.clientWidth;
    // Only a new current match moves the view (not a re-render with the same one).
  }, [current?.row, current?.column, search?.index]);

  const copyCell = () => {
    if (!selected) return;
    const value = cellValue(rows[selected.row], selected.column);
    const long = longTextOf(value);
    if (long) void copyLongText(long).then(() => toasts.show('Copied the cell'), () => toasts.show(LONG_COPY_FAILED, 'error'));
    else if (holdsLongText(value)) toasts.show(TOO_LONG_TO_COPY, 'error');
    else void copyToClipboard(copyText(value), 'the cell', toasts);
  };
  const copyRow = () => {
    if (!selected) return;
    if (holdsLongText(rows[selected.row])) toasts.show(TOO_LONG_TO_COPY, 'error');
    else void copyToClipboard(stringifyKeepingNumbers(rows[selected.row], 2), 'the row', toasts);
  };
  useLayoutEffect(() => {
    if (!focusWanted.current || !selected) return;
    const cell = scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${CSS.escape(cellKey(selected.row, selected.column))}"]`);
    if (!cell) return;
    focusWanted.current = false;
    cell.focus();
  });

  const focusHeader = (column: string) => scrollRef.current?.querySelector<HTMLElement>(`[data-header="${CSS.escape(column)}"]`)?.focus();

  /** Keys on a column header's button: across the headers, or down into the first row. */
  const onHeaderKeyDown = (e: KeyboardEvent, column: string) => {
    const at = columns.indexOf(column);
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      const to = columns[Math.min(Math.max(at + (e.key === 'ArrowLeft' ? -1 : 1), 0), columns.length - 1)]!;
      focusHeader(to);
    } else if (e.key === 'ArrowDown' && order.length > 0) {
      e.preventDefault();
      focusWanted.current = true;
      setSelected({ row: order[0]!, column });
      virtualizer.scrollToIndex(0, { align: 'auto' });
    }
  };

  /** Opens the record menu of a row with an id, when there is something to offer. */
  const openMenu = (at: MenuPlace, row: number, column: string): boolean => {
    const id = recordIdOf(rows[row]);
    if (!props.explainRecord || id === null) return false;
    setSelected({ row, column });
    setMenu({ at, row, column, id });
    return true;
  };
  const onCellContextMenu = (e: MouseEvent, row: number, column: string) => {
    if (openMenu({ x: e.clientX, y: e.clientY }, row, column)) e.preventDefault();
  };
  /** Back to the cell the menu or dialog was opened on. */
  const refocus = (row: number, column: string) => {
    focusWanted.current = true;
    setSelected({ row, column });
  };

  /** Keys on a cell: copy, move (the focus follows), open a nested value or the menu, up into the headers. */
  const onCellKeyDown = (e: KeyboardEvent, row: number, column: string) => {
    if (opensContextMenu(e)) {
      const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
      if (openMenu({ x: box.left, y: box.bottom }, row, column)) e.preventDefault();
      return;
    }
    if ((e.ctrlKey || e.metaKey) && e.key === 'c' && !window.getSelection()?.toString()) {
      e.preventDefault();
      copyCell();
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && isNested(cellValue(rows[row], column))) {
      e.preventDefault();
      toggle(row, column);
      return;
    }
    if (e.key === 'ArrowUp' && order.indexOf(row) === 0) {
      e.preventDefault();
      focusHeader(column);
      return;
    }
    const next = moveSelection(e.key, { row, column }, order, columns);
    if (!next) return;
    e.preventDefault();
    focusWanted.current = true;
    setSelected(next);
    virtualizer.scrollToIndex(order.indexOf(next.row), { align: 'auto' });
  };

  // The grid's one tab stop: the selected cell while it is drawn, else the first cell on screen.
  const drawn = virtualizer.getVirtualItems();
  const selectedDrawn = selected !== null && drawn.some((item) => order[item.index] === selected.row);
  const firstDrawn = drawn[0] ? order[drawn[0].index] : undefined;
  const tabStop = selectedDrawn ? selected : firstDrawn !== undefined && columns[0] !== undefined ? { row: firstDrawn, column: columns[0] } : null;

  return (
    <div className="table-wrap">
      <CutNotice sentence={cutSentence(columns.length, columnsCut, 'columns', 'the JSON and Raw views')} />
      <div className="table-bar">
        <span className="muted small" data-testid="table-count">
          {formatCount(rows.length)} {rows.length === 1 ? 'row' : 'rows'}
          {sort && ` · sorted by ${sort.column} ${sort.direction === 'asc' ? '↑' : '↓'}`}
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-small" disabled={!selected} onClick={copyCell}>
          Copy cell
        </button>
        <button type="button" className="btn btn-small" disabled={!selected} onClick={copyRow}>
          Copy row
        </button>
      </div>
      <div ref={scrollRef} className="table-scroll" role="grid" aria-label="Payload" aria-rowcount={rows.length + 1} aria-colcount={columns.length + 1} data-testid="payload-table">
        <div className="table-head" role="row" style={{ width: totalWidth }}>
          <div className="th th-index" role="columnheader" style={{ width: INDEX_WIDTH }}>
            #
          </div>
          {columns.map((c) => (
            <div
              key={c}
              role="columnheader"
              className="th"
              style={{ width: widthOf(c) }}
              aria-sort={sort?.column === c ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              <button type="button" className="th-button" tabIndex={-1} data-header={c} onKeyDown={(e) => onHeaderKeyDown(e, c)} onClick={() => setSort(nextSort(sort, c))} title={`Sort by ${visibleText(c)}`}>
                <VisibleControls text={c} />
                <span className="sort-mark" aria-hidden="true">{sort?.column === c ? (sort.direction === 'asc' ? '▲' : '▼') : ''}</span>
              </button>
            </div>
          ))}
        </div>
        <div className="table-body" role="rowgroup" style={{ height: virtualizer.getTotalSize(), width: totalWidth }}>
          {drawn.map((item) => {
            const rowIndex = order[item.index]!;
            const row = rows[rowIndex];
            const open = columns.filter((c) => expanded.has(`${rowIndex}\u0000${c}`));
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="row"
                aria-rowindex={item.index + 2}
                className={`tr${item.index % 2 ? ' tr-odd' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <div className="tr-cells">
                  <div className="td td-index" role="rowheader" style={{ width: INDEX_WIDTH }}>
                    {rowIndex + 1}
                  </div>
                  {columns.map((c) => {
                    const value = cellValue(row, c);
                    const nested = isNested(value);
                    const isSelected = selected?.row === rowIndex && selected.column === c;
                    const isMatch = matched.has(`${rowIndex}\u0000${c}`);
                    const isCurrent = current?.row === rowIndex && current.column === c;
                    const isTabStop = tabStop?.row === rowIndex && tabStop.column === c;
                    return (
                      <div
                        key={c}
                        role="gridcell"
                        aria-selected={isSelected}
                        tabIndex={isTabStop ? 0 : -1}
                        data-cell={cellKey(rowIndex, c)}
                        data-match={isCurrent ? 'current' : isMatch ? 'match' : undefined}
                        className={`td ${valueClass(value)}${isSelected ? ' is-selected' : ''}${isMatch ? ' is-match' : ''}${isCurrent ? ' is-current-match' : ''}`}
                        style={{ width: widthOf(c) }}
                        title={nested ? undefined : visibleText(cellText(value, 2000))}
                        onClick={() => setSelected({ row: rowIndex, column: c })}
                        onFocus={() => !isSelected && setSelected({ row: rowIndex, column: c })}
                        onKeyDown={(e) => onCellKeyDown(e, rowIndex, c)}
                        onContextMenu={(e) => onCellContextMenu(e, rowIndex, c)}
                      >
                        {nested ? (
                          // Reached through its cell (Enter or Space), so the grid stays one tab stop.
                          <button type="button" className="expand" tabIndex={-1} aria-expanded={open.includes(c)} onClick={() => toggle(rowIndex, c)}>
                            {open.includes(c) ? '▾' : '▸'} <VisibleControls text={cellText(value)} />
                          </button>
                        ) : (
                          <VisibleControls text={cellText(value)} />
                        )}
                      </div>
                    );
                  })}
                </div>
                {open.length > 0 && (
                  <div className="tr-detail" style={{ marginLeft: INDEX_WIDTH }}>
                    {open.map((c) => (
                      <div key={c} className="tr-detail-item">
                        <span className="muted">
                          <VisibleControls text={c} />
                        </span>
                        <pre>
                          <VisibleControls text={detailText(cellValue(row, c))} />
                        </pre>
                      </div>
                    ))}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {menu && (
        <RecordMenu
          at={menu.at}
          id={menu.id}
          onClose={() => {
            setMenu(null);
            refocus(menu.row, menu.column);
          }}
          onWhyNot={() => {
            setMenu(null);
            setAsking(menu);
          }}
        />
      )}
      {asking && props.explainRecord && (
        <WhyNotRecordDialog
          id={asking.id}
          explain={props.explainRecord}
          onClose={() => {
            setAsking(null);
            refocus(asking.row, asking.column);
          }}
        />
      )}
    </div>
  );
}
