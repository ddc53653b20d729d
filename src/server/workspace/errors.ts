/**
 * The one error a workspace can fail with, at load or at migration. Its message names the file and
 * the app, model (or collection), relation and field at fault, so a person can fix the file from
 * the message alone; the parts are also kept as properties for callers that want them.
 */

export interface WorkspaceErrorLocation {
  file?: string | null;
  /** Where in the file (from 1), for a file that is not valid JSON. */
  line?: number;
  column?: number;
  app?: string;
  model?: string;
  collection?: string;
  relation?: string;
  field?: string;
}

export type WorkspaceErrorKind = 'invalid' | 'migration';

export class WorkspaceError extends Error {
  readonly kind: WorkspaceErrorKind;
  readonly file: string | null;
  readonly app?: string;
  readonly model?: string;
  readonly collection?: string;
  readonly relation?: string;
  readonly field?: string;
  /** The problem alone, without the location prefix. */
  readonly problem: string;

  constructor(problem: string, at: WorkspaceErrorLocation = {}, kind: WorkspaceErrorKind = 'invalid') {
    super(formatMessage(problem, at, kind));
    this.name = 'WorkspaceError';
    this.kind = kind;
    this.file = at.file ?? null;
    this.app = at.app;
    this.model = at.model;
    this.collection = at.collection;
    this.relation = at.relation;
    this.field = at.field;
    this.problem = problem;
  }
}

function formatMessage(problem: string, at: WorkspaceErrorLocation, kind: WorkspaceErrorKind): string {
  const head = kind === 'invalid' ? 'Invalid workspace' : 'Cannot migrate workspace';
  const file = `${at.file ?? '(in memory)'}${at.line !== undefined ? `:${at.line}:${at.column ?? 1}` : ''}`;
  const parts: string[] = [];
  if (at.app !== undefined) parts.push(`app "${at.app}"`);
  if (at.model !== undefined) parts.push(`model "${at.model}"`);
  if (at.collection !== undefined) parts.push(`collection "${at.collection}"`);
  if (at.relation !== undefined) parts.push(`relation "${at.relation}"`);
  if (at.field !== undefined) parts.push(`field "${at.field}"`);
  const where = parts.length > 0 ? ` ${parts.join(', ')}` : '';
  return `${head} ${file}:${where}${where ? ':' : ''} ${problem}`;
}
