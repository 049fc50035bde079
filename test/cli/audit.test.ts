// toolgate audit / audit tail / audit verify / rules test, run against a real database file in a data directory.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tailAudit } from '../../src/cli/audit.ts';
import { auditCommand } from '../../src/cli/audit.ts';
import { UsageError, type Io } from '../../src/cli/command.ts';
import { rulesCommand } from '../../src/cli/rules.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { bash, startHarness, type Harness } from '../support/harness.ts';

/** Runs a command as main() would: a UsageError is exit code 2. */
async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === 'audit' ? auditCommand : rulesCommand;
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) return 2;
    throw error;
  }
}

function captureIo(env: NodeJS.ProcessEnv = {}): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => stdout.push(...t.replace(/\n$/, '').split('\n')),
    err: (t) => stderr.push(t),
    env,
  };
}

describe('toolgate audit', () => {
  let h: Harness;
  const run = async (...argv: string[]) => {
    const io = captureIo();
    const code = await main([...argv, '--data-dir', h.dataDir], io);
    return { code, out: io.stdout, err: io.stderr.join('\n') };
  };
  before(async () => {
    h = await startHarness({ file: true });
    await h.toolgate.store.addRule({ effect: 'allow', pattern: 'bash(git status)' });
    await h.decide(bash('git status'));
    await h.decide(bash('rm -rf /tmp/x, "quoted"', { interactive: false }));
    await h.decide(bash('ls', { agent_id: 'other' }));
  });
  after(() => h.close());

  it('prints the newest rows oldest first, and filters', async () => {
    const all = await run('audit');
    assert.equal(all.code, 0);
    assert.equal(all.out.length, 3);
    assert.match(all.out[0]!, /#1 +allow +rule +bash +git status/);
    const denied = await run('audit', '--decision', 'deny', '--since', '1h');
    assert.equal(denied.out.length, 1);
    assert.match(denied.out[0]!, /deny/);
    assert.equal((await run('audit', '--agent', 'other')).out.length, 1);
    assert.equal((await run('audit', '--q', 'git st')).out.length, 1);
    assert.equal((await run('audit', '--limit', '2')).out.length, 2);
  });

  it('prints JSON lines and CSV', async () => {
    const json = await run('audit', '--json');
    const rows = json.out.map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((r) => r.seq),
      [1, 2, 3],
    );
    assert.deepEqual(rows[0].args, { command: 'git status' });
    assert.ok(Array.isArray(rows[1].findings));
    const csv = await run('audit', '--csv', '--decision', 'deny');
    assert.equal(
      csv.out[0],
      'seq,ts,decision_id,agent_id,session_id,tool,args,decision,risk,source,reason,rule_id,approval_id,mode,latency_us,resolved_by,findings,prev_hash,hash',
    );
    assert.match(csv.out[1]!, /,"{""command"":""rm -rf \/tmp\/x, \\""quoted\\""""}",deny,/);
  });

  it('rejects bad flags with exit code 2', async () => {
    assert.equal((await run('audit', '--decision', 'maybe')).code, 2);
    assert.equal((await run('audit', '--since', 'last week')).code, 2);
    assert.equal((await run('audit', '--json', '--csv')).code, 2);
    assert.equal((await run('audit', 'frobnicate')).code, 2);
  });

  it('verify passes, then fails naming the row edited behind the triggers', async () => {
    const ok = await run('audit', 'verify');
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out[0]!, /^ok: 3 audit row\(s\), seq 1–3; head hash [0-9a-f]{64}$/);
    const other = openSqliteStore(`${h.dataDir}/toolgate.db`);
    assert.throws(() => other.db.prepare("UPDATE audit_log SET decision = 'allow' WHERE seq = 2").run(), /append-only/);
    other.db.exec("DROP TRIGGER audit_log_no_update; UPDATE audit_log SET decision = 'allow' WHERE seq = 2;");
    await other.close();
    const bad = await run('audit', 'verify');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /FAILED: row seq 2 .* was edited/);
  });
});

describe('toolgate audit tail', () => {
  it('prints the last rows, then the new ones as they commit', async () => {
    const h = await startHarness({ file: true });
    await h.decide(bash('echo one'));
    await h.decide(bash('echo two'));
    const reader = openSqliteStore(`${h.dataDir}/toolgate.db`, { readonly: true });
    const io = captureIo();
    const controller = new AbortController();
    const tail = tailAudit(
      reader,
      { query: {}, last: 1, intervalMs: 20, format: 'json', signal: controller.signal },
      io,
    );
    await new Promise((r) => setTimeout(r, 50));
    await h.decide(bash('echo three'));
    await h.decide(bash('cat ~/.ssh/id_rsa'));
    await new Promise((r) => setTimeout(r, 120));
    controller.abort();
    await tail;
    assert.deepEqual(
      io.stdout.map((l) => JSON.parse(l).args.command),
      ['echo two', 'echo three', 'cat ~/.ssh/id_rsa'],
    );
    await reader.close();
    await h.close();
  });
});

describe('toolgate rules test', () => {
  it('reports which past calls a rule would have decided differently', async () => {
    const h = await startHarness({ file: true });
    for (const command of ['git status', 'git push --force origin main', 'npm test'])
      await h.decide(bash(command, { interactive: false }));
    const io = captureIo();
    const code = await main(
      ['rules', 'test', 'bash(git *)', '--effect', 'allow', '--since', '30d', '--data-dir', h.dataDir],
      io,
    );
    assert.equal(code, 0, io.stderr.join('\n'));
    assert.match(
      io.stdout[0]!,
      /^allow bash\(git \*\) would have allowed 1 past call\(s\), including `git push --force origin main` \(of 3 since /,
    );
    assert.match(io.stdout.join('\n'), /ask → allow: 1/);
    const json = captureIo();
    await main(['rules', 'test', 'bash(npm *)', '--effect', 'deny', '--json', '--data-dir', h.dataDir], json);
    assert.equal(JSON.parse(json.stdout[0]!).changed, 1);
    const bad = captureIo();
    assert.equal(await main(['rules', 'test', 'bash(', '--data-dir', h.dataDir], bad), 2);
    await h.close();
  });
});
