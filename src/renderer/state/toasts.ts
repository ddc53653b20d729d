/** Short confirmations ("Copied as curl") and failures that are not tied to one panel. */
import { ExternalStore } from './external-store.ts';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
  /** One button beside the text (e.g. "Export stored tabs" after a start without them). */
  action?: { label: string; run: () => void };
}

export class Toasts extends ExternalStore<Toast[]> {
  private next = 1;

  constructor() {
    super([]);
  }

  show(text: string, kind: Toast['kind'] = 'info', ms = 2500, action?: Toast['action']): void {
    const toast: Toast = { id: this.next++, kind, text, ...(action ? { action } : {}) };
    this.setState([...this.getSnapshot(), toast].slice(-4));
    setTimeout(() => this.setState(this.getSnapshot().filter((t) => t.id !== toast.id)), ms);
  }
}
