/**
 * The benchmark data set: a workspace of teams, owners, items and notes, and 100,000 items of
 * deterministic text (a seeded generator, so every run and every machine measures the same rows).
 * The rows are written once into a JQL data directory (the triggers fill the search index as they
 * go) and exported as the db.json that json-server serves.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createState } from '../src/server/state.ts';

const anyone = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };

export const BENCH_WORKSPACE = {
  name: 'bench',
  limits: { defaultLimit: 20, maxLimit: 1000 },
  apps: {
    bench: {
      models: {
        Team: { fields: { name: { type: 'string', required: true } }, permissions: anyone },
        Owner: {
          fields: { name: { type: 'string', required: true }, team: { type: 'ref', to: 'bench.Team', null: true } },
          relations: { items: { many: 'bench.Item', via: 'owner' } },
          permissions: anyone,
        },
        Item: {
          fields: {
            title: { type: 'string', required: true },
            body: { type: 'text', null: true },
            status: { type: 'string', choices: ['open', 'pending', 'closed'], default: 'open' },
            priority: { type: 'integer', default: 3 },
            owner: { type: 'ref', to: 'bench.Owner', null: true },
            created_at: { type: 'datetime', null: true },
          },
          relations: { notes: { many: 'bench.Note', via: 'item' } },
          search: ['title', 'body'],
          ordering: ['id'],
          indexes: [['status', 'priority']],
          permissions: anyone,
        },
        Note: {
          fields: { item: { type: 'ref', to: 'bench.Item', null: true }, text: { type: 'string', required: true } },
          permissions: anyone,
        },
      },
    },
  },
};

export const ITEM_COLUMNS = ['id', 'title', 'body', 'status', 'priority', 'owner', 'created_at'] as const;

export interface BenchData {
  dir: string;
  workspace: string;
  dataDir: string;
  jsonDb: string;
  items: number;
  /** Words of the vocabulary by how often they occur: the most common first. */
  vocabulary: string[];
  buildMs: number;
}

/** mulberry32: small, fast and seeded. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// English letter frequencies (per mille): words look like text to a trigram index, with the same
// mix of common and rare trigrams, rather than a few syllables repeated.
const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';
const WEIGHTS = [127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1];

function vocabulary(rand: () => number, size: number): string[] {
  const total = WEIGHTS.reduce((a, b) => a + b, 0);
  const letter = (): string => {
    let x = rand() * total;
    for (let i = 0; i < WEIGHTS.length; i++) if ((x -= WEIGHTS[i] as number) < 0) return LETTERS[i] as string;
    return 'e';
  };
  const words = new Set<string>();
  while (words.size < size) {
    const n = 3 + Math.floor(rand() * 8);
    let word = '';
    for (let i = 0; i < n; i++) word += letter();
    words.add(word);
  }
  return [...words];
}

/** Zipf-like: word i is drawn with weight 1/(i+1), so a few words are common and most are rare. */
function zipf(rand: () => number, size: number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < size; i++) cumulative.push((total += 1 / (i + 1)));
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export async function buildBenchData(items = 100_000): Promise<BenchData> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'jql-bench-'));
  const workspace = join(dir, 'jql.workspace.json');
  writeFileSync(workspace, JSON.stringify(BENCH_WORKSPACE, null, 2));
  const dataDir = join(dir, 'data');
  const rand = random(42);
  const words = vocabulary(rand, 5000);
  const pick = zipf(rand, words.length);
  const sentence = (min: number, max: number): string => {
    const n = min + Math.floor(rand() * (max - min + 1));
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(words[pick()] as string);
    const text = out.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  };

  const { state } = await createState({ workspace, dataDir, env: {} });
  const teams = 10;
  const owners = 1000;
  const rows: Array<Record<(typeof ITEM_COLUMNS)[number], string | number | null>> = [];
  state.db.setup((db) => {
    const team = db.prepare('INSERT INTO "bench.Team" (name) VALUES (?)');
    for (let i = 1; i <= teams; i++) team.run(`Team ${i}`);
    const owner = db.prepare('INSERT INTO "bench.Owner" (name, team) VALUES (?, ?)');
    for (let i = 1; i <= owners; i++) owner.run(`${sentence(1, 1)} ${i}`, 1 + (i % teams));
    const item = db.prepare('INSERT INTO "bench.Item" (title, body, status, priority, owner, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const statuses = ['open', 'pending', 'closed'];
    const epoch = Date.UTC(2025, 0, 1);
    for (let i = 1; i <= items; i++) {
      const row = {
        id: i,
        title: sentence(3, 6),
        body: rand() < 0.1 ? null : sentence(15, 40),
        status: statuses[Math.floor(rand() * 3)] as string,
        priority: 1 + Math.floor(rand() * 5),
        owner: rand() < 0.05 ? null : 1 + Math.floor(rand() * owners),
        created_at: new Date(epoch + i * 60_000).toISOString(),
      };
      item.run(row.title, row.body, row.status, row.priority, row.owner, row.created_at);
      rows.push(row);
    }
    const note = db.prepare('INSERT INTO "bench.Note" (item, text) VALUES (?, ?)');
    for (let i = 1; i <= items / 5; i++) note.run(1 + Math.floor(rand() * items), sentence(3, 8));
  });
  state.db.checkpoint();
  state.db.close();

  const jsonDb = join(dir, 'db.json');
  writeFileSync(jsonDb, JSON.stringify({ items: rows }));
  return { dir, workspace, dataDir, jsonDb, items, vocabulary: words, buildMs: performance.now() - started };
}
