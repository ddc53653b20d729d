/**
 * Zip archives for tests, written by yazl, and the two lies a hostile archive tells that yazl will
 * not write: entry names that are absolute or climb out with `..` (`../evil`, `/etc/passwd`), and an
 * inflated size larger than the data (what a zip bomb's directory may hold). Such an entry is written
 * under a stand-in name of the same length, then its name and size are overwritten in its local header
 * and its central directory record, which are all a reader sees of them.
 */
import { ZipFile } from 'yazl';

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  deflate?: boolean;
  /** The inflated size written in the headers, when it should differ from the data's. */
  declaredSize?: number;
}

/** Archives are reproducible: every entry has this time. */
const MTIME = new Date(Date.UTC(2026, 0, 1));

interface Lie {
  index: number;
  name: Buffer;
  declaredSize?: number;
}

export async function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new ZipFile();
  const lies: Lie[] = [];
  entries.forEach((entry, index) => {
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const name = Buffer.from(entry.name, 'utf8');
    const options = { compress: entry.deflate ?? false, mtime: MTIME };
    // yazl rewrites `\` to `/` and refuses unsafe names: those are written as a stand-in and replaced.
    let honest = entry.declaredSize === undefined && !entry.name.includes('\\');
    if (honest) {
      try {
        zip.addBuffer(data, entry.name, options);
      } catch {
        honest = false;
      }
    }
    if (!honest) {
      zip.addBuffer(data, 'x'.repeat(name.length), options);
      lies.push({ index, name, declaredSize: entry.declaredSize });
    }
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const archive = Buffer.concat(chunks);
  tell(archive, lies);
  return archive;
}

const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_SIZE = 22;

/** Overwrites the entries' names and inflated sizes in place (the archive has no comment, no zip64). */
function tell(archive: Buffer, lies: Lie[]): void {
  if (lies.length === 0) return;
  const end = archive.length - END_SIZE;
  let central = archive.readUInt32LE(end + 16);
  const records: number[] = [];
  for (let i = archive.readUInt16LE(end + 10); i > 0; i--) {
    if (archive.readUInt32LE(central) !== CENTRAL_SIGNATURE) throw new Error('zip-writer: unexpected central directory layout');
    records.push(central);
    central += 46 + archive.readUInt16LE(central + 28) + archive.readUInt16LE(central + 30) + archive.readUInt16LE(central + 32);
  }
  for (const lie of lies) {
    const record = records[lie.index] as number;
    const local = archive.readUInt32LE(record + 42);
    if (archive.readUInt32LE(local) !== LOCAL_SIGNATURE) throw new Error('zip-writer: unexpected local header layout');
    lie.name.copy(archive, record + 46);
    lie.name.copy(archive, local + 30);
    if (lie.declaredSize !== undefined) {
      archive.writeUInt32LE(lie.declaredSize, record + 24);
      archive.writeUInt32LE(lie.declaredSize, local + 22);
    }
  }
}

/** An `imsmanifest.xml` with an organization title and one resource. */
export function manifestXml(title: string, href: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="pkg" version="1.0" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1">
  <metadata><schema>ADL SCORM</schema></metadata>
  <organizations default="org">
    <organization identifier="org"><title>${title}</title>
      <item identifier="i1" identifierref="r1"><title>Lesson one</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="${href}"><file href="${href}"/></resource>
  </resources>
</manifest>`;
}
