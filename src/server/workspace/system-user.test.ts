import { describe, it, expect } from 'vitest';
import { resolveWorkspace } from './resolve.ts';

describe('system.User', () => {
  it('always exists with its built-in fields and default permissions', () => {
    const user = resolveWorkspace({}, null).models.get('system.User');
    expect([...(user?.fields.keys() ?? [])]).toEqual(['username', 'email', 'first_name', 'last_name', 'password', 'roles', 'is_active', 'created_at']);
    expect(user?.fields.get('username')).toMatchObject({ type: 'string', unique: true, required: true, maxLength: 150 });
    expect(user?.fields.get('password')).toMatchObject({ writeOnly: true, password: true, required: false });
    expect(user?.fields.get('roles')).toMatchObject({ type: 'json', default: [] });
    expect(user?.fields.get('is_active')).toMatchObject({ type: 'boolean', default: true });
    expect(user?.search).toEqual(['username', 'email', 'first_name', 'last_name']);
    expect(user?.permissions).toEqual({ intents: { retrieve: ['authenticated'], create: ['admin'], update: ['admin'], delete: ['admin'] }, scope: {} });
  });

  it('takes added fields and overrides permissions intent by intent', () => {
    const ws = resolveWorkspace(
      { apps: { system: { models: { User: { fields: { phone: { type: 'string', null: true } }, permissions: { retrieve: ['anyone'] } } } } } },
      null,
    );
    const user = ws.models.get('system.User');
    expect(user?.fields.get('phone')).toMatchObject({ type: 'string', nullable: true });
    expect(user?.permissions?.intents).toEqual({ retrieve: ['anyone'], create: ['admin'], update: ['admin'], delete: ['admin'] });
  });

  it('refuses anything else under apps.system', () => {
    const at = 'Invalid workspace /w.json: app "system"';
    expect(() => resolveWorkspace({ apps: { system: { models: { User: { ordering: ['username'] } } } } }, '/w.json')).toThrow(`${at}, model "User": unknown key "ordering"`);
    expect(() => resolveWorkspace({ apps: { system: { models: { User: { fields: { email: { type: 'text' } } } } } } }, '/w.json')).toThrow(`${at}, model "User", field "email": is a built-in field`);
    expect(() => resolveWorkspace({ apps: { system: { models: { Group: {} } } } }, '/w.json')).toThrow(`${at}: unknown key "Group"`);
    expect(() => resolveWorkspace({ apps: { system: { hooks: './h.mjs' } } }, '/w.json')).toThrow(`${at}: unknown key "hooks"`);
    expect(() => resolveWorkspace({ apps: { system: { models: { User: { fields: { n: { type: 'int' } } } } } } }, '/w.json')).toThrow(`${at}, model "User", field "n": unknown type "int"`);
  });
});
