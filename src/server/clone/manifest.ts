/**
 * `clone-manifest.json`: where the copy came from and what it holds, for the person who opens it
 * later. It never holds a credential: the source is named by its base URL only, and the query is
 * the query file's content.
 */
import type { CloneManifest } from '../../shared/clone.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { isPlainObject } from '../query/normalize.ts';
import type { FileCopyReport } from './copy-files.ts';
import type { Prepared } from './prepare-rows.ts';
import type { RemoteServer } from './remote-server.ts';
import type { WalkResult } from './walk.ts';

export interface ManifestInput {
  options: { remote: RemoteServer; query: JsonValue; depth: number; maxRecords: number; withFiles: boolean };
  walked: WalkResult;
  prepared: Prepared;
  files: FileCopyReport;
  notes: string[];
  source: JsonValue;
  requests: number;
  redacted: string[];
}

const IDS_SHOWN = 20;

export function manifestOf(input: ManifestInput): CloneManifest {
  const { walked, prepared } = input;
  const counts: Record<string, number> = {};
  for (const row of prepared.rows) counts[row.model.key] = (counts[row.model.key] ?? 0) + 1;
  for (const document of prepared.documents) counts[document.collection.key] = (counts[document.collection.key] ?? 0) + 1;
  const notCopied: CloneManifest['notCopied'] = [];
  for (const failure of walked.failures) notCopied.push({ what: failure.spec.label, reason: `${failure.code}: ${failure.message}` });
  for (const [namespace, ids] of walked.missing) {
    const list = [...ids].sort((a, b) => a - b);
    const shown = list.slice(0, IDS_SHOWN).join(', ') + (list.length > IDS_SHOWN ? ` and ${list.length - IDS_SHOWN} more` : '');
    notCopied.push({ what: `${namespace} ${shown}`, reason: 'referenced by copied records, but the source did not answer them (deleted, or outside your row scope)' });
  }
  const incomplete = walked.incomplete.map(({ spec, reason, copied, sourceSaid }) => ({ model: spec.namespace, read: spec.label, reason, copied, sourceSaid }));
  for (const entry of incomplete) {
    const of = entry.sourceSaid !== null ? ` of the ${entry.sourceSaid} it said match` : '';
    notCopied.push({ what: `the rest of ${entry.read} (${entry.copied} record(s) read${of})`, reason: `${entry.reason}, so reading it stopped there` });
  }
  if (walked.truncated) notCopied.push({ what: `records past --max-records ${input.options.maxRecords}`, reason: 'the cap was reached, so the copy is partial' });
  for (const dropped of prepared.report.dropped) notCopied.push({ what: `${dropped.namespace} ${dropped.id}`, reason: dropped.reason });
  const unlisted = prepared.report.droppedCount - prepared.report.dropped.length;
  if (unlisted > 0) notCopied.push({ what: `${unlisted} more records`, reason: 'left out for reasons like the ones above' });
  for (const refused of prepared.report.refused) notCopied.push({ what: `${refused.namespace} ${refused.id} ${refused.field}`, reason: `the local model refuses the value (${refused.problem}); left empty` });
  for (const [field, records] of prepared.report.cutReferences) notCopied.push({ what: `${field} in ${records} record(s)`, reason: 'emptied: the referenced record is not in the copy' });
  for (const skipped of input.files.skipped) notCopied.push({ what: `the bytes of file "${skipped.name}" (${skipped.sha256.slice(0, 12)}…)`, reason: skipped.reason });
  const describe = isPlainObject(input.source) ? input.source : {};
  return {
    format: 1,
    source: {
      url: input.options.remote.baseUrl,
      workspace: typeof describe.workspace === 'string' ? describe.workspace : 'workspace',
      version: typeof describe.version === 'string' ? describe.version : null,
    },
    clonedAt: new Date().toISOString(),
    query: input.options.query,
    depth: input.options.depth,
    maxRecords: input.options.maxRecords,
    withFiles: input.options.withFiles,
    requests: input.requests,
    levels: walked.levels,
    counts,
    redacted: [...new Set([...input.redacted, ...prepared.report.redactedKeys])],
    emptied: [...prepared.report.emptied].map(([field, { reason, records }]) => ({ field, reason, records })),
    placeholders: [...prepared.report.placeholders].map(([field, { value, records }]) => ({ field, value, records })),
    files: { metadataOnly: input.files.metadataOnly, downloaded: input.files.downloaded, alreadyStored: input.files.alreadyStored },
    notCopied,
    incomplete,
    notes: input.notes,
  };
}
