/**
 * A row of tabs (views of a response, subqueries of a multi-query); keyboard: arrows move the selection
 * and the focus with it. A tab's
 * accessible name is its label alone, whatever its badge says: the badge is its description.
 */
import { useId, type JSX, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  badge?: ReactNode;
  tone?: 'error' | 'normal';
  disabled?: boolean;
}

export function TabStrip<K extends string>(props: {
  items: Array<TabItem<K>>;
  active: K;
  onSelect: (key: K) => void;
  label: string;
  className?: string;
}): JSX.Element {
  const id = useId();
  const enabled = props.items.filter((i) => !i.disabled);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const at = enabled.findIndex((i) => i.key === props.active);
    const next = enabled[(at + (e.key === 'ArrowRight' ? 1 : enabled.length - 1)) % enabled.length];
    if (!next) return;
    e.preventDefault();
    props.onSelect(next.key);
    // The focus goes with the selection: left on the tab before, it sat on a tab no longer chosen
    // (and out of the tab order), while the panel showed the next one.
    const index = props.items.indexOf(next);
    e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')[index]?.focus();
  };
  return (
    <div role="tablist" aria-label={props.label} className={`tabstrip ${props.className ?? ''}`} onKeyDown={onKeyDown}>
      {props.items.map((item) => (
        <button
          key={item.key}
          role="tab"
          type="button"
          aria-selected={item.key === props.active}
          tabIndex={item.key === props.active ? 0 : -1}
          disabled={item.disabled}
          className={`tabstrip-tab${item.tone === 'error' ? ' is-error' : ''}`}
          onClick={() => props.onSelect(item.key)}
          aria-describedby={item.badge !== undefined ? `${id}-${item.key}-badge` : undefined}
        >
          {item.label}
          {item.badge !== undefined && (
            <span className="tab-badge" id={`${id}-${item.key}-badge`} aria-hidden="true">
              {item.badge}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
