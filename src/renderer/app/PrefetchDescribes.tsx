/**
 * Asks each connection the query tabs use for its describe in the background, so a window opened on
 * another view has the schema when its first query editor mounts. It starts once start-up is over
 * (state/editor-ready.ts): before, the describe's request and the work on its answer competed with
 * the parsing of Monaco's chunk (issue 31); the Query view's editor asks for its describes itself as
 * it mounts. Renders nothing; on its own so that its updates re-render nothing else.
 */
import type { JSX } from 'react';
import { useStartupSettled } from '../state/editor-ready.ts';
import { useTabDescribes } from '../state/use-describes.ts';

export function PrefetchDescribes(): JSX.Element | null {
  return useStartupSettled() ? <TabDescribes /> : null;
}

function TabDescribes(): null {
  useTabDescribes();
  return null;
}
