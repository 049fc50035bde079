// A script an agent writes with a file tool and runs in a later shell call is judged by its contents (sixth session):
// through POST /v1/decide, as an agent's hook sends the calls one by one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SessionFiles } from '../../src/service/session-files.ts';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { normalizeCall } from '../../src/engine/normalize.ts';
import { bash, startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

const PROJECT = `${TEST_HOME}/work/project`;
const write = (file: string, content: string, session = 'test-session') => ({
  tool: 'Write',
  args: { file_path: file, content },
  agent_id: 'test-agent',
  session_id: session,
  cwd: PROJECT,
});
const edit = (file: string, from: string, to: string) => ({
  tool: 'Edit',
  args: { file_path: file, old_string: from, new_string: to },
  agent_id: 'test-agent',
  session_id: 'test-session',
  cwd: PROJECT,
});

describe('scripts written with file tools, then run', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('a script written with Write and run later is asked about for what it contains; before the Write it was allowed', async () => {
    assert.equal((await h.decide(bash('bash cleanup.sh'))).body.decision, 'allow');
    assert.equal(
      (await h.decide(write(`${PROJECT}/cleanup.sh`, '#!/bin/sh\nset -e\nrm -rf ~\n'))).body.decision,
      'allow',
    );
    for (const command of ['bash cleanup.sh', './cleanup.sh', `sh ${PROJECT}/cleanup.sh`, '. ./cleanup.sh']) {
      const { body } = await h.decide(bash(command));
      assert.equal(body.decision, 'ask', `${command}: ${body.decision} ${body.reason}`);
      assert.equal(body.risk, 'high', body.reason);
      assert.match(body.reason, /rm -rf/);
    }
  });

  it("another session's scripts are not this session's", async () => {
    const { body } = await h.decide(bash('bash cleanup.sh', { session_id: 'other-session' }));
    assert.equal(body.decision, 'allow', body.reason);
  });

  it('an Edit is applied to what was written: the file is judged by its new contents', async () => {
    assert.equal(
      (await h.decide(write(`${PROJECT}/deploy.sh`, 'npm run build\nrm -rf ~/backups\n'))).body.decision,
      'allow',
    );
    assert.equal((await h.decide(bash('bash deploy.sh'))).body.decision, 'ask');
    assert.equal(
      (await h.decide(edit('deploy.sh', 'rm -rf ~/backups\n', 'git status --short\n'))).body.decision,
      'allow',
    );
    const { body } = await h.decide(bash('bash deploy.sh'));
    assert.equal(body.decision, 'allow', body.reason);
  });

  it('an ordinary script the agent wrote stays allowed when run', async () => {
    await h.decide(write(`${PROJECT}/check.sh`, 'git status --short\nls -la src\n'));
    const { body } = await h.decide(bash('bash check.sh'));
    assert.equal(body.decision, 'allow', body.reason);
  });
});

describe('session file memory', () => {
  const aliases = buildAliasIndex();
  const call = (tool: string, args: Record<string, unknown>, sessionId = 's') =>
    normalizeCall({ tool, args, sessionId, cwd: '/p' }, aliases);

  it('forgets a file whose edit does not apply, and keeps no more than its limits', () => {
    const files = new SessionFiles({ filesPerSession: 2, maxBytes: 100 });
    files.record(
      call('Write', { file_path: '/p/a.sh', content: 'rm -rf ~' }),
      { file_path: '/p/a.sh', content: 'rm -rf ~' },
      '/home/t',
    );
    assert.equal(
      files.filesFor({ tool: 'Bash', args: { command: 'bash a.sh' }, sessionId: 's' }, aliases)?.get('/p/a.sh'),
      'rm -rf ~',
    );
    files.record(
      call('Edit', { file_path: '/p/a.sh', old_string: 'not there', new_string: 'x' }),
      { file_path: '/p/a.sh', old_string: 'not there', new_string: 'x' },
      '/home/t',
    );
    assert.equal(files.filesFor({ tool: 'Bash', args: { command: 'bash a.sh' }, sessionId: 's' }, aliases), undefined);
    for (const name of ['b', 'c', 'd'])
      files.record(
        call('Write', { file_path: `/p/${name}.sh`, content: name }),
        { file_path: `/p/${name}.sh`, content: name },
        '/home/t',
      );
    assert.equal(
      files.filesFor({ tool: 'Bash', args: { command: 'bash b.sh' }, sessionId: 's' }, aliases),
      undefined,
      'the oldest of three went',
    );
    assert.equal(
      files.filesFor({ tool: 'Bash', args: { command: 'bash d.sh' }, sessionId: 's' }, aliases)?.get('/p/d.sh'),
      'd',
    );
    const big = 'x'.repeat(101);
    files.record(
      call('Write', { file_path: '/p/d.sh', content: big }),
      { file_path: '/p/d.sh', content: big },
      '/home/t',
    );
    assert.equal(
      files.filesFor({ tool: 'Bash', args: { command: 'bash d.sh' }, sessionId: 's' }, aliases),
      undefined,
      'too large to remember: forgotten',
    );
  });

  it("reads the files Codex's apply_patch adds, and forgets those it updates or deletes", () => {
    const files = new SessionFiles();
    const add = { input: '*** Begin Patch\n*** Add File: scripts/x.sh\n+#!/bin/sh\n+rm -rf ~\n*** End Patch' };
    files.record(call('apply_patch', add), add, '/home/t');
    assert.equal(
      files
        .filesFor({ tool: 'Bash', args: { command: 'bash scripts/x.sh' }, sessionId: 's' }, aliases)
        ?.get('/p/scripts/x.sh'),
      '#!/bin/sh\nrm -rf ~\n',
    );
    const update = { input: '*** Begin Patch\n*** Update File: scripts/x.sh\n@@\n-rm -rf ~\n+echo hi\n*** End Patch' };
    files.record(call('apply_patch', update), update, '/home/t');
    assert.equal(
      files.filesFor({ tool: 'Bash', args: { command: 'bash scripts/x.sh' }, sessionId: 's' }, aliases),
      undefined,
    );
  });

  it('an edit that would grow the file past the limit forgets it instead of building the string', () => {
    const files = new SessionFiles({ maxBytes: 1000 });
    const content = 'a'.repeat(900);
    files.record(call('Write', { file_path: '/p/a.sh', content }), { file_path: '/p/a.sh', content }, '/home/t');
    const edit = { file_path: '/p/a.sh', old_string: 'a', new_string: 'b'.repeat(1_000_000), replace_all: true };
    files.record(call('Edit', edit), edit, '/home/t');
    assert.equal(files.filesFor({ tool: 'Bash', args: { command: 'bash a.sh' }, sessionId: 's' }, aliases), undefined);
  });

  it('remembers nothing for calls with neither a session nor an agent', () => {
    const files = new SessionFiles();
    const anonymous = normalizeCall(
      { tool: 'Write', args: { file_path: '/p/a.sh', content: 'rm -rf ~' }, cwd: '/p' },
      aliases,
    );
    files.record(anonymous, { file_path: '/p/a.sh', content: 'rm -rf ~' }, '/home/t');
    assert.equal(files.filesFor({ tool: 'Bash', args: { command: 'bash a.sh' } }, aliases), undefined);
  });
});
