// Reads an e-learning content package (a zip holding `imsmanifest.xml`, as SCORM and IMS CP packages
// do) for `learning.LearningContentRegistration.uploadPackage`. It only lists the archive and reads the
// manifest, never extracts, and refuses what would be dangerous to extract later: zip bombs (too many
// entries, too many bytes once inflated, too high a compression ratio) and entries whose path is
// absolute or climbs out with `..`. Plain JavaScript like the controllers module that imports it, so the
// demo workspace loads wherever Node runs.
import yauzl from 'yauzl';

export const PACKAGE_LIMITS = Object.freeze({
  maxEntries: 10_000,
  /** Sum of the entries' inflated sizes. */
  maxTotalBytes: 512 * 1024 * 1024,
  /** Inflated / compressed, for the archive and for any entry over `ratioFloorBytes`. */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
  maxManifestBytes: 1024 * 1024,
});

export const MANIFEST = 'imsmanifest.xml';

/** A package refused for a reason its uploader can act on. */
export class PackageError extends Error {
  name = 'PackageError';
}

/**
 * @param {string} path the stored zip
 * @returns {Promise<{ title: string | null, launchFile: string, entries: number, uncompressedBytes: number }>}
 */
export async function readContentPackage(path, limits = PACKAGE_LIMITS) {
  const zip = await openZip(path);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new PackageError(`The package has ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`);
    }
    const names = new Set();
    let manifest = null;
    let total = 0;
    let compressed = 0;
    for await (const entry of entriesOf(zip)) {
      checkEntryPath(entry.fileName);
      total += entry.uncompressedSize;
      compressed += entry.compressedSize;
      if (total > limits.maxTotalBytes) {
        throw new PackageError(`The package inflates to more than ${limits.maxTotalBytes} bytes; it looks like a zip bomb`);
      }
      if (entry.uncompressedSize > limits.ratioFloorBytes && entry.uncompressedSize > entry.compressedSize * limits.maxRatio) {
        throw new PackageError(`Entry "${entry.fileName}" inflates more than ${limits.maxRatio} times; it looks like a zip bomb`);
      }
      names.add(entry.fileName);
      if (entry.fileName === MANIFEST) manifest = entry;
    }
    if (total > limits.ratioFloorBytes && total > compressed * limits.maxRatio) {
      throw new PackageError(`The package inflates more than ${limits.maxRatio} times; it looks like a zip bomb`);
    }
    if (!manifest) throw new PackageError(`The package has no ${MANIFEST} at its root; is it a SCORM or IMS content package?`);
    if (manifest.uncompressedSize > limits.maxManifestBytes) {
      throw new PackageError(`${MANIFEST} is larger than ${limits.maxManifestBytes} bytes`);
    }
    const xml = await readEntry(zip, manifest, limits.maxManifestBytes);
    const { title, launchFile } = parseManifest(xml);
    if (!launchFile) throw new PackageError(`${MANIFEST} names no launch file (no <resource> with an href)`);
    if (!/^[a-z][a-z0-9+.-]*:/i.test(launchFile) && !names.has(launchPath(launchFile))) {
      throw new PackageError(`The launch file "${launchFile}" named in ${MANIFEST} is not in the package`);
    }
    return { title, launchFile, entries: names.size, uncompressedBytes: total };
  } finally {
    zip.close();
  }
}

/** Refuses entry paths that would land outside the folder they are extracted into. */
export function checkEntryPath(name) {
  if (name.startsWith('/') || /^[a-z]:/i.test(name) || name.includes('\\')) {
    throw new PackageError(`Entry "${name}" has an absolute path; a package holds relative paths only`);
  }
  if (name.split('/').includes('..')) throw new PackageError(`Entry "${name}" climbs out of the package with ".."`);
  if (name.includes('\0')) throw new PackageError('An entry name holds a NUL character');
}

/**
 * The organization's title (else the first title anywhere) and the first resource's href. A small
 * reader for the few elements used, not a general XML parser: no DTD or entity is ever expanded.
 */
export function parseManifest(xml) {
  const organization = /<(?:\w+:)?organization\b[^>]*>([\s\S]*?)<\/(?:\w+:)?organization>/i.exec(xml)?.[1];
  const title = textOf(firstTitle(organization ?? '') ?? firstTitle(xml));
  const resource = /<(?:\w+:)?resource\b[^>]*?\shref\s*=\s*("([^"]*)"|'([^']*)')/i.exec(xml);
  const href = resource ? decodeEntities(resource[2] ?? resource[3] ?? '').trim() : '';
  return { title: title === '' ? null : title, launchFile: href === '' ? null : href };
}

function firstTitle(xml) {
  return /<(?:\w+:)?title\b[^>]*>([\s\S]*?)<\/(?:\w+:)?title>/i.exec(xml)?.[1] ?? null;
}

function textOf(fragment) {
  if (fragment === null) return '';
  const text = fragment.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1').replace(/<[^>]*>/g, ' ');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

function decodeEntities(text) {
  const named = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, code) => {
    if (code[0] !== '#') return named[code.toLowerCase()] ?? whole;
    const point = code[1].toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
    return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
  });
}

/** `lesson/index.html?page=2#top` -> `lesson/index.html`, percent-decoded, as stored in the zip. */
function launchPath(href) {
  const path = href.split(/[?#]/)[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function openZip(path) {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (error, zip) => {
      if (error) reject(new PackageError(`The package is not a readable zip archive (${error.message})`));
      else resolve(zip);
    });
  });
}

/** The central directory's entries, one at a time; yauzl's own name checks become PackageErrors. */
async function* entriesOf(zip) {
  const events = [];
  let wake = null;
  const push = (event) => {
    events.push(event);
    wake?.();
  };
  zip.on('entry', (entry) => push({ entry }));
  zip.on('end', () => push({ end: true }));
  zip.on('error', (error) => push({ error }));
  zip.readEntry();
  for (;;) {
    if (events.length === 0) await new Promise((resolve) => (wake = resolve));
    wake = null;
    const event = events.shift();
    if (event.end) return;
    if (event.error) throw toPackageError(event.error);
    yield event.entry;
    zip.readEntry();
  }
}

function toPackageError(error) {
  const message = String(error.message);
  if (message.startsWith('absolute path')) return new PackageError(`Entry "${message.slice(15)}" has an absolute path; a package holds relative paths only`);
  if (message.startsWith('invalid relative path')) return new PackageError(`Entry "${message.slice(23)}" climbs out of the package with ".."`);
  if (message.startsWith('invalid characters in fileName')) return new PackageError(`Entry "${message.slice(32)}" has a backslash in its path`);
  return new PackageError(`The package is not a readable zip archive (${message})`);
}

function readEntry(zip, entry, maxBytes) {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new PackageError(`${entry.fileName} could not be read (${error.message})`));
      const chunks = [];
      let size = 0;
      stream.on('data', (chunk) => {
        size += chunk.length;
        if (size > maxBytes) {
          stream.destroy();
          reject(new PackageError(`${entry.fileName} is larger than ${maxBytes} bytes`));
        } else chunks.push(chunk);
      });
      stream.on('error', (err) => reject(new PackageError(`${entry.fileName} could not be read (${err.message})`)));
      stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  });
}
