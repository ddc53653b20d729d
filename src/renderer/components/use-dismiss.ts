/**
 * Closes a popover on a click outside it or on Escape, while it is open. Closed by Escape or by a
 * choice made in it, the popover takes the focus away with it (its DOM is gone): the focus goes back
 * to `trigger`, the button that opened it, so a keyboard user goes on from where they were instead
 * of from the top of the page. A click outside leaves the focus where the click put it.
 */
import { useEffect, type RefObject } from 'react';

export function useDismiss(open: boolean, ref: RefObject<HTMLElement | null>, close: () => void, trigger?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    let clickedOutside = false;
    const onEvent = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent) {
        if (e.key === 'Escape') close();
      } else if (!ref.current?.contains(e.target as Node)) {
        clickedOutside = true;
        close();
      }
    };
    document.addEventListener('mousedown', onEvent);
    document.addEventListener('keydown', onEvent);
    return () => {
      document.removeEventListener('mousedown', onEvent);
      document.removeEventListener('keydown', onEvent);
      const focusLost = document.activeElement === null || document.activeElement === document.body;
      if (!clickedOutside && focusLost && trigger?.current?.isConnected) trigger.current.focus();
    };
  }, [open, ref, close, trigger]);
}
