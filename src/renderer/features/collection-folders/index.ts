export { CollectionFoldersPanel } from './CollectionFoldersPanel.tsx';
export { createFoldersClient } from './folders-client.ts';
