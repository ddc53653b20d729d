// A download finds the records holding a file through an index of each file column, never by a
// scan of every table (docs/protocol.md "File URLs").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlParam, SqlRunner } from '../db/sql-session.ts';
import { untracked } from '../db/sql-session.ts';
import { VAULT_WORKSPACE } from '../testing/file-server.ts';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';
import { findHolders } from './file-access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(VAULT_WORKSPACE) });
});
afterAll(() => t.close());

describe('findHolders', () => {
  it('looks each file column up by an index', () => {
    const plans = t.state.db.read((statements) => {
      const sql = untracked(statements);
      const ran: Array<{ text: string; params: SqlParam[] }> = [];
      const recording: SqlRunner = {
        all: (text, params = []) => (ran.push({ text, params }), sql.all(text, params)),
        get: (text, params = []) => (ran.push({ text, params }), sql.get(text, params)),
        run: () => {
          throw new Error('a lookup writes nothing');
        },
      };
      expect(findHolders(t.state, recording, 'some-file-id')).toEqual([]);
      return ran.map(({ text, params }) => sql.all(`EXPLAIN QUERY PLAN ${text}`, params).map((row) => String(row.detail)).join('; '));
    });
    // vault.Doc file and cover, vault.Locked file.
    expect(plans).toHaveLength(3);
    for (const plan of plans) {
      expect(plan).toMatch(/USING (COVERING )?INDEX/);
      expect(plan).not.toMatch(/^SCAN/);
    }
  });
});
