/** Diff between two connections: one panel, and the helpers the app uses to turn a run into a side. */
export { DiffPanel, type DiffPanelProps } from './DiffPanel.tsx';
export { diffResults, runDiff, sideFromBody, sideFromFailure, type DiffSide, type ResultDiff } from './result-diff.ts';
export { diffPayloads, type PayloadDiff } from './record-diff.ts';
export { readWhyNot, type ExplainMissing, type WhyNotResult } from './why-not.ts';
