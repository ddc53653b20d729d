/**
 * The retrieve cache (docs/protocol.md "`__meta__` keys" `cache`), exact with respect to transactions:
 * - An entry is the serialized answer, never an object graph: each hit parses a fresh copy, so no
 *   reader can change what the next one gets, and the cache is bounded by the serialized length.
 * - An entry depends on every model and collection its query touched and on its caller's user row.
 *   Commits are numbered; an entry remembers the number current when its read began, and is stale
 *   once anything it depends on changed in a later commit (change-capture.ts says what changed, so
 *   no write path can forget to invalidate).
 * - Inside a write transaction a read sees that transaction's own uncommitted writes: an entry that
 *   depends on something the transaction changed is not a hit there, and what such a read keeps is
 *   stored only once the outermost transaction commits (Database.afterCommit), never on rollback.
 */
import { LRUCache } from 'lru-cache';
import type { AnswerCacheLike, CachedAnswer, CacheRead, RequestContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';
import { parseJsonExact } from '../exact-integers.ts';
import { serializeAnswer } from '../query/stored-json.ts';
import { pendingChanges, takeCommittedChanges, userDependency } from './change-capture.ts';

export interface AnswerCacheLimits {
  /** Entries at most. */
  maxEntries: number;
  /** Characters of serialized answers and keys at most (JSON is mostly ASCII: about bytes). */
  maxBytes: number;
}

interface Entry {
  /** JSON of the CachedAnswer. */
  text: string;
  /** Its UTF-8 bytes: what a hit costs the request's answer budget (query/answer-budget.ts). */
  bytes: number;
  /** Models, collections and the caller's user row the answer was read from. */
  dependencies: string[];
  /** The commit number when its read began. */
  readAt: number;
}

export class AnswerCache implements AnswerCacheLike {
  private readonly db: Database;
  private readonly entries: LRUCache<string, Entry>;
  /** Number of the latest commit that changed something. */
  private commit = 0;
  /** Dependency -> number of the latest commit that changed it. */
  private readonly changedAt = new Map<string, number>();

  constructor(db: Database, limits: AnswerCacheLimits) {
    this.db = db;
    this.entries = new LRUCache<string, Entry>({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      // One answer may take at most a quarter of the cache, so it cannot empty it alone.
      maxEntrySize: Math.max(1, Math.floor(limits.maxBytes / 4)),
      sizeCalculation: (entry, key) => entry.text.length + key.length,
    });
    // Synchronously after each COMMIT, before any other request runs.
    db.onCommit(() => this.afterCommit());
  }

  open(ctx: RequestContext, key: string): CacheRead {
    const inTransaction = this.db.inTransaction(ctx.sql.statements);
    const readAt = this.commit;
    const owner = ctx.user ? userDependency(ctx.user.id) : null;
    const found = this.lookup(key, inTransaction ? () => pendingChanges(ctx.sql.untracked) : null);
    // A hit counts against the request's answer budget as the rows it stands for would have
    // (issue 29.2), and is refused before its copy is parsed: ten hits of one page in one request
    // are no cheaper a way past limits.maxAnswerBytes than ten reads.
    if (found) ctx.sql.spend(found.bytes);
    return {
      hit: found ? (parseJsonExact(found.text) as CachedAnswer) : null,
      keep: (models, answer) => {
        const dependencies = new Set(models);
        if (owner) dependencies.add(owner);
        const { draw: _draw, cached: _cached, ...extras } = answer.extras;
        // Stored json values are written as their stored text (query/stored-json.ts), not parsed.
        const text = serializeAnswer({ ...answer, extras });
        const entry: Entry = { text, bytes: Buffer.byteLength(text, 'utf8'), dependencies: [...dependencies], readAt };
        if (inTransaction) this.db.afterCommit(() => this.store(key, entry));
        else this.store(key, entry);
      },
    };
  }

  forWorkspace(digest: string): AnswerCacheLike {
    this.entries.clear();
    return scopedTo(this, digest);
  }

  /** Entries held now and their total size (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  private lookup(key: string, pending: (() => Set<string>) | null): Entry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (this.stale(entry)) {
      this.entries.delete(key);
      return null;
    }
    if (pending) {
      const changed = pending();
      // Valid for every other request, but not for this transaction, which changed what it read.
      if (entry.dependencies.some((dependency) => changed.has(dependency))) return null;
    }
    return entry;
  }

  private store(key: string, entry: Entry): void {
    // A commit since the read began changed what it read: its answer is already out of date.
    if (this.stale(entry)) return;
    this.entries.set(key, entry);
  }

  private stale(entry: Entry): boolean {
    return entry.dependencies.some((dependency) => (this.changedAt.get(dependency) ?? 0) > entry.readAt);
  }

  private afterCommit(): void {
    let changes: string[];
    try {
      changes = takeCommittedChanges(untracked(this.db.committedWriter()));
    } catch {
      // Not knowing what changed, nothing cached can be trusted.
      this.entries.clear();
      return;
    }
    if (changes.length === 0) return;
    this.commit += 1;
    for (const dependency of changes) this.changedAt.set(dependency, this.commit);
  }
}

/** One store (one commit listener) for every workspace: each one's keys start with its digest. */
function scopedTo(cache: AnswerCache, digest: string): AnswerCacheLike {
  return {
    open: (ctx, key) => cache.open(ctx, `${digest}|${key}`),
    forWorkspace: (next) => cache.forWorkspace(next),
  };
}

/** A cache hit as this request answers it: its own `draw`, and `cached: true`. */
export function extrasOfHit(hit: CachedAnswer, draw: number | undefined): CachedAnswer['extras'] {
  return draw === undefined ? { ...hit.extras, cached: true } : { ...hit.extras, draw, cached: true };
}
