// The exact-shell-specs migration: shell rules saved with the old word-anywhere meaning are rewritten (deny, ask) or flagged (allow).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-migration-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The migration under test (found by its text, so a migration added before it does not break the test). */
const EXACT_SPECS = MIGRATIONS.findIndex((sql) => sql.includes('rewritten for exact shell specs'));

/** A database as toolgate left it before the migration, holding these rules. */
function oldDatabase(path: string, rules: [effect: string, pattern: string, note?: string][]): void {
  const db = new Database(path);
  for (let version = 0; version < EXACT_SPECS; version++) db.exec(MIGRATIONS[version]!);
  db.pragma(`user_version = ${EXACT_SPECS}`);
  const insert = db.prepare(
    "INSERT INTO rules (id, effect, pattern, note, created_at, position) VALUES (?, ?, ?, ?, '2026-01-01T00:00:00Z', ?)",
  );
  rules.forEach(([effect, pattern, note], i) => insert.run(`r${i}`, effect, pattern, note ?? null, i + 1));
  db.close();
}

describe('the exact-shell-specs migration', () => {
  it('keeps the reach of saved deny and ask rules, flags allow rules, and leaves everything else alone', async () => {
    const path = join(dir, 'old.db');
    oldDatabase(path, [
      ['deny', 'bash(docker)'],
      ['ask', 'Bash(git push)', 'from the team'],
      ['deny', 'run_shell_command(rm -rf /) '],
      ['allow', 'bash(git status)'],
      ['deny', 'bash(rm -rf *)'],
      ['allow', 'bash(npm run test:*)'],
      ['deny', 'read_file(/etc/shadow)'],
      ['allow', 'mcp__github__get_issue'],
    ]);
    const store = openSqliteStore(path);
    const rules = await store.listRules();
    await store.close();
    assert.deepEqual(
      rules.map((r) => `${r.effect} ${r.pattern}`),
      [
        'deny bash(docker *)',
        'ask Bash(git push *)',
        'deny run_shell_command(rm -rf / *)',
        'allow bash(git status)',
        'deny bash(rm -rf *)',
        'allow bash(npm run test:*)',
        'deny read_file(/etc/shadow)',
        'allow mcp__github__get_issue',
      ],
    );
    assert.match(rules[0]!.note!, /^was bash\(docker\) \(words anywhere\)/);
    assert.match(rules[1]!.note!, /^from the team · was Bash\(git push\)/);
    assert.match(rules[3]!.note!, /now matches this exact command only/);
    for (const r of rules.slice(4)) assert.equal(r.note, null, r.pattern);
  });

  it('runs once: a rule saved afterwards keeps its exact meaning', async () => {
    const path = join(dir, 'new.db');
    const store = openSqliteStore(path);
    await store.addRule({ effect: 'deny', pattern: 'bash(git push)' });
    await store.close();
    const again = openSqliteStore(path);
    assert.deepEqual(
      (await again.listRules()).map((r) => r.pattern),
      ['bash(git push)'],
    );
    await again.close();
  });
});
