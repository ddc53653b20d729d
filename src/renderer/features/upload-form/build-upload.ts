/**
 * The multipart request a valid form becomes (docs/protocol.md "Multipart uploads"): a `query` part holding the JSON
 * query with `sideEffects.multipartFormUpload` and, for models, `fileFieldMapping` (field -> part),
 * followed by one part per file. Also the preview of those parts that the form shows before sending.
 */
import type { JsonObject, QueryMeta, SingleQuery } from '../../../shared/protocol.ts';
import type { UploadTarget } from './upload-targets.ts';
import type { ValidForm } from './validate-form.ts';

export type UploadPart = { kind: 'field'; name: string; value: string } | { kind: 'file'; name: string; file: File; field: string | null };

export interface UploadPlan {
  query: SingleQuery;
  /** The `query` part first, so the server knows the mapping before the files stream in. */
  parts: UploadPart[];
}

export function buildQuery(target: UploadTarget, form: ValidForm): SingleQuery {
  const meta: QueryMeta = { namespace: target.namespace, intent: target.intent };
  if (target.kind === 'controller') {
    meta.schema = 'controller';
    meta.sideEffects = { multipartFormUpload: true };
  } else {
    const mapping: Record<string, string> = {};
    for (const f of form.files) if (f.field) mapping[f.field] = f.part;
    meta.sideEffects = { multipartFormUpload: true, fileFieldMapping: mapping };
    if (target.intent === 'update' && form.uniqueObject) meta.uniqueObject = form.uniqueObject;
  }
  const data: JsonObject = { ...form.data };
  return { __meta__: meta, ...data };
}

export function buildUploadPlan(target: UploadTarget, form: ValidForm): UploadPlan {
  const query = buildQuery(target, form);
  return {
    query,
    parts: [
      { kind: 'field', name: 'query', value: JSON.stringify(query) },
      ...form.files.map((f): UploadPart => ({ kind: 'file', name: f.part, file: f.file, field: f.field })),
    ],
  };
}

export interface PartPreview {
  name: string;
  kind: 'field' | 'file';
  /** Bytes of the part's content (UTF-8 for the query). */
  size: number;
  /** The file's name and type, or the JSON query pretty-printed. */
  detail: string;
  /** The model field a file part fills, if any. */
  field: string | null;
}

export function previewParts(plan: UploadPlan): { parts: PartPreview[]; totalBytes: number } {
  const parts = plan.parts.map((part): PartPreview => {
    if (part.kind === 'field') {
      return { name: part.name, kind: 'field', size: new TextEncoder().encode(part.value).byteLength, detail: JSON.stringify(JSON.parse(part.value), null, 2), field: null };
    }
    return { name: part.name, kind: 'file', size: part.file.size, detail: `${part.file.name} (${part.file.type || 'application/octet-stream'})`, field: part.field };
  });
  return { parts, totalBytes: parts.reduce((sum, p) => sum + p.size, 0) };
}
