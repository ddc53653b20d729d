/**
 * What the event log keeps of a record: its row as stored, limited to the fields a subscriber could
 * ever read (`id` plus every field that is neither `writeOnly` nor `hidden`), so password hashes and
 * hidden values never enter the log. Subscribers' filters and row scopes are evaluated against this
 * row, so an event describes the record as it was when it was written, even after later changes.
 */
import { ID_FIELD, isReadable } from '../query/paths.ts';
import type { FieldDef, ModelDef } from '../workspace/types.ts';

/** A stored row keyed by column name (SQLite values: text, numbers, an integer past 2^53 as bigint, null). */
export type SnapshotRow = Record<string, string | number | bigint | null>;

/** The columns of a document's row in the nosql processor's table. */
export const DOCUMENT_COLUMNS = ['id', 'collection', 'body', 'created_at', 'updated_at'] as const;

export function snapshotFields(model: ModelDef): FieldDef[] {
  return [ID_FIELD, ...[...model.fields.values()].filter(isReadable)];
}

/** A snapshot's value as an SQL parameter: anything else than text, a number (a bigint past 2^53) or null reads as null. */
export function sqlValueOf(value: unknown): string | number | bigint | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? value : null;
}
