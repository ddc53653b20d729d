import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations; its exports are checked here.
import { browserServeArgs, launchHint } from './start.mjs';

const examples = join(import.meta.dirname, '..', 'examples');

describe('npm start in browser mode', () => {
  it('serves the example collection folders to the Saved view', () => {
    expect(browserServeArgs([])).toEqual(['serve', '--local-admin', '--collections', examples]);
  });

  it('keeps the folder the user named, in either spelling', () => {
    expect(browserServeArgs(['--collections', '../qa', '--port', '9000'])).toEqual(['serve', '--local-admin', '--collections', '../qa', '--port', '9000']);
    expect(browserServeArgs(['--collections=../qa'])).toEqual(['serve', '--local-admin', '--collections=../qa']);
  });

  it('points at the launch URL the server printed, once it is out', () => {
    expect(launchHint('JQL server listening on http://127.0.0.1:8787\n')).toBeNull();
    const hint = launchHint('JQL server listening on http://127.0.0.1:8787\nOpen http://127.0.0.1:8787/?key=abc_DEF-123\n');
    expect(hint).toMatch(/^Open http:\/\/127\.0\.0\.1:8787\/\?key=abc_DEF-123 in your browser/);
  });
});
