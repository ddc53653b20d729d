/** Shows the toasts of state/toasts.ts at the bottom of the window. */
import type { JSX } from 'react';
import { useServices, useStore } from '../state/services.ts';

export function Toaster(): JSX.Element {
  const { toasts } = useServices();
  const list = useStore(toasts);
  return (
    <div className="toaster" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`}>
          {t.text}
          {t.action && (
            <button type="button" className="btn btn-small" onClick={t.action.run}>
              {t.action.label}
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
