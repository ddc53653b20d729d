/**
 * Turns the records the source answered into what the local server stores, before anything is
 * written: redacted values replaced, `writeOnly` and `hidden` fields left empty (the source never
 * serializes them), a placeholder where an empty value is not allowed, file values mapped to local
 * file ids, and every value checked against the model with the create path's own rule. A record
 * that still cannot be stored as it is (a required reference to a record that was not copied, a
 * duplicate in a unique field) is left out, and so is whatever requires it; references to records
 * left out or never copied are emptied. Each of these is counted for the manifest.
 */
import { createHash } from 'node:crypto';
import type { FileValue, JsonObject, JsonValue } from '../../shared/protocol.ts';
import { problemWith } from '../processors/model/values.ts';
import { defineKey, isPlainObject } from '../query/normalize.ts';
import type { CollectionDef, FieldDef, ModelDef, Workspace } from '../workspace/types.ts';
import { placeholderFor } from './placeholders.ts';
import type { Redactor } from './redact.ts';
import type { RedactionPlan } from './redaction-plan.ts';

export interface FileRef {
  value: FileValue;
  /** The id of the file row in the copy (the source's id when it is a usable one). */
  localId: string;
  /** Redacted: the name and hash are fakes and the bytes are never fetched. */
  redacted: boolean;
}

export interface RowPlan {
  model: ModelDef;
  id: number;
  data: Record<string, JsonValue>;
  files: Map<string, FileRef>;
  /** Fields left empty or given a placeholder, counted in the report once the row is kept. */
  empty: Array<{ field: string; reason: string; placeholder?: string }>;
}

export interface DocumentPlan {
  collection: CollectionDef;
  record: JsonObject;
}

export interface PrepareReport {
  /** `app.Model.field` -> why it is empty in the copy, and in how many records. */
  emptied: Map<string, { reason: string; records: number }>;
  /** `app.Model.field` -> the placeholder stored instead, and in how many records. */
  placeholders: Map<string, { value: string; records: number }>;
  /** `app.Model.field` -> references emptied because their record is not in the copy. */
  cutReferences: Map<string, number>;
  /** Records left out, with the reason (at most MAX_LISTED listed; `droppedCount` counts all). */
  dropped: Array<{ namespace: string; id: number; reason: string }>;
  droppedCount: number;
  /** Values the local model refuses (left empty instead), at most MAX_LISTED. */
  refused: Array<{ namespace: string; id: number; field: string; problem: string }>;
  /** `app.Collection.key` of the document keys that were found and redacted. */
  redactedKeys: Set<string>;
}

export interface Prepared {
  rows: RowPlan[];
  documents: DocumentPlan[];
  report: PrepareReport;
}

const MAX_LISTED = 100;
const FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SHA256 = /^[0-9a-f]{64}$/;

export function prepareRows(ws: Workspace, records: Map<string, Map<number, JsonObject>>, plan: RedactionPlan, redactor: Redactor): Prepared {
  const report: PrepareReport = { emptied: new Map(), placeholders: new Map(), cutReferences: new Map(), dropped: [], droppedCount: 0, refused: [], redactedKeys: new Set() };
  const fileIds = new Map<string, string>();
  const rows = new Map<string, Map<number, RowPlan>>();
  const dropped = new Map<string, Map<number, string>>();
  const drop = (namespace: string, id: number, reason: string) => {
    if (!dropped.has(namespace)) dropped.set(namespace, new Map());
    if (!dropped.get(namespace)!.has(id)) dropped.get(namespace)!.set(id, reason);
  };
  const documents: DocumentPlan[] = [];

  for (const [namespace, byId] of records) {
    const collection = ws.collections.get(namespace);
    if (collection) {
      const keys = plan.documentKeys.get(namespace);
      for (const record of byId.values()) documents.push({ collection, record: keys ? redactKeys(record, keys, redactor, (key) => report.redactedKeys.add(`${namespace}.${key}`)) : record });
      continue;
    }
    const model = ws.models.get(namespace);
    if (!model) continue;
    const redacted = plan.fields.get(namespace) ?? new Set<string>();
    const planned = new Map<number, RowPlan>();
    rows.set(namespace, planned);
    for (const record of byId.values()) {
      const id = record.id as number;
      const row: RowPlan = { model, id, data: {}, files: new Map(), empty: [] };
      let reason: string | null = null;
      for (const field of model.fields.values()) {
        const where = `${namespace}.${field.name}`;
        if (field.hidden) {
          row.empty.push({ field: where, reason: 'hidden: the source never serializes it' });
          continue;
        }
        const present = Object.hasOwn(record, field.name);
        let value: JsonValue = present ? (record[field.name] as JsonValue) : null;
        if (field.type === 'file') {
          if (isFileValue(value)) {
            const ref = { value: redacted.has(field.name) ? redactor.file(value) : value, localId: localFileId(value.url, fileIds), redacted: redacted.has(field.name) };
            row.files.set(field.name, ref);
          } else if (!field.nullable) {
            reason = `its file field ${field.name} has no file value in the source's answer`;
          }
          continue;
        }
        if (!present || field.writeOnly) {
          reason ??= leaveEmpty(row, field, where, field.writeOnly ? 'writeOnly: the source never serializes it' : 'not in the source\'s answer');
          continue;
        }
        if (redacted.has(field.name)) value = redactor.field(field, value);
        const problem = problemWith(field, value);
        if (problem) {
          if (report.refused.length < MAX_LISTED) report.refused.push({ namespace, id, field: field.name, problem });
          reason ??= leaveEmpty(row, field, where, 'the local model refuses the source\'s value');
          continue;
        }
        row.data[field.name] = value;
      }
      if (reason) drop(namespace, id, reason);
      planned.set(id, row);
    }
  }

  dropDuplicates(rows, drop);
  settleReferences(ws, rows, dropped, drop, report);
  for (const [namespace, ids] of dropped) {
    for (const [id, reason] of ids) {
      rows.get(namespace)?.delete(id);
      report.droppedCount += 1;
      if (report.dropped.length < MAX_LISTED) report.dropped.push({ namespace, id, reason });
    }
  }
  for (const byId of rows.values()) {
    for (const row of byId.values()) {
      for (const empty of row.empty) {
        count(report.emptied, empty.field, empty.reason);
        if (empty.placeholder !== undefined) {
          const entry = report.placeholders.get(empty.field) ?? { value: empty.placeholder, records: 0 };
          entry.records += 1;
          report.placeholders.set(empty.field, entry);
        }
      }
    }
  }
  return { rows: [...rows.values()].flatMap((byId) => [...byId.values()]), documents, report };
}

/** An empty value that the field allows: null, its default, or a placeholder; a reason when none fits. */
function leaveEmpty(row: RowPlan, field: FieldDef, where: string, reason: string): string | null {
  if (field.nullable) {
    row.data[field.name] = null;
    row.empty.push({ field: where, reason });
    return null;
  }
  if (field.default !== undefined) {
    row.empty.push({ field: where, reason: `${reason}; the field's default is stored` });
    return null;
  }
  const placeholder = placeholderFor(field);
  if (placeholder === null) return `${field.name} is required and has no value to copy`;
  row.data[field.name] = placeholder.value;
  row.empty.push({ field: where, reason, placeholder: placeholder.shown });
  return null;
}

/** A second record with the same value in a unique field: emptied when it may be, else left out. */
function dropDuplicates(rows: Map<string, Map<number, RowPlan>>, drop: (namespace: string, id: number, reason: string) => void): void {
  for (const [namespace, byId] of rows) {
    for (const field of [...(byId.values().next().value?.model.fields.values() ?? [])].filter((f) => f.unique && f.type !== 'file')) {
      const seen = new Set<string>();
      for (const row of byId.values()) {
        const value = row.data[field.name];
        if (value === null || value === undefined) continue;
        const key = JSON.stringify(value);
        if (!seen.has(key)) seen.add(key);
        else if (field.nullable) row.data[field.name] = null;
        else drop(namespace, row.id, `its ${field.name} repeats another copied record's value (a redaction collision?)`);
      }
    }
  }
}

/** References to records that are not in the copy: emptied when nullable, else the record goes too. */
function settleReferences(
  ws: Workspace,
  rows: Map<string, Map<number, RowPlan>>,
  dropped: Map<string, Map<number, string>>,
  drop: (namespace: string, id: number, reason: string) => void,
  report: PrepareReport,
): void {
  const inCopy = (namespace: string, id: number) => rows.get(namespace)?.has(id) === true && dropped.get(namespace)?.has(id) !== true;
  for (let changed = true; changed; ) {
    changed = false;
    for (const [namespace, byId] of rows) {
      const model = ws.models.get(namespace) as ModelDef;
      const refs = [...model.fields.values()].filter((f) => f.type === 'ref' && !f.hidden && !f.writeOnly);
      for (const row of byId.values()) {
        if (dropped.get(namespace)?.has(row.id)) continue;
        for (const field of refs) {
          const target = row.data[field.name];
          if (!Number.isSafeInteger(target) || inCopy(field.to as string, target as number)) continue;
          if (field.nullable) {
            row.data[field.name] = null;
            report.cutReferences.set(`${namespace}.${field.name}`, (report.cutReferences.get(`${namespace}.${field.name}`) ?? 0) + 1);
          } else {
            drop(namespace, row.id, `its required reference ${field.name} points at ${field.to} ${target as number}, which is not in the copy`);
            changed = true;
            break;
          }
        }
      }
    }
  }
}

function redactKeys(record: JsonObject, keys: ReadonlySet<string>, redactor: Redactor, found: (key: string) => void): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(record)) {
    // Document keys are data: defineKey keeps a `__proto__` key a key.
    if (!keys.has(key)) defineKey(out, key, value);
    else {
      defineKey(out, key, redactor.any(value));
      found(key);
    }
  }
  return out;
}

function isFileValue(value: JsonValue): value is FileValue & JsonObject {
  return (
    isPlainObject(value) &&
    typeof value.name === 'string' &&
    Number.isSafeInteger(value.size) &&
    (value.size as number) >= 0 &&
    typeof value.content_type === 'string' &&
    typeof value.sha256 === 'string' &&
    SHA256.test(value.sha256) &&
    typeof value.url === 'string'
  );
}

/** The source's file id when its URL ends in a usable one, else a stable id made from the URL. */
function localFileId(url: string, known: Map<string, string>): string {
  const path = url.split(/[?#]/)[0] as string;
  let id = known.get(path);
  if (id === undefined) {
    const last = decodeURIComponentSafe(path.slice(path.lastIndexOf('/') + 1));
    id = FILE_ID.test(last) ? last : createHash('sha256').update(path).digest('base64url').slice(0, 22);
    known.set(path, id);
  }
  return id;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function count(map: Map<string, { reason: string; records: number }>, key: string, reason: string): void {
  const entry = map.get(key) ?? { reason, records: 0 };
  entry.records += 1;
  map.set(key, entry);
}
