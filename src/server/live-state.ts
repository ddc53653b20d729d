/**
 * The state requests see now. `serve --watch` applies a workspace in place by building a new
 * ServerState and swapping it in here in one synchronous step: every request that starts afterwards
 * runs on the new one, while the requests already in flight keep the state object they started with
 * and finish on the old workspace. Listeners (the stream route) hear of each swap right away.
 */
import type { ServerState } from './context.ts';

export type SwapListener = (state: ServerState) => void;

export class LiveState {
  private current: ServerState;
  private readonly listeners = new Set<SwapListener>();

  constructor(state: ServerState) {
    this.current = state;
  }

  get state(): ServerState {
    return this.current;
  }

  /** Called with the new state right after each swap; answers the function that stops it. */
  onSwap(listener: SwapListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  swap(state: ServerState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }
}
