/**
 * Whether a query document changes data, read the way the server reads it (docs/protocol.md "The query document", "Processors", "Multi-query"):
 * a single query (`__meta__` at the root) or a multi-query (names -> queries). Model and NoSQL
 * `retrieve`, `retrieveOne` and `count` read; every other intent writes, an unknown one included.
 * A controller intent reads only when the server's describe lists it in the controller's `readOnly`
 * (an intent not listed, or a server without describe, counts as one that writes). A document that
 * is not JSON, or a query without an intent, cannot run at all and is left to the server to refuse.
 */
import { intentKey } from '../../../shared/intent-key.ts';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { findVariables, substituteVariables } from '../variables.ts';

/** `what` is a clause with its subject: "this document deletes tickets.Ticket records". */
export type DocumentEffect = { writes: false } | { writes: true; what: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// Intents are compared by the server's canonical key (`retrieve_one` = `retrieveOne`); a name without
// one (`RetrieveOne`) is one the server refuses, so it is never taken for a read.
const READ_INTENTS = new Set(['retrieve', 'retrieveOne', 'count']);

const VERB: Record<string, string> = { create: 'creates', update: 'updates', delete: 'deletes' };

function controllerReadOnly(describe: DescribeResult | null, namespace: string, intent: string): boolean {
  const dot = namespace.indexOf('.');
  if (!describe || dot < 1) return false;
  const controller = describe.apps?.[namespace.slice(0, dot)]?.controllers?.[namespace.slice(dot + 1)];
  const readOnly = controller?.readOnly;
  const key = intentKey(intent);
  return key !== null && Array.isArray(readOnly) && readOnly.some((i) => typeof i === 'string' && intentKey(i) === key);
}

/** What one query does, or null when it reads. */
function queryWrite(query: Obj, describe: DescribeResult | null): string | null {
  const meta = query.__meta__;
  // Without a meta object or an intent the server refuses the query before running anything.
  if (!isObj(meta) || typeof meta.intent !== 'string') return null;
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : '(no namespace)';
  const intent = meta.intent;
  const schema = meta.schema === undefined ? 'model' : meta.schema;
  if (schema === 'controller') {
    if (controllerReadOnly(describe, namespace, intent)) return null;
    return describe
      ? `calls ${namespace}.${intent}, which the server does not declare read-only`
      : `calls ${namespace}.${intent}, and without the server's schema it cannot be known to be read-only`;
  }
  if (schema === 'model' || schema === 'nosql') {
    const key = intentKey(intent);
    if (key !== null && READ_INTENTS.has(key)) return null;
    const records = schema === 'nosql' ? 'documents' : 'records';
    const verb = key !== null && Object.hasOwn(VERB, key) ? VERB[key] : undefined;
    return verb ? `${verb} ${namespace} ${records}` : `runs the intent "${intent}" on ${namespace}, which is not a read`;
  }
  return `runs a query of schema ${JSON.stringify(schema)}, which is not known to be a read`;
}

export function classifyDocument(text: string, describe: DescribeResult | null): DocumentEffect {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return { writes: false };
  }
  if (!isObj(root)) return { writes: false };
  if (Object.hasOwn(root, '__meta__')) {
    const what = queryWrite(root, describe);
    return what ? { writes: true, what: `this document ${what}` } : { writes: false };
  }
  const writes: string[] = [];
  for (const [name, query] of Object.entries(root)) {
    if (name === '__root_meta__' || !isObj(query)) continue;
    const what = queryWrite(query, describe);
    if (what) writes.push(`"${name}" ${what}`);
  }
  if (writes.length === 0) return { writes: false };
  const listed = writes.length > 2 ? `${writes.slice(0, 2).join(', ')} and ${writes.length - 2} more write` : writes.join(' and ');
  return { writes: true, what: `in this multi-query ${listed}` };
}

/** A multipart `PUT /jql` always stores something. */
export const UPLOAD_EFFECT: DocumentEffect = { writes: true, what: 'this upload sends files to be stored (a multipart PUT)' };


/**
 * The effect of a document whose `{{variables}}` are not filled yet (the Diff's document before it
 * knows each side's values): each placeholder stands for a string that names no intent, so a
 * variable can never hide a write (an intent that is a variable is not a known read).
 */
export function classifyTemplate(text: string, describe: DescribeResult | null): DocumentEffect {
  const unknown = Object.fromEntries(findVariables(text).map((v) => [v.name, `{{${v.name}}}`]));
  const filled = substituteVariables(text, unknown);
  return classifyDocument(filled.ok ? filled.text : text, describe);
}
