/**
 * A code block of the docs. A long line scrolls it sideways, and a scroll region a keyboard cannot
 * reach cannot be read without a mouse (WCAG 2.1.1): a block that overflows becomes a named tab stop,
 * so arrow keys scroll it once it has focus. A block that fits stays out of the tab order.
 */
import { useLayoutEffect, useRef, useState, type JSX, type ReactNode } from 'react';

export function ScrollableCode(props: { children?: ReactNode; className?: string }): JSX.Element {
  const ref = useRef<HTMLPreElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const pre = ref.current;
    if (!pre) return;
    const measure = () => setScrolls(pre.scrollWidth > pre.clientWidth || pre.scrollHeight > pre.clientHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(pre);
    return () => observer.disconnect();
  }, []);
  return (
    <pre ref={ref} className={props.className} tabIndex={scrolls ? 0 : undefined} role={scrolls ? 'group' : undefined} aria-label={scrolls ? 'Code example (scrolls)' : undefined}>
      {props.children}
    </pre>
  );
}
