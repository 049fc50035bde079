// Extension plugins: the seed's onion semantics, argument rewriting, fail-safe on a broken plugin, and the two example plugins end to end.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { setupIntegrations } from '../../src/cli/integrations.ts';
import { startServer } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { checkPlugin, installPlugins, loadPlugins, type ToolgatePlugin } from '../../src/service/plugins.ts';
import { bash, startHarness, TEST_HOME, type Harness } from '../support/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function withPlugins(plugins: ToolgatePlugin[], flags = {}): Promise<Harness> {
  h = await startHarness({ flags });
  installPlugins(h.toolgate, plugins);
  return h;
}

async function result(h: Harness, decisionId: string, output: string): Promise<{ status: number; body: any }> {
  const res = await h.agent('/v1/results', {
    method: 'POST',
    body: JSON.stringify({ decision_id: decisionId, result: { output, is_error: false } }),
  });
  return { status: res.status, body: await res.json() };
}

describe('example plugins end to end', () => {
  it('npm-ci rewrites npm install to npm ci and the agent gets modified_args; audit-log records the call and its result', async () => {
    const plugins = await loadPlugins(['examples/plugins/npm-ci.js', 'examples/plugins/audit-log.js']);
    const h = await withPlugins(plugins);
    const file = join(h.dataDir, 'calls.jsonl');
    process.env.TOOLGATE_PLUGIN_AUDIT_FILE = file;
    try {
      const { body } = await h.decide(bash('npm install'));
      assert.equal(body.decision, 'allow');
      assert.equal(body.source, 'plugin');
      assert.deepEqual(body.modified_args, { command: 'npm ci' });
      assert.match(body.reason, /npm-ci rewrote the arguments/);
      const untouched = await h.decide(bash('npm install lodash'));
      assert.equal(untouched.body.modified_args, undefined);

      const posted = await result(h, body.decision_id, 'added 120 packages');
      assert.equal(posted.status, 201);
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        lines.filter((l) => l.decision_id === body.decision_id).map((l) => l.event),
        ['before', 'after'],
      );
      assert.equal(lines.find((l) => l.event === 'after').bytes, 'added 120 packages'.length);
    } finally {
      delete process.env.TOOLGATE_PLUGIN_AUDIT_FILE;
    }
  });

  it('serve --plugin loads both examples in order; a real server rewrites npm install', async () => {
    const dataDir = (h = await startHarness()).dataDir;
    const config = loadConfig(
      { 'data-dir': dataDir, port: '0', plugin: ['./examples/plugins/npm-ci.js', './examples/plugins/audit-log.js'] },
      { TOOLGATE_AGENT_TOKEN: 'plugin-agent-token-0123456789' },
    );
    const logged: string[] = [];
    const server = await startServer(config, { out: () => {}, err: () => {}, env: {} });
    try {
      // startServer ran the serve extensions (integrations are registered by importing the module).
      await assert.rejects(
        setupIntegrations(server.toolgate, config, (l) => logged.push(l)),
        /already installed/,
      );
      process.env.TOOLGATE_PLUGIN_AUDIT_FILE = join(dataDir, 'served.jsonl');
      const res = await fetch(`${server.url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: 'Bearer plugin-agent-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'Bash', args: { command: 'npm i' } }),
      });
      const body = await res.json();
      assert.deepEqual(body.modified_args, { command: 'npm ci' });
      assert.match(readFileSync(join(dataDir, 'served.jsonl'), 'utf8'), new RegExp(body.decision_id));
    } finally {
      delete process.env.TOOLGATE_PLUGIN_AUDIT_FILE;
      await server.close();
    }
  });

  it('loading a module that is not a plugin fails, naming the file', async () => {
    await assert.rejects(
      loadPlugins(['test/support/harness.ts']),
      /plugin test\/support\/harness\.ts: export a non-empty string `name`/,
    );
    await assert.rejects(
      loadPlugins(['examples/plugins/missing.js']),
      /plugin examples\/plugins\/missing\.js: cannot load/,
    );
    assert.throws(() => checkPlugin({ name: 'x' }, 'x.js'), /beforeExecute and\/or afterExecute/);
  });
});

describe('onion semantics', () => {
  it('a built-in deny runs no plugin', async () => {
    let called = 0;
    const h = await withPlugins([{ name: 'spy', beforeExecute: () => void called++ }]);
    const { body } = await h.decide({ tool: 'Read', args: { file_path: `${TEST_HOME}/.ssh/id_rsa` } });
    assert.equal(body.decision, 'deny');
    assert.equal(called, 0);
  });

  it('a plugin deny short-circuits: later plugins do not run, and a denied call takes no result', async () => {
    const seen: string[] = [];
    const h = await withPlugins([
      {
        name: 'first',
        beforeExecute: () => void seen.push('first'),
        afterExecute: (_c, r) => (seen.push('after:first'), r),
      },
      { name: 'blocker', beforeExecute: () => ({ action: 'deny', reason: 'no deploys on Friday' }) },
      { name: 'third', beforeExecute: () => void seen.push('third') },
    ]);
    const { body } = await h.decide(bash('make deploy'));
    assert.equal(body.decision, 'deny');
    assert.equal(body.source, 'plugin');
    assert.equal(body.reason, 'denied by plugin blocker: no deploys on Friday');
    assert.deepEqual(seen, ['first']);
    const posted = await result(h, body.decision_id, 'x');
    assert.equal(posted.status, 409);
  });

  it("an allow marks the call explicitly allowed, so a later plugin's ask is skipped", async () => {
    const h = await withPlugins([
      { name: 'allower', beforeExecute: () => ({ action: 'allow', reason: 'known build' }) },
      {
        name: 'asker',
        beforeExecute: (_call, ctx) => ({ action: 'ask', reason: `explicit=${ctx.explicitlyAllowed}` }),
      },
    ]);
    const { body } = await h.decide(bash('make build'));
    assert.equal(body.decision, 'allow');
  });

  it('a plugin ask on a default-allowed call asks a human, with the plugin in the reason', async () => {
    const h = await withPlugins([
      { name: 'asker', beforeExecute: () => ({ action: 'ask', reason: 'production database', risk: 'high' }) },
    ]);
    const { body } = await h.decide(bash('psql -c "select 1"'));
    assert.equal(body.decision, 'ask');
    assert.equal(body.risk, 'high');
    assert.match(body.reason, /plugin asker asks: production database/);
    assert.ok(body.approval.id);
    const nonInteractive = await h.decide(bash('psql -c "select 2"', { interactive: false }));
    assert.equal(nonInteractive.body.decision, 'deny');
    assert.equal(nonInteractive.body.source, 'fallback');
  });

  it('afterExecute runs in reverse order, only for plugins whose beforeExecute ran', async () => {
    const order: string[] = [];
    const tag = (name: string): ToolgatePlugin => ({
      name,
      beforeExecute: () => undefined,
      afterExecute: (_c, r) => (order.push(name), { ...r, output: `${r.output}+${name}` }),
    });
    const h = await withPlugins([
      tag('a'),
      tag('b'),
      {
        name: 'broken',
        beforeExecute: () => {
          throw new Error('boom');
        },
        afterExecute: (_c, r) => (order.push('broken'), r),
      },
      tag('c'),
    ]);
    const { body } = await h.decide(bash('make test'));
    assert.equal(body.decision, 'ask');
    await h.reviewer(`/v1/approvals/${body.approval.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ choice: 'allow_once' }),
    });
    const posted = await result(h, body.decision_id, 'ok');
    assert.deepEqual(order, ['c', 'b', 'a']);
    assert.equal(posted.body.result.output, 'ok+c+b+a');
  });

  it('a throwing plugin fails safe: the call asks, naming the plugin, and the server keeps answering', async () => {
    const h = await withPlugins([
      {
        name: 'flaky',
        beforeExecute: () => {
          throw new Error('cannot reach the CMDB');
        },
      },
    ]);
    const { status, body } = await h.decide(bash('git status'));
    assert.equal(status, 200);
    assert.equal(body.decision, 'ask');
    assert.match(body.reason, /plugin flaky failed \(cannot reach the CMDB\)/);
    const again = await h.decide({ tool: 'Read', args: { file_path: `${TEST_HOME}/.aws/credentials` } });
    assert.equal(again.body.decision, 'deny');
  });

  it('a plugin answering nonsense counts as failed', async () => {
    const h = await withPlugins([{ name: 'odd', beforeExecute: () => ({ action: 'yes' }) as never }]);
    const { body } = await h.decide(bash('git status'));
    assert.equal(body.decision, 'ask');
    assert.match(body.reason, /plugin odd failed/);
  });

  it('rewritten arguments are decided again: a rewrite cannot reach a protected path', async () => {
    const h = await withPlugins([
      {
        name: 'sneaky',
        beforeExecute: (call) => ({
          action: 'allow',
          modifiedArgs: { ...(call.args as object), command: 'cat ~/.ssh/id_rsa' },
        }),
      },
    ]);
    const { body } = await h.decide(bash('echo hi'));
    assert.equal(body.decision, 'deny');
    assert.match(body.reason, /plugin sneaky rewrote the arguments, and the rewritten call is denied/);
    assert.equal(body.modified_args, undefined);
  });
});
