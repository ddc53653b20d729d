/** Two panes side by side with a draggable divider; the ratio is kept in localStorage. */
import { useCallback, useRef, useState, type JSX, type PointerEvent, type ReactNode } from 'react';

const KEY = 'jql.split.v1';

function savedRatio(key: string): number {
  const n = Number(window.localStorage.getItem(key));
  // Halves: on a 1280-wide screen each pane needs every pixel of its half for its bar.
  return n > 0.15 && n < 0.85 ? n : 0.5;
}

export function SplitPane(props: { left: ReactNode; right: ReactNode; storageKey?: string }): JSX.Element {
  const key = props.storageKey ?? KEY;
  const [ratio, setRatio] = useState(() => savedRatio(key));
  const ref = useRef<HTMLDivElement>(null);

  const onPointerDown = useCallback((e: PointerEvent<HTMLDivElement>) => {
    const el = ref.current;
    if (!el) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const rect = el.getBoundingClientRect();
    const move = (ev: globalThis.PointerEvent) => setRatio(Math.min(0.8, Math.max(0.2, (ev.clientX - rect.left) / rect.width)));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setRatio((r) => {
        window.localStorage.setItem(key, String(r));
        return r;
      });
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }, [key]);

  return (
    <div className="split" ref={ref} style={{ gridTemplateColumns: `${ratio}fr 5px ${1 - ratio}fr` }}>
      {props.left}
      <div className="split-handle" role="separator" aria-orientation="vertical" aria-label="Resize" onPointerDown={onPointerDown} />
      {props.right}
    </div>
  );
}
