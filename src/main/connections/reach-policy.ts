/**
 * May main reach this connection's origin for the page? (issue 21.4) A public address: yes. An
 * address on this computer or its network (loopback, link-local, private; a name that resolves to
 * one): only the servers main started itself (the embedded one, the local copies), or an origin the user allowed for a connection in a dialog that
 * main shows, never the page, so a script in the page cannot aim main at a local service. The user's
 * yes is kept under userData; a no lasts for this run.
 */
import type { TextFile } from '../text-file.ts';
import { hostKind, isPublicAddress } from './address-policy.ts';
import type { RegisteredConnection } from './connection-registry.ts';

export class ReachRefusedError extends Error {
  override readonly name = 'ReachRefusedError';
}

export interface ReachDeps {
  /** The addresses a name resolves to (Electron: session.resolveHost, the network stack that will connect). */
  resolve(hostname: string): Promise<string[]>;
  /** Asks the user in main's own dialog whether the console may reach `origin` (at `addresses`). */
  ask(origin: string, addresses: string[]): Promise<boolean>;
  /** The origins the user allowed, one JSON array. */
  file: TextFile;
}

/** What a check decided: whether a local address may be reached (a socket re-checks each lookup with it). */
export interface Reach {
  allowLocal: boolean;
}

export class ReachPolicy {
  private allowed: Set<string> | null = null;
  private readonly refused = new Set<string>();
  private readonly asking = new Map<string, Promise<boolean>>();
  private readonly deps: ReachDeps;

  constructor(deps: ReachDeps) {
    this.deps = deps;
  }

  async check(connection: RegisteredConnection): Promise<Reach> {
    // Main started these servers itself; the page cannot register such a connection (registry).
    if (connection.kind === 'embedded' || connection.kind === 'local') return { allowLocal: true };
    const hostname = new URL(connection.origin).hostname;
    const kind = hostKind(hostname);
    if (kind === 'public-ip') return { allowLocal: false };
    let addresses = [hostname.replace(/^\[|\]$/g, '')];
    if (kind === 'name') {
      addresses = await this.deps.resolve(hostname);
      if (addresses.length > 0 && addresses.every(isPublicAddress)) return { allowLocal: false };
    }
    if ((await this.allowedOrigins()).has(connection.origin)) return { allowLocal: true };
    if (!(await this.askOnce(connection.origin, addresses))) {
      throw new ReachRefusedError(
        `${connection.origin} is an address on this computer or its network (${addresses.join(', ') || 'unresolved'}): the console reaches it only after you allow it, and you did not.`,
      );
    }
    return { allowLocal: true };
  }

  /** One dialog per origin at a time; a no is not asked again in this run. */
  private askOnce(origin: string, addresses: string[]): Promise<boolean> {
    if (this.refused.has(origin)) return Promise.resolve(false);
    let pending = this.asking.get(origin);
    if (!pending) {
      pending = this.deps.ask(origin, addresses).then(async (yes) => {
        this.asking.delete(origin);
        if (!yes) this.refused.add(origin);
        else await this.remember(origin);
        return yes;
      });
      this.asking.set(origin, pending);
    }
    return pending;
  }

  private async allowedOrigins(): Promise<Set<string>> {
    if (this.allowed) return this.allowed;
    let origins: string[] = [];
    try {
      const parsed = JSON.parse((await this.deps.file.read()) ?? '[]') as unknown;
      if (Array.isArray(parsed)) origins = parsed.filter((o): o is string => typeof o === 'string');
    } catch {
      // Unreadable: ask again.
    }
    this.allowed ??= new Set(origins);
    return this.allowed;
  }

  private async remember(origin: string): Promise<void> {
    const allowed = await this.allowedOrigins();
    allowed.add(origin);
    await this.deps.file.write(JSON.stringify([...allowed]));
  }
}
