// The authentication class of a single query is read from `__meta__` under snakeKey's rule, however
// the key is spelled; keys of other lengths are skipped without asking snakeKey (issue 14.2), and
// that shortcut must never change which key counts.
import { describe, expect, it } from 'vitest';
import type { ServerState } from '../context.ts';
import { snakeKey } from '../query/normalize.ts';
import { readRequestShape } from './request-caller.ts';

// A single query reads no state.
const state = {} as ServerState;
const authClassOf = (meta: Record<string, unknown>) => readRequestShape(state, { __meta__: meta as never }).authClass;

describe('the authentication class of a query', () => {
  it('is found under every spelling snakeKey maps to authentication_class', () => {
    for (const key of ['authentication_class', 'authenticationClass', 'AuthenticationClass', 'AUTHENTICATION_CLASS', 'Authentication_Class']) {
      expect(snakeKey(key), key).toBe('authentication_class');
      expect(authClassOf({ namespace: 'x', [key]: 'jwt' }), key).toBe('jwt');
      expect(authClassOf({ [key]: 'session' }), key).toBe('session');
    }
  });

  it('is not found under keys that only look like it, and a value other than jwt or session is ignored', () => {
    // The Kelvin sign lowercases to "k"; the dotted capital I lowercases to two characters; neither spells the key.
    for (const key of ['authentication__class', 'authenticationclass', 'authentication_clas', 'authentication_class ', 'authentİcation_class', 'authenticationClassX', '_authentication_class']) {
      expect(authClassOf({ [key]: 'jwt' }), key).toBeUndefined();
    }
    expect(authClassOf({ authenticationClass: 'admin' })).toBeUndefined();
    expect(authClassOf({ uniqueObject: { id: 1 }, namespace: 'a.B' })).toBeUndefined();
  });

  it('agrees with snakeKey on every key of 1 to 24 characters built from the letters that matter', () => {
    // Random spellings around the real one: any key snakeKey maps to authentication_class is found, and no other.
    const letters = 'authenticoslAUTHENICOSL_K';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const base = i % 2 === 0 ? 'authenticationClass' : 'authentication_class';
      const chars = [...base];
      const edits = 1 + Math.floor(next() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * (chars.length + 1));
        const letter = letters[Math.floor(next() * letters.length)] as string;
        const kind = next();
        if (kind < 0.4) chars[at] = chars[at] === undefined ? letter : next() < 0.5 ? chars[at].toUpperCase() : chars[at].toLowerCase();
        else if (kind < 0.7) chars.splice(at, 0, letter);
        else chars.splice(at, 1);
      }
      const key = chars.join('');
      expect(authClassOf({ [key]: 'jwt' }), key).toBe(snakeKey(key) === 'authentication_class' ? 'jwt' : undefined);
    }
  });
});
