/**
 * What the editor's hover says over a query: a `__meta__` key, a lookup suffix, an intent, a
 * namespace, a data key or an error code gets a short explanation and a link to its section of
 * docs/protocol.md. Names from the server's describe are shown as inline code, never as links or
 * HTML (markdown-text.ts). Pure: protocol-hovers.ts hands it to Monaco.
 */
import { findNodeAtOffset, getNodePath, parseTree, type Node } from 'jsonc-parser';
import { isErrorCode } from '../../shared/error-codes.ts';
import { FILTER_LOOKUPS, type DescribeField, type DescribeResult, type FilterLookup } from '../../shared/protocol.ts';
import { docsLink } from '../components/doc-anchors.ts';
import { findModel, listNamespaces } from './describe-index.ts';
import { inlineCode, plainText } from './markdown-text.ts';
import { ERROR_HELP, intentAnchor, LOOKUP_HELP, LOOKUPS_ANCHOR, META_ALIASES, META_HELP, MODEL_INTENT_HELP, ROOT_META_HELP, errorAnchor } from './protocol-help.ts';

export interface ProtocolHover {
  start: number;
  end: number;
  /** Markdown paragraphs. */
  contents: string[];
}

const readMore = (anchor: string) => `[Read more in the protocol docs](${docsLink({ doc: 'protocol', anchor })})`;
const CONDITION_KEYS = new Set(['filter', 'exclude', 'uniqueObject', 'unique_object']);

/** The hover at `offset` of a query document, or null when the word there is none of the protocol's. */
export function protocolHoverAt(text: string, offset: number, describe: DescribeResult | null): ProtocolHover | null {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root ? findNodeAtOffset(root, offset) : undefined;
  if (!node || node.type !== 'string' || typeof node.value !== 'string') return null;
  const span = { start: node.offset, end: node.offset + node.length };
  const property = node.parent?.type === 'property' ? node.parent : null;
  const isKey = property?.children?.[0] === node;
  const container = property?.parent;
  const path = container ? getNodePath(container) : [];
  const meta = queryMeta(container);

  if (isKey && property && container) {
    const key = node.value;
    const last = path[path.length - 1];
    if (last === '__meta__') return help(span, key, META_HELP[META_ALIASES[key] ?? key]);
    if (last === '__root_meta__' && path.length === 1) return help(span, key, ROOT_META_HELP[key]);
    if (path[path.length - 2] === '__meta__' && typeof last === 'string' && CONDITION_KEYS.has(last)) return conditionHover(span, key, meta.namespace, describe);
    if (key === '__meta__') return { ...span, contents: [`${inlineCode('__meta__')}: the query's namespace, intent and options.`, readMore('the-query-document')] };
    if (key === '__root_meta__') return { ...span, contents: [`${inlineCode('__root_meta__')}: the options of a multi-query.`, readMore('multi-query')] };
    if (meta.namespace !== null && hasChild(container, '__meta__')) return dataKeyHover(span, key, meta.namespace, describe);
    return null;
  }
  if (property && !isKey) {
    const key = property.children?.[0]?.value;
    if (path[path.length - 1] === '__meta__' && key === 'intent') return intentHover(span, node.value, meta.namespace, describe);
    if (path[path.length - 1] === '__meta__' && key === 'namespace') return namespaceHover(span, node.value, describe);
  }
  if (isErrorCode(node.value)) {
    return { ...span, contents: [`Error code ${inlineCode(node.value)}: ${plainText(ERROR_HELP[node.value])}`, readMore(errorAnchor(node.value))] };
  }
  return null;
}

function help(span: { start: number; end: number }, key: string, entry: { text: string; anchor: string } | undefined): ProtocolHover | null {
  return entry ? { ...span, contents: [`${inlineCode(key)}: ${plainText(entry.text)}`, readMore(entry.anchor)] } : null;
}

/** The namespace of the query an object belongs to (its own `__meta__`, or its enclosing query's). */
function queryMeta(node: Node | undefined): { namespace: string | null } {
  for (let at: Node | undefined = node; at; at = at.parent) {
    if (at.type !== 'object') continue;
    const metaNode = childValue(at, '__meta__');
    if (metaNode?.type === 'object') {
      const namespace = childValue(metaNode, 'namespace')?.value;
      return { namespace: typeof namespace === 'string' ? namespace : null };
    }
  }
  return { namespace: null };
}

function childValue(object: Node, key: string): Node | undefined {
  return object.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];
}

const hasChild = (object: Node, key: string) => childValue(object, key) !== undefined;

function fieldsOf(namespace: string | null, describe: DescribeResult | null): Record<string, DescribeField> | null {
  return namespace && describe ? (findModel(describe, namespace)?.fields ?? null) : null;
}

function fieldLine(name: string, field: DescribeField): string {
  const bits = [field.type === 'ref' && field.to ? `ref to ${inlineCode(field.to)}` : inlineCode(field.type)];
  if (field.required) bits.push('required');
  if (field.null) bits.push('nullable');
  if (field.unique) bits.push('unique');
  if (field.choices) bits.push(`one of ${field.choices.map((c) => inlineCode(JSON.stringify(c))).join(', ')}`);
  if (field.maxLength !== undefined) bits.push(`at most ${field.maxLength} characters`);
  if (field.auto) bits.push(`set by the server on ${field.auto}`);
  return `Field ${inlineCode(name)}: ${bits.join(', ')}.`;
}

/** `priority__gte`, `assignee.username__icontains`: the field, then the lookup's meaning. */
function conditionHover(span: { start: number; end: number }, key: string, namespace: string | null, describe: DescribeResult | null): ProtocolHover {
  const parts = key.split('__');
  const last = parts[parts.length - 1] as string;
  const lookup = parts.length > 1 && (FILTER_LOOKUPS as readonly string[]).includes(last) ? (last as FilterLookup) : null;
  const path = lookup ? parts.slice(0, -1).join('__') : key;
  const contents: string[] = [];
  const field = fieldsOf(namespace, describe)?.[path];
  if (field) contents.push(fieldLine(path, field));
  contents.push(lookup ? `Lookup ${inlineCode(`__${lookup}`)}: ${plainText(LOOKUP_HELP[lookup])}.` : `No lookup: ${inlineCode('exact')}, ${plainText(LOOKUP_HELP.exact)}.`);
  contents.push(readMore(LOOKUPS_ANCHOR));
  return { ...span, contents };
}

function dataKeyHover(span: { start: number; end: number }, key: string, namespace: string, describe: DescribeResult | null): ProtocolHover | null {
  const model = describe ? findModel(describe, namespace) : undefined;
  const field = model?.fields?.[key];
  if (field) return { ...span, contents: [fieldLine(key, field), 'A data key: null asks for the field in a read; a value is written by a create or update.', readMore('field-selection')] };
  const relation = model?.relations?.[key];
  if (relation) return { ...span, contents: [`Relation ${inlineCode(key)}: many ${inlineCode(relation.many)} through ${inlineCode(relation.via)}.`, readMore('field-selection')] };
  return null;
}

function intentHover(span: { start: number; end: number }, intent: string, namespace: string | null, describe: DescribeResult | null): ProtocolHover {
  const camel = intent.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const text = MODEL_INTENT_HELP[camel];
  const controller = namespace ? listNamespaces(describe ?? ({ apps: {} } as unknown as DescribeResult)).find((n) => n.namespace === namespace && n.kind === 'controller') : undefined;
  const line = text
    ? `Intent ${inlineCode(camel)}: ${plainText(text)}.`
    : controller
      ? `Intent ${inlineCode(intent)} of the controller ${inlineCode(controller.namespace)}${controller.intents.includes(camel) ? '' : ' (not among the intents its describe lists)'}.`
      : `Intent ${inlineCode(intent)}: a controller intent.`;
  return { ...span, contents: [line, readMore(intentAnchor(camel, namespace))] };
}

function namespaceHover(span: { start: number; end: number }, namespace: string, describe: DescribeResult | null): ProtocolHover {
  const kinds = describe ? listNamespaces(describe).filter((n) => n.namespace === namespace) : [];
  const lines = kinds.map((n) => `${n.kind === 'nosql' ? 'Collection' : n.kind === 'model' ? 'Model' : 'Controller'} ${inlineCode(n.namespace)}: intents ${n.intents.map(inlineCode).join(', ') || 'none'}.`);
  if (lines.length === 0) lines.push(describe ? `${inlineCode(namespace)} is not in this server's describe.` : `Namespace ${inlineCode(namespace)}.`);
  return { ...span, contents: [...lines, readMore('namespace-intent-and-schema')] };
}
