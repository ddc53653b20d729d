/**
 * Protected file URLs in cached answers (docs/protocol.md "`__meta__` keys", "File URLs"): a signature expires, so a cached
 * answer keeps where its protected file values are, and each hit signs them afresh. The places come
 * from the selection (the fields the workspace marks protected), never from the shape of the payload:
 * a `json` value that looks like a file must not get a signature.
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { FileSlot, RequestContext } from '../../context.ts';
import { fileIdOfUrl } from '../../files/signed-url.ts';
import type { Selection } from '../../query/selection.ts';

/** Where the protected file values of `records` (read with `selection`) are, with their ids. */
export function protectedFileSlots(selection: Selection, records: JsonObject[]): FileSlot[] {
  const slots: FileSlot[] = [];
  records.forEach((record, index) => slotsOf(selection, record, [index], slots));
  return slots;
}

function slotsOf(selection: Selection, record: JsonObject, at: Array<string | number>, into: FileSlot[]): void {
  for (const field of selection.columns) {
    const value = record[field.name];
    if (field.type === 'file' && field.protected && isFileValue(value)) into.push({ path: [...at, field.name], id: fileIdOfUrl(value.url) });
  }
  for (const { field, selection: nested } of selection.refs) {
    const value = record[field.name];
    if (isObject(value)) slotsOf(nested, value, [...at, field.name], into);
  }
  for (const { relation, selection: nested } of selection.reverse) {
    const children = record[relation.name];
    if (!Array.isArray(children)) continue;
    children.forEach((child, index) => {
      if (isObject(child)) slotsOf(nested, child, [...at, relation.name, index], into);
    });
  }
}

/** Gives each protected file value of a cached payload a URL signed now. */
export function signFilesAfresh(ctx: RequestContext, payload: JsonValue, slots: FileSlot[]): void {
  for (const slot of slots) {
    let value: JsonValue | undefined = payload;
    for (const key of slot.path) value = isObject(value) || Array.isArray(value) ? (value as Record<string | number, JsonValue>)[key] : undefined;
    if (isFileValue(value)) value.url = ctx.state.files.signedUrl(slot.id);
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFileValue(value: JsonValue | undefined): value is JsonObject & { url: string } {
  return isObject(value) && typeof value.url === 'string';
}
