/**
 * Every JQL error code with its HTTP status (docs/protocol.md "Errors"). The server makes its errors
 * from this table and the console reads codes against it, so both sides agree on one list.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  unknown_namespace: 404,
  unknown_intent: 400,
  unknown_field: 400,
  invalid_lookup: 400,
  validation_error: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  misdirected_request: 421,
  rate_limited: 429,
  internal_error: 500,
  server_busy: 503,
  // Storage faults (issue 30.6): the cause named, never a path; Retry-After where waiting can help.
  database_busy: 503,
  storage_full: 503,
  storage_read_only: 503,
  rolled_back: 200,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
