/**
 * A server message as bytes on the wire, built once and written to any number of sockets: the JSON
 * text and the whole WebSocket frame (header and payload in one buffer, so that a socket's write
 * hands the kernel one piece per message). Server frames are never masked, so the same bytes are
 * valid on every connection that negotiated no extension (socket-writer.ts checks).
 */
import { Sender } from 'ws';

export interface OutgoingFrame {
  /** The message's UTF-8 text (what a socket that cannot take the frame sends through `ws` itself). */
  readonly payload: Buffer;
  /** The complete unmasked text frame (FIN, opcode 1). */
  readonly wire: Buffer;
}

const TEXT = { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false } as const;

export function textFrame(text: string): OutgoingFrame {
  const payload = Buffer.from(text);
  const [header, data] = Sender.frame(payload, TEXT);
  return { payload, wire: data ? Buffer.concat([header, data]) : header };
}
