import { describe, expect, it } from 'vitest';
import { isOwnServer } from './own-server.ts';

describe('isOwnServer', () => {
  const connections = [
    { id: 'embedded', kind: 'embedded' as const },
    { id: 'copy', kind: 'local' as const },
    { id: 'prod', kind: 'remote' as const },
  ];

  it('is the embedded server and a local copy the console started', () => {
    expect(isOwnServer(connections, 'embedded')).toBe(true);
    expect(isOwnServer(connections, 'copy')).toBe(true);
  });

  it('is not a remote server, nor a connection it does not know', () => {
    expect(isOwnServer(connections, 'prod')).toBe(false);
    expect(isOwnServer(connections, 'gone')).toBe(false);
    expect(isOwnServer(connections, undefined)).toBe(false);
  });
});
