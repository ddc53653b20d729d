export { CollectionFoldersPanel, type OpenedRequest } from './CollectionFoldersPanel.tsx';
export { createFoldersClient, NoFoldersError, type FolderSnapshot, type FolderSummary, type FoldersClient } from './folders-client.ts';
