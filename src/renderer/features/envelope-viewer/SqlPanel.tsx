/**
 * `__system__`: the SQL statements the request ran, with parameters and times (query_info_level).
 * Only the first SHOWN_SQL statements are listed, with a sentence saying how many more there are;
 * the boundary reads no more than those (count-caps.ts), so a misfit past them is not named. Of
 * those listed, only the ones in view are drawn (VirtualList.tsx).
 */
import type { JSX } from 'react';
import type { SystemInfo } from '../../../shared/protocol.ts';
import { formatMs } from '../../components/format.ts';
import { VisibleControls } from '../../components/visible-controls.tsx';
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { cutSentence, firstOf, SHOWN_SQL } from './count-bounds.ts';
import { CutNotice } from './CutNotice.tsx';
import { VirtualList } from './VirtualList.tsx';

/** A statement's height before it is measured: its number, one line of SQL and one of parameters. */
const STATEMENT_HEIGHT = 94;

export function SqlPanel(props: {
  system: SystemInfo | null;
  /** Statements past the first SHOWN_SQL, counted but not read by the boundary. */
  unread?: number;
  level: 0 | 1 | 2;
  onAskForSql: () => void;
}): JSX.Element {
  const { system } = props;
  if (!system) {
    return (
      <div className="empty">
        <p>The server sends its SQL only when asked (query_info_level).</p>
        <button type="button" className="btn btn-primary btn-small" onClick={props.onAskForSql}>
          Ask for SQL and run again
        </button>
      </div>
    );
  }
  return (
    <div className="sql" data-testid="sql-panel">
      <p className="sql-summary">
        {system.queries} {system.queries === 1 ? 'statement' : 'statements'} · {formatMs(system.time_ms)} in the database
      </p>
      {system.sql ? (
        <SqlList sql={system.sql} unread={props.unread ?? 0} />
      ) : (
        props.level < 2 && (
          <button type="button" className="btn btn-small" onClick={props.onAskForSql}>
            Show each statement (level 2) and run again
          </button>
        )
      )}
    </div>
  );
}

function SqlList(props: { sql: NonNullable<SystemInfo['sql']>; unread: number }): JSX.Element {
  const { shown, cut: drawnCut } = firstOf(props.sql, SHOWN_SQL);
  const cut = drawnCut + props.unread;
  return (
    <>
      <CutNotice sentence={cutSentence(shown.length, cut, 'statements', 'the Raw view')} />
      <VirtualList
        as="ol"
        className="sql-list"
        items={shown}
        estimateHeight={STATEMENT_HEIGHT}
        renderItem={(s, i) => ({
          className: 'sql-item',
          testId: 'sql-statement',
          content: (
            <>
              <div className="sql-meta muted">
                #{i + 1} · {formatMs(s.time_ms)}
              </div>
              <pre className="sql-text">{s.sql}</pre>
              {/* Parameters are data: a bidi or zero-width character is drawn visibly, a 64-bit id by its digits. */}
              {s.params.length > 0 && (
                <pre className="sql-params">
                  params: <VisibleControls text={stringifyKeepingNumbers(s.params)} />
                </pre>
              )}
            </>
          ),
        })}
      />
    </>
  );
}
