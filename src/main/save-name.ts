/**
 * The name a saved file gets (issue 21.8): the page suggests one, but its extension follows what the
 * bytes are, so a page (or a server's file name) cannot save `report.json.exe` or `invoice.pdf.lnk`.
 * Text that parses as JSON is `.json` (NDJSON `.ndjson`); other text keeps a plain-text extension the
 * page asked for (csv, txt, …) or becomes `.txt`; binary content gets the extension its magic
 * number says (file-type knows the formats a JQL server stores: office documents, archives, media),
 * `.bin` when unknown, and never an executable's.
 */
import { fileTypeFromBuffer } from 'file-type';

const TEXT_EXTENSIONS = new Set(['txt', 'csv', 'tsv', 'md', 'log', 'xml', 'yaml', 'yml', 'sql', 'ndjson', 'jsonl', 'json']);
/** Formats that run when opened: saved as .bin, for the user to rename knowingly. */
const EXECUTABLE_TYPES = new Set(['exe', 'elf', 'macho', 'apk', 'deb', 'rpm', 'msi', 'class', 'jar', 'crx', 'xpi', 'dex', 'wasm', 'lnk', 'cab', 'dmg', 'swf']);
/** Up to this size text is parsed to tell JSON apart; larger text is judged by its first and last characters. */
const PARSE_LIMIT_CHARS = 8 * 1024 * 1024;

/** A file name for the save dialog: no directories, no characters that file systems refuse. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\p{Cc}\p{Cf}<>:"|?*]/gu, '_').replace(/^\.+/, '').trim();
  return cleaned.slice(0, 120) || 'response.json';
}

/** The name without its extensions (`report.json.exe` -> `report`), and the last one it had. */
function split(name: string): { stem: string; asked: string | null } {
  let stem = name;
  let asked: string | null = null;
  for (let m = /\.([A-Za-z0-9]{1,8})$/.exec(stem); m && m.index > 0; m = /\.([A-Za-z0-9]{1,8})$/.exec(stem)) {
    asked ??= m[1]!.toLowerCase();
    stem = stem.slice(0, m.index);
  }
  return { stem, asked };
}

function asText(data: string | Uint8Array): string | null {
  if (typeof data === 'string') return data;
  if (data.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

function isJson(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length > PARSE_LIMIT_CHARS) return /^[[{]/.test(trimmed) && /[\]}]$/.test(trimmed);
  try {
    JSON.parse(trimmed);
    return trimmed !== '';
  } catch {
    return false;
  }
}

function isNdjson(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.length > 0 && text.length <= PARSE_LIMIT_CHARS && lines.every(isJson);
}

/** The extension the content earns, given the one the page asked for. */
export async function contentExtension(data: string | Uint8Array, asked: string | null): Promise<string> {
  // A format with a magic number first: a PDF can be valid UTF-8 and still be a PDF.
  const type = typeof data === 'string' ? undefined : await fileTypeFromBuffer(data);
  if (type) return EXECUTABLE_TYPES.has(type.ext) ? 'bin' : type.ext;
  const text = asText(data);
  if (text !== null) {
    if ((asked === 'ndjson' || asked === 'jsonl') && isNdjson(text)) return asked;
    if (isJson(text)) return 'json';
    if (isNdjson(text)) return 'ndjson';
    return asked && TEXT_EXTENSIONS.has(asked) && !['json', 'ndjson', 'jsonl'].includes(asked) ? asked : 'txt';
  }
  return 'bin';
}

export async function savedFileName(suggestedName: string, data: string | Uint8Array): Promise<{ name: string; extension: string }> {
  const { stem, asked } = split(safeFileName(suggestedName));
  const extension = await contentExtension(data, asked);
  return { name: `${stem || 'download'}.${extension}`, extension };
}
