/**
 * The record actions of the table's context menu, framework-free: which key opens the menu from a
 * focused cell, which id a row has, and what "why can't a user see this record?" answers. The asking
 * itself is wired by the app (features do not reach the network or each other).
 */
import type { JsonValue } from '../../../shared/protocol.ts';

/** One rule that keeps a record out of a user's answer (docs/protocol.md "Why not"). */
export interface RecordReason {
  rule: string;
  message: string;
}

/** The server's explanation for one user and one record, or why there is none. */
export type RecordExplanation = { visible: boolean; user: string | null; reasons: RecordReason[] } | { failure: string };

/** Asks why `user` cannot see record `id` of the answer shown. */
export type ExplainRecord = (user: string, id: number) => Promise<RecordExplanation>;

/** The keyboard's way to a context menu: the ContextMenu (Menu) key, or Shift+F10. */
export function opensContextMenu(e: { key: string; shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey: boolean }): boolean {
  if (e.ctrlKey || e.altKey || e.metaKey) return false;
  return e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10');
}

/** The row's record id (an integer `id`), or null: a row without one cannot be asked about. */
export function recordIdOf(row: JsonValue | undefined): number | null {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return null;
  const id = row.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/** A username as typed, trimmed; null when there is none to ask about. */
export function usernameOf(text: string): string | null {
  const name = text.trim();
  return name === '' ? null : name;
}
