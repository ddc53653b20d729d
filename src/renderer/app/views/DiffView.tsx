/**
 * Diff: the active editor tab's document on two connections (a local server and a deployment), or
 * on one connection as two identities (what a role changes). Each side is an ordinary run,
 * recorded in the history. Diff never writes: a document that would change data is refused with
 * the reason, whatever the connections' kinds.
 */
import { useMemo, useState, type JSX } from 'react';
import { DiffPanel } from '../../features/diff/index.ts';
import { classifyTemplate } from '../../state/safety/classify-document.ts';
import { refuseInDiff } from '../../state/safety/write-guard.ts';
import { useServices, useStore } from '../../state/services.ts';
import { tabTitle } from '../../state/tabs-store.ts';
import { useDescribes } from '../../state/use-describes.ts';
import { explainSide, runSide, type DiffSideTarget } from '../run-diff-side.ts';
import { DEMO_WORKSPACE } from './demo-users.ts';
import { baseIdentities, DiffIdentities, type DiffIdentity } from './DiffIdentities.tsx';
import { ConnectionPicker, ViewHeader } from './ViewHeader.tsx';

type Mode = 'connections' | 'users';

export function DiffView(): JSX.Element {
  const services = useServices();
  const tabState = useStore(services.tabs);
  const { connections } = useStore(services.connections);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;
  const [mode, setMode] = useState<Mode>('connections');
  const [usersOn, setUsersOn] = useState(connections[0]?.id ?? '');
  // Identities added per connection, in memory for this window only.
  const [added, setAdded] = useState<Record<string, DiffIdentity[]>>({});
  const describes = useDescribes(connections);
  const describeOf = (id: string) => describes.get(id)?.describe ?? null;

  const userConnection = connections.find((c) => c.id === usersOn) ?? connections[0];
  const identities = useMemo(() => (userConnection ? [...baseIdentities(userConnection), ...(added[userConnection.id] ?? [])] : []), [userConnection, added]);

  const sides =
    mode === 'connections'
      ? connections.map((c) => ({ id: c.id, name: c.name }))
      : identities.map((i) => ({ id: i.id, name: `${userConnection!.name} as ${i.label}` }));
  const refusalFor = (leftId: string, rightId: string): string | null => {
    const ids = mode === 'connections' ? [leftId, rightId] : [userConnection?.id ?? ''];
    for (const id of ids) {
      const refusal = refuseInDiff(classifyTemplate(active.text, describeOf(id)));
      if (refusal) return refusal;
    }
    return null;
  };
  /** One identity of "same connection, two users" as a side to run. */
  const identitySide = (sideId: string): DiffSideTarget => {
    const identity = identities.find((i) => i.id === sideId);
    const label = `${userConnection!.name} as ${identity?.label ?? sideId}`;
    // A seen-as identity runs with the connection's own sign-in (an admin's), the user named in the document.
    if (identity?.seeAs !== undefined) return { connectionId: userConnection!.id, label, seeAs: identity.seeAs, describe: describeOf(userConnection!.id) };
    const token = identity?.id === 'own' ? undefined : (identity?.token ?? null);
    return { connectionId: userConnection!.id, label, token, describe: describeOf(userConnection!.id) };
  };
  const run = (sideId: string, document: string) => {
    if (mode === 'connections') return runSide(services, { connectionId: sideId, describe: describeOf(sideId) }, document);
    return runSide(services, identitySide(sideId), document);
  };
  const explains = mode === 'users' && (describeOf(userConnection?.id ?? '')?.extensions ?? []).includes('whyNot');
  const explain = (sideId: string, section: string | null, id: number) => explainSide(services, identitySide(sideId), active.text, section, id);

  return (
    <div className="view-column">
      <ViewHeader title="Diff" hint={mode === 'connections' ? 'the same document on two connections' : 'the same read as two users'}>
        <span role="radiogroup" aria-label="Compare" className="toolbar-row">
          <label>
            <input type="radio" name="diff-mode" checked={mode === 'connections'} onChange={() => setMode('connections')} /> Two connections
          </label>
          <label>
            <input type="radio" name="diff-mode" checked={mode === 'users'} onChange={() => setMode('users')} /> Same connection, two users
          </label>
        </span>
        {mode === 'users' && userConnection && <ConnectionPicker label="Diff connection" value={userConnection.id} connections={connections} onChange={setUsersOn} />}
      </ViewHeader>
      <details className="diff-document">
        <summary>
          Document of the active tab: <strong>{tabTitle(active.text)}</strong> <span className="muted">({active.text.length} characters; edit it in the Query view)</span>
        </summary>
        <pre>{active.text}</pre>
      </details>
      {mode === 'users' && userConnection && (
        <DiffIdentities
          connection={userConnection}
          demo={userConnection.kind === 'embedded' && describeOf(userConnection.id)?.workspace === DEMO_WORKSPACE}
          seeAs={(describeOf(userConnection.id)?.extensions ?? []).includes('seeAs')}
          identities={identities}
          onAdd={(identity) => setAdded((all) => ({ ...all, [userConnection.id]: [...(all[userConnection.id] ?? []).filter((i) => i.id !== identity.id), identity] }))}
        />
      )}
      <div className="view-scroll">
        <DiffPanel
          key={mode === 'connections' ? 'connections' : `users:${userConnection?.id}`}
          connections={sides}
          sideNoun={mode === 'connections' ? 'connection' : 'identity'}
          document={active.text}
          run={run}
          refusalFor={refusalFor}
          {...(explains ? { explain } : {})}
          initialLeft={sides[0]?.id}
          initialRight={sides[1]?.id}
        />
      </div>
    </div>
  );
}
