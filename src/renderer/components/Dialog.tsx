/** A modal dialog: focus goes in, Escape closes, the page behind is inert while it is open. */
import { useEffect, useRef, type JSX, type ReactNode } from 'react';

export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; testId?: string }): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
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
