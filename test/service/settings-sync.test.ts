// serve --settings: a watched settings file synced as a read-only rule layer; `toolgate rules import/export` keep the order.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { SettingsSync } from '../../src/service/settings-sync.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { reviewerTokenIn } from '../support/reviewer-token.ts';
import { bash, startHarness, type Harness } from '../support/harness.ts';

let h: Harness | undefined;
let sync: SettingsSync | undefined;
afterEach(async () => {
  sync?.close();
  await h?.close();
  h = sync = undefined;
});

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('settings sync (serve --settings FILE)', () => {
  it('applies a Claude Code settings.json as a read-only layer and follows edits on the next call', async () => {
    h = await startHarness();
    const file = join(h.dataDir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        permissions: {
          allow: ['Bash(npm run test:*)'],
          deny: ['Bash(git push:*)', 'Read(./secrets/**)'],
          ask: ['WebFetch(domain:example.com)'],
        },
        hooks: {},
      }),
    );
    const errors: string[] = [];
    sync = new SettingsSync(h.toolgate, file, { onError: (m) => errors.push(m), pollMs: 50 });
    assert.deepEqual(sync.start(), { rules: 4, errors: [] });

    assert.equal((await h.decide(bash('git push origin main'))).body.decision, 'deny');
    assert.equal(
      (await h.decide({ tool: 'Read', args: { file_path: 'secrets/prod.env' }, cwd: '/home/tester/work/project' })).body
        .decision,
      'deny',
    );
    assert.equal(
      (await h.decide({ tool: 'WebFetch', args: { url: 'https://docs.example.com/a' } })).body.decision,
      'ask',
    );
    const listed = (await (await h.reviewer('/v1/rules')).json()).rules;
    assert.deepEqual(
      listed.map((r: any) => [r.origin, r.effect, r.pattern]),
      [
        ['settings', 'deny', 'Bash(git push:*)'],
        ['settings', 'deny', 'Read(./secrets/**)'],
        ['settings', 'allow', 'Bash(npm run test:*)'],
        ['settings', 'ask', 'WebFetch(domain:example.com)'],
      ],
    );

    writeFileSync(file, JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    await until(async () => (await h!.decide(bash('git push origin main'))).body.decision === 'allow');
    assert.equal((await h.decide(bash('rm notes.txt'))).body.decision, 'deny');

    // A half-written file keeps the last good rules.
    writeFileSync(file, '{"permissions": {"deny": [');
    await until(async () => errors.length > 0);
    assert.match(errors[0]!, /keeping the 1 rule\(s\) read before/);
    assert.equal((await h.decide(bash('rm notes.txt'))).body.decision, 'deny');
  });

  it('reports entries it cannot translate and applies the rest', async () => {
    h = await startHarness();
    const file = join(h.dataDir, 'seed.json');
    writeFileSync(file, JSON.stringify({ permissions: { deny: ['bash(curl *)', 'Bash()', 42] } }));
    const errors: string[] = [];
    sync = new SettingsSync(h.toolgate, file, { onError: (m) => errors.push(m) });
    const report = sync.start();
    assert.equal(report.rules, 1);
    assert.equal(report.errors.length, 2);
    assert.ok(
      errors.some((e) => /permissions\.deny\[1\] Bash\(\): empty parentheses/.test(e)),
      errors.join('\n'),
    );
    assert.ok(errors.some((e) => /permissions\.deny\[2\]: expected a string/.test(e)));
  });

  it('refuses to start on a file that cannot be read', async () => {
    h = await startHarness();
    sync = new SettingsSync(h.toolgate, join(h.dataDir, 'missing.json'));
    assert.throws(() => sync!.start(), /missing\.json/);
  });
});

describe('toolgate rules import / export', () => {
  function io() {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), env: {} } };
  }

  it('imports the seed format and Claude Code settings in load order (deny → allow → ask), reporting what it skipped, and exports the seed format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-import-'));
    try {
      const seed = join(dir, 'seed.json');
      writeFileSync(
        seed,
        JSON.stringify({
          permissions: { allow: ['bash(git *)', 'read_file'], deny: ['bash(rm -rf *)'], ask: ['bash(docker *)'] },
        }),
      );
      const claude = join(dir, 'claude.json');
      writeFileSync(
        claude,
        JSON.stringify({
          permissions: {
            allow: ['Bash(npm run test:*)', 'WebFetch(domain:github.com)'],
            deny: ['Read(./secrets/**)', 'Bash('],
            ask: ['Bash(git push:*)'],
            defaultMode: 'default',
          },
          model: 'x',
        }),
      );
      const a = io();
      assert.equal(
        await main(['rules', 'import', '--data-dir', dir, seed], {
          ...a.io,
          env: { TOOLGATE_REVIEWER_TOKEN: reviewerTokenIn(dir) },
        }),
        0,
      );
      assert.match(a.out.join('\n'), /imported 4 rule\(s\)/);
      const b = io();
      assert.equal(
        await main(['rules', 'import', '--data-dir', dir, claude], {
          ...b.io,
          env: { TOOLGATE_REVIEWER_TOKEN: reviewerTokenIn(dir) },
        }),
        0,
      );
      assert.match(b.out.join('\n'), /imported 4 rule\(s\)/);
      assert.ok(
        b.err.some((l) => l.includes('not imported: permissions.deny[1] Bash(')),
        b.err.join('\n'),
      );

      const store = openSqliteStore(join(dir, 'toolgate.db'));
      const patterns = (await store.listRules()).map((r) => `${r.effect} ${r.pattern}`);
      await store.close();
      assert.deepEqual(patterns, [
        'deny bash(rm -rf *)',
        'allow bash(git *)',
        'allow read_file',
        'ask bash(docker *)',
        'deny Read(./secrets/**)',
        'allow Bash(npm run test:*)',
        'allow WebFetch(domain:github.com)',
        'ask Bash(git push:*)',
      ]);

      const out = join(dir, 'export.json');
      assert.equal(await main(['rules', 'export', '--data-dir', dir, out], io().io), 0);
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), {
        permissions: {
          allow: ['bash(git *)', 'read_file', 'Bash(npm run test:*)', 'WebFetch(domain:github.com)'],
          deny: ['bash(rm -rf *)', 'Read(./secrets/**)'],
          ask: ['bash(docker *)', 'Bash(git push:*)'],
        },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
