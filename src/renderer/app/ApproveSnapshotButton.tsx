/**
 * "Approve as snapshot" in the Query view, for a tab saved as a request of a collection folder: its
 * last answer becomes the request's approved snapshot (docs/collections.md "Snapshots"), written as
 * the runner would write it (the request's `ignore` paths left out, the connection's variables written
 * as their names, so no token or password lands in the file).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JSX } from 'react';
import type { Redaction } from '../../shared/collections/snapshot.ts';
import { folderKeys } from '../state/query-keys.ts';
import { useServices, useStore } from '../state/services.ts';
import { approvedSnapshot } from './approved-snapshot.ts';
import { useWorkbench } from './workbench-context.ts';

export function ApproveSnapshotButton(): JSX.Element | null {
  const services = useServices();
  const { folders } = useWorkbench();
  const queryClient = useQueryClient();
  const tabState = useStore(services.tabs);
  const results = useStore(services.results);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0];
  const result = active ? results[active.id] : undefined;
  const target = active?.savedAs?.kind === 'folder' ? active.savedAs : null;
  const approve = useMutation({
    mutationFn: async () => {
      if (!active || !target || result?.status !== 'done') throw new Error('Run the request first: its answer is what gets approved.');
      const folder = await folders.read(target.folderId);
      const request = folder.requests.find((r) => r.path === target.path);
      if (!request) throw new Error(`${target.path} is no longer in the collection.`);
      const text = await result.raw.text();
      const redactions: Redaction[] = Object.entries(services.variables.variables(active.connectionId)).flatMap(([variable, value]) =>
        typeof value === 'string' ? [{ variable, value }] : [],
      );
      const next = await folders.writeSnapshot(target.folderId, target.path, approvedSnapshot(text, request.file.snapshot ?? {}, redactions));
      // The Saved view compares with what it last read: it must not run against the folder as it was.
      queryClient.setQueryData(folderKeys.folder(target.folderId), next);
      return target.path;
    },
    onSuccess: (path) => services.toasts.show(`Approved the answer as the snapshot of ${path}.`, 'info', 5000),
    onError: (error) => services.toasts.show(`Not approved: ${(error as Error).message}`, 'error', 8000),
  });
  if (!target) return null;
  return (
    <button
      type="button"
      className="btn btn-small"
      disabled={result?.status !== 'done' || approve.isPending}
      onClick={() => approve.mutate()}
      title={`Write this answer as the approved snapshot of ${target.path}; later runs compare with it`}
    >
      Approve as snapshot
    </button>
  );
}
