/**
 * Serializes the requests that touch the database. better-sqlite3 is synchronous and uses one
 * connection, so a transaction that spans an `await` (a controller, a password hash) must not let
 * another request's statements run inside it. Model reads finish in one tick, so the queue stays short.
 */
export class Gate {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
