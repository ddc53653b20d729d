/**
 * docs/architecture.md tells a newcomer in which file each step and rule of the server lives; a file
 * renamed or removed without the page following would send them to nothing. Every path the page
 * names (relative to src/server/, as the page says, or to the repository) must exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** Code spans that are paths: `http/jql-post.ts`, `query/`, `processors/model|nosql|controller`. */
function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  const prose = text.replace(/```[\s\S]*?```/g, '');
  for (const [, code] of prose.matchAll(/`([^`\n]+)`/g)) {
    const span = code as string;
    if (!/^[\w./|-]+$/.test(span) || !(span.includes('/') || /\.(ts|js|md)$/.test(span))) continue;
    const cut = span.lastIndexOf('/') + 1;
    for (const name of span.slice(cut).split('|')) paths.add(span.slice(0, cut) + name);
  }
  return [...paths];
}

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const named = namedPaths(page);
    expect(named.length).toBeGreaterThan(50);
    const missing = named.filter((path) => !existsSync(join(root, 'src', 'server', path)) && !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });
});
