// `ws` exports its Sender (wrapper.mjs, index.js), whose static `frame` builds a frame once for any
// number of sockets (docs/protocol.md "Streams" fan-out, frames.ts); @types/ws does not declare it.
import type { Buffer } from 'node:buffer';

declare module 'ws' {
  export const Sender: {
    frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[];
  };
}
