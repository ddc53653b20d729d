/**
 * Runtime checks of the arguments of each invoke channel: the renderer is not trusted, so the
 * types in shared/bridge.ts are enforced here before any handler runs.
 */
import { SECRET_KEY_PATTERN, type InvokeArgs, type InvokeChannel, type SaveFileRequest } from '../../shared/bridge.ts';
import { parseDocumentChanges, parseDocumentKey } from '../documents/validate.ts';
import { parseHistoryQuery, parseNewRun, parseRunId } from '../history/validate.ts';
import { validateConnectionSpec } from '../connections/connection-registry.ts';
import { validateConnectionId, validateProxyRequest } from '../http-proxy.ts';
import { validateUploadRequest } from '../upload-proxy.ts';
import { validateCloneRequest } from './clone-handlers.ts';
import { closeCode, closeReason, validateAckChars, validateSocketId, validateWsMessage, validateWsOpen } from '../ws-proxy.ts';

export type Validators = { [C in InvokeChannel]: (args: unknown[]) => InvokeArgs<C> };

export class InvalidArgumentsError extends Error {
  override readonly name = 'InvalidArgumentsError';
}

function none(args: unknown[]): [] {
  if (args.length !== 0) throw new InvalidArgumentsError('This channel takes no arguments.');
  return [];
}

function secretKey(value: unknown): string {
  if (typeof value !== 'string' || !SECRET_KEY_PATTERN.test(value)) throw new InvalidArgumentsError('Invalid secret key.');
  return value;
}

function string(value: unknown, what: string, max = 64 * 1024): string {
  if (typeof value !== 'string' || value.length > max) throw new InvalidArgumentsError(`Invalid ${what}.`);
  return value;
}

function saveRequest(value: unknown): SaveFileRequest {
  if (typeof value !== 'object' || value === null) throw new InvalidArgumentsError('Invalid save request.');
  const v = value as Record<string, unknown>;
  const suggestedName = string(v.suggestedName, 'file name', 255);
  if (typeof v.data !== 'string' && !(v.data instanceof Uint8Array)) throw new InvalidArgumentsError('Invalid file data.');
  return { suggestedName, data: v.data };
}

export const validators: Validators = {
  'app:get-info': none,
  'http:request': (args) => [validateProxyRequest(args[0])],
  'connections:register': (args) => [validateConnectionSpec(args[0])],
  'connections:forget': (args) => [validateConnectionId(args[0])],
  'secrets:set': (args) => [secretKey(args[0]), string(args[1], 'secret value')],
  'secrets:has': (args) => [secretKey(args[0])],
  'secrets:delete': (args) => [secretKey(args[0])],
  'file:save': (args) => [saveRequest(args[0])],
  'shell:open-external': (args) => [string(args[0], 'URL', 8192)],
  'workspace:open': none,
  'workspace:open-recent': (args) => [string(args[0], 'path', 4096)],
  'http:upload': (args) => [validateUploadRequest(args[0])],
  'http:upload-cancel': (args) => [string(args[0], 'upload id', 64)],
  'ws:open': (args) => [validateWsOpen(args[0])],
  'ws:send': (args) => [validateSocketId(args[0]), validateWsMessage(args[1])],
  'ws:close': (args) => [validateSocketId(args[0]), closeCode(args[1]), closeReason(args[2])],
  'ws:ack': (args) => [validateSocketId(args[0]), validateAckChars(args[1])],
  'history:add': (args) => [parseNewRun(args[0])],
  'history:list': (args) => [parseHistoryQuery(args[0])],
  'history:get': (args) => [parseRunId(args[0])],
  'history:delete': (args) => [parseRunId(args[0])],
  'history:clear': none,
  'history:count': none,
  'documents:get': (args) => [parseDocumentKey(args[0])],
  'documents:write': (args) => [parseDocumentChanges(args[0])],
  'clone:start': (args) => [validateCloneRequest(args[0])],
  'clone:status': (args) => [string(args[0], 'clone id', 64)],
  'clone:cancel': (args) => [string(args[0], 'clone id', 64)],
};
