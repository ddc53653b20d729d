/**
 * The JSON tree as a flat list of visible rows, so it can be virtualized: only expanded nodes
 * contribute children, and a node with many children shows them in groups of `chunk` (like browser
 * devtools), so expanding a 100,000-item array yields 1,000 group rows, not 100,000.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { bigNumberText, isBigNumber } from '../../../shared/big-number.ts';
import { longTextOf } from '../../response/long-text.ts';

export interface TreeRow {
  /** Stable id of the node: a path like `/0/assignee`, or `/0#100` for a group. */
  id: string;
  depth: number;
  /** Key or index, null at the root. */
  label: string | null;
  kind: 'object' | 'array' | 'group' | 'value';
  /** One-line text: the value, or a summary of a container. */
  preview: string;
  expandable: boolean;
  expanded: boolean;
  value: JsonValue;
  /** A string too long to draw whole: its full length (the preview holds its start). */
  longString?: number;
}

/** A string longer than this is drawn cut, with "show all" (issue 22: a 50 MB string froze the view). */
export const LONG_STRING_CHARS = 1024 * 1024;
const LONG_STRING_PREVIEW = 1000;

export const DEFAULT_CHUNK = 100;

const escapeKey = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The id of a container's child (a key, or an array index as text): `/0/assignee`. */
export function nodeId(parentId: string, key: string): string {
  return `${parentId}/${escapeKey(key)}`;
}

function preview(value: JsonValue): string {
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  const long = longTextOf(value);
  if (long) return `${JSON.stringify(long.head.slice(0, LONG_STRING_PREVIEW)).slice(0, -1)}…"`;
  if (typeof value === 'string' && value.length > LONG_STRING_CHARS) return `${JSON.stringify(value.slice(0, LONG_STRING_PREVIEW)).slice(0, -1)}…"`;
  if (isBigNumber(value)) return bigNumberText(value);
  return JSON.stringify(value);
}

/** The length of a string too long to draw whole (a long text's included), as the row's `longString`. */
function longStringLength(value: JsonValue): { longString?: number } {
  const long = longTextOf(value);
  if (long) return { longString: long.length };
  return typeof value === 'string' && value.length > LONG_STRING_CHARS ? { longString: value.length } : {};
}

type Entry = [label: string, value: JsonValue, id: string];

function entriesOf(value: JsonValue, id: string): Entry[] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v, nodeId(id, String(i))]);
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, v, nodeId(id, k)]);
  return [];
}

function childCount(value: JsonValue): number {
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return 0;
}

export function flattenTree(root: JsonValue, expanded: ReadonlySet<string>, chunk = DEFAULT_CHUNK): TreeRow[] {
  const rows: TreeRow[] = [];

  const visitEntries = (entries: Entry[], depth: number) => {
    for (const [label, value, id] of entries) visit(value, id, label, depth);
  };

  const visitChildren = (value: JsonValue, id: string, depth: number) => {
    const count = childCount(value);
    if (count <= chunk) {
      visitEntries(entriesOf(value, id), depth);
      return;
    }
    // Only the entries of expanded groups are materialized.
    const keys = Array.isArray(value) ? null : Object.keys(value as object);
    for (let start = 0; start < count; start += chunk) {
      const end = Math.min(start + chunk, count) - 1;
      const groupId = `${id}#${start}`;
      const open = expanded.has(groupId);
      rows.push({ id: groupId, depth, label: `[${start} … ${end}]`, kind: 'group', preview: '', expandable: true, expanded: open, value: null });
      if (!open) continue;
      const entries: Entry[] = [];
      for (let i = start; i <= end; i++) {
        if (keys) {
          const k = keys[i]!;
          entries.push([k, (value as Record<string, JsonValue>)[k]!, nodeId(id, k)]);
        } else {
          entries.push([String(i), (value as JsonValue[])[i]!, nodeId(id, String(i))]);
        }
      }
      visitEntries(entries, depth + 1);
    }
  };

  const visit = (value: JsonValue, id: string, label: string | null, depth: number) => {
    const container = value !== null && typeof value === 'object';
    const expandable = container && childCount(value) > 0;
    const open = expandable && expanded.has(id);
    rows.push({
      id,
      depth,
      label,
      kind: Array.isArray(value) ? 'array' : container ? 'object' : 'value',
      preview: preview(value),
      expandable,
      expanded: open,
      value,
      ...longStringLength(value),
    });
    if (open) visitChildren(value, id, depth + 1);
  };

  visit(root, '', null, 0);
  return rows;
}

/** Ids to expand by default: the root, and the first record of a short array. */
export function initialExpansion(root: JsonValue): Set<string> {
  const open = new Set<string>(['']);
  if (Array.isArray(root) && root.length > 0 && root.length <= DEFAULT_CHUNK) open.add('/0');
  return open;
}
