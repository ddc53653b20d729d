import { describe, expect, it, vi } from 'vitest';
import { memoryTextFile } from './text-file.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

function setup(files: Record<string, string[]>, answer = true) {
  const file = memoryTextFile();
  const ask = vi.fn(async () => answer);
  const trust = new WorkspaceTrust({ file, codeFiles: (ws) => files[ws] ?? [], ask });
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
    const again = new WorkspaceTrust({ file, codeFiles: () => ['/ws/hooks.mjs', '/ws/controllers.mjs'], ask });
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
});
