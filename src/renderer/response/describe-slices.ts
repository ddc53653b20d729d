/**
 * A large describe crosses from the parse worker to the window in slices. A message's structured
 * clone is rebuilt on the window's thread in one go when the message arrives: a describe of 100,000
 * models (19 MB) sent whole is one task of about a second there, during which the window is frozen
 * (issue 31, huge-describe). So the worker sends a describe of more than DESCRIBE_SLICE_NAMESPACES
 * namespaces as messages of at most that many namespaces each (each message is its own task on the
 * window's thread), then the rest of the describe; the window puts the slices back in place, in
 * their order, as they arrive.
 */
import type { DescribeApp, DescribeResult } from '../../shared/protocol.ts';
import { NamespaceCollector, rememberNamespaces } from '../monaco/describe-index.ts';

/** At most this many namespaces (models, controllers, collections) cross in one message. */
export const DESCRIBE_SLICE_NAMESPACES = 2_000;

const GROUPS = ['models', 'controllers', 'collections'] as const;
type Group = (typeof GROUPS)[number];

/** Consecutive namespaces of one group of one app, in the describe's order. */
export interface DescribeSlice {
  app: string;
  group: Group;
  entries: Array<[string, unknown]>;
}

const namespaceCount = (d: DescribeResult): number =>
  Object.values(d.apps).reduce((n, app) => n + GROUPS.reduce((m, g) => m + Object.keys(app[g] ?? {}).length, 0), 0);

/**
 * Worker side: the describe without its namespaces (`head`, to send last) and the slices that hold
 * them, each of at most `max` namespaces. A describe of at most `max` namespaces is not sliced.
 */
export function sliceDescribe(d: DescribeResult, max = DESCRIBE_SLICE_NAMESPACES): { head: DescribeResult; slices: DescribeSlice[] } {
  if (namespaceCount(d) <= max) return { head: d, slices: [] };
  const slices: DescribeSlice[] = [];
  const apps: Record<string, DescribeApp> = {};
  for (const [name, app] of Object.entries(d.apps)) {
    const emptied = { ...app };
    for (const group of GROUPS) {
      const all = Object.entries(app[group] ?? {});
      if (app[group]) emptied[group] = {};
      for (let at = 0; at < all.length; at += max) slices.push({ app: name, group, entries: all.slice(at, at + max) });
    }
    apps[name] = emptied;
  }
  return { head: { ...d, apps }, slices };
}

/**
 * Window side: collects the slices as they arrive, then puts them into the head sent last. The list
 * of the describe's namespaces (listNamespaces) is made slice by slice too, each part in its slice's
 * task: made at once by its first reader, it was one walk of 100,000 namespaces (issue 31).
 */
export class DescribeAssembler {
  private readonly groups = new Map<string, Record<string, unknown>>();
  private readonly namespaces = new NamespaceCollector();

  add(slice: DescribeSlice): void {
    this.namespaces.add(slice.app, slice.group, slice.entries);
    const key = JSON.stringify([slice.app, slice.group]);
    let into = this.groups.get(key);
    if (!into) this.groups.set(key, (into = {}));
    for (const [name, value] of slice.entries) {
      // An own key "__proto__" (JSON.parse makes one) stays a key, as the structured clone kept it.
      if (name === '__proto__') Object.defineProperty(into, name, { value, enumerable: true, writable: true, configurable: true });
      else into[name] = value;
    }
  }

  /** The head with every slice added so far in place (the head is changed and returned). */
  finish(head: DescribeResult): DescribeResult {
    let whole = true;
    for (const [key, entries] of this.groups) {
      const [app, group] = JSON.parse(key) as [string, Group];
      const target = head.apps[app];
      if (target) (target as unknown as Record<Group, Record<string, unknown>>)[group] = entries;
      else whole = false;
    }
    this.groups.clear();
    // A slice without its app in the head (never sent so) leaves the list to be made from the describe.
    if (whole) rememberNamespaces(head, this.namespaces.list());
    return head;
  }
}

/** A slice of the describe that the reply `id` carries; the reply itself comes after its slices. */
export interface DescribeSliceMessage {
  id: number;
  slice: DescribeSlice;
}

export const isDescribeSlice = (message: object): message is DescribeSliceMessage => 'slice' in message;

/**
 * Worker side: the messages to post for `reply`, in order: the slices of its describe when that
 * has many namespaces, then the reply with the describe's head.
 */
export function inSlices<R extends { id: number }>(reply: R, max = DESCRIBE_SLICE_NAMESPACES): Array<R | DescribeSliceMessage> {
  const read = (reply as { describe?: { describe: DescribeResult | null } }).describe;
  if (!read?.describe) return [reply];
  const { head, slices } = sliceDescribe(read.describe, max);
  return [...slices.map((slice) => ({ id: reply.id, slice })), { ...reply, describe: { ...read, describe: head } }];
}
