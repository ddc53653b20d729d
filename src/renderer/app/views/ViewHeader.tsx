/** The bar on top of a view: its name, what it does in a few words, and its connection picker. */
import type { JSX, ReactNode } from 'react';
import { DeploymentBadge } from '../../components/DeploymentBadge.tsx';
import type { Connection } from '../../state/connections-store.ts';

export function ViewHeader(props: { title: string; hint?: string; children?: ReactNode }): JSX.Element {
  return (
    <header className="view-head" data-testid="view-head">
      <h2 className="view-title">{props.title}</h2>
      {props.hint && (
        <span className="muted view-hint" title={props.hint}>
          {props.hint}
        </span>
      )}
      <span className="toolbar-spacer" />
      {props.children}
    </header>
  );
}

export function ConnectionPicker(props: { label?: string; value: string; connections: Connection[]; onChange: (id: string) => void }): JSX.Element {
  const picked = props.connections.find((c) => c.id === props.value);
  return (
    <label className="toolbar-field" title="The server this view works on">
      {/* The select is named by its aria-label, so a narrow header may drop this word. */}
      <span className="muted compact-hidden">{props.label ?? 'Connection'}</span>
      <select className="conn-select" aria-label={props.label ?? 'Connection'} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.connections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
            {c.signedIn || c.kind === 'embedded' ? '' : ' (not signed in)'}
          </option>
        ))}
      </select>
      {picked && <DeploymentBadge deployment={picked.deployment} readOnly={picked.readOnly} />}
    </label>
  );
}
