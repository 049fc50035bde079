// The toolgate command as a user runs it: help, check, rules from another terminal taking effect on a running server.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/cli/serve.ts';
import { BIN } from '../support/built-bin.ts';
import { reviewerTokenIn } from '../support/reviewer-token.ts';
import { AGENT_TOKEN, REVIEWER_TOKEN } from '../support/harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function toolgate(args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TOOLGATE_DATA_DIR: dataDir, ...env },
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('toolgate CLI', () => {
  it('--help works on every command', () => {
    for (const args of [
      ['--help'],
      ['serve', '--help'],
      ['check', '--help'],
      ['rules', '--help'],
      ['approvals', '--help'],
    ]) {
      const { code, out } = toolgate(args);
      assert.equal(code, 0, args.join(' '));
      assert.match(out, /Usage: toolgate/);
    }
  });

  it('output read by a reader that closes early (| head -1) ends quietly, not with an EPIPE crash', () => {
    const run = spawnSync(
      '/bin/sh',
      ['-c', `"${process.execPath}" "${BIN}" check 'git status' | head -c 1 >/dev/null`],
      { encoding: 'utf8', env: { ...process.env, TOOLGATE_DATA_DIR: dataDir }, timeout: 60_000 },
    );
    assert.equal(run.status, 0);
    assert.doesNotMatch(run.stderr, /EPIPE|Unhandled/);
    // The control: read whole, the same command prints its verdict.
    assert.match(toolgate(['check', 'git status']).out, /ALLOW/);
  });

  it('an unknown command or flag exits 2 with a hint', () => {
    assert.equal(toolgate(['frobnicate']).code, 2);
    const bad = toolgate(['check', '--colour', 'red', 'ls']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--help/);
  });

  it('check --json explains a command offline, with the stages of the pipeline', () => {
    const { code, out } = toolgate(['check', '--json', 'git status && rm -rf /']);
    assert.equal(code, 3, 'ask exits 3');
    const verdict = JSON.parse(out);
    assert.equal(verdict.decision, 'ask');
    assert.equal(verdict.risk, 'high');
    assert.ok(verdict.findings.some((f: { command: string }) => f.command === 'rm -rf /'));
    assert.deepEqual(verdict.commands, [
      ['git', 'status'],
      ['rm', '-rf', '/'],
    ]);
    assert.ok(
      verdict.trace.some((s: { stage: string; outcome: string }) => s.stage === 'danger' && s.outcome === 'decided'),
    );
    assert.equal(toolgate(['check', 'git status']).code, 0);
    const secret = toolgate(['check', '--tool', 'read_file', '--args', '{"path":"~/.ssh/id_rsa"}']);
    assert.equal(secret.code, 1);
    assert.match(secret.out, /DENY/);
  });

  it('rules add, rm and import change the policy only with the reviewer token given, never read from the data directory', () => {
    const token = reviewerTokenIn(dataDir);
    const none = toolgate(['rules', 'add', '--effect', 'allow', 'bash(*)']);
    assert.equal(none.code, 2);
    assert.match(none.err, /needs the reviewer token/);
    const wrong = toolgate(['rules', 'add', '--effect', 'allow', 'bash(*)'], {
      TOOLGATE_REVIEWER_TOKEN: 'tgtr_not-the-reviewer-token',
    });
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /not the reviewer token/);
    assert.doesNotMatch(toolgate(['rules', 'list']).out, /bash\(\*\)/, 'nothing was added');
    // The control: with the reviewer's token the same command adds the rule.
    const given = toolgate(['rules', 'add', '--effect', 'allow', 'bash(*)'], { TOOLGATE_REVIEWER_TOKEN: token });
    assert.equal(given.code, 0, given.err);
    assert.equal(
      toolgate(['rules', 'rm', /added (\S+)/.exec(given.out)![1]!], { TOOLGATE_REVIEWER_TOKEN: token }).code,
      0,
    );
  });

  it('rules add/list/export/rm work on the data directory and check sees them', () => {
    const reviewer = { TOOLGATE_REVIEWER_TOKEN: reviewerTokenIn(dataDir) };
    const added = toolgate(['rules', 'add', '--effect', 'deny', 'bash(make *)'], reviewer);
    assert.equal(added.code, 0, added.err);
    const id = /added (\S+)/.exec(added.out)![1]!;
    assert.match(toolgate(['rules', 'list']).out, /deny\s+bash\(make \*\)/);
    assert.equal(toolgate(['check', 'make all']).code, 1);
    assert.deepEqual(JSON.parse(toolgate(['rules', 'export']).out).permissions.deny, ['bash(make *)']);
    assert.equal(toolgate(['rules', 'rm', id], reviewer).code, 0);
    assert.equal(toolgate(['check', 'make all']).code, 0);
  });

  it('rules import reads the seed format in deny → allow → ask order and reports what it cannot translate', () => {
    const file = join(dataDir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        permissions: { allow: ['bash(git *)', 'read_file'], ask: ['bash(sudo *)'], deny: ['bash(rm -rf *)', 42] },
      }),
    );
    const { code, out, err } = toolgate(['rules', 'import', file], {
      TOOLGATE_REVIEWER_TOKEN: reviewerTokenIn(dataDir),
    });
    assert.equal(code, 0, err);
    assert.match(out, /imported 4/);
    assert.match(err, /permissions\.deny\[1\]/);
    const listed = toolgate(['rules', 'list', '--json'])
      .out.trim()
      .split('\n')
      .map((l) => JSON.parse(l).pattern);
    assert.deepEqual(listed, ['bash(rm -rf *)', 'bash(git *)', 'read_file', 'bash(sudo *)']);
  });
});

describe('a running server sees rules added from another terminal at once', () => {
  let server: RunningServer;
  const serverDir = mkdtempSync(join(tmpdir(), 'toolgate-cli-server-'));
  before(async () => {
    const config = loadConfig(
      { 'data-dir': serverDir, port: '0' },
      { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN },
    );
    server = await startServer(config, { out: () => {}, err: () => {}, env: {} });
  });
  after(async () => {
    await server.close();
    rmSync(serverDir, { recursive: true, force: true });
  });

  async function decide(command: string) {
    const res = await fetch(`${server.url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'bash', args: { command } }),
    });
    return res.json();
  }

  it('toolgate rules add in another process applies on the next decision', async () => {
    // (Issue 28 made `make deploy` an ask of its own: a deploy target. A target nothing judges shows the rule's effect.)
    assert.equal((await decide('make docs')).decision, 'allow');
    const added = toolgate(['rules', 'add', '--effect', 'deny', 'bash(make docs *)'], {
      TOOLGATE_DATA_DIR: serverDir,
      TOOLGATE_REVIEWER_TOKEN: reviewerTokenIn(serverDir),
    });
    assert.equal(added.code, 0, added.err);
    const after = await decide('make docs');
    assert.equal(after.decision, 'deny');
    assert.equal(after.rule.pattern, 'bash(make docs *)');
  });

  it('every decision is readable with sqlite3-compatible SQL from another process', async () => {
    const { decision_id } = await decide('git status');
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        `const D=require('better-sqlite3');const d=new D(${JSON.stringify(join(serverDir, 'toolgate.db'))},{readonly:true});console.log(JSON.stringify(d.prepare('select decision, source from audit_log where decision_id=?').get(${JSON.stringify(decision_id)})))`,
      ],
      { encoding: 'utf8' },
    );
    assert.deepEqual(JSON.parse(probe.stdout), { decision: 'allow', source: 'default' });
  });
});

describe('toolgate serve', () => {
  it('generates tokens into a 0600 file on first start, prints the path, and answers /healthz', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-serve-'));
    const env = { ...process.env, TOOLGATE_AGENT_TOKEN: '', TOOLGATE_REVIEWER_TOKEN: '' };
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dir], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let log = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start: ${log}`)), 30_000);
        child.stderr.on('data', (d) => {
          log += d;
          const m = /listening on (http:\/\/\S+)/.exec(log);
          if (m && /tokens:/.test(log)) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      assert.match(log, new RegExp(`tokens: ${join(dir, 'tokens.json').replace(/[.]/g, '\\.')}`));
      assert.equal(statSync(join(dir, 'tokens.json')).mode & 0o777, 0o600);
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      assert.ok(statSync(join(dir, 'toolgate.db')).isFile());
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
