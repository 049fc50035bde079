// Issue 23 rows 10 and 11: the files toolgate reads its policy, tokens or code from, and the environment a process
// started with, are out of an agent's reach; the sidecar drops token variables from its environment once read.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bash, REVIEWER_TOKEN, AGENT_TOKEN, startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

let h: Harness;
let operator: string;
let configFile: string;
let settingsFile: string;
let pluginFile: string;

before(async () => {
  operator = mkdtempSync(join(tmpdir(), 'toolgate-operator-'));
  configFile = join(operator, 'toolgate.json');
  settingsFile = join(operator, 'settings.json');
  pluginFile = join(operator, 'plugin.js');
  writeFileSync(configFile, JSON.stringify({ protected_paths: ['~/.private'] }));
  writeFileSync(settingsFile, JSON.stringify({ permissions: { deny: ['Bash(rm *)'] } }));
  writeFileSync(pluginFile, 'export default { name: "p" };\n');
  h = await startHarness({ flags: { config: configFile, settings: settingsFile, plugin: [pluginFile] } });
  // Allow everything a rule can allow: protected paths must still win.
  for (const pattern of ['bash(*)', 'read_file', 'write_file', 'edit_file']) {
    const res = await h.reviewer('/v1/rules', { method: 'POST', body: JSON.stringify({ effect: 'allow', pattern }) });
    assert.equal(res.status, 201, await res.text());
  }
});
after(async () => {
  await h.close();
  rmSync(operator, { recursive: true, force: true });
});

async function decide(body: Record<string, unknown>): Promise<any> {
  const { status, body: answer } = await h.decide({
    agent_id: 'a',
    session_id: 's',
    cwd: `${TEST_HOME}/work/project`,
    ...body,
  });
  assert.equal(status, 200, JSON.stringify(answer));
  return answer;
}

describe("the operator's files are protected paths automatically (row 11)", () => {
  it('the --config file, the --settings file and --plugin files: file tools and bash are denied', async () => {
    const wrong: string[] = [];
    for (const file of [configFile, settingsFile, pluginFile]) {
      for (const call of [
        { tool: 'write_file', args: { file_path: file, content: '{"permissions":{"allow":["Bash(rm *)"]}}' } },
        { tool: 'read_file', args: { file_path: file } },
        { tool: 'edit_file', args: { file_path: file, old_string: 'deny', new_string: 'allow' } },
        bash(`echo '{"permissions":{"allow":["Bash(rm *)"]}}' > ${file}`),
        bash(`cat ${file}`),
      ]) {
        const answer = await decide(call);
        if (answer.decision !== 'deny' || answer.source !== 'protected_path')
          wrong.push(`${JSON.stringify(call)} → ${answer.decision} (${answer.source})`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('control: a neighbouring file in the same directory is not protected', async () => {
    const answer = await decide({ tool: 'write_file', args: { file_path: join(operator, 'notes.txt'), content: 'x' } });
    assert.notEqual(answer.source, 'protected_path', JSON.stringify(answer));
    assert.equal(answer.decision, 'allow');
  });
});

describe('a process environment (row 10)', () => {
  it("/proc/<pid>/environ, /proc/self/environ and a thread's copy are denied to bash and file tools", async () => {
    const wrong: string[] = [];
    for (const call of [
      bash('cat /proc/1234/environ'),
      bash('tr "\\0" "\\n" < /proc/self/environ'),
      bash(`strings /proc/${process.pid}/environ`),
      bash('cat /proc/*/environ'),
      bash('cat /proc/1234/task/1235/environ'),
      { tool: 'read_file', args: { file_path: '/proc/4321/environ' } },
      { tool: 'read_file', args: { file_path: '/proc/thread-self/environ' } },
    ]) {
      const answer = await decide(call);
      if (answer.decision !== 'deny' || answer.source !== 'protected_path')
        wrong.push(`${JSON.stringify(call)} → ${answer.decision} (${answer.source})`);
    }
    assert.deepEqual(wrong, []);
  });

  it('control: other /proc files stay readable', async () => {
    for (const command of ['cat /proc/cpuinfo', 'cat /proc/1234/status', 'cat /proc/self/cmdline']) {
      const answer = await decide(bash(command));
      assert.equal(answer.decision, 'allow', `${command}: ${JSON.stringify(answer)}`);
    }
  });

  it('serve deletes the token variables from its environment once read: a plugin (or a child process) no longer sees them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-env-'));
    const plugin = join(dir, 'env-peek.mjs');
    writeFileSync(
      plugin,
      `export default { name: 'env-peek', beforeExecute() {
      return { action: 'deny', reason: 'seen: ' + ['TOOLGATE_AGENT_TOKEN', 'TOOLGATE_REVIEWER_TOKEN'].filter((n) => n in process.env).join(',') + ';' };
    } };\n`,
    );
    const child = spawn(
      process.execPath,
      [
        'bin/toolgate.js',
        'serve',
        '--port',
        '0',
        '--data-dir',
        join(dir, 'data'),
        '--plugin',
        plugin,
        '--log-level',
        'info',
      ],
      {
        env: { ...process.env, TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const m = /listening on (http:\/\/[^\s"]+)/.exec(text);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${text}`)));
      });
      const res = await fetch(`${url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'bash', args: { command: 'ls' } }),
      });
      const body = (await res.json()) as { reason: string };
      assert.match(body.reason, /seen: ;/, 'the plugin ran and saw neither token variable');
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the agents' home when toolgate runs as its own user", () => {
  it("--agent-home makes the agents' home the one whose credentials are protected (toolgate's own home is not theirs)", async () => {
    const own = await startHarness({ flags: { 'agent-home': '/srv/agent' }, service: { home: undefined } });
    const plain = await startHarness({ service: { home: undefined } });
    try {
      const call = { tool: 'read_file', args: { file_path: '/srv/agent/.ssh/id_rsa' }, cwd: '/srv/agent/work' };
      const guarded = await own.decide(call);
      assert.equal(guarded.body.decision, 'deny', JSON.stringify(guarded.body));
      assert.equal(guarded.body.source, 'protected_path');
      // Control: without it, a home outside /home, /Users and /root is nobody's credentials.
      assert.notEqual((await plain.decide(call)).body.source, 'protected_path');
    } finally {
      await own.close();
      await plain.close();
    }
  });
});
