/**
 * The inspector's event log: a ring buffer with a cap on entries and on bytes (a server sending
 * 10 MB events would fill memory long before 50,000 of them), so thousands of events a second cost
 * O(1) each and memory stays bounded; the oldest go first, counted. Pausing freezes what is shown while the buffer keeps filling;
 * a filter is applied incrementally (each entry is tested once), so a long log stays searchable.
 */
import type { JsonValue } from '../../../shared/protocol.ts';

export interface LogEventEntry {
  kind: 'event';
  /** Position in the log since it was created or cleared; stable while the entry is held. */
  index: number;
  receivedAt: number;
  subscription: string;
  event: string;
  namespace: string;
  seq: number;
  at: string;
  record: JsonValue;
  /** The record's id as the log shows it (an object id as its JSON: see recordIdOf). */
  recordId: string | number | null;
  /** What holding this entry costs, roughly: the frame's size (or its summary's). */
  bytes: number;
  /** Set when the frame was too large (or deep) to keep: what was dropped, in one sentence. */
  summarized?: string | null;
  /** Sent again by the server after a reconnect (`since`), not live. */
  replayed: boolean;
}

export interface LogMarkerEntry {
  kind: 'marker';
  index: number;
  receivedAt: number;
  level: 'info' | 'ok' | 'warn' | 'error';
  text: string;
  subscription: string | null;
}

export type LogEntry = LogEventEntry | LogMarkerEntry;
export type NewLogEntry = Omit<LogEventEntry, 'index'> | Omit<LogMarkerEntry, 'index'>;
export type LogPredicate = (entry: LogEntry) => boolean;

export interface LogView {
  version: number;
  /** Rows shown: held entries up to the pause point that pass the filter. */
  count: number;
  at(row: number): LogEntry | undefined;
  paused: boolean;
  /** Entries that arrived while paused. */
  pending: number;
  /** Entries held in the buffer. */
  size: number;
  /** Entries pushed out by the cap since the last clear. */
  dropped: number;
  capacity: number;
  /** Bytes held, and the cap on them. */
  bytes: number;
  maxBytes: number;
  filtered: boolean;
}

export const DEFAULT_LOG_CAPACITY = 50_000;
export const DEFAULT_LOG_MAX_BYTES = 64 * 1024 * 1024;

const sizeOf = (entry: NewLogEntry): number => (entry.kind === 'event' ? entry.bytes : 64 + entry.text.length * 2);

export class EventLog {
  readonly capacity: number;
  readonly maxBytes: number;
  private heldBytes = 0;
  private readonly sizes: Float64Array;
  private buffer: Array<LogEntry | undefined>;
  /** Absolute index of the oldest held entry, and the next to be written. */
  private start = 0;
  private end = 0;
  /** Where the last clear() left `start`, to count evictions since. */
  private clearedAt = 0;
  private pausedAt: number | null = null;
  private predicate: LogPredicate | null = null;
  private matches: number[] = [];
  private matchHead = 0;
  private scanned = 0;
  private version = 0;
  private cached: LogView | null = null;
  private listeners = new Set<() => void>();

  constructor(capacity = DEFAULT_LOG_CAPACITY, maxBytes = DEFAULT_LOG_MAX_BYTES) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('The log capacity must be a positive integer.');
    this.capacity = capacity;
    this.maxBytes = maxBytes;
    this.buffer = new Array<LogEntry | undefined>(capacity);
    this.sizes = new Float64Array(capacity);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(entry: NewLogEntry): LogEntry {
    const full = { ...entry, index: this.end } as LogEntry;
    if (this.end - this.start === this.capacity) this.evictOldest();
    const slot = this.end % this.capacity;
    this.buffer[slot] = full;
    this.sizes[slot] = sizeOf(entry);
    this.heldBytes += this.sizes[slot]!;
    this.end++;
    // The newest entry always stays, however large.
    while (this.heldBytes > this.maxBytes && this.end - this.start > 1) this.evictOldest();
    this.changed();
    return full;
  }

  private evictOldest(): void {
    const slot = this.start % this.capacity;
    this.heldBytes -= this.sizes[slot]!;
    this.sizes[slot] = 0;
    this.buffer[slot] = undefined;
    this.start++;
  }

  clear(): void {
    this.buffer = new Array<LogEntry | undefined>(this.capacity);
    this.sizes.fill(0);
    this.heldBytes = 0;
    this.start = this.end;
    this.clearedAt = this.end;
    this.pausedAt = this.pausedAt === null ? null : this.end;
    this.resetMatches();
    this.changed();
  }

  pause(): void {
    if (this.pausedAt !== null) return;
    this.pausedAt = this.end;
    this.changed();
  }

  resume(): void {
    if (this.pausedAt === null) return;
    this.pausedAt = null;
    this.changed();
  }

  get paused(): boolean {
    return this.pausedAt !== null;
  }

  setFilter(predicate: LogPredicate | null): void {
    this.predicate = predicate;
    this.resetMatches();
    this.changed();
  }

  /** The entry at an absolute index, if still held. */
  get(index: number): LogEntry | undefined {
    if (index < this.start || index >= this.end) return undefined;
    return this.buffer[index % this.capacity];
  }

  /** Every held entry, oldest first (for export). */
  entries(): LogEntry[] {
    const out: LogEntry[] = [];
    for (let i = this.start; i < this.end; i++) out.push(this.buffer[i % this.capacity]!);
    return out;
  }

  /** The rows the view shows, oldest first. */
  visibleEntries(): LogEntry[] {
    const view = this.view();
    const out: LogEntry[] = [];
    for (let row = 0; row < view.count; row++) out.push(view.at(row)!);
    return out;
  }

  view(): LogView {
    if (this.cached?.version === this.version) return this.cached;
    const visibleEnd = this.pausedAt ?? this.end;
    const base = {
      version: this.version,
      paused: this.pausedAt !== null,
      pending: this.end - visibleEnd,
      size: this.end - this.start,
      dropped: this.start - this.clearedAt,
      capacity: this.capacity,
      bytes: this.heldBytes,
      maxBytes: this.maxBytes,
      filtered: this.predicate !== null,
    };
    let view: LogView;
    if (!this.predicate) {
      const first = Math.min(this.start, visibleEnd);
      view = { ...base, count: Math.max(0, visibleEnd - first), at: (row) => this.get(first + row) };
    } else {
      this.scanTo(visibleEnd);
      const matches = this.matches;
      const head = this.matchHead;
      view = { ...base, count: matches.length - head, at: (row) => (row >= 0 ? this.get(matches[head + row]!) : undefined) };
    }
    this.cached = view;
    return view;
  }

  private scanTo(visibleEnd: number): void {
    const predicate = this.predicate!;
    for (let i = Math.max(this.scanned, this.start); i < visibleEnd; i++) {
      if (predicate(this.buffer[i % this.capacity]!)) this.matches.push(i);
    }
    this.scanned = Math.max(this.scanned, visibleEnd);
    while (this.matchHead < this.matches.length && this.matches[this.matchHead]! < this.start) this.matchHead++;
    // Compact now and then so evicted matches do not pile up.
    if (this.matchHead > 4096 && this.matchHead * 2 > this.matches.length) {
      this.matches = this.matches.slice(this.matchHead);
      this.matchHead = 0;
    }
  }

  private resetMatches(): void {
    this.matches = [];
    this.matchHead = 0;
    this.scanned = this.start;
  }

  private changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }
}
