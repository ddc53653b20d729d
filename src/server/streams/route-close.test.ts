import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { start } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';

describe('stream shutdown', () => {
  it('closes subscribers with 1001 (going away) when the server stops', async () => {
    const server = await start({ dataDir: tempDir(), port: 0, env: {} });
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/jql-streams`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await server.close();
    expect(await closed).toBe(1001);
  });
});
