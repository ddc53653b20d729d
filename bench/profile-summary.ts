/**
 * Summarizes a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time and the
 * most total (inclusive) time, as percentages of the sampled time. Used to find what stands between
 * the JQL server and the hand-written endpoint; `node bench/profile-summary.ts FILE [N]`.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
}

export function summarize(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: Node): string => {
    const url = n.callFrame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/');
    return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let samples = 0;
  for (const id of profile.samples) {
    samples++;
    const leaf = byId.get(id) as Node;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur) as Node);
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) ?? 0) + 1);
    }
  }
  const fmt = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([l, n]) => `${((100 * n) / samples).toFixed(1).padStart(5)}%  ${l}`)
      .join('\n');
  return `samples: ${samples}\n-- self --\n${fmt(self)}\n-- total --\n${fmt(total)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, n] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [N]');
  console.log(summarize(file, Number(n ?? 25)));
}
