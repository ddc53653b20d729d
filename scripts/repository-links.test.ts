/**
 * Whoever clones the repository has the repository and nothing else: no file in it may send a
 * reader to a document outside it, and every relative link of the README and docs/ must land on a
 * file that is there. (The documents the project was built from are not shipped; docs/ is what users
 * get, kept true by the tests that run its examples.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && /\.(ts|tsx|mts|mjs|js|json|md|css|html|yml|yaml)$/.test(file) && existsSync(join(root, file)));

// Names of the documents behind the project, which a clone does not have. Built from parts so this
// file does not name them itself.
const OUTSIDE_NAMES = ['PROTOCOL', 'WORKSPACE', 'STYLE', 'STACK'].map((name) => `${name}.md`).concat(['jql-service' + '-spec']);

describe('the repository', () => {
  it('names no document that lives outside it', () => {
    const found = tracked.flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return OUTSIDE_NAMES.filter((name) => text.includes(name)).map((name) => `${file}: ${name}`);
    });
    expect(found).toEqual([]);
  });

  it('has no relative path to the shared contract folder beside it', () => {
    const found = tracked.flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return [...text.matchAll(/(?:\.\.\/)+shared\/[\w.-]*/g)]
        .map(([path]) => path)
        .filter((path) => relative(root, resolve(root, dirname(file), path)).startsWith('..'))
        .map((path) => `${file}: ${path}`);
    });
    expect(found).toEqual([]);
  });

  it('links from the README and docs/ only to files it holds', () => {
    const pages = tracked.filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));
    expect(pages).toContain('docs/protocol.md');
    const broken = pages.flatMap((page) => {
      const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map(([, target]) => target as string)
        .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
        .filter((target) => !existsSync(resolve(root, dirname(page), decodeURI(target.split('#')[0] as string))))
        .map((target) => `${page}: ${target}`);
    });
    expect(broken).toEqual([]);
  });
});
