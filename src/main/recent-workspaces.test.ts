import { describe, expect, it } from 'vitest';
import { MAX_RECENT, pushRecent, RecentWorkspaces } from './recent-workspaces.ts';
import { memoryTextFile } from './text-file.ts';

describe('pushRecent', () => {
  it('puts the path first, once, and caps the list', () => {
    expect(pushRecent(['/a', '/b'], '/b')).toEqual(['/b', '/a']);
    const many = Array.from({ length: 20 }, (_, i) => `/w${i}`);
    expect(pushRecent(many, '/new')).toHaveLength(MAX_RECENT);
  });
});

describe('RecentWorkspaces', () => {
  it('remembers the current workspace and the recent ones across restarts', async () => {
    const file = memoryTextFile();
    const recent = new RecentWorkspaces(file);
    await recent.load();
    expect(recent.current).toBeNull();
    await recent.open('/ws/a.json');
    await recent.open('/ws/b.json');
    await recent.open(null);
    const again = new RecentWorkspaces(file);
    await again.load();
    expect(again.current).toBeNull();
    expect(again.recent).toEqual(['/ws/b.json', '/ws/a.json']);
  });

  it('forgets a workspace that failed to open', async () => {
    const recent = new RecentWorkspaces(memoryTextFile());
    await recent.open('/gone.json');
    await recent.forget('/gone.json');
    expect(recent.current).toBeNull();
    expect(recent.recent).toEqual([]);
  });

  it('starts empty from a damaged file', async () => {
    const recent = new RecentWorkspaces(memoryTextFile('[1,'));
    await recent.load();
    expect(recent.recent).toEqual([]);
  });
});
