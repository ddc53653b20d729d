/** What each benchmark hands back, and the markdown of docs/benchmarks.md built from them. */
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';

export interface Ratio {
  name: string;
  value: number;
  /** Printed as e.g. "0.84x" or "84%". */
  unit: 'x' | '%' | 'MiB' | 'MB' | 'ms' | '';
  goal?: string;
  met?: boolean;
}

export interface Section {
  title: string;
  /** Markdown body: tables and notes. */
  body: string;
  ratios: Ratio[];
  done: boolean;
}

export function table(header: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function formatRatio(r: Ratio): string {
  const value = r.unit === '%' ? `${(r.value * 100).toFixed(0)}%` : r.unit === 'x' ? `${r.value.toFixed(2)}x` : `${Number(r.value.toFixed(2))}${r.unit ? ` ${r.unit}` : ''}`;
  const goal = r.goal ? ` (goal ${r.goal}: ${r.met ? 'met' : 'MISSED'})` : '';
  return `${r.name}: ${value}${goal}`;
}

export function machine(): string {
  const cpu = cpus();
  return [
    `- CPU: ${cpu[0]?.model ?? 'unknown'} × ${cpu.length}`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    `- Node ${process.versions.node}, SQLite ${process.env.BENCH_SQLITE_VERSION ?? '?'}, ${process.platform} ${process.arch}`,
    `- Load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (the machine is shared; figures move with other work on it)`,
  ].join('\n');
}

/**
 * The "Soak" section of a report already written there (its figures come from `npm run soak`, not
 * from this run), to be kept at the end of the new one; empty when there is none.
 */
export function soakSectionOf(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '';
  }
  const at = text.indexOf('\n## Soak');
  return at < 0 ? '' : text.slice(at);
}

export function markdown(sections: Section[], command: string, started: Date, elapsedS: number, soak = ''): string {
  const summary = sections.flatMap((s) => s.ratios.map((r) => `- ${formatRatio(r)}`));
  return `# Benchmarks

Measured by \`${command}\` on ${started.toISOString().slice(0, 10)} (${elapsedS.toFixed(0)} s in all).
Every comparison ran side by side in the same run, on the same data, over loopback.

## Machine
${machine()}

## Summary
${summary.join('\n')}

${sections.map((s) => `## ${s.title}${s.done ? '' : ' (not done)'}\n\n${s.body}\n`).join('\n')}
## Reproduce

\`\`\`
npm ci
${command}
\`\`\`

\`npm run bench -- --only=retrieve,search\` runs a subset (of retrieve, search, nested, uploads, streams, opening, console,
hostile); \`--quick\` shortens every run (for trying the
harness, not for figures); \`--out=FILE\` writes any run's report to FILE. A CPU profile of the JQL server
under load: \`npm run bench -- --only=retrieve --profile --out=/tmp/profile.md\` (or \`--only=streams --profile\`) adds the top functions of its
\`.cpuprofile\` to the report (\`node bench/profile-summary.ts FILE\` summarizes any profile). The console
measure uses the renderer as last built (\`npm run build\`). Memory over time: \`npm run soak\` (below);
longer hardening runs: \`npm run soak -- --hardening\`.
${soak}`;
}
