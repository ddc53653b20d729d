import { describe, expect, it } from 'vitest';
import { coerceValue, inputText } from './coerce-value.ts';
import { formatBytes } from './format-bytes.ts';
import { buildFormModel, type FormFieldSpec } from './form-model.ts';
import { ARGUMENTS_KEY, emptyFormState, extraPartKey, UNIQUE_OBJECT_KEY, type FormState } from './form-state.ts';
import { file, uploadDescribe } from './upload.fixture.ts';
import { listUploadTargets } from './upload-targets.ts';
import { fileSizeErrors, validateForm } from './validate-form.ts';

const limits = uploadDescribe.limits;
const modelFor = (key: string) => buildFormModel(listUploadTargets(uploadDescribe).find((t) => t.key === key)!);
const spec = (type: FormFieldSpec['type'], extra: Partial<FormFieldSpec> = {}): FormFieldSpec => ({ name: 'x', type, input: 'text', required: false, nullable: false, ...extra });

describe('coerceValue', () => {
  it('reads each type', () => {
    expect(coerceValue(spec('integer'), ' 42 ')).toEqual({ ok: true, value: 42 });
    expect(coerceValue(spec('integer'), '4.2')).toMatchObject({ ok: false, error: 'must be an integer' });
    expect(coerceValue(spec('integer'), '99999999999999999999')).toMatchObject({ ok: false });
    expect(coerceValue(spec('number'), '4.5e1')).toEqual({ ok: true, value: 45 });
    expect(coerceValue(spec('number'), 'abc')).toMatchObject({ ok: false });
    expect(coerceValue(spec('boolean'), 'true')).toEqual({ ok: true, value: true });
    expect(coerceValue(spec('boolean'), 'yes')).toMatchObject({ ok: false });
    expect(coerceValue(spec('ref'), '7')).toEqual({ ok: true, value: 7 });
    expect(coerceValue(spec('ref'), '0')).toMatchObject({ ok: false, error: 'must be a positive id' });
    expect(coerceValue(spec('date'), '2026-02-30')).toMatchObject({ ok: true });
    expect(coerceValue(spec('date'), '2026/01/01')).toMatchObject({ ok: false });
    expect(coerceValue(spec('json'), '{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(coerceValue(spec('json'), '{a}')).toMatchObject({ ok: false });
    expect(coerceValue(spec('string'), '  padded ')).toEqual({ ok: true, value: '  padded ' });
  });

  it('keeps a zoned date-time and converts a local one to UTC', () => {
    expect(coerceValue(spec('datetime'), '2026-01-01T09:30:00+02:00')).toEqual({ ok: true, value: '2026-01-01T09:30:00+02:00' });
    const local = coerceValue(spec('datetime'), '2026-01-01T09:30');
    expect(local.ok && local.value).toBe(new Date('2026-01-01T09:30').toISOString());
    expect(coerceValue(spec('datetime'), 'tomorrow')).toMatchObject({ ok: false });
  });

  it('checks choices, length and range', () => {
    expect(coerceValue(spec('string', { choices: ['open', 'closed'] }), 'open')).toEqual({ ok: true, value: 'open' });
    expect(coerceValue(spec('string', { choices: ['open', 'closed'] }), 'gone')).toMatchObject({ ok: false, error: 'must be one of "open", "closed"' });
    expect(coerceValue(spec('integer', { choices: [1, 2] }), '2')).toEqual({ ok: true, value: 2 });
    expect(coerceValue(spec('string', { maxLength: 3 }), 'abcd')).toMatchObject({ ok: false, error: 'is longer than 3 characters' });
    // Length counts code points, as the server does.
    expect(coerceValue(spec('string', { maxLength: 2 }), '😀😀')).toMatchObject({ ok: true });
    expect(coerceValue(spec('integer', { min: 1, max: 5 }), '0')).toMatchObject({ ok: false, error: 'must be at least 1' });
    expect(coerceValue(spec('integer', { min: 1, max: 5 }), '6')).toMatchObject({ ok: false, error: 'must be at most 5' });
    expect(inputText(3)).toBe('3');
    expect(inputText('open')).toBe('open');
    expect(inputText(null)).toBe('');
  });
});

describe('validateForm', () => {
  const documentCreate = modelFor('model:tickets.Document:create');

  it('reports missing required fields and files', () => {
    const result = validateForm(documentCreate, emptyFormState(documentCreate), limits);
    expect(result).toEqual({ ok: false, errors: { ticket: ['is required'], title: ['is required'], file: ['needs a file'] } });
  });

  it('rejects a file larger than the server limit, naming both sizes', () => {
    const state: FormState = { ...emptyFormState(documentCreate), values: { ticket: '1', title: 'T' }, files: { file: file('big.bin', 2048) } };
    const result = validateForm(documentCreate, state, limits);
    expect(result).toEqual({ ok: false, errors: { file: ['big.bin is 2 KiB; the server accepts at most 1 KiB per file'] } });
    // Without known limits the size is not checked.
    expect(validateForm(documentCreate, state, null).ok).toBe(true);
  });

  it('explains files that pass one by one but not together, with the server\'s upload limit', () => {
    const small = { ...limits, maxFileBytes: 1024, maxUploadBytes: 1536 };
    const state: FormState = {
      ...emptyFormState(documentCreate),
      values: { ticket: '1', title: 'T' },
      files: { file: file('a.bin', 1000) },
      extraParts: [{ name: 'more', file: file('b.bin', 1000) }],
    };
    const expected = { __form__: ['The files together are 2 KiB; the server accepts at most 1.5 KiB in one upload'] };
    expect(fileSizeErrors(documentCreate, state, small)).toEqual(expected);
    expect(validateForm(documentCreate, state, small)).toEqual({ ok: false, errors: expected });
    // A server that reports no upload limit (an older one): only the per-file limit applies.
    expect(validateForm(documentCreate, state, { ...small, maxUploadBytes: undefined }).ok).toBe(true);
  });

  it('reports wrong types and returns typed values when valid', () => {
    const ticket = modelFor('model:tickets.Ticket:create');
    const bad: FormState = { ...emptyFormState(ticket), values: { title: 'x', priority: 'high', meta: '{', status: 'gone' } };
    const result = validateForm(ticket, bad, limits);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['meta', 'priority', 'status']);

    const good: FormState = { ...emptyFormState(ticket), values: { title: 'Printer', priority: '2', meta: '{"k": 1}', status: 'open', body: '' }, nulls: { assignee: true }, files: { attachment: file('a.txt', 10, 'text/plain') } };
    const ok = validateForm(ticket, good, limits);
    expect(ok).toMatchObject({ ok: true, data: { title: 'Printer', priority: 2, meta: { k: 1 }, status: 'open', assignee: null }, uniqueObject: null });
    if (ok.ok) expect(ok.files.map((f) => [f.part, f.field, f.file.name])).toEqual([['attachment', 'attachment', 'a.txt']]);
  });

  it('ignores an explicit null on a non-nullable field', () => {
    const result = validateForm(documentCreate, { ...emptyFormState(documentCreate), nulls: { title: true } }, limits);
    expect(!result.ok && result.errors.title).toEqual(['is required']);
  });

  it('needs a uniqueObject object for update', () => {
    const update = modelFor('model:tickets.Document:update');
    const state = emptyFormState(update);
    expect(validateForm(update, state, limits)).toMatchObject({ ok: false, errors: { [UNIQUE_OBJECT_KEY]: ['Pick the record to update'] } });
    expect(validateForm(update, { ...state, uniqueObject: '[1]' }, limits)).toMatchObject({ ok: false, errors: { [UNIQUE_OBJECT_KEY]: ['uniqueObject must be a JSON object'] } });
    expect(validateForm(update, { ...state, uniqueObject: '{}' }, limits)).toMatchObject({ ok: false });
    expect(validateForm(update, { ...state, uniqueObject: '{"id": 4}', values: { title: 'New' } }, limits)).toMatchObject({ ok: true, uniqueObject: { id: 4 }, data: { title: 'New' }, files: [] });
  });

  it('reads controller arguments and extra named parts', () => {
    const ctrl = modelFor('controller:learning.LearningContentRegistration:uploadPackage');
    const base = emptyFormState(ctrl);
    const state: FormState = {
      ...base,
      argumentsJson: '{"title": "Course"}',
      files: { package: file('course.zip', 100) },
      extraParts: [{ name: 'thumbnail', file: file('t.png', 5, 'image/png') }],
    };
    const ok = validateForm(ctrl, state, limits);
    expect(ok).toMatchObject({ ok: true, data: { title: 'Course' } });
    if (ok.ok) expect(ok.files.map((f) => [f.part, f.field])).toEqual([['package', null], ['thumbnail', null]]);

    const bad = validateForm(ctrl, { ...state, argumentsJson: '{"__meta__": {}}', extraParts: [{ name: 'query', file: null }, { name: 'package', file: file('x', 1) }, { name: ' ', file: file('y', 1) }] }, limits);
    expect(bad).toEqual({
      ok: false,
      errors: {
        [ARGUMENTS_KEY]: ['The arguments cannot hold __meta__: the form writes it'],
        [extraPartKey(0)]: ['"query" is the name of the query part', 'needs a file'],
        [extraPartKey(1)]: ['"package" is already a part'],
        [extraPartKey(2)]: ['needs a part name'],
      },
    });
    expect(validateForm(ctrl, { ...state, argumentsJson: 'nope' }, limits)).toMatchObject({ ok: false, errors: { [ARGUMENTS_KEY]: [expect.stringContaining('not valid JSON')] } });
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MiB');
    expect(formatBytes(-1)).toBe('?');
  });
});
