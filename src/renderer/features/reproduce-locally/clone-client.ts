/**
 * How the console asks for a local copy of a remote tab ("Reproduce locally"): in a browser, its own
 * server's local-admin route (`/local/clones`, as the embedded connection); in the desktop app,
 * main through the bridge. Both answer the same job statuses (shared/clone.ts).
 */
import type { JqlBridge } from '../../../shared/bridge.ts';
import type { CloneJobStatus, CloneRequest } from '../../../shared/clone.ts';
import { credentialParts, type ServerTarget } from '../../transport/jql-client.ts';
import type { Transport } from '../../transport/transport.ts';
import { readCloneStatus } from './clone-status.ts';

export interface CloneClient {
  start(request: CloneRequest): Promise<string>;
  status(id: string): Promise<CloneJobStatus>;
  cancel(id: string): Promise<void>;
}

/** Browser mode: the server that served the page, reached as its embedded connection (the local admin). */
export function routeCloneClient(transport: Transport, embedded: () => ServerTarget | null): CloneClient {
  const call = async (path: string, body?: unknown): Promise<unknown> => {
    const target = embedded();
    if (!target) throw new Error('The console\'s own server is not running.');
    const url = `${target.baseUrl}/local/clones${path}`;
    // Browser mode: the page is the local admin through its HttpOnly launch cookie.
    const credential = credentialParts(target, url);
    const response = await transport.send({
      connectionId: target.connectionId,
      url,
      method: body === undefined ? 'GET' : 'POST',
      ...credential,
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...credential.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(new TextDecoder().decode(response.body));
    } catch {
      // An answer that is not JSON is reported by its status below.
    }
    if (response.status >= 400) {
      const errors = (parsed as { __errors__?: Array<{ message?: unknown }> } | null)?.__errors__;
      const message = typeof errors?.[0]?.message === 'string' ? errors[0].message : `The console's server answered ${response.status}.`;
      throw new Error(response.status === 404 && !errors ? 'This server cannot make local copies (start it with --local-admin).' : message);
    }
    return parsed;
  };
  return {
    async start(request) {
      const answer = (await call('', request)) as { id?: unknown } | null;
      if (typeof answer?.id !== 'string') throw new Error('The console\'s server did not start the copy.');
      return answer.id;
    },
    status: async (id) => readCloneStatus(await call(`/${encodeURIComponent(id)}`)),
    async cancel(id) {
      await call(`/${encodeURIComponent(id)}/cancel`, {});
    },
  };
}

/** Desktop app: main runs the clone and serves the copy. */
export function bridgeCloneClient(bridge: Pick<JqlBridge, 'cloneStart' | 'cloneStatus' | 'cloneCancel'>): CloneClient {
  return {
    start: async (request) => (await bridge.cloneStart(request)).id,
    status: async (id) => readCloneStatus(await bridge.cloneStatus(id)),
    async cancel(id) {
      await bridge.cloneCancel(id);
    },
  };
}
