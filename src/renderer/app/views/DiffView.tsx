/**
 * Diff: the active editor tab's document on two connections (a local server and a deployment, or
 * one server as two users), side by side. Each side is an ordinary run, recorded in the history.
 */
import type { JSX } from 'react';
import { DiffPanel } from '../../features/diff/index.ts';
import { useServices, useStore } from '../../state/services.ts';
import { tabTitle } from '../../state/tabs-store.ts';
import { runSide } from '../run-diff-side.ts';
import { ViewHeader } from './ViewHeader.tsx';

export function DiffView(): JSX.Element {
  const services = useServices();
  const tabState = useStore(services.tabs);
  const { connections } = useStore(services.connections);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;
  const list = connections.map((c) => ({ id: c.id, name: c.name }));
  return (
    <div className="view-column">
      <ViewHeader title="Diff" hint="the same document on two connections" />
      <details className="diff-document">
        <summary>
          Document of the active tab: <strong>{tabTitle(active.text)}</strong> <span className="muted">({active.text.length} characters; edit it in the Query view)</span>
        </summary>
        <pre>{active.text}</pre>
      </details>
      <div className="view-scroll">
        <DiffPanel connections={list} document={active.text} run={(id, document) => runSide(services, id, document)} initialLeft={list[0]?.id} initialRight={list[1]?.id} />
      </div>
    </div>
  );
}
