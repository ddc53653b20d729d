/** Saved queries in named collections, and the per-connection environments their variables read. */

export interface SavedQuery {
  id: string;
  name: string;
  /** The query text, `{{variables}}` and all. */
  document: string;
  description: string;
  createdAt: number;
  updatedAt: number;
}

export interface Collection {
  id: string;
  name: string;
  queries: SavedQuery[];
  createdAt: number;
  updatedAt: number;
}

/** One variable of an environment: its value is text, read as JSON when it parses (variables.ts). */
export interface EnvironmentVariable {
  name: string;
  value: string;
}

export interface SavedQueriesState {
  collections: Collection[];
  /** Connection id -> its variables, in the order the user keeps them. */
  environments: Record<string, EnvironmentVariable[]>;
}
