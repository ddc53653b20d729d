import { describe, expect, it } from 'vitest';
import { buildFormModel, requiredOnCreate } from './form-model.ts';
import { uploadDescribe } from './upload.fixture.ts';
import { listUploadTargets, targetLabel, type UploadTarget } from './upload-targets.ts';

const targets = listUploadTargets(uploadDescribe);
const byKey = (key: string): UploadTarget => {
  const t = targets.find((x) => x.key === key);
  if (!t) throw new Error(`no target ${key}`);
  return t;
};

describe('listUploadTargets', () => {
  it('lists models with file fields (create and update) and controller intents with files', () => {
    expect(targets.map((t) => t.key)).toEqual([
      'controller:learning.LearningContentRegistration:uploadPackage',
      'model:tickets.Document:create',
      'model:tickets.Document:update',
      'model:tickets.Ticket:create',
      'model:tickets.Ticket:update',
      'controller:tickets.Document:upload',
    ]);
    expect(byKey('model:tickets.Document:create')).toMatchObject({ fileFields: ['file'] });
    expect(byKey('controller:tickets.Document:upload')).toMatchObject({ parts: ['file'] });
    expect(targetLabel(byKey('controller:tickets.Document:upload'))).toBe('tickets.Document · upload (controller)');
  });

  it('skips models without file fields, controllers without files, and a null describe', () => {
    expect(targets.some((t) => t.namespace === 'tickets.Comment' || t.namespace === 'tickets.Report')).toBe(false);
    expect(listUploadTargets(null)).toEqual([]);
  });

  it('leaves out an intent the model does not offer', () => {
    const d = structuredClone(uploadDescribe);
    d.apps.tickets!.models.Document!.intents = ['retrieve', 'create'];
    expect(listUploadTargets(d).filter((t) => t.namespace === 'tickets.Document' && t.kind === 'model').map((t) => t.intent)).toEqual(['create']);
  });
});

describe('buildFormModel', () => {
  it('generates inputs from field types, skipping auto fields', () => {
    const model = buildFormModel(byKey('model:tickets.Ticket:create'));
    expect(model.fields.map((f) => [f.name, f.input, f.required])).toEqual([
      ['title', 'text', true],
      ['status', 'select', false],
      ['priority', 'integer', false],
      ['body', 'textarea', false],
      ['assignee', 'ref', false],
      ['due', 'datetime', false],
      ['meta', 'json', false],
    ]);
    expect(model.files).toEqual([expect.objectContaining({ name: 'attachment', required: false, protected: true })]);
    expect(model.fields.find((f) => f.name === 'status')).toMatchObject({ choices: ['open', 'pending', 'closed'], defaultValue: 'open' });
    expect(model.needsUniqueObject).toBe(false);
  });

  it('requires a non-null file field without default on create, and nothing on update', () => {
    const create = buildFormModel(byKey('model:tickets.Document:create'));
    expect(create.files[0]).toMatchObject({ name: 'file', required: true });
    expect(create.fields.find((f) => f.name === 'ticket')?.required).toBe(true);
    const update = buildFormModel(byKey('model:tickets.Document:update'));
    expect([...update.fields, ...update.files].every((f) => !f.required)).toBe(true);
    expect(update.needsUniqueObject).toBe(true);
  });

  it('gives a controller its declared parts and JSON arguments', () => {
    const model = buildFormModel(byKey('controller:learning.LearningContentRegistration:uploadPackage'));
    expect(model.fields).toEqual([]);
    expect(model.files.map((f) => f.name)).toEqual(['package']);
    expect(model.takesJsonArguments).toBe(true);
  });

  it('follows docs/protocol.md "Errors" for required', () => {
    const base = { type: 'string' as const, lookups: [] };
    expect(requiredOnCreate({ ...base, required: false, null: false })).toBe(true);
    expect(requiredOnCreate({ ...base, required: false, null: true })).toBe(false);
    expect(requiredOnCreate({ ...base, required: false, null: false, default: 'x' })).toBe(false);
    expect(requiredOnCreate({ ...base, required: false, null: false, auto: 'create' })).toBe(false);
    expect(requiredOnCreate({ ...base, required: true, null: true })).toBe(true);
  });
});
