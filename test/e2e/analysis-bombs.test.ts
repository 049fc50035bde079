// A real sidecar on a small heap (`--max-old-space-size=128`) fed the expansion bombs of issue 23: every answer
// arrives in bounded time, none is allow, and the process is still alive and serving afterwards.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AGENT, freePort, startSidecarProcess } from './support/sidecar-process.ts';

/** The heap the sidecar gets: the 312-byte doubling bomb needed gigabytes on main. */
const HEAP_MB = 128;
const ANSWER_MS = 5_000;

const doubling = `a=x; ${Array(30).fill('a="$a$a"').join('; ')}; echo $a`;
const BOMBS = [
  doubling,
  `a=(x); ${Array(18).fill('a=("${a[@]}" "${a[@]}")').join('; ')}; echo "\${a[@]}"`,
  `a=xxxxxxxx; ${Array(10).fill('b=$a$a$a$a$a$a$a$a; a=$b').join('; ')}; echo $a`,
  `a=x; ${Array(30).fill('a=$(echo "$a$a")').join('; ')}; echo $a`,
  `echo ${'{1..9}'.repeat(12)}`,
  `echo ${'$(echo '.repeat(500)}x${')'.repeat(500)}`,
];

describe('a sidecar on a small heap survives analysis bombs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-e2e-bombs-'));
  let child: ChildProcess | undefined;
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers each bomb in bounded time with ask, and still answers afterwards', async () => {
    const port = await freePort();
    child = await startSidecarProcess(dataDir, port, { nodeFlags: [`--max-old-space-size=${HEAP_MB}`] });
    const base = `http://127.0.0.1:${port}`;
    const decide = async (command: string) => {
      const res = await fetch(`${base}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${AGENT}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'Bash', args: { command }, agent_id: 'e2e', session_id: 's1', cwd: '/tmp' }),
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, body: await res.json() };
    };
    for (const bomb of BOMBS) {
      const started = performance.now();
      const { status, body } = await decide(bomb);
      const took = performance.now() - started;
      assert.equal(status, 200, JSON.stringify(body));
      assert.notEqual(body.decision, 'allow', `${bomb.slice(0, 60)}: ${body.reason}`);
      assert.ok(took < ANSWER_MS, `${bomb.slice(0, 60)}: ${took.toFixed(0)} ms`);
    }
    // The same bomb again (a cached verdict or a fresh analysis: either way an answer).
    assert.notEqual((await decide(doubling)).body.decision, 'allow');
    assert.equal(child.exitCode, null, 'the sidecar is alive');
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.equal((await decide('git status')).body.decision, 'allow');
  });
});
