/** Short confirmations ("Copied as curl") and failures that are not tied to one panel. */
import { ExternalStore } from './external-store.ts';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

export class Toasts extends ExternalStore<Toast[]> {
  private next = 1;

  constructor() {
    super([]);
  }

  show(text: string, kind: Toast['kind'] = 'info', ms = 2500): void {
    const toast = { id: this.next++, kind, text };
    this.setState([...this.getSnapshot(), toast].slice(-4));
    setTimeout(() => this.setState(this.getSnapshot().filter((t) => t.id !== toast.id)), ms);
  }
}
