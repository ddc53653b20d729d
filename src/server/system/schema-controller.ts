/**
 * The built-in `system.Schema` controller. `describe` is open to anyone in development mode and to
 * signed-in users in production mode (docs/protocol.md "Permissions and row scopes").
 */
import type { ControllerClassLike, ServerState } from '../context.ts';
import { describeWorkspace } from './describe.ts';

export function schemaController(state: ServerState): ControllerClassLike {
  return class SchemaController {
    static permissions = { describe: [state.production ? 'authenticated' : 'anyone'] };
    static readOnly = ['describe'];

    on_describe(): { payload: ReturnType<typeof describeWorkspace> } {
      return { payload: describeWorkspace(state) };
    }
  } as unknown as ControllerClassLike;
}
