/**
 * Two V8 heap snapshots side by side: live objects counted per constructor (node name) in each, and
 * the constructors whose counts grew the most. A leak shows as one constructor growing with time.
 */
import { readFileSync } from 'node:fs';

export interface SnapshotGrowth {
  name: string;
  before: number;
  after: number;
  bytesAfter: number;
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Objects per constructor name (object, closure, array and string nodes), with their shallow bytes. */
export function countByConstructor(file: string): Map<string, { count: number; bytes: number }> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const counts = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt] as number];
    if (type !== 'object' && type !== 'closure' && type !== 'array') continue;
    const name = `${type === 'object' ? '' : `(${type}) `}${snapshot.strings[snapshot.nodes[i + nameAt] as number]}`;
    const entry = counts.get(name) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snapshot.nodes[i + sizeAt] as number;
    counts.set(name, entry);
  }
  return counts;
}

/** The constructors whose live object counts grew from `before` to `after`, most grown first. */
export function compareSnapshots(before: string, after: string): SnapshotGrowth[] {
  const then = countByConstructor(before);
  const now = countByConstructor(after);
  const growth: SnapshotGrowth[] = [];
  for (const [name, { count, bytes }] of now) {
    const was = then.get(name)?.count ?? 0;
    if (count > was) growth.push({ name, before: was, after: count, bytesAfter: bytes });
  }
  return growth.sort((a, b) => b.after - b.before - (a.after - a.before));
}
