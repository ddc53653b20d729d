/**
 * The runnable examples of a Markdown document (docs/protocol.md), read from its fenced blocks:
 *
 * - an `http` block whose first line is `METHOD /path` is a request (headers, a blank line, a body);
 *   the next `http` block, starting `HTTP/1.1 <status>`, is the answer it must get;
 * - a `websocket` block is a conversation on `/jql-streams`: `WS /path` opens a socket (a block
 *   without it goes on with the last one), `> message` is sent, `< message` must arrive next,
 *   `< close <code>` must close the socket with that code, and `#` starts a comment.
 *
 * `{{name}}` in a request or a sent message is replaced by a value captured earlier: an answer or a
 * received message that holds the string "{{name}}" captures whatever stands there. Framework-free,
 * so the docs test and the unit tests read examples the same way.
 */

export interface HttpRequest {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: string;
}

export interface HttpAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

export type StreamLine = { kind: 'open'; path: string } | { kind: 'send'; text: string } | { kind: 'receive'; text: string } | { kind: 'close'; code: number };

export type Example =
  | { kind: 'http'; line: number; section: string; request: HttpRequest; answer: HttpAnswer }
  | { kind: 'stream'; line: number; section: string; steps: StreamLine[] };

interface Block {
  info: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  section: string;
}

/** Fenced blocks with the heading they stand under. */
export function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) section = (heading[1] as string).trim();
    const fence = /^(`{3,})(.*)$/.exec(line);
    if (!fence) continue;
    const close = fence[1] as string;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] as string).startsWith(close)) body.push(lines[j++] as string);
    if (j === lines.length) throw new Error(`line ${i + 1}: a code block is never closed`);
    blocks.push({ info: (fence[2] as string).trim(), text: body.join('\n'), line: i + 1, section });
    i = j;
  }
  return blocks;
}

const REQUEST_LINE = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) (\S+)$/;
const STATUS_LINE = /^HTTP\/1\.1 (\d{3})(?: .*)?$/;

/** Every example of the document, in document order; a malformed one is an error naming its line. */
export function readExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  const blocks = fencedBlocks(markdown);
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    const language = block.info.split(/\s+/)[0];
    if (language === 'websocket') {
      examples.push({ kind: 'stream', line: block.line, section: block.section, steps: streamSteps(block) });
      continue;
    }
    if (language !== 'http') continue;
    const first = block.text.split('\n')[0] ?? '';
    if (STATUS_LINE.test(first)) throw new Error(`line ${block.line}: an answer with no request before it`);
    const next = blocks[i + 1];
    if (!next || next.info.split(/\s+/)[0] !== 'http' || !STATUS_LINE.test(next.text.split('\n')[0] ?? '')) {
      throw new Error(`line ${block.line}: a request must be followed by its answer (an http block starting "HTTP/1.1 <status>")`);
    }
    examples.push({ kind: 'http', line: block.line, section: block.section, request: httpRequest(block), answer: httpAnswer(next) });
    i++;
  }
  return examples;
}

function splitMessage(block: Block): { start: string; headers: Array<[string, string]>; body: string } {
  const lines = block.text.split('\n');
  const start = lines[0] ?? '';
  const headers: Array<[string, string]> = [];
  let i = 1;
  for (; i < lines.length && (lines[i] as string).trim() !== ''; i++) {
    const header = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(lines[i] as string);
    if (!header) throw new Error(`line ${block.line + i + 1}: "${lines[i]}" is not a header (a blank line goes before the body)`);
    headers.push([(header[1] as string).toLowerCase(), header[2] as string]);
  }
  return { start, headers, body: lines.slice(i + 1).join('\n') };
}

function httpRequest(block: Block): HttpRequest {
  const { start, headers, body } = splitMessage(block);
  const request = REQUEST_LINE.exec(start);
  if (!request) throw new Error(`line ${block.line + 1}: a request starts with "METHOD /path", not "${start}"`);
  return { method: request[1] as string, path: request[2] as string, headers, body };
}

function httpAnswer(block: Block): HttpAnswer {
  const { start, headers, body } = splitMessage(block);
  return { status: Number(STATUS_LINE.exec(start)?.[1]), headers, body };
}

function streamSteps(block: Block): StreamLine[] {
  return block.text.split('\n').flatMap((raw, index): StreamLine[] => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    const open = /^WS (\S+)$/.exec(line);
    if (open) return [{ kind: 'open', path: open[1] as string }];
    const close = /^< close (\d{4})$/.exec(line);
    if (close) return [{ kind: 'close', code: Number(close[1]) }];
    if (line.startsWith('> ')) return [{ kind: 'send', text: line.slice(2) }];
    if (line.startsWith('< ')) return [{ kind: 'receive', text: line.slice(2) }];
    throw new Error(`line ${block.line + index + 1}: a websocket line starts with "WS", ">", "<" or "#", not "${line}"`);
  });
}

/** `{{name}}` replaced by its captured value; an unknown name is an error, never left as text. */
export function substitute(text: string, values: ReadonlyMap<string, unknown>): string {
  return text.replace(/\{\{([A-Za-z0-9_]+)\}\}/g, (_, name: string) => {
    if (!values.has(name)) throw new Error(`{{${name}}} is used before an answer captured it`);
    const value = values.get(name);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
