/**
 * Each connection's answer limit as the browser transport applies it: the connections store tells it
 * about every connection through the same registry port it tells main about them in the desktop app
 * (ConnectionRegistryPort), so a limit set in the connection form holds in both modes. A connection
 * with no limit of its own reads up to the default (64 MiB).
 */
import type { ConnectionSpec } from '../../shared/bridge.ts';

export class AnswerLimits {
  private readonly limits = new Map<string, number>();

  register(spec: ConnectionSpec): void {
    if (spec.answerLimit === undefined) this.limits.delete(spec.id);
    else this.limits.set(spec.id, spec.answerLimit);
  }

  forget(id: string): void {
    this.limits.delete(id);
  }

  /** The connection's own limit, or undefined when it set none. */
  of(connectionId: string): number | undefined {
    return this.limits.get(connectionId);
  }
}
