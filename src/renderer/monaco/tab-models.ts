/**
 * Monaco models keyed by URI, one per editor tab (graphiql's create-editor.ts does the same). The
 * URI carries the tab id, so schemas can be mapped to tabs with `fileMatch` and a model outlives
 * switching tabs (with its undo stack and view state).
 */
import { monaco } from './monaco.ts';

const viewStates = new Map<string, monaco.editor.ICodeEditorViewState | null>();

export function tabModelUri(tabId: string): monaco.Uri {
  return monaco.Uri.parse(`inmemory://jql/tab/${tabId}.json`);
}

export function tabModel(tabId: string, initialText: string): monaco.editor.ITextModel {
  const uri = tabModelUri(tabId);
  return monaco.editor.getModel(uri) ?? monaco.editor.createModel(initialText, 'json', uri);
}

export function disposeTabModel(tabId: string): void {
  monaco.editor.getModel(tabModelUri(tabId))?.dispose();
  viewStates.delete(tabId);
}

export function saveViewState(tabId: string, state: monaco.editor.ICodeEditorViewState | null): void {
  viewStates.set(tabId, state);
}

export function viewStateOf(tabId: string): monaco.editor.ICodeEditorViewState | null {
  return viewStates.get(tabId) ?? null;
}
