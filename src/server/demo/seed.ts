/**
 * The demo workspace's seed data (docs/workspace.md "The demo workspace"), in insertion order. It is
 * deterministic (a seeded PRNG and a fixed base date) so the demo, the docs and the tests see the
 * same records on every machine. Users carry no passwords: whoever seeds sets the demo passwords.
 */
import { fileURLToPath } from 'node:url';
import type { JsonValue } from '../../shared/protocol.ts';

export type DemoSeed = Array<{ model: string; records: Array<Record<string, JsonValue>> }>;

const BASE = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** Absolute path of the demo workspace file. */
export function demoWorkspacePath(): string {
  return fileURLToPath(new URL('./workspace.json', import.meta.url));
}

export function demoSeed(): DemoSeed {
  const random = mulberry32(20260101);
  return [
    { model: 'system.User', records: users() },
    { model: 'tickets.Ticket', records: tickets(random) },
    { model: 'documents.Folder', records: folders() },
    { model: 'documents.Document', records: folderDocuments(random) },
    { model: 'objects.Object', records: objects() },
    { model: 'chat.Message', records: messages(random) },
  ];
}

type Random = () => number;

/** mulberry32: tiny, fast and good enough to vary demo data; never Math.random (not repeatable). */
function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function users(): Array<Record<string, JsonValue>> {
  const user = (username: string, first: string, last: string, roles: string[]): Record<string, JsonValue> => ({
    username,
    email: `${username}@example.com`,
    first_name: first,
    last_name: last,
    roles,
    is_active: true,
    created_at: iso(BASE),
  });
  // Ids 1, 2, 3 in this order: tickets refer to them.
  return [user('admin', 'Ada', 'Admin', ['admin']), user('agent', 'Alan', 'Agent', ['agent']), user('viewer', 'Vera', 'Viewer', [])];
}

const PROBLEMS = ['Cannot log in', 'Invoice missing', 'Printer offline', 'Slow dashboard', 'Password reset fails', 'Export is empty', 'Wrong time zone', 'Upload stuck', 'Email not delivered', 'Report shows old data'];
const PLACES = ['on the portal', 'in the mobile app', 'for the Berlin office', 'after the update', 'since Monday', 'for new users', 'in the admin area', 'on staging'];
const BODIES = [
  'Steps to reproduce are attached. Happens every time.',
  'The customer reports this started after the last release.',
  'Seen by several people on the team; no workaround yet.',
  'Intermittent: about one request in ten fails.',
  'Urgent: blocks the monthly closing.',
];

function tickets(random: Random): Array<Record<string, JsonValue>> {
  const records: Array<Record<string, JsonValue>> = [];
  for (let i = 0; i < 300; i++) {
    const created = BASE + i * 6 * HOUR + Math.floor(random() * 300) * 60_000;
    const status = pick(random, ['open', 'open', 'pending', 'closed'] as const);
    // Mostly the agent (id 2), so the agent's row scope has something to show; some unassigned.
    const assignee = pick(random, [2, 2, 2, 1, 3, null]);
    const record: Record<string, JsonValue> = {
      title: `${pick(random, PROBLEMS)} ${pick(random, PLACES)} #${i + 1}`,
      status,
      priority: 1 + Math.floor(random() * 5),
      body: random() < 0.8 ? pick(random, BODIES) : null,
      assignee,
      due: random() < 0.6 ? iso(created + (1 + Math.floor(random() * 14)) * 24 * HOUR) : null,
      meta: random() < 0.5 ? { channel: pick(random, ['email', 'web', 'phone']), tags: [pick(random, ['billing', 'auth', 'ui', 'infra'])] } : null,
      created_at: iso(created),
      updated_at: iso(created + (status === 'open' ? 0 : Math.floor(random() * 48) * HOUR)),
    };
    records.push(record);
  }
  return records;
}

const FOLDERS = ['Contracts', 'Invoices', 'Manuals', 'Reports'];

function folders(): Array<Record<string, JsonValue>> {
  return FOLDERS.map((name, i) => ({ name, created_at: iso(BASE + i * HOUR) }));
}

function folderDocuments(random: Random): Array<Record<string, JsonValue>> {
  const records: Array<Record<string, JsonValue>> = [];
  for (let i = 0; i < 12; i++) {
    const folder = 1 + (i % FOLDERS.length);
    const stem = FOLDERS[folder - 1].replace(/s$/, '');
    // No file: the demo's files are uploaded through the controllers, never seeded.
    records.push({ folder, name: `${stem} 2026-${String(i + 1).padStart(3, '0')}.pdf`, created_at: iso(BASE + (10 + i) * HOUR + Math.floor(random() * HOUR)) });
  }
  return records;
}

function objects(): Array<Record<string, JsonValue>> {
  const items: Array<[string, string, string | null]> = [
    ['Laptop 0042', 'device', 'Issued to the support team.'],
    ['Printer 3rd floor', 'device', null],
    ['Meeting room Ada', 'room', 'Seats 8, projector.'],
    ['Meeting room Turing', 'room', 'Seats 4.'],
    ['Delivery van B-JQ 101', 'vehicle', 'Service due in March.'],
    ['Badge reader', 'device', null],
    ['Storage room', 'room', null],
    ['Spare keys', 'other', 'Kept at the front desk.'],
  ];
  return items.map(([name, kind, description], i) => ({ name, kind, description, created_at: iso(BASE + (20 + i) * HOUR) }));
}

function messages(random: Random): Array<Record<string, JsonValue>> {
  const texts = ['Good morning!', 'Is the portal down for anyone else?', 'Deploy is done.', 'Looking into it.', 'Thanks, that fixed it.', 'Can someone review ticket #12?', 'Lunch at noon?', 'Back in 10 minutes.', 'The printer is offline again.', 'Closing the incident.'];
  const records: Array<Record<string, JsonValue>> = [];
  let at = BASE + 8 * HOUR;
  for (let i = 0; i < 60; i++) {
    at += 60_000 + Math.floor(random() * 20 * 60_000);
    records.push({
      room: pick(random, ['general', 'support', 'random']),
      author: { name: pick(random, ['admin', 'agent', 'viewer', 'Grace', 'Linus']) },
      text: pick(random, texts),
      sent_at: iso(at),
    });
  }
  return records;
}
