import { describe, expect, it } from 'vitest';
import { buildUploadPlan, previewParts } from './build-upload.ts';
import { buildFormModel } from './form-model.ts';
import { ARGUMENTS_KEY, emptyFormState, extraPartKey, FORM_KEY, UNIQUE_OBJECT_KEY, type FormState } from './form-state.ts';
import { mapServerErrors } from './server-errors.ts';
import { file, uploadDescribe } from './upload.fixture.ts';
import { listUploadTargets } from './upload-targets.ts';
import { validateForm, type ValidForm } from './validate-form.ts';

const targetFor = (key: string) => listUploadTargets(uploadDescribe).find((t) => t.key === key)!;

function valid(key: string, patch: Partial<FormState>): ValidForm {
  const model = buildFormModel(targetFor(key));
  const result = validateForm(model, { ...emptyFormState(model), ...patch }, uploadDescribe.limits);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

describe('buildUploadPlan', () => {
  it('builds the query part with fileFieldMapping, then one part per file', () => {
    const form = valid('model:tickets.Document:create', { values: { ticket: '3', title: 'Scan' }, files: { file: file('scan.pdf', 100, 'application/pdf') } });
    const plan = buildUploadPlan(targetFor('model:tickets.Document:create'), form);
    expect(plan.query).toEqual({
      __meta__: { namespace: 'tickets.Document', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'file' } } },
      ticket: 3,
      title: 'Scan',
    });
    expect(plan.parts.map((p) => [p.kind, p.name])).toEqual([['field', 'query'], ['file', 'file']]);
    expect(JSON.parse((plan.parts[0] as { value: string }).value)).toEqual(plan.query);
  });

  it('puts uniqueObject on an update and maps only the files chosen', () => {
    const form = valid('model:tickets.Ticket:update', { uniqueObject: '{"id": 9}', values: { priority: '5' } });
    const plan = buildUploadPlan(targetFor('model:tickets.Ticket:update'), form);
    expect(plan.query.__meta__).toEqual({
      namespace: 'tickets.Ticket',
      intent: 'update',
      uniqueObject: { id: 9 },
      sideEffects: { multipartFormUpload: true, fileFieldMapping: {} },
    });
    expect(plan.parts).toHaveLength(1);
  });

  it('sends a controller intent with schema controller, its arguments and named parts', () => {
    const form = valid('controller:tickets.Document:upload', { argumentsJson: '{"ticket": 1}', files: { file: file('a.txt', 3, 'text/plain') }, extraParts: [{ name: 'extra', file: file('b.txt', 4) }] });
    const plan = buildUploadPlan(targetFor('controller:tickets.Document:upload'), form);
    expect(plan.query).toEqual({ __meta__: { namespace: 'tickets.Document', intent: 'upload', schema: 'controller', sideEffects: { multipartFormUpload: true } }, ticket: 1 });
    expect(plan.parts.map((p) => p.name)).toEqual(['query', 'file', 'extra']);
  });

  it('previews names, sizes and the JSON query', () => {
    const form = valid('model:tickets.Document:create', { values: { ticket: '3', title: 'é' }, files: { file: file('scan.pdf', 100, 'application/pdf') } });
    const { parts, totalBytes } = previewParts(buildUploadPlan(targetFor('model:tickets.Document:create'), form));
    const queryBytes = new TextEncoder().encode(JSON.stringify(buildUploadPlan(targetFor('model:tickets.Document:create'), form).query)).byteLength;
    expect(parts[0]).toMatchObject({ name: 'query', kind: 'field', size: queryBytes });
    expect(parts[0]!.detail).toContain('"fileFieldMapping": {\n');
    expect(parts[1]).toEqual({ name: 'file', kind: 'file', size: 100, detail: 'scan.pdf (application/pdf)', field: 'file' });
    expect(totalBytes).toBe(queryBytes + 100);
  });
});

describe('mapServerErrors', () => {
  const docModel = buildFormModel(targetFor('model:tickets.Document:update'));
  const state = { ...emptyFormState(docModel), uniqueObject: '{"id": 1}', files: { file: file('a', 1) } };

  it('puts errors on the field, path or part they name', () => {
    const errors = mapServerErrors(
      [
        { code: 'validation_error', message: 'is required', field: 'title', path: ['title'] },
        { code: 'invalid_request', message: 'not unique', path: ['__meta__', 'unique_object'] },
        { code: 'validation_error', message: 'part missing', path: ['__meta__', 'side_effects', 'file_field_mapping', 'file'] },
        { code: 'internal_error', message: 'boom' },
      ],
      docModel,
      state,
      null,
    );
    expect(errors).toEqual({ title: ['is required'], [UNIQUE_OBJECT_KEY]: ['not unique'], file: ['part missing'], [FORM_KEY]: ['boom'] });
  });

  it('places not_found on the record picker and a lone payload_too_large on the file', () => {
    expect(mapServerErrors([{ code: 'not_found', message: 'No such record' }], docModel, state, null)).toEqual({ [UNIQUE_OBJECT_KEY]: ['No such record'] });
    expect(mapServerErrors([{ code: 'payload_too_large', message: 'too big' }], docModel, state, null)).toEqual({ file: ['too big'] });
  });

  it('maps controller errors to parts or to the arguments box', () => {
    const ctrl = buildFormModel(targetFor('controller:tickets.Document:upload'));
    const s = { ...emptyFormState(ctrl), extraParts: [{ name: 'thumb', file: file('t', 1) }] };
    expect(mapServerErrors(
      [
        { code: 'validation_error', message: 'must be a zip', field: 'file' },
        { code: 'validation_error', message: 'too wide', field: 'thumb' },
        { code: 'validation_error', message: 'must be an integer', field: 'ticket' },
      ],
      ctrl,
      s,
      null,
    )).toEqual({ file: ['must be a zip'], [extraPartKey(0)]: ['too wide'], [ARGUMENTS_KEY]: ['ticket: must be an integer'] });
  });

  it('names an argument whose field holds a zero-width space with a visible placeholder', () => {
    const ctrl = buildFormModel(targetFor('controller:tickets.Document:upload'));
    expect(mapServerErrors([{ code: 'validation_error', message: 'must be an integer', field: 'tic\u200Bket' }], ctrl, emptyFormState(ctrl), null)).toEqual({
      [ARGUMENTS_KEY]: ['tic⟨U+200B⟩ket: must be an integer'],
    });
  });
});
