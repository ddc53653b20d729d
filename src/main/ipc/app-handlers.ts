/** `app:get-info`: versions, the embedded server's status and the recent workspaces. */
import type { AppInfo } from '../../shared/bridge.ts';
import type { Handlers } from './register.ts';

export function appHandlers(deps: { getInfo: () => AppInfo }): Pick<Handlers, 'app:get-info'> {
  return { 'app:get-info': () => deps.getInfo() };
}
