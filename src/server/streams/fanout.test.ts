// Fan-out (issue 14.1): subscribers that see an event alike get one frame, built once, written as the
// same buffer to each of their sockets; subscribers that see it differently (fields, grants, row
// scope, subscription id) never get another's bytes. Over real WebSockets.
import { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REACH_ADMIN, REACH_ADMIN_ENV, passwordOf, writeReachWorkspace, type ReachUser } from '../testing/reach-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';
import { item, writeStreamsWorkspace } from '../testing/streams-workspace.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every buffer the server writes to a socket while `act` runs, with the socket it went to. */
async function serverWrites(act: () => Promise<void>): Promise<Array<{ socket: Socket; chunk: Buffer }>> {
  const write = vi.spyOn(Socket.prototype, 'write');
  await act();
  const writes = write.mock.calls.map((args, i) => ({ socket: write.mock.contexts[i] as Socket, chunk: args[0] as unknown }));
  write.mockRestore();
  // Client frames are masked: only the server's event frames carry their JSON as it reads.
  return writes.filter((w): w is { socket: Socket; chunk: Buffer } => Buffer.isBuffer(w.chunk) && w.chunk.includes('"type":"event"'));
}

describe('one frame per view', () => {
  let s: StreamServer;
  beforeAll(async () => {
    s = await startStreamServer({ workspace: writeStreamsWorkspace() });
  });
  afterAll(() => s.close());

  it('writes the same buffer to every socket of a view, and its own to another view or subscription id', async () => {
    const same = await Promise.all([0, 1, 2].map(() => StreamClient.connect(s.wsUrl)));
    const wider = await StreamClient.connect(s.wsUrl);
    const otherId = await StreamClient.connect(s.wsUrl);
    for (const c of same) await c.subscribe({ id: 's', namespace: 'shop.Item', fields: { name: null } });
    await wider.subscribe({ id: 's', namespace: 'shop.Item', fields: { name: null, price: null } });
    await otherId.subscribe({ id: 't', namespace: 'shop.Item', fields: { name: null } });
    let id = 0;
    const writes = await serverWrites(async () => {
      id = (await s.post(item('create', { name: 'kettle', price: 30 }))).body.__payload__.id;
      for (const c of [...same, wider, otherId]) await c.events(c === otherId ? 't' : 's', 1);
    });

    // One event frame per socket, five sockets, three distinct buffers.
    expect(writes).toHaveLength(5);
    expect(new Set(writes.map((w) => w.socket)).size).toBe(5);
    const buffers = [...new Set(writes.map((w) => w.chunk))];
    expect(buffers).toHaveLength(3);
    const shared = buffers.find((b) => writes.filter((w) => w.chunk === b).length === 3) as Buffer;
    expect(shared.toString()).toContain(`"subscription":"s"`);
    expect(shared.toString()).not.toContain('"price"');

    for (const c of same) expect((await c.events('s', 1))[0].record).toEqual({ id, name: 'kettle' });
    expect((await wider.events('s', 1))[0].record).toEqual({ id, name: 'kettle', price: 30 });
    expect((await otherId.events('t', 1))[0]).toMatchObject({ subscription: 't', record: { id, name: 'kettle' } });
    await Promise.all([...same, wider, otherId].map((c) => c.close()));
  });

  it('keeps the order of every message of a socket, across commits written together and two views', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    const subscribed = await c.subscribe({ id: 'all', namespace: 'shop.Item' });
    await c.subscribe({ id: 'names', namespace: 'shop.Item', events: ['created'], fields: { name: null } });
    // One commit of 30 events, then 30 commits at once: frames of several events leave together.
    const batch = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`q${i}`, item('create', { name: `batch-${i}` })]));
    expect((await s.post({ __root_meta__: { atomic: true }, ...batch })).status).toBe(200);
    await Promise.all(Array.from({ length: 30 }, (_, i) => s.post(item('create', { name: `single-${i}` }))));
    const all = await c.events('all', 60);
    const names = await c.events('names', 60);
    const seqs = all.map((e) => e.seq as number);
    expect(seqs).toEqual(Array.from({ length: 60 }, (_, i) => subscribed.seq + 1 + i));
    expect(names.map((e) => e.seq)).toEqual(seqs);
    // On the wire, each event of `all` comes right before the same event of `names`.
    const events = c.messages.filter((m) => m.type === 'event');
    expect(events.map((e) => `${e.seq}${e.subscription}`)).toEqual(seqs.flatMap((seq) => [`${seq}all`, `${seq}names`]));
    expect(all.filter((e) => e.record.name.startsWith('batch-')).map((e) => e.record.name)).toEqual(Array.from({ length: 30 }, (_, i) => `batch-${i}`));
    await c.close();
  });

  it('still closes a slow subscriber with 4008 while the others of its view get every event', async () => {
    const t = await startStreamServer({ workspace: writeStreamsWorkspace(), streams: { maxBehind: 20 } });
    try {
      const slow = await StreamClient.connect(t.wsUrl);
      const fast = await StreamClient.connect(t.wsUrl);
      await slow.subscribe({ id: 's', namespace: 'shop.Item' });
      await fast.subscribe({ id: 's', namespace: 'shop.Item' });
      const socket = (slow.socket as unknown as { _socket: Socket })._socket;
      socket.pause();
      // Large records fill the kernel's buffers of the paused socket, so its writes stop completing.
      const blurb = 'x'.repeat(64 * 1024);
      const slowServerSide = [...t.server.webSockets()][0]!;
      let total = 0;
      while (slowServerSide.readyState === slowServerSide.OPEN && total < 1000) {
        expect((await t.post(item('create', { name: `big-${total}`, blurb }))).status).toBe(200);
        total += 1;
      }
      expect(slowServerSide.readyState).not.toBe(slowServerSide.OPEN);
      socket.resume();
      expect((await slow.closed).code).toBe(4008);
      const got = await fast.events('s', total, 15_000);
      expect(got.map((e) => e.record.name)).toEqual(Array.from({ length: total }, (_, i) => `big-${i}`));
      await fast.close();
    } finally {
      await t.close();
    }
  });
});

describe('views follow each subscriber’s grants', () => {
  let s: StreamServer;
  let workspace: ReturnType<typeof writeReachWorkspace>;
  const tokens = {} as Record<ReachUser, string>;
  const ids = {} as Record<ReachUser, number>;
  let admin: string;
  beforeAll(async () => {
    workspace = writeReachWorkspace();
    s = await startStreamServer({ workspace: workspace.file, env: REACH_ADMIN_ENV });
    admin = await s.login(REACH_ADMIN.username, REACH_ADMIN.password);
    for (const [user, roles] of [['alice', ['member']], ['bob', ['member']], ['carol', ['auditor']]] as const) {
      const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: user, password: passwordOf(user), email: `${user}@fanout.test`, roles }, admin);
      ids[user] = res.body.__payload__.id;
      tokens[user] = await s.login(user, passwordOf(user));
    }
  });
  afterAll(async () => {
    await s.close();
    workspace.remove();
  });

  const create = async (namespace: string, data: Record<string, unknown>): Promise<number> => {
    const res = await s.post({ __meta__: { namespace, intent: 'create' }, ...data }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.__payload__.id;
  };
  const connect = (user: ReachUser) => StreamClient.connect(s.wsUrl, { headers: { authorization: `Bearer ${tokens[user]}` } });

  it('renders nested records with each subscriber’s row scope, however many share the fields', async () => {
    const fields = { title: null, project: { name: null } };
    const clients = { alice: await connect('alice'), alice2: await connect('alice'), bob: await connect('bob'), carol: await connect('carol') };
    for (const c of Object.values(clients)) expect(await c.subscribe({ id: 'tasks', namespace: 'work.Task', fields })).toMatchObject({ type: 'subscribed' });
    const apollo = await create('work.Project', { name: 'Apollo', owner: ids.alice });
    let task = 0;
    const writes = await serverWrites(async () => {
      task = await create('work.Task', { title: 'launch', project: apollo });
      for (const c of Object.values(clients)) await c.events('tasks', 1);
    });
    const seen = async (c: StreamClient) => (await c.events('tasks', 1))[0].record;
    expect(await seen(clients.alice)).toEqual({ id: task, title: 'launch', project: { id: apollo, name: 'Apollo' } });
    expect(await seen(clients.alice2)).toEqual({ id: task, title: 'launch', project: { id: apollo, name: 'Apollo' } });
    // Bob's scope hides Alice's project: he never gets the frame she does.
    expect(await seen(clients.bob)).toEqual({ id: task, title: 'launch', project: null });
    expect(await seen(clients.carol)).toEqual({ id: task, title: 'launch', project: { id: apollo, name: 'Apollo' } });
    // Alice's two sockets share one buffer; Bob's and Carol's grants on work.Project differ from hers, so
    // each has a rendering of its own (Carol's bytes happen to equal Alice's).
    const counts = [...new Set(writes.map((w) => w.chunk))].map((b) => writes.filter((w) => w.chunk === b).length);
    expect(counts.sort()).toEqual([1, 1, 2]);
    const bobsBytes = writes.filter((w) => w.chunk.includes('"project":null'));
    expect(bobsBytes).toHaveLength(1);
    expect(writes.filter((w) => w.chunk === bobsBytes[0]!.chunk)).toHaveLength(1);
    await Promise.all(Object.values(clients).map((c) => c.close()));
  });

  it('moves a subscriber to the rendering of its new grants from the next event on', async () => {
    const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'erin', password: 'erin-password-1', email: 'erin@fanout.test', roles: ['member'] }, admin);
    const erin = { id: res.body.__payload__.id as number, token: await s.login('erin', 'erin-password-1') };
    const fields = { title: null, project: { name: null } };
    const c = await StreamClient.connect(s.wsUrl, { headers: { authorization: `Bearer ${erin.token}` } });
    const carol = await connect('carol');
    for (const client of [c, carol]) await client.subscribe({ id: 'tasks', namespace: 'work.Task', fields });
    const borealis = await create('work.Project', { name: 'Borealis', owner: ids.bob });
    const before = await create('work.Task', { title: 'before', project: borealis });
    expect((await c.events('tasks', 1)).map((e) => e.record)).toEqual([{ id: before, title: 'before', project: null }]);
    // Erin becomes an auditor: the next event renders as Carol's does.
    expect((await s.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: erin.id } }, roles: ['auditor'] }, admin)).status).toBe(200);
    const after = await create('work.Task', { title: 'after', project: borealis });
    const seen = (await c.events('tasks', 2)).map((e) => e.record);
    expect(seen[1]).toEqual({ id: after, title: 'after', project: { id: borealis, name: 'Borealis' } });
    expect(seen[1]).toEqual((await carol.events('tasks', 2))[1].record);
    await Promise.all([c.close(), carol.close()]);
  });

  it('applies each subscriber’s row scope to the events of a shared view', async () => {
    const alice = await connect('alice');
    const bob = await connect('bob');
    const carol = await connect('carol');
    for (const c of [alice, bob, carol]) await c.subscribe({ id: 'projects', namespace: 'work.Project', fields: { name: null } });
    const hers = await create('work.Project', { name: 'hers', owner: ids.alice });
    const his = await create('work.Project', { name: 'his', owner: ids.bob });
    const nobodys = await create('work.Project', { name: 'nobody’s', owner: null });
    expect((await carol.events('projects', 3)).map((e) => e.record.id)).toEqual([hers, his, nobodys]);
    await alice.roundTrip();
    await bob.roundTrip();
    expect(alice.messages.filter((m) => m.type === 'event').map((e) => e.record)).toEqual([{ id: hers, name: 'hers' }]);
    expect(bob.messages.filter((m) => m.type === 'event').map((e) => e.record)).toEqual([{ id: his, name: 'his' }]);
    await Promise.all([alice, bob, carol].map((c) => c.close()));
  });
});
