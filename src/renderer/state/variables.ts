/**
 * `{{name}}` variables as the console uses them: the substitution itself is shared with
 * `jql-console run` (src/shared/variables.ts); the environments are kept with the saved queries,
 * and the editor and the run read them through a VariableSource.
 */
import type { JsonValue } from '../../shared/protocol.ts';

export * from '../../shared/variables.ts';

/** A connection's variables, and a way to hear that they changed (the saved queries store is one). */
export interface VariableSource {
  variables(connectionId: string): Record<string, JsonValue>;
  subscribe(listener: () => void): () => void;
}
