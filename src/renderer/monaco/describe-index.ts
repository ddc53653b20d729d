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

/** The groups of an app's namespaces, with the kind each stands for. */
const KIND_OF = { models: 'model', controllers: 'controller', collections: 'nosql' } as const;
export type NamespaceGroup = keyof typeof KIND_OF;

/**
 * Builds the list of a describe's namespaces group by group, in the describe's order (an app's
 * models, controllers, collections, app after app): models first, then the rest, as listNamespaces
 * gives them. A describe that crosses from the worker in slices has its list made one slice at a
 * time, in each slice's own task (describe-slices.ts), so no task walks 100,000 namespaces.
 */
export class NamespaceCollector {
  private readonly models: NamespaceInfo[] = [];
  private readonly others: NamespaceInfo[] = [];

  add(app: string, group: NamespaceGroup, entries: ReadonlyArray<readonly [string, unknown]>): void {
    const into = group === 'models' ? this.models : this.others;
    const kind = KIND_OF[group];
    for (const [name, value] of entries) into.push({ namespace: `${app}.${name}`, kind, intents: (value as { intents?: string[] }).intents ?? [] });
  }

  list(): NamespaceInfo[] {
    return this.models.concat(this.others);
  }
}

function namespacesOf(d: DescribeResult): NamespaceInfo[] {
  const collector = new NamespaceCollector();
  for (const [app, def] of Object.entries(d.apps ?? {})) {
    for (const group of ['models', 'controllers', 'collections'] as const) collector.add(app, group, Object.entries(def[group] ?? {}));
  }
  return collector.list();
}

/** `list` was made as the describe `d` was put together (NamespaceCollector): it stands for `d`'s own. */
export function rememberNamespaces(d: DescribeResult, list: readonly NamespaceInfo[]): void {
  listed.set(d, list);
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
