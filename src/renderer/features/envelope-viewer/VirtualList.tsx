/**
 * A list that draws only the entries in (and near) its scrolled window: the Errors and SQL views
 * hold up to 500 entries each (count-caps.ts), and drawing 500 error cards or statements at once cost
 * a layout of 8,000 boxes, a long task on every open of the view (issue 31). A box around the list
 * scrolls; the entries above and below the window are stood for by the list's top and bottom padding,
 * so each drawn entry stays a direct `<li>` child of the list, and each is measured once drawn
 * (entries differ in height: a long message, a statement over several lines). The padding is not on
 * the scrolling box itself: a border-box that scrolls grows to hold its own padding.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type JSX, type ReactNode } from 'react';

/** Entries drawn past each edge of the window, so a short scroll shows no blank. */
export const OVERSCAN = 6;

/** The list's padding at each end, as its CSS would give it (the padding is set here). */
const EDGE = 8;

/** The window drawn before the list is measured (the first render, and a render without a DOM). */
export const INITIAL_RECT = { width: 800, height: 600 };

export interface VirtualListProps<T> {
  items: readonly T[];
  /** `ol` for a numbered list (the numbers are drawn by each entry: only part of the list is in the DOM). */
  as: 'ul' | 'ol';
  className: string;
  testId?: string;
  /** A guess at an entry's height in pixels, until it is drawn and measured. */
  estimateHeight: number;
  /** The key of an entry among the others (its index when the list has nothing better). */
  itemKey?: (item: T, index: number) => string | number;
  /** One entry: an `<li>` whose props the list completes with its measuring ref. */
  renderItem: (item: T, index: number) => { className?: string; testId?: string; content: ReactNode };
}

export function VirtualList<T>(props: VirtualListProps<T>): JSX.Element {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: props.items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => props.estimateHeight,
    overscan: OVERSCAN,
    paddingStart: EDGE,
    paddingEnd: EDGE,
    initialRect: INITIAL_RECT,
  });
  const drawn = virtualizer.getVirtualItems();
  const first = drawn[0];
  const last = drawn[drawn.length - 1];
  const style = { paddingTop: first?.start ?? EDGE, paddingBottom: last ? virtualizer.getTotalSize() - last.end : EDGE };
  const List = props.as;
  return (
    <div ref={scroller} className="virtual-scroll">
      <List className={props.className} data-testid={props.testId} style={style}>
        {drawn.map((entry) => {
          const item = props.items[entry.index]!;
          const { className, testId, content } = props.renderItem(item, entry.index);
          return (
            <li key={props.itemKey?.(item, entry.index) ?? entry.index} ref={virtualizer.measureElement} data-index={entry.index} className={className} data-testid={testId}>
              {content}
            </li>
          );
        })}
      </List>
    </div>
  );
}
