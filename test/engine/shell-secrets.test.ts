// The secret tracker (src/engine/shell/secrets.ts): printed secrets are held in the output they are printed into and
// reported, in their places among the other findings, unless that output is captured; findings are never removed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SecretTracker } from '../../src/engine/shell/secrets.ts';
import type { Finding } from '../../src/engine/types.ts';
import { createJudge } from './shell-support.ts';

const printed = (command: string): Finding => ({
  id: 'secret-variable-print',
  risk: 'high',
  reason: 'prints',
  command,
});
const other = (command: string): Finding => ({ id: 'recursive-delete', risk: 'high', reason: 'deletes', command });

describe('secret tracker', () => {
  it('reports a printed secret that reaches the agent in the place it was raised', () => {
    const secrets = new SecretTracker();
    const found = [other('a')];
    secrets.hold(printed('b'), found.length);
    found.push(other('c'));
    assert.deepEqual(
      secrets.reported(found).map((f) => f.command),
      ['a', 'b', 'c'],
    );
  });

  it('never reports what a captured output printed (a file, a `$(…)`, a keeper), and says whether it held any', () => {
    const secrets = new SecretTracker();
    const { output } = secrets.within(() => secrets.hold(printed('in $(…)'), 0));
    assert.equal(secrets.capture(output), true);
    const empty = secrets.within(() => undefined).output;
    assert.equal(secrets.capture(empty), false);
    assert.deepEqual(secrets.reported([]), []);
  });

  it('passes a released output on to the one around it, which may still be captured', () => {
    const secrets = new SecretTracker();
    const outer = secrets.open();
    const inner = secrets.within(() => secrets.hold(printed('stage'), 0)).output;
    secrets.release(inner);
    secrets.close(outer);
    secrets.capture(outer);
    assert.deepEqual(secrets.reported([]), []);
  });

  it('reports what an output held when the walk stopped before it was judged (an abort)', () => {
    const secrets = new SecretTracker();
    assert.throws(() =>
      secrets.within(() => {
        secrets.hold(printed('before the abort'), 0);
        throw new Error('abort');
      }),
    );
    assert.deepEqual(
      secrets.reported([]).map((f) => f.command),
      ['before the abort'],
    );
  });

  it('judges where the output goes, end to end', async () => {
    const judge = await createJudge();
    assert.equal(judge('echo "$GITHUB_TOKEN"').decision, 'deny');
    // Control: the same print captured by a substitution, a file, a keeper on stdin, an uncalled function.
    assert.equal(judge('T=$(echo "$GITHUB_TOKEN") && echo done').decision, 'allow');
    assert.equal(judge('{ echo "token=$GITHUB_TOKEN"; } > .env.local').decision, 'allow');
    assert.equal(judge('echo "$GITHUB_TOKEN" | docker login ghcr.io -u me --password-stdin').decision, 'allow');
    assert.equal(judge('f() { echo "$GITHUB_TOKEN"; }').decision, 'allow');
    // The function called, or the group not redirected: printed.
    assert.equal(judge('f() { echo "$GITHUB_TOKEN"; }; f').decision, 'deny');
    assert.equal(judge('{ echo "token=$GITHUB_TOKEN"; } 2> err.log').decision, 'deny');
  });
});
