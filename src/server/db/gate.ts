/**
 * Serializes the requests that touch the database. better-sqlite3 is synchronous and uses one
 * connection, so a transaction that spans an `await` (a controller, a password hash) must not let
 * another request's statements run inside it. Model reads finish in one tick, so the queue stays short.
 */
export class Gate {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  /** Tasks running or waiting. */
  get size(): number {
    return this.pending;
  }

  run<T>(task: () => Promise<T> | T): Promise<T> {
    // With nothing in flight no transaction can be open, so the task starts at once instead of a
    // microtask later: a read then runs start to finish in the caller's tick.
    const idle = this.pending === 0;
    this.pending += 1;
    const result = idle ? start(task) : this.tail.then(task);
    this.tail = result.then(this.settle, this.settle);
    return result;
  }

  private readonly settle = (): void => {
    this.pending -= 1;
  };
}

function start<T>(task: () => Promise<T> | T): Promise<T> {
  try {
    return Promise.resolve(task());
  } catch (error) {
    return Promise.reject(error);
  }
}
