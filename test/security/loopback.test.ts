// The real `toolgate serve` process: loopback by default, a warning beyond it, generated tokens 0600 in a 0700 dir, never logged.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { loadTokens, TokenError } from '../../src/service/tokens.ts';
import { BIN } from '../support/built-bin.ts';

const scratch = mkdtempSync(join(tmpdir(), 'toolgate-loopback-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Environment without any configured token, so serve has to generate (or read) tokens.json. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('TOOLGATE_')) delete env[key];
  return env;
}

interface Served {
  url: string;
  output: string;
  stop(): Promise<string>;
}

/** Starts `toolgate serve` and waits for its banner; `stop()` sends SIGTERM and returns everything it logged. */
function serve(args: string[], env = cleanEnv()): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  // 'close', not 'exit': the output may still be in the pipes when the process has exited.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 20 s:\n${output}`)), 20_000);
    const onData = () => {
      const m = /listening on (http:\/\/\S+?)[ "]/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stderr.off('data', onData);
      // A SIGTERM before serve installs its handler kills the process mid-banner. An answered request means its
      // event loop came back round, so the banner's synchronous tail (warnings, handlers) is done.
      void fetch(`${m[1]}/healthz`).then(
        () =>
          resolve({
            url: m[1]!,
            get output() {
              return output;
            },
            async stop() {
              child.kill('SIGTERM');
              await exited;
              return output;
            },
          }),
        reject,
      );
    };
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Runs `toolgate serve` expecting it to refuse to start; returns its exit code and output. */
function serveFails(args: string[], env = cleanEnv()): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

/** True when a TCP connection to host:port succeeds. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

describe('toolgate serve, as a process', () => {
  it("binds 127.0.0.1 by default: not reachable on the machine's other addresses", async () => {
    assert.equal(loadConfig({}, {}).host, '127.0.0.1');
    const dataDir = join(scratch, 'default');
    const served = await serve(['--data-dir', dataDir, '--log-level', 'info']);
    try {
      const url = new URL(served.url);
      assert.equal(url.hostname, '127.0.0.1');
      assert.equal((await fetch(`${served.url}/healthz`)).status, 200);
      const external = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (external)
        assert.equal(await reachable(external.address, Number(url.port)), false, `reachable on ${external.address}`);
      assert.doesNotMatch(served.output, /beyond loopback/);
    } finally {
      await served.stop();
    }
  });

  it('generates tokens.json 0600 in a 0700 data dir, and never logs a token, on the first start or the next', async () => {
    const dataDir = join(scratch, 'generated');
    const first = await serve(['--data-dir', dataDir, '--log-level', 'info']);
    const firstLog = await first.stop();
    assert.equal(mode(dataDir), '700');
    assert.equal(mode(join(dataDir, 'tokens.json')), '600');
    const tokens = JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8'));
    assert.match(tokens.agent, /^tga_[\w-]{32}$/);
    assert.match(tokens.reviewer, /^tgr_[\w-]{32}$/);
    assert.match(firstLog, /generated now, mode 0600/);
    // Someone loosened both: the next start tightens them again, and uses the same tokens.
    chmodSync(join(dataDir, 'tokens.json'), 0o644);
    chmodSync(dataDir, 0o755);
    const second = await serve(['--data-dir', dataDir, '--log-level', 'info']);
    const res = await fetch(`${second.url}/v1/rules`, { headers: { authorization: `Bearer ${tokens.reviewer}` } });
    assert.equal(res.status, 200);
    const secondLog = await second.stop();
    assert.equal(mode(dataDir), '700');
    assert.equal(mode(join(dataDir, 'tokens.json')), '600');
    assert.doesNotMatch(secondLog, /generated now/);
    for (const log of [firstLog, secondLog]) {
      assert.ok(!log.includes(tokens.agent) && !log.includes(tokens.reviewer), 'a token value in the log');
      assert.ok(!log.includes(tokens.reviewer.slice(0, 12)), 'more than a short hint of the reviewer token in the log');
      assert.match(log, /reviewer tokens: reviewer \(tgr_[\w-]{0,2}…\)/);
    }
  });

  it('warns when bound beyond loopback', async () => {
    const served = await serve(['--host', '0.0.0.0', '--data-dir', join(scratch, 'exposed'), '--log-level', 'info']);
    const log = await served.stop();
    assert.match(log, /listening on 0\.0\.0\.0, beyond loopback, without TLS/);
  });

  it('refuses to start when one token is both an agent and a reviewer token', async () => {
    const env = {
      ...cleanEnv(),
      TOOLGATE_AGENT_TOKEN: 'same-token-0123456789abcdef',
      TOOLGATE_REVIEWER_TOKEN: 'same-token-0123456789abcdef',
    };
    const { code, output } = await serveFails(['--data-dir', join(scratch, 'shared')], env);
    assert.notEqual(code, 0);
    assert.match(output, /also a reviewer token/);
    assert.ok(!output.includes('same-token-0123456789abcdef'));
  });

  it('refuses a corrupt tokens.json with a message that says what to do', async () => {
    const dataDir = join(scratch, 'corrupt');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'tokens.json'), '{"agent": "short"}', { mode: 0o600 });
    const { code, output } = await serveFails(['--data-dir', dataDir]);
    assert.notEqual(code, 0);
    assert.match(output, /tokens\.json: expected \{"agent"/);
    assert.throws(() => loadTokens(dataDir, { agent: [], reviewer: [] }), TokenError);
  });

  it('warns when the config file holding tokens is readable by others, and about short tokens', async () => {
    const config = join(scratch, 'toolgate.json');
    writeFileSync(
      config,
      JSON.stringify({
        tokens: {
          agent: [{ name: 'bot', token: 'agent-token-0123456789' }],
          reviewer: [{ name: 'alice', token: 'alice-token-0123456789abcdef-xyz' }],
        },
      }),
    );
    chmodSync(config, 0o644);
    const served = await serve(['--config', config, '--data-dir', join(scratch, 'configured'), '--log-level', 'info']);
    const log = await served.stop();
    assert.match(log, /holds tokens and other users can read it: chmod 600/);
    assert.match(log, /agent token \\?"bot\\?" is only 22 characters/);
    assert.match(log, /agent tokens: bot \(/);
    assert.ok(!log.includes('agent-token-0123456789') && !log.includes('alice-token-0123456789abcdef-xyz'));
  });
});
