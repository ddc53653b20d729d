/**
 * Lookups over a `system.Schema.describe` result: its namespaces with their kind and intents, a
 * model by namespace, a model's readable fields. Shared by the schema builder and the templates.
 */
import { FILTER_LOOKUPS, type DescribeField, type DescribeModel, type DescribeResult } from '../../shared/protocol.ts';

export type NamespaceKind = 'model' | 'controller' | 'nosql';

export interface NamespaceInfo {
  namespace: string;
  kind: NamespaceKind;
  intents: string[];
}

const listed = new WeakMap<DescribeResult, readonly NamespaceInfo[]>();

/**
 * Every namespace of a describe result with its kind and intents, models first. A describe is
 * never changed once read, so its list is made once: the schema, the status bar, the templates and
 * each hover ask for it, and for 100,000 models each asking would walk them all again (issue 31).
 */
export function listNamespaces(d: DescribeResult): readonly NamespaceInfo[] {
  let out = listed.get(d);
  if (!out) listed.set(d, (out = namespacesOf(d)));
  return out;
}

function namespacesOf(d: DescribeResult): NamespaceInfo[] {
  const out: NamespaceInfo[] = [];
  for (const [app, def] of Object.entries(d.apps ?? {})) {
    for (const [name, m] of Object.entries(def.models ?? {})) out.push({ namespace: `${app}.${name}`, kind: 'model', intents: m.intents ?? [] });
  }
  for (const [app, def] of Object.entries(d.apps ?? {})) {
    for (const [name, c] of Object.entries(def.controllers ?? {})) out.push({ namespace: `${app}.${name}`, kind: 'controller', intents: c.intents ?? [] });
    for (const [name, c] of Object.entries(def.collections ?? {})) out.push({ namespace: `${app}.${name}`, kind: 'nosql', intents: c.intents ?? [] });
  }
  return out;
}

export function findModel(d: DescribeResult, namespace: string): DescribeModel | undefined {
  const dot = namespace.indexOf('.');
  return d.apps?.[namespace.slice(0, dot)]?.models?.[namespace.slice(dot + 1)];
}

/** Readable fields (a writeOnly field can be written, never read, filtered or ordered). */
export function readableFields(model: DescribeModel): Array<[string, DescribeField]> {
  const fields = Object.entries(model.fields ?? {}).filter(([, f]) => !f.writeOnly);
  if (!fields.some(([name]) => name === 'id')) fields.unshift(['id', { type: 'integer', required: false, null: false, lookups: [...FILTER_LOOKUPS] }]);
  return fields;
}
