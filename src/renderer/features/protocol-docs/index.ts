/** The product's docs (protocol and workspace pages) shown inside the console. */
export { DocsPanel, type DocsPanelProps } from './DocsPanel.tsx';
