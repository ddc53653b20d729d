// A connection's answer limit holds in browser mode too (the desktop app's main had it alone): the
// connections store tells the browser platform's transport each connection's limit, as it tells
// main, and the transport stops reading a larger answer with the limit in its message.
import { describe, expect, it } from 'vitest';
import { callJql } from '../transport/jql-client.ts';
import { AnswerTooLargeError } from '../transport/transport.ts';
import { ConnectionsStore } from './connections-store.ts';
import { memoryStorage } from './external-store.ts';
import { createBrowserPlatform } from './platform.ts';

const MIB = 1024 * 1024;
const location = { origin: 'http://127.0.0.1:8787', href: 'http://127.0.0.1:8787/' };

/** Every request is answered with an envelope of about `mib` MiB. */
function answersOf(mib: number): typeof fetch {
  return (async () => new Response(JSON.stringify({ __payload__: ['x'.repeat(mib * MIB)], __errors__: null }), { status: 200 })) as unknown as typeof fetch;
}

const query = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve' } };

describe('answer limit in browser mode', () => {
  it('stops at the limit set on the connection, and reads a smaller answer', async () => {
    const platform = createBrowserPlatform(location, answersOf(2));
    const storage = memoryStorage();
    const store = new ConnectionsStore(storage, platform.secrets, { registry: platform.connectionRegistry });
    const id = store.add({ name: 'Remote', baseUrl: 'http://remote.example', authClass: 'jwt' });
    // Below the default 64 MiB: read.
    await expect(callJql(platform.transport, store.target(id)!, query)).resolves.toBeDefined();

    store.setAnswerLimit(id, MIB);
    const refused = callJql(platform.transport, store.target(id)!, query);
    await expect(refused).rejects.toBeInstanceOf(AnswerTooLargeError);
    await expect(refused).rejects.toThrow(/answer limit \(1 MiB\)/);

    // After a reload the saved limit still holds; removing it brings the default back.
    const again = createBrowserPlatform(location, answersOf(2));
    const reloaded = new ConnectionsStore(storage, again.secrets, { registry: again.connectionRegistry });
    await expect(callJql(again.transport, reloaded.target(id)!, query)).rejects.toThrow(/answer limit \(1 MiB\)/);
    reloaded.setAnswerLimit(id, undefined);
    await expect(callJql(again.transport, reloaded.target(id)!, query)).resolves.toBeDefined();
  });

  it('holds for the embedded connection too', async () => {
    const platform = createBrowserPlatform(location, answersOf(2));
    const store = new ConnectionsStore(memoryStorage(), platform.secrets, { registry: platform.connectionRegistry });
    store.setEmbedded(location.origin, { localAdmin: true });
    store.setAnswerLimit('embedded', MIB);
    await expect(callJql(platform.transport, store.target('embedded')!, query)).rejects.toThrow(/answer limit \(1 MiB\)/);
  });
});
