/**
 * A starting document for each intent of a namespace (the "Templates" menu), filled from describe:
 * a create lists the required fields with a placeholder of the right type, a retrieve the default
 * ordering, and so on. Framework-free; returns pretty-printed JSON text.
 */
import type { DescribeField, DescribeResult, JsonObject, JsonValue } from '../../shared/protocol.ts';
import { findModel, type NamespaceInfo } from './describe-index.ts';

function placeholder(field: DescribeField): JsonValue {
  if (field.choices?.length) return field.choices[0] ?? null;
  if (field.default !== undefined) return field.default;
  switch (field.type) {
    case 'integer':
    case 'number':
      return 0;
    case 'ref':
      return 1;
    case 'boolean':
      return false;
    case 'json':
      return {};
    case 'date':
      return new Date(0).toISOString().slice(0, 10);
    case 'datetime':
      return new Date(0).toISOString();
    case 'file':
      return null;
    default:
      return '';
  }
}

const writable = (f: DescribeField) => !f.auto && f.type !== 'file';

export function buildTemplate(d: DescribeResult | null, info: NamespaceInfo, intent: string): string {
  const meta: JsonObject = { namespace: info.namespace, intent };
  if (info.kind !== 'model') meta.schema = info.kind;
  const doc: JsonObject = { __meta__: meta };
  const model = info.kind === 'model' && d ? findModel(d, info.namespace) : undefined;
  const fields = Object.entries(model?.fields ?? {});
  switch (intent) {
    case 'retrieve':
      meta.filter = {};
      if (model) meta.ordering = model.ordering?.length ? model.ordering : ['-id'];
      meta.limit = 20;
      for (const [name] of fields.filter(([, f]) => !f.writeOnly).slice(0, 4)) doc[name] = null;
      break;
    case 'retrieveOne':
    case 'delete':
      meta.uniqueObject = { id: 1 };
      break;
    case 'count':
      meta.filter = {};
      break;
    case 'create':
      for (const [name, field] of fields.filter(([, f]) => writable(f) && (f.required || f.writeOnly))) doc[name] = placeholder(field);
      if (fields.every(([, f]) => !f.required)) {
        const first = fields.find(([, f]) => writable(f));
        if (first) doc[first[0]] = placeholder(first[1]);
      }
      break;
    case 'update': {
      meta.uniqueObject = { id: 1 };
      const first = fields.find(([, f]) => writable(f) && !f.writeOnly);
      if (first) doc[first[0]] = placeholder(first[1]);
      break;
    }
    case 'login':
      doc.username = '';
      doc.password = '';
      break;
    default:
      break;
  }
  return JSON.stringify(doc, null, 2);
}

/** Two subqueries in one request, to show the multi-query shape. */
export function buildMultiTemplate(namespace: string): string {
  return JSON.stringify(
    {
      __root_meta__: { atomic: false },
      first: { __meta__: { namespace, intent: 'retrieve', limit: 5 } },
      total: { __meta__: { namespace, intent: 'count' } },
    },
    null,
    2,
  );
}

export const DEFAULT_QUERY = JSON.stringify(
  { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { status: 'open' }, ordering: ['-priority'], limit: 20 } },
  null,
  2,
);
