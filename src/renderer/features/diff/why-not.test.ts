import { describe, expect, it } from 'vitest';
import { readWhyNot } from './why-not.ts';

describe('readWhyNot', () => {
  it('reads the reasons of a well-formed answer', () => {
    expect(readWhyNot({ visible: false, user: 'agent', reasons: [{ rule: 'row_scope', message: 'outside the scope' }] })).toEqual({
      visible: false,
      user: 'agent',
      reasons: [{ rule: 'row_scope', message: 'outside the scope' }],
    });
  });

  it('never reads an answer of the wrong shape as "no rule": it says the server did not explain', () => {
    for (const payload of [null, [], 'visible', { visible: true }, { reasons: 'none' }]) {
      expect(readWhyNot(payload as never)).toHaveProperty('failure');
    }
    // Reasons that are not {rule, message} are left out, and visible must be exactly true.
    expect(readWhyNot({ visible: 'yes', user: 7, reasons: [{ rule: 1 }, 'x', { rule: 'filter', message: 'no match' }] })).toEqual({
      visible: false,
      user: null,
      reasons: [{ rule: 'filter', message: 'no match' }],
    });
  });
});
