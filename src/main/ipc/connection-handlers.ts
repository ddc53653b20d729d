/** `connections:*`: the page tells main which connections exist; main keeps the registry (connections/). */
import type { ConnectionRegistry } from '../connections/connection-registry.ts';
import type { Handlers } from './register.ts';

export function connectionHandlers(registry: Pick<ConnectionRegistry, 'register' | 'forget'>): Pick<Handlers, 'connections:register' | 'connections:forget'> {
  return {
    'connections:register': (spec) => registry.register(spec),
    'connections:forget': (id) => registry.forget(id),
  };
}
