/**
 * The two retrieve scenarios, as each server under test is asked them: a filtered, ordered page with
 * an offset, and one record by id. Every request draws a random status, offset or id, the same way for
 * every server.
 */
import type { Request } from 'autocannon';

export type Target = 'jql' | 'handwritten' | 'handwritten-post' | 'json-server';
export type ScenarioName = 'page' | 'one';

const STATUSES = ['open', 'pending', 'closed'];
const pickStatus = (): string => STATUSES[Math.floor(Math.random() * STATUSES.length)] as string;
const pickOffset = (): number => Math.floor(Math.random() * 1000);

export function requestFor(target: Target, scenario: ScenarioName, items: number): () => Request {
  const pickId = (): number => 1 + Math.floor(Math.random() * items);
  const jql = (query: unknown): Request => ({ method: 'POST', path: '/jql', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) });
  if (scenario === 'page') {
    switch (target) {
      case 'jql':
        return () =>
          jql({
            __meta__: { namespace: 'bench.Item', intent: 'retrieve', filter: { status: pickStatus(), priority__gte: 3 }, ordering: ['priority'], limit: 20, offset: pickOffset() },
          });
      case 'handwritten':
        return () => ({ method: 'GET', path: `/items?status=${pickStatus()}&priority_gte=3&limit=20&offset=${pickOffset()}` });
      case 'handwritten-post':
        return () => ({ method: 'POST', path: '/items/query', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: pickStatus(), priority_gte: 3, limit: 20, offset: pickOffset() }) });
      case 'json-server':
        return () => ({ method: 'GET', path: `/items?status=${pickStatus()}&priority_gte=3&_sort=priority,id&_order=asc,asc&_start=${pickOffset()}&_limit=20` });
    }
  }
  switch (target) {
    case 'jql':
      return () => jql({ __meta__: { namespace: 'bench.Item', intent: 'retrieveOne', uniqueObject: { id: pickId() } } });
    case 'handwritten':
    case 'json-server':
      return () => ({ method: 'GET', path: `/items/${pickId()}` });
    case 'handwritten-post':
      return () => ({ method: 'POST', path: '/items/one', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: pickId() }) });
  }
}
