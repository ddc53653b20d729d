/**
 * Keeps an open popover inside the window. A popover hangs from the left edge of its button; a
 * button near the right edge (the response header's "curl ▾" and "fetch ▾" at 1280 px) would push
 * it past the window's edge and cut its hints off. Once drawn, and on each resize, it is moved left
 * by what it overhangs (and never past the left margin).
 */
import { useLayoutEffect, type RefObject } from 'react';

/** Space kept between a popover and the window's edge, in CSS pixels. */
const MARGIN = 8;

export function useViewportClamp(open: boolean, ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const popover = ref.current;
    if (!open || !popover) return;
    const place = () => {
      popover.style.translate = '';
      const box = popover.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      let dx = 0;
      if (box.right > width - MARGIN) dx = width - MARGIN - box.right;
      if (box.left + dx < MARGIN) dx = MARGIN - box.left;
      popover.style.translate = dx === 0 ? '' : `${dx}px 0`;
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, ref]);
}
