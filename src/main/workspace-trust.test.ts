import { describe, expect, it, vi } from 'vitest';
import { memoryTextFile } from './text-file.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

/** Module contents by path: what the digest covers. */
const contents: Record<string, string> = {};
const digest = async (f: string) => `digest of ${contents[f] ?? 'v1'}`;

function setup(files: Record<string, string[]>, answer = true) {
  const file = memoryTextFile();
  const ask = vi.fn(async () => answer);
  const trust = new WorkspaceTrust({ file, codeFiles: (ws) => files[ws] ?? [], ask, digest });
  return { trust, ask, file };
}

describe('WorkspaceTrust', () => {
  it('asks once per workspace before its code runs, naming the files, and remembers a yes', async () => {
    const { trust, ask, file } = setup({ '/ws/a.json': ['/ws/controllers.mjs', '/ws/hooks.mjs'] });
    await expect(trust.allows('/ws/a.json')).resolves.toBe(true);
    await expect(trust.allows('/ws/a.json')).resolves.toBe(true);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask).toHaveBeenCalledWith('/ws/a.json', ['/ws/controllers.mjs', '/ws/hooks.mjs']);
    // A new run reads the answer back.
    const again = new WorkspaceTrust({ file, codeFiles: () => ['/ws/hooks.mjs', '/ws/controllers.mjs'], ask, digest });
    await expect(again.allows('/ws/a.json')).resolves.toBe(true);
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('runs nothing after a no, and asks again next time', async () => {
    const { trust, ask, file } = setup({ '/ws/a.json': ['/ws/c.mjs'] }, false);
    await expect(trust.allows('/ws/a.json')).resolves.toBe(false);
    await expect(trust.allows('/ws/a.json')).resolves.toBe(false);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(file.text).toBeNull();
  });

  it('asks again when the workspace names a file the user was not shown', async () => {
    const files: Record<string, string[]> = { '/ws/a.json': ['/ws/c.mjs'] };
    const { trust, ask } = setup(files);
    await trust.allows('/ws/a.json');
    files['/ws/a.json'] = ['/ws/c.mjs', '/ws/evil.mjs'];
    await trust.allows('/ws/a.json');
    expect(ask).toHaveBeenCalledTimes(2);
    expect(ask).toHaveBeenLastCalledWith('/ws/a.json', ['/ws/c.mjs', '/ws/evil.mjs']);
  });

  it('does not ask for a workspace without code, nor for one it cannot read (the server says why)', async () => {
    const { trust, ask } = setup({});
    await expect(trust.allows('/ws/data-only.json')).resolves.toBe(true);
    const broken = new WorkspaceTrust({ file: memoryTextFile(), codeFiles: () => { throw new Error('not JSON'); }, ask });
    await expect(broken.allows('/ws/broken.json')).resolves.toBe(true);
    expect(ask).not.toHaveBeenCalled();
  });

  it('asks again when a module it trusted changed its content, and not while it stays the same', async () => {
    const { trust, ask } = setup({});
    contents['/ws/c.mjs'] = 'version 1';
    await expect(trust.allowsFiles('/ws/a.json', ['/ws/c.mjs'])).resolves.toBe(true);
    await expect(trust.allowsFiles('/ws/a.json', ['/ws/c.mjs'])).resolves.toBe(true);
    expect(ask).toHaveBeenCalledTimes(1);
    contents['/ws/c.mjs'] = 'version 2';
    await expect(trust.allowsFiles('/ws/a.json', ['/ws/c.mjs'])).resolves.toBe(true);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(ask).toHaveBeenLastCalledWith('/ws/a.json', ['/ws/c.mjs']);
  });

  it('keeps trusting nothing new after a no to a changed module', async () => {
    const file = memoryTextFile();
    let answer = true;
    const ask = vi.fn(async () => answer);
    const trust = new WorkspaceTrust({ file, codeFiles: () => [], ask, digest });
    contents['/ws/d.mjs'] = 'trusted';
    await trust.allowsFiles('/ws/b.json', ['/ws/d.mjs']);
    contents['/ws/d.mjs'] = 'changed';
    answer = false;
    await expect(trust.allowsFiles('/ws/b.json', ['/ws/d.mjs'])).resolves.toBe(false);
    expect(JSON.parse(file.text ?? '{}')).toEqual({ '/ws/b.json': { '/ws/d.mjs': 'digest of trusted' } });
  });

  it('asks again for an answer kept without digests by an older version', async () => {
    const file = memoryTextFile(JSON.stringify({ '/ws/a.json': ['/ws/c.mjs'] }));
    const ask = vi.fn(async () => true);
    const trust = new WorkspaceTrust({ file, codeFiles: () => ['/ws/c.mjs'], ask, digest });
    await expect(trust.allows('/ws/a.json')).resolves.toBe(true);
    expect(ask).toHaveBeenCalledTimes(1);
  });
});
