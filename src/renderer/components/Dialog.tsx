/** A modal dialog: focus goes in, Escape closes, the page behind is inert while it is open, and the focus comes back to what opened it. */
import { useEffect, useRef, type JSX, type ReactNode } from 'react';

export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; testId?: string }): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    // What had the focus before: the dialog leaves the page when it closes, and with it the focus,
    // which goes back here rather than to the top of the page.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      const focusLost = document.activeElement === null || document.activeElement === document.body;
      if (focusLost && opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-label={props.title}
      data-testid={props.testId}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <header className="dialog-title">{props.title}</header>
      {props.children}
    </dialog>
  );
}
