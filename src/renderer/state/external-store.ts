/**
 * The smallest observable store that React's useSyncExternalStore can read: an immutable snapshot
 * replaced on every change. The stores under state/ extend it and stay free of React.
 */
export class ExternalStore<S> {
  private listeners = new Set<() => void>();
  private state: S;

  constructor(state: S) {
    this.state = state;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): S => this.state;

  protected setState(next: S): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}

/** The part of localStorage the stores use; tests pass a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

export function readJson<T>(storage: KeyValueStorage, key: string): T | null {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/**
 * Storage may be full or disabled; losing UI state (which view shows) is better than failing the
 * app. Returns the error for callers whose data the user would miss, so they can say so.
 */
export function writeJson(storage: KeyValueStorage, key: string, value: unknown): Error | null {
  try {
    storage.setItem(key, JSON.stringify(value));
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export function newId(prefix: string): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  return `${prefix}-${random.replace(/-/g, '').slice(0, 12)}`;
}
