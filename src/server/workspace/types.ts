/**
 * The workspace in two forms: `WorkspaceFile` is the JSON as written (docs/workspace.md), `Workspace` is
 * the validated, resolved registry the processors work from. Nothing downstream reads the raw file.
 */
import type { FieldType, JsonValue, WorkspaceLimits } from '../../shared/protocol.ts';

export interface RawField {
  type: FieldType;
  required?: boolean;
  null?: boolean;
  default?: JsonValue;
  choices?: JsonValue[];
  unique?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  writeOnly?: boolean;
  hidden?: boolean;
  auto?: 'create' | 'update';
  protected?: boolean;
  to?: string;
}

export type RawPermissions = Record<string, string[]> & {
  scope?: Record<string, Record<string, JsonValue>>;
};

export interface RawModel {
  fields?: Record<string, RawField>;
  relations?: Record<string, { many: string; via: string }>;
  search?: string[];
  ordering?: string[];
  indexes?: string[][];
  permissions?: RawPermissions;
}

export interface RawApp {
  controllers?: string;
  hooks?: string;
  models?: Record<string, RawModel>;
  collections?: string[] | Record<string, { permissions?: RawPermissions }>;
}

/** Every limit a workspace may set (docs/workspace.md `limits`), each with a default (workspace/limits.ts). */
export type Limits = Required<WorkspaceLimits> & { maxStreamEvents: number; cacheEntries: number; cacheBytes: number; requestsPerMinute: number; heldAnswerBytes: number };

export interface WorkspaceFile {
  $schema?: string;
  /** A comment for people; the server ignores it. */
  _notes?: string | string[];
  name?: string;
  limits?: Partial<Limits>;
  apps?: Record<string, RawApp>;
}

/** A model field after validation. `required` follows docs/workspace.md: not nullable, no default, not auto. */
export interface FieldDef {
  name: string;
  column: string;
  type: FieldType;
  /** Must be given on create. */
  required: boolean;
  /** `required: true` was written: also refuses the empty string. */
  strictRequired: boolean;
  nullable: boolean;
  default?: JsonValue;
  choices?: JsonValue[];
  unique: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  writeOnly: boolean;
  hidden: boolean;
  auto?: 'create' | 'update';
  protected: boolean;
  /** `ref` fields: the target model key `<app>.<Model>`. */
  to?: string;
  /** Password fields (writeOnly, named `password`) are stored as scrypt hashes. */
  password: boolean;
}

export interface RelationDef {
  name: string;
  /** Target model key. */
  many: string;
  /** The `ref` field on the target model that points back here. */
  via: string;
}

/** Roles per intent plus optional row scopes per role (docs/protocol.md "Permissions and row scopes"). */
export interface Permissions {
  intents: Record<string, string[]>;
  scope: Record<string, Record<string, JsonValue>>;
}

export interface ModelDef {
  /** `<app>.<Model>` */
  key: string;
  app: string;
  name: string;
  table: string;
  fields: Map<string, FieldDef>;
  relations: Map<string, RelationDef>;
  search: string[];
  ordering: string[];
  indexes: string[][];
  /** null: the workspace gave none, so every intent allows `authenticated`. */
  permissions: Permissions | null;
}

export interface CollectionDef {
  key: string;
  app: string;
  name: string;
  permissions: Permissions | null;
}

export interface AppDef {
  name: string;
  /** Absolute paths of the app's modules, resolved against the workspace file. */
  controllersPath?: string;
  hooksPath?: string;
  models: Map<string, ModelDef>;
  collections: Map<string, CollectionDef>;
}

export interface Workspace {
  name: string;
  /** Absolute path of the workspace file, or null for an in-memory workspace. */
  file: string | null;
  limits: Limits;
  /** Whether an admin may run reads as another user in production mode too (auth/see-as.ts). */
  allowSeeAs?: boolean;
  apps: Map<string, AppDef>;
  models: Map<string, ModelDef>;
  collections: Map<string, CollectionDef>;
}
