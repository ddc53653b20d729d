/**
 * Issue 32.8: a request file, a workspace file or a source's answer of 200,000 nested arrays broke
 * with "Maximum call stack size exceeded" and exit 1. Each is refused in one sentence naming what was
 * read and its depth; `run` exits 2 (input that cannot be read).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeManifest } from '../../shared/collections/format.ts';
import { jsonDepth } from '../../shared/json-depth.ts';
import { RemoteServer } from '../clone/remote-server.ts';
import { runCli } from '../testing/cli-child.ts';
import { tempDir } from '../testing/fixture.ts';

const DEPTH = 200_000;
const deepArrays = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

describe('deep documents', () => {
  it('measures nesting in one pass, not counting brackets inside strings', () => {
    expect(jsonDepth('{"a": [1, {"b": "[[[{{"}]}')).toBe(3);
    expect(jsonDepth('"\\"[["')).toBe(0);
    expect(jsonDepth(deepArrays)).toBe(DEPTH);
  });

  it('run refuses a request file of 200,000 nested arrays with exit 2, naming the file and the depth', async () => {
    const dir = tempDir('jql-deep-');
    writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ format: 1, name: 'Deep' }));
    writeFileSync(join(dir, 'deep.jql.json'), `{"document": ${deepArrays}}`);
    const outcome = await runCli(['run', dir, '--embedded']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(`jql-console: deep.jql.json is nested ${DEPTH + 1} levels deep; at most 1000 are read`);
  }, 30_000);

  it('serve refuses a deep workspace file naming it and the depth', async () => {
    const file = join(tempDir('jql-deep-ws-'), 'workspace.json');
    writeFileSync(file, `{"name": "x", "_notes": ${deepArrays}}`);
    const outcome = await runCli(['serve', '--workspace', file, '--data', join(tempDir('jql-deep-data-'), 'data'), '--port', '0']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(file);
    expect(outcome.stderr).toContain(`the file is nested ${DEPTH + 1} levels deep; at most 1000 are read`);
    expect(outcome.stderr).not.toMatch(/call stack/);
  }, 30_000);

  it('a source answering a deep document (a cloned record) is refused in one sentence', async () => {
    const remote = new RemoteServer({ baseUrl: 'http://127.0.0.1:9', fetch: async () => new Response(`{"__payload__": {"items": [${deepArrays}]}}`) });
    await expect(remote.post({})).rejects.toThrow(`the answer of http://127.0.0.1:9/jql is nested ${DEPTH + 3} levels deep; at most 1000 are read`);
  });
});
