/**
 * The server's import graph has no circle (docs/architecture.md): a module that reaches back to one
 * that imports it is where layering erodes (the streams once took the processors' internals while
 * the request context took the streams' hub). Type-only imports count too. dependency-cruiser reads
 * the graph, so the check needs no list of files kept by hand.
 */
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('the server import graph', () => {
  it('has no circle', async () => {
    const result = await cruise(['src/server'], {
      baseDir: root,
      tsPreCompilationDeps: true,
      validate: true,
      exclude: { path: 'node_modules' },
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: { path: '^src/server' }, to: { circular: true } }] },
    });
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
    const circles = output.summary.violations.map((violation: { from: string; cycle?: Array<{ name: string }> }) =>
      [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> '),
    );
    expect(output.summary.totalCruised).toBeGreaterThan(100);
    expect(circles).toEqual([]);
  });
});
