/**
 * Whether the memos keyed by a workspace (resolved field paths, full selections) may remember: a
 * server without shortcuts (StateOptions `shortcuts: false`) marks its workspace, and those memos
 * then work everything out on every request, as the plain path does.
 */
import type { Workspace } from './types.ts';

const plain = new WeakSet<Workspace>();

/** Marks `ws` as a workspace whose requests take no memo. */
export function withoutMemos(ws: Workspace): void {
  plain.add(ws);
}

export function memosOn(ws: Workspace): boolean {
  return !plain.has(ws);
}
