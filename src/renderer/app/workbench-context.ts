/** The part-2 feature services in a React context, for the views that app/ composes. */
import { createContext, useContext } from 'react';
import type { WorkbenchServices } from './workbench-services.ts';

export const WorkbenchContext = createContext<WorkbenchServices | null>(null);

export function useWorkbench(): WorkbenchServices {
  const value = useContext(WorkbenchContext);
  if (!value) throw new Error('useWorkbench outside WorkbenchContext');
  return value;
}
