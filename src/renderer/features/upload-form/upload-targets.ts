/**
 * What the upload form can send to, read from `system.Schema.describe` (docs/protocol.md "Multipart uploads", "describe"): models
 * with `file` fields (create, or update of one record named by `uniqueObject`) and controller intents
 * that declare file parts in their static `files` map.
 */
import type { DescribeField, DescribeModel, DescribeResult } from '../../../shared/protocol.ts';

export interface ModelUploadTarget {
  kind: 'model';
  /** Stable key for pickers: `model:tickets.Document:create`. */
  key: string;
  namespace: string;
  intent: 'create' | 'update';
  fields: Record<string, DescribeField>;
  /** The model's `file` fields, in declaration order. */
  fileFields: string[];
  model: DescribeModel;
}

export interface ControllerUploadTarget {
  kind: 'controller';
  key: string;
  namespace: string;
  intent: string;
  /** Part names the controller reads for this intent. */
  parts: string[];
}

export type UploadTarget = ModelUploadTarget | ControllerUploadTarget;

export function listUploadTargets(describe: DescribeResult | null): UploadTarget[] {
  if (!describe) return [];
  const targets: UploadTarget[] = [];
  for (const [app, spec] of Object.entries(describe.apps).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [name, model] of Object.entries(spec.models ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      const fileFields = Object.entries(model.fields)
        .filter(([, f]) => f.type === 'file')
        .map(([field]) => field);
      if (fileFields.length === 0) continue;
      const namespace = `${app}.${name}`;
      for (const intent of ['create', 'update'] as const) {
        if (model.intents.length > 0 && !model.intents.includes(intent)) continue;
        targets.push({ kind: 'model', key: `model:${namespace}:${intent}`, namespace, intent, fields: model.fields, fileFields, model });
      }
    }
    for (const [name, controller] of Object.entries(spec.controllers ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      const namespace = `${app}.${name}`;
      for (const [intent, parts] of Object.entries(controller.files ?? {})) {
        if (!Array.isArray(parts)) continue;
        targets.push({ kind: 'controller', key: `controller:${namespace}:${intent}`, namespace, intent, parts: parts.filter((p) => typeof p === 'string') });
      }
    }
  }
  return targets;
}

export function targetLabel(target: UploadTarget): string {
  return target.kind === 'model' ? `${target.namespace} · ${target.intent}` : `${target.namespace} · ${target.intent} (controller)`;
}
