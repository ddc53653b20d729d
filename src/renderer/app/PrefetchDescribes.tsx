/**
 * Asks each connection the query tabs use for its describe as soon as the window starts, while the
 * editor's chunk (Monaco) is still loading: the editor finds the schema in the query cache when it
 * mounts. Renders nothing; on its own so that its updates re-render nothing else.
 */
import { useTabDescribes } from '../state/use-describes.ts';

export function PrefetchDescribes(): null {
  useTabDescribes();
  return null;
}
