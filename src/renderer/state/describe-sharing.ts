/**
 * How a describe fetched again takes the place of the one held (TanStack Query's `structuralSharing`).
 * By default the new answer is compared with the old one, object by object, on the window's thread,
 * to keep the parts that did not change: for a 100,000-model describe that is one walk of both, a
 * task of several hundred ms, each time the window gets the focus back after the describe went stale
 * (issue 31, huge-describe). A describe that crossed from the worker in slices (more than
 * DESCRIBE_SLICE_NAMESPACES namespaces) replaces the old one as it is; a smaller one keeps its
 * unchanged parts, so its schema is not built again for nothing.
 */
import { replaceEqualDeep } from '@tanstack/react-query';
import type { DescribeResult } from '../../shared/protocol.ts';
import { listNamespaces } from '../monaco/describe-index.ts';
import { DESCRIBE_SLICE_NAMESPACES } from '../response/describe-slices.ts';

export function shareDescribe(old: unknown, next: unknown): unknown {
  const describe = (next as { describe?: DescribeResult | null } | undefined)?.describe;
  // A sliced describe's list was made as its slices came (describe-slices.ts): counting it walks nothing.
  if (describe && listNamespaces(describe).length > DESCRIBE_SLICE_NAMESPACES) return next;
  return replaceEqualDeep(old, next);
}
