/** Saved queries: one panel, its store, and variable substitution for whoever runs a saved document. */
export { SavedQueriesPanel, type SavedQueriesPanelProps } from './SavedQueriesPanel.tsx';
export { SavedQueriesStore, SavedQueriesError, loadSavedQueries, LEGACY_STORAGE_KEY, SAVED_QUERIES_KEY, type ImportResult } from './saved-queries-store.ts';
export type { Collection, EnvironmentVariable, SavedQueriesState, SavedQuery } from './saved-types.ts';
export { substituteVariables, findVariables, type Substitution, type VariableError } from '../../state/variables.ts';
