/**
 * Collection folders (docs/collections.md) in the Saved view: the folders the embedded server serves,
 * one as a tree of requests, a request's detail with its assertions table, and runs of a request, a
 * folder or everything against the Saved view's connection, with pass/fail per assertion. The folder
 * is read again every couple of seconds, so edits made outside the console (a `git pull`) show up.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type JSX } from 'react';
import type { JsonValue } from '../../../shared/protocol.ts';
import type { RequestResult, RunnableRequest } from '../../../shared/collections/run.ts';
import { RefusedWrite } from '../../components/RunAnyway.tsx';
import panel from '../../components/panel.module.css';
import { folderKeys } from '../../state/query-keys.ts';
import type { Refusal } from '../../state/safety/write-guard.ts';
import { NoFoldersError, type FolderSnapshot, type FoldersClient } from './folders-client.ts';
import { RequestDetail } from './RequestDetail.tsx';
import { runFolder, type FolderRunInput } from './run-folder.ts';
import styles from './collection-folders.module.css';

/** A request file a document was opened from: Ctrl/Cmd+S in its tab writes it back there. */
export interface OpenedRequest {
  folderId: string;
  path: string;
  queryInfoLevel: 0 | 1 | 2;
}

export interface CollectionFoldersPanelProps {
  client: FoldersClient;
  /** The connection a run goes to (the Saved view's), or null when there is none. */
  runContext(): Omit<FolderRunInput, 'requests' | 'variables' | 'allowWrite' | 'signal' | 'onResult'> | null;
  onOpen(document: string, from: OpenedRequest): void;
  /** The folder picked (kept by the app: it is the one Ctrl/Cmd+S saves into); null: the first. */
  openFolder: string | null;
  onOpenFolder(id: string): void;
  pollMs?: number;
}

type Scope = { kind: 'all' } | { kind: 'folder'; prefix: string } | { kind: 'request'; path: string };

function inScope(request: RunnableRequest, scope: Scope): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'folder') return request.path.startsWith(`${scope.prefix}/`);
  return request.path === scope.path;
}

export function CollectionFoldersPanel({ client, runContext, onOpen, openFolder, onOpenFolder, pollMs = 2000 }: CollectionFoldersPanelProps): JSX.Element {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: folderKeys.list(), queryFn: () => client.list(), retry: false });
  // A folder picked earlier that is gone (renamed on disk) falls back to the first one.
  const folderId = (list.data?.some((f) => f.id === openFolder) ? openFolder : null) ?? list.data?.[0]?.id ?? null;
  const folder = useQuery({
    queryKey: folderKeys.folder(folderId ?? ''),
    queryFn: () => client.read(folderId as string),
    enabled: folderId !== null,
    refetchInterval: pollMs,
  });
  const [selected, setSelected] = useState<string | null>(null);
  const [environment, setEnvironment] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [results, setResults] = useState<Record<string, RequestResult>>({});
  const [running, setRunning] = useState(false);
  const [refusal, setRefusal] = useState<{ refusal: Refusal; scope: Scope } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const snapshot = folder.data;
  const envName = environment ?? snapshot?.defaultEnvironment ?? snapshot?.environments[0]?.name ?? null;
  const env = snapshot?.environments.find((e) => e.name === envName) ?? null;
  const groups = useMemo(() => groupByFolder(snapshot), [snapshot]);

  if (list.error instanceof NoFoldersError) {
    return (
      <section className={styles.section} aria-label="Collection folders">
        <h3 className={panel.title}>Collection folders</h3>
        <p className={panel.hint}>
          Collections kept as files next to your code open here: in the desktop app with File › Open Collection Folder…, in browser mode when the console runs
          from <code>jql-console serve --local-admin --collections DIR</code> (<code>npm start</code> serves <code>examples/</code>). In CI, run them with{' '}
          <code>npx jql-console run DIR</code>.
        </p>
      </section>
    );
  }

  const run = async (scope: Scope, allowWrite = false) => {
    if (!snapshot) return;
    const context = runContext();
    if (!context) return setMessage('Pick a connection above to run against.');
    const variables: Record<string, JsonValue> = { ...(env?.variables ?? {}) };
    for (const name of env?.secrets ?? []) if (secrets[name] !== undefined && secrets[name] !== '') variables[name] = secrets[name];
    const requests = snapshot.requests.filter((r) => inScope(r, scope));
    setRefusal(null);
    setMessage(null);
    setRunning(true);
    abort.current = new AbortController();
    setResults((previous) => Object.fromEntries(Object.entries(previous).filter(([path]) => !requests.some((r) => r.path === path))));
    try {
      const outcome = await runFolder({
        ...context,
        requests,
        variables,
        redactions: (env?.secrets ?? []).flatMap((name) => (secrets[name] ? [{ variable: name, value: secrets[name] as string }] : [])),
        allowWrite,
        signal: abort.current.signal,
        onResult: (result) => setResults((previous) => ({ ...previous, [result.path]: result })),
      });
      if ('refused' in outcome) setRefusal({ refusal: outcome.refused, scope });
      else setMessage(`${outcome.report.passed} passed, ${outcome.report.failed} failed${outcome.report.skipped ? `, ${outcome.report.skipped} not run` : ''}.`);
    } finally {
      setRunning(false);
    }
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const imported = await client.importExport(await file.text());
      await queryClient.invalidateQueries({ queryKey: folderKeys.list() });
      setMessage(`Imported ${imported.map((f) => `"${f.name}" into ${f.folder} (${f.requests} request${f.requests === 1 ? '' : 's'})`).join(', ')}.`);
      if (imported[0]) onOpenFolder(imported[0].folder);
    } catch (error) {
      setMessage(`${file.name} was not imported: ${(error as Error).message}`);
    }
  };

  const save = async (path: string, text: string) => {
    if (!folderId) return;
    const next = await client.writeRequest(folderId, path, text);
    queryClient.setQueryData(folderKeys.folder(folderId), next);
  };

  const approve = async (path: string, approved: JsonValue) => {
    if (!folderId) return;
    const next = await client.writeSnapshot(folderId, path, approved);
    queryClient.setQueryData(folderKeys.folder(folderId), next);
    // The approved answer is the snapshot now: its result no longer stands for a failure.
    setResults((previous) => {
      const result = previous[path];
      if (!result?.snapshot) return previous;
      return { ...previous, [path]: { ...result, passed: result.assertions.every((a) => a.passed) && result.error === undefined, snapshot: { ...result.snapshot, state: 'updated' } } };
    });
  };

  const selectedRequest = snapshot?.requests.find((r) => r.path === selected) ?? null;
  return (
    <section className={styles.section} aria-label="Collection folders">
      <div className={panel.row}>
        <h3 className={panel.title}>Collection folders</h3>
        {list.data && list.data.length > 0 && (
          <select className={panel.control} aria-label="Collection folder" value={folderId ?? ''} onChange={(e) => onOpenFolder(e.target.value)}>
            {list.data.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name} ({f.id})
              </option>
            ))}
          </select>
        )}
        {snapshot && snapshot.environments.length > 0 && (
          <select className={panel.control} aria-label="Run environment" value={envName ?? ''} onChange={(e) => setEnvironment(e.target.value)}>
            {snapshot.environments.map((e) => (
              <option key={e.name}>{e.name}</option>
            ))}
          </select>
        )}
        {env?.secrets.map((name) => (
          <input key={name} className={panel.control} type="password" aria-label={`Secret ${name}`} placeholder={`${name} (kept in memory)`} value={secrets[name] ?? ''} onChange={(e) => setSecrets({ ...secrets, [name]: e.target.value })} />
        ))}
        <button type="button" className={`${panel.button} ${panel.primary}`} disabled={!snapshot || running} onClick={() => void run({ kind: 'all' })}>
          Run all
        </button>
        {running && (
          <button type="button" className={panel.button} onClick={() => abort.current?.abort()}>
            Cancel run
          </button>
        )}
        <label className={panel.button}>
          Import an export as folders…
          <input
            type="file"
            accept="application/json,.json"
            hidden
            aria-label="Import a saved-queries export as folders"
            onChange={(e) => {
              void importFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      {list.error && !(list.error instanceof NoFoldersError) && <p className={panel.error}>{list.error.message}</p>}
      {list.data?.length === 0 && <p className={panel.hint}>No collection under the folder this server serves: add a folder holding a jql-collection.json.</p>}
      {folder.error && <p className={panel.error}>{folder.error.message}</p>}
      {snapshot?.problems.map((problem) => (
        <p key={problem} className={panel.error}>
          {problem}
        </p>
      ))}
      {refusal && <RefusedWrite sentence={refusal.refusal.sentence} confirmName={refusal.refusal.confirmName} onRunAnyway={() => void run(refusal.scope, true)} />}
      {message && (
        <p role="status" className={panel.hint} data-testid="folders-message">
          {message}
        </p>
      )}
      {snapshot && (
        <div className={styles.layout}>
          <ul className={styles.tree} aria-label={`Requests of ${snapshot.name}`}>
            {groups.map(({ folderPath, requests }) => (
              <li key={folderPath || '.'}>
                {folderPath && (
                  <div className={`${styles.treeRow} ${styles.treeFolder}`} data-folder={folderPath}>
                    <span>{folderPath}/</span>
                    <button type="button" className={`${panel.button} ${panel.buttonCompact}`} disabled={running} onClick={() => void run({ kind: 'folder', prefix: folderPath })}>
                      Run folder
                    </button>
                  </div>
                )}
                <ul className={panel.list}>
                  {requests.map((request) => {
                    const result = results[request.path];
                    return (
                      <li key={request.path} className={`${styles.treeRow} ${selected === request.path ? styles.selected : ''}`} data-request={request.path}>
                        <button type="button" className={panel.plainButton} onClick={() => setSelected(request.path)}>
                          {request.name}
                        </button>
                        <span>
                          {result && <span className={result.passed ? styles.pass : styles.fail} data-testid="request-outcome">{result.passed ? '✓' : '✗'} {result.status || ''}</span>}{' '}
                          <button type="button" className={`${panel.button} ${panel.buttonCompact}`} disabled={running} aria-label={`Run ${request.name}`} onClick={() => void run({ kind: 'request', path: request.path })}>
                            Run
                          </button>
                        </span>
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
          {selectedRequest ? (
            <RequestDetail
              key={`${selectedRequest.path}`}
              request={selectedRequest}
              result={results[selectedRequest.path] ?? null}
              onSave={save}
              onApprove={approve}
              onOpen={(document) => folderId && onOpen(document, { folderId, path: selectedRequest.path, queryInfoLevel: selectedRequest.file.options.queryInfoLevel ?? 0 })}
            />
          ) : (
            <p className={panel.hint}>Pick a request to see its document and edit its assertions.</p>
          )}
        </div>
      )}
    </section>
  );
}

/** The requests under each folder path, in run order ('' is the collection's own folder). */
function groupByFolder(snapshot: FolderSnapshot | undefined): Array<{ folderPath: string; requests: RunnableRequest[] }> {
  const groups: Array<{ folderPath: string; requests: RunnableRequest[] }> = [];
  for (const request of snapshot?.requests ?? []) {
    const folderPath = request.path.includes('/') ? request.path.slice(0, request.path.lastIndexOf('/')) : '';
    const last = groups[groups.length - 1];
    if (last && last.folderPath === folderPath) last.requests.push(request);
    else groups.push({ folderPath, requests: [request] });
  }
  return groups;
}
