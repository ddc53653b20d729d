import { describe, expect, it } from 'vitest';
import { FILTER_LOOKUPS, type DescribeField, type DescribeResult } from '../../../shared/protocol.ts';
import { defaultStreamNamespace, describeSpec, emptyDraft, filterKeySuggestions, insertFilterKey, streamNamespaces, validateDraft, type SubscriptionDraft } from './subscription-draft.ts';

const f = (type: DescribeField['type'], extra: Partial<DescribeField> = {}): DescribeField => ({ type, required: false, null: true, lookups: ['exact', 'in'], ...extra });

const describeResult: DescribeResult = {
  version: '1',
  workspace: 'demo',
  mode: 'development',
  limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1, maxBodyBytes: 1 },
  apps: {
    tickets: {
      models: {
        Ticket: {
          fields: { status: f('string', { lookups: [...FILTER_LOOKUPS] }), password: f('string', { writeOnly: true, lookups: [] }), assignee: f('ref', { to: 'system.User' }) },
          relations: { documents: { many: 'tickets.Document', via: 'ticket' } },
          search: [],
          ordering: [],
          intents: [],
          permissions: {},
        },
      },
      controllers: {},
      collections: {},
    },
    chat: { models: {}, controllers: {}, collections: { Message: { intents: [], permissions: {} } } },
  },
};

const draft = (patch: Partial<SubscriptionDraft>): SubscriptionDraft => ({ ...emptyDraft('tickets.Ticket'), ...patch });

describe('validateDraft', () => {
  it('builds the smallest spec: all standard events means no events key', () => {
    expect(validateDraft(draft({}), describeResult)).toEqual({ ok: true, spec: { namespace: 'tickets.Ticket', schema: 'model' }, since: null });
  });

  it('takes the schema from describe, events, filter, fields and since', () => {
    const result = validateDraft(
      draft({ namespace: 'chat.Message', schema: 'model', events: { created: true, updated: false, deleted: true }, otherEvents: ' archived, ', filterText: '{"author.name": "ann"}', fieldsText: '{"text": null, "author": {"name": null}}', sinceText: '40' }),
      describeResult,
    );
    expect(result).toEqual({
      ok: true,
      spec: { namespace: 'chat.Message', schema: 'nosql', events: ['created', 'deleted', 'archived'], filter: { 'author.name': 'ann' }, fields: { text: null, author: { name: null } } },
      since: 40,
    });
  });

  it('accepts a namespace describe does not know (controller events), with the chosen schema', () => {
    expect(validateDraft(draft({ namespace: 'billing.Invoice', schema: 'nosql' }), describeResult)).toMatchObject({ ok: true, spec: { schema: 'nosql' } });
    expect(validateDraft(draft({ namespace: 'tickets.Ticket' }), null)).toMatchObject({ ok: true });
  });

  it('explains each problem', () => {
    const result = validateDraft(
      draft({ namespace: 'Ticket', events: { created: false, updated: false, deleted: false }, filterText: '[1]', fieldsText: '{"a": 1}', sinceText: '-3' }),
      describeResult,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        namespace: 'Give a namespace as app.Name, e.g. tickets.Ticket',
        events: 'Pick at least one event',
        filter: 'The filter must be a JSON object',
        fields: 'each field is asked with null, or with an object for a nested selection',
        since: 'since is a sequence number (an integer ≥ 0)',
      },
    });
  });

  it('checks filter keys against the model', () => {
    const check = (filter: object) => validateDraft(draft({ filterText: JSON.stringify(filter) }), describeResult);
    expect(check({ status__in: ['open'], 'assignee.username': 'a', id: 3, documents__title: 'x' })).toMatchObject({ ok: true });
    expect(check({ statsu: 'open' })).toEqual({ ok: false, errors: { filter: '"statsu": tickets.Ticket has no field "statsu"' } });
    expect(check({ assignee__icontains: 'a' })).toEqual({ ok: false, errors: { filter: '"assignee__icontains": assignee does not take the lookup "icontains"' } });
    expect(validateDraft(draft({ filterText: '{oops' }), describeResult)).toMatchObject({ ok: false, errors: { filter: expect.stringContaining('not valid JSON') } });
  });
});

describe('describe helpers', () => {
  it('lists streamable namespaces and filter keys', () => {
    expect(streamNamespaces(describeResult)).toEqual([{ namespace: 'chat.Message', schema: 'nosql' }, { namespace: 'tickets.Ticket', schema: 'model' }]);
    expect(streamNamespaces(null)).toEqual([]);
    const keys = filterKeySuggestions(describeResult, 'tickets.Ticket');
    expect(keys).toContain('status__icontains');
    expect(keys).toContain('assignee__in');
    expect(keys).not.toContain('status__exact');
    expect(keys.some((k) => k.startsWith('password'))).toBe(false);
    expect(filterKeySuggestions(describeResult, 'chat.Message')).toEqual([]);
    expect(describeSpec({ namespace: 'a.B', events: ['created'], filter: { x: 1 } })).toBe('a.B · created where {"x":1}');
    expect(describeSpec({ namespace: 'a.B' })).toBe('a.B · all events');
  });
});

describe('insertFilterKey', () => {
  it('keeps a typed 64-bit id\'s digits when a key is added, and shows them in the subscription\'s line', () => {
    const text = insertFilterKey('{"id": 9007199254740993, "assignee": 12345678901234567890}', 'status');
    expect(text).toBe('{\n  "id": 9007199254740993,\n  "assignee": 12345678901234567890,\n  "status": ""\n}');
    const result = validateDraft(draft({ filterText: '{"id": 9007199254740993}' }), describeResult);
    expect(result.ok && describeSpec(result.spec)).toBe('tickets.Ticket · all events where {"id":9007199254740993}');
  });

  it('adds a key with a placeholder fitting its lookup', () => {
    expect(JSON.parse(insertFilterKey('', 'status'))).toEqual({ status: '' });
    expect(JSON.parse(insertFilterKey('{"a": 1}', 'status__in'))).toEqual({ a: 1, status__in: [] });
    expect(JSON.parse(insertFilterKey('{}', 'assignee__isnull'))).toEqual({ assignee__isnull: true });
    expect(insertFilterKey('{"a": ', 'b')).toBe('{"a": \n"b": ');
    expect(insertFilterKey('{"a": 1}', '')).toBe('{"a": 1}');
  });
});

describe('the namespace a new subscription starts on', () => {
  it('is the workspace\'s first model, not a collection that sorts first nor the built-in user', () => {
    const demo = {
      apps: {
        system: { models: { User: {} }, controllers: {}, collections: {} },
        tickets: { models: { Ticket: {} }, controllers: {}, collections: {} },
        chat: { models: {}, controllers: {}, collections: { Message: {} } },
      },
    } as unknown as DescribeResult;
    expect(defaultStreamNamespace(demo)).toBe('tickets.Ticket');
    expect(defaultStreamNamespace({ apps: { system: { models: { User: {} }, controllers: {}, collections: {} }, chat: { models: {}, controllers: {}, collections: { Message: {} } } } } as never)).toBe('system.User');
    expect(defaultStreamNamespace({ apps: { chat: { models: {}, controllers: {}, collections: { Message: {} } } } } as never)).toBe('chat.Message');
    expect(defaultStreamNamespace(null)).toBe('');
  });
});
