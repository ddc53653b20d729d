/**
 * What `jql-console run` prints and writes (stdout, JUnit, JSON report) never holds a credential
 * (issue 32.6): the value of a secret variable, of a variable a request sends as its bearer token
 * (a captured login token), and the token of `--user`, wherever it shows up (an assertion's actual
 * value, an error the server echoed), is replaced by the variable's name in braces.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { findVariables } from '../../shared/variables.ts';
import type { RunnableRequest } from '../../shared/collections/run.ts';

export class SecretValues {
  /** [the text to find, its replacement], longest first so a secret inside another is not half-replaced. */
  private pairs: Array<[string, string]> = [];

  private readonly names: ReadonlySet<string>;
  private readonly extra: Array<[string, string]>;

  constructor(names: ReadonlySet<string>, extra: Array<[string, string]> = []) {
    this.names = names;
    this.extra = extra;
  }

  /** The secret variables of a run: the environment's secrets and every variable used as a bearer. */
  static of(secrets: readonly string[], requests: readonly RunnableRequest[], extra: Array<[string, string]> = []): SecretValues {
    const names = new Set(secrets);
    for (const request of requests) {
      const bearer = request.file.options.bearer;
      if (bearer !== undefined) for (const use of findVariables(JSON.stringify(bearer))) names.add(use.name);
    }
    return new SecretValues(names, extra);
  }

  /** Takes the variables' current values (captures change them as the run goes). */
  update(variables: Readonly<Record<string, JsonValue>>): void {
    const found = new Map<string, string>();
    const add = (value: string, name: string): void => {
      if (value.length === 0) return;
      found.set(value, name);
      // The same value as it appears inside JSON text (an answer quoted in a message).
      const quoted = JSON.stringify(value).slice(1, -1);
      if (quoted !== value) found.set(quoted, name);
    };
    for (const [value, name] of this.extra) add(value, name);
    for (const name of this.names) {
      const value = variables[name];
      if (value === undefined || value === null) continue;
      add(typeof value === 'string' ? value : JSON.stringify(value), `{{${name}}}`);
    }
    this.pairs = [...found].sort((a, b) => b[0].length - a[0].length);
  }

  /** `value` with every secret replaced by its name; strings anywhere inside objects and arrays too. */
  hide<T>(value: T): T {
    if (this.pairs.length === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.pairs.reduce((text, [secret, name]) => text.split(secret).join(name), value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value instanceof Date || value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.walk(key) as string, this.walk(item)]));
  }
}
