/** A connection's kind as a colour and a word ("PRODUCTION"), with "read-only" when that mode is on. */
import type { JSX } from 'react';
import type { DeploymentKind } from '../state/safety/connection-kinds.ts';

export function DeploymentBadge(props: { deployment: DeploymentKind; readOnly?: boolean; testId?: string }): JSX.Element {
  return (
    <span className="run-target" data-testid={props.testId}>
      <span className={`deploy-badge deploy-${props.deployment}`} title={`A ${props.deployment} connection`}>
        {props.deployment}
      </span>
      {props.readOnly && (
        <span className="deploy-readonly" title="Mutating requests are refused unless run once anyway">
          read-only
        </span>
      )}
    </span>
  );
}
