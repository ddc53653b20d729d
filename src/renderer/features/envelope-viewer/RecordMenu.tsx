/**
 * The table's context menu on a record (WAI-ARIA menu): opened by a right-click or, on a focused
 * cell, the ContextMenu key or Shift+F10. Its item takes the focus; Escape or a click outside closes it.
 */
import { useEffect, useRef, type JSX } from 'react';
import { useDismiss } from '../../components/use-dismiss.ts';
import { useViewportClamp } from '../../components/use-viewport-clamp.ts';

export interface MenuPlace {
  x: number;
  y: number;
}

export function RecordMenu(props: { at: MenuPlace; id: number; onWhyNot: () => void; onClose: () => void }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(true, ref, props.onClose);
  // A right-click near the window's edge would hang the menu out of it.
  useViewportClamp(true, ref);
  useEffect(() => ref.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus(), []);
  return (
    <div ref={ref} role="menu" aria-label={`Record ${props.id}`} className="record-menu" style={{ left: props.at.x, top: props.at.y }}>
      <button type="button" role="menuitem" className="record-menu-item" onClick={props.onWhyNot} onKeyDown={(e) => e.key === 'Tab' && props.onClose()}>
        Why can't a user see this record?…
      </button>
    </div>
  );
}
