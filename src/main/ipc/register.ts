/**
 * Registers one handler per invoke channel, typed by the shared channel map.
 * Each call is checked twice before the handler runs: the sender (sender.ts) and the arguments
 * (validators.ts). A refused call rejects with a short reason; nothing else reaches a handler.
 */
import { INVOKE_CHANNELS, type InvokeArgs, type InvokeChannel, type InvokeResult } from '../../shared/bridge.ts';
import type { SenderInfo } from './sender.ts';
import type { Validators } from './validators.ts';

export type Handlers = { [C in InvokeChannel]: (...args: InvokeArgs<C>) => Promise<InvokeResult<C>> | InvokeResult<C> };

export interface IpcMainLike {
  handle(channel: string, listener: (event: SenderInfo, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export function registerIpcHandlers(
  ipc: IpcMainLike,
  options: { isTrusted: (event: SenderInfo) => boolean; validators: Validators; handlers: Handlers },
): () => void {
  for (const channel of INVOKE_CHANNELS) {
    ipc.handle(channel, async (event, ...rawArgs) => {
      if (!options.isTrusted(event)) throw new Error(`Refused ${channel}: the sender is not the console window.`);
      const args = options.validators[channel](rawArgs);
      const handler = options.handlers[channel] as (...a: unknown[]) => unknown;
      return handler(...(args as unknown[]));
    });
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipc.removeHandler(channel);
  };
}
