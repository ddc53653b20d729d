/** The subset of JSON Schema (draft-07 plus Monaco's extensions) the query schema uses. */
export interface JsonSchema {
  $schema?: string;
  $ref?: string;
  type?: string | string[];
  description?: string;
  markdownDescription?: string;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  enumDescriptions?: string[];
  const?: unknown;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  definitions?: Record<string, JsonSchema>;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  examples?: unknown[];
  doNotSuggest?: boolean;
  defaultSnippets?: Array<{ label: string; description?: string; body: unknown }>;
}
