/**
 * Requests from the envelope viewer to the query editor ("show me where this error is"), without
 * the two features importing each other: the viewer emits, the editor listens.
 */
export interface RevealErrorRequest {
  tabId: string;
  /** Index into allErrors(view) of the tab's last result, the same order the markers use. */
  errorIndex: number;
}

type Listener = (request: RevealErrorRequest) => void;

export class EditorBus {
  private listeners = new Set<Listener>();

  onRevealError(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  revealError(request: RevealErrorRequest): void {
    for (const l of this.listeners) l(request);
  }
}
