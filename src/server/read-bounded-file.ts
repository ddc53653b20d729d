/**
 * Reading a file the command line was pointed at (a collection's manifest, requests and
 * environments, a workspace file, `clone --query`, an export to import): opened once, and the opened
 * file itself is checked, never its name again (issue 32.2). It must be a regular file (not
 * /dev/zero, a FIFO or a folder), inside the given folder once links are resolved, and no larger
 * than the cap, and no more than the cap is read even if it grows meanwhile. A refusal never quotes
 * the file's content.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

export class FileReadError extends Error {
  override readonly name = 'FileReadError';
}

export interface BoundedRead {
  maxBytes: number;
  /** A folder the file must lie in once every link is resolved. */
  inside?: string;
  /** How the file is named in a refusal (a path as the user gave it). */
  label?: string;
}

export function readBoundedFile(path: string, options: BoundedRead): string {
  const label = options.label ?? path;
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the checks below refuse it anyway.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FileReadError(`${label}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot be opened (${code ?? (error as Error).message})`}`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new FileReadError(`${label} is not a regular file`);
    if (options.inside !== undefined) checkInside(path, info, options.inside, label);
    if (info.size > options.maxBytes) throw new FileReadError(`${label} is larger than ${options.maxBytes} bytes`);
    // One byte more than the file's size: a file that grows while it is read is noticed, not cut.
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > info.size) throw new FileReadError(`${label} changed while it was read`);
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

/** The opened file is the one the resolved path names, and that path is inside the folder. */
function checkInside(path: string, opened: { dev: number; ino: number }, folder: string, label: string): void {
  let real: string;
  let realFolder: string;
  try {
    real = realpathSync(path);
    realFolder = realpathSync(folder);
  } catch {
    throw new FileReadError(`${label} changed while it was read`);
  }
  if (real !== realFolder && !real.startsWith(realFolder + sep)) throw new FileReadError(`${label} leads outside the folder ${folder}`);
  const named = statSync(real);
  if (named.dev !== opened.dev || named.ino !== opened.ino) throw new FileReadError(`${label} changed while it was read`);
}
