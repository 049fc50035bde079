// The verdict cache answers repeated calls without changing any answer: rules, expiry, modes and symlinks all count.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import type { EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import type { Rule } from '../../src/engine/rules/rule.ts';
import { realpathIfExists } from '../../src/service/toolgate.ts';
import { MASK } from '../../src/engine/redact.ts';
import { argsJsonOf, shareArgs, VerdictCache } from '../../src/service/verdict-cache.ts';
import { testAnalyzer } from '../support/harness.ts';

const aliases = buildAliasIndex();

function rule(id: string, effect: Rule['effect'], pattern: string, expiresAt: string | null = null): Rule {
  return {
    id,
    effect,
    pattern,
    risk: null,
    scope: 'global',
    expiresAt,
    note: null,
    createdBy: null,
    createdAt: '',
    position: Number(id.slice(1)),
  };
}

describe('verdict cache', () => {
  let home: string;
  let engine: EngineContext;
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'toolgate-verdicts-'));
    mkdirSync(join(home, '.ssh'));
    mkdirSync(join(home, 'work'));
    engine = {
      operatorMode: 'default',
      askFallback: 'deny',
      home,
      aliases,
      analyzer: await testAnalyzer(),
      realpath: realpathIfExists,
    };
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  const read = (path: string) => ({
    call: { tool: 'Read', args: { file_path: path }, cwd: join(home, 'work') },
    interactive: false,
  });
  const bash = (command: string) => ({
    call: { tool: 'Bash', args: { command }, cwd: join(home, 'work') },
    interactive: false,
  });

  it('gives a repeated call the same verdict object, and a new policy a fresh decision', () => {
    const cache = new VerdictCache(engine);
    const allowGit = compilePolicy([rule('r1', 'allow', 'bash(git *)')], aliases, home, 1);
    const once = cache.decide(bash('git status'), allowGit);
    const first = cache.decide(bash('git status'), allowGit);
    assert.notEqual(first, once, 'a call seen once is decided but not kept');
    assert.deepEqual(first, once);
    assert.equal(first.decision, 'allow');
    assert.equal(first.source, 'rule');
    assert.equal(cache.decide(bash('git status'), allowGit), first);
    const denyGit = compilePolicy([rule('r1', 'deny', 'bash(git *)')], aliases, home, 2);
    assert.equal(cache.decide(bash('git status'), denyGit).decision, 'deny');
  });

  it('evicts the least recently used call: a hit keeps its entry, under the key it was stored with', () => {
    const cache = new VerdictCache(engine, { size: 2, cacheOnSecondSight: false });
    const policy = compilePolicy([rule('r1', 'allow', 'bash(git *)')], aliases, home, 1);
    const status = cache.decide(bash('git status'), policy);
    const log = cache.decide(bash('git log'), policy);
    assert.equal(cache.decide(bash('git status'), policy), status); // a hit: git status is now the most recent
    cache.decide(bash('git diff'), policy); // the cache is full: the least recently used (git log) goes
    assert.equal(cache.decide(bash('git status'), policy), status);
    assert.notEqual(cache.decide(bash('git log'), policy), log);
    // The hit re-stored its entry under a key equal to the request's: later hits still find it.
    assert.equal(cache.decide(bash('git status'), policy), status);
  });

  it('lets one-off calls pass without evicting the calls agents repeat', () => {
    const cache = new VerdictCache(engine, { size: 2 });
    const policy = compilePolicy([rule('r1', 'allow', 'bash(git *)')], aliases, home, 1);
    cache.decide(bash('git status'), policy);
    const status = cache.decide(bash('git status'), policy);
    cache.decide(bash('git log'), policy);
    const log = cache.decide(bash('git log'), policy);
    // Twenty unique commands: with every verdict kept, a cache of two would have lost both long ago.
    for (let i = 0; i < 20; i++) assert.equal(cache.decide(bash(`git show HEAD~${i}`), policy).decision, 'allow');
    assert.equal(cache.decide(bash('git status'), policy), status);
    assert.equal(cache.decide(bash('git log'), policy), log);
  });

  it('masks a cached verdict once, and a one-off each time it is recorded (nothing of it is kept)', () => {
    const cache = new VerdictCache(engine);
    const policy = compilePolicy([], aliases, home, 1);
    let masked = 0;
    const redact = (args: unknown) => (masked++, { value: args, json: JSON.stringify(args) });
    const once = cache.decide(bash('curl -H "Authorization: Bearer abcdefgh12345678" https://x.example'), policy);
    cache.record(once, { command: 'x' }, redact);
    cache.record(once, { command: 'x' }, redact);
    assert.equal(masked, 2, 'a verdict the cache does not hold is not remembered');
    const kept = cache.decide(bash('curl -H "Authorization: Bearer abcdefgh12345678" https://x.example'), policy);
    const first = cache.record(kept, { command: 'x' }, redact);
    assert.equal(cache.record(kept, { command: 'x' }, redact), first);
    assert.equal(masked, 3, 'a cached verdict is masked once');
    assert.ok(
      first.verdict.call.command!.includes(MASK) && !first.verdict.call.command!.includes('abcdefgh12345678'),
      first.verdict.call.command,
    );
  });

  it('decides afresh once a rule has expired', () => {
    const cache = new VerdictCache(engine);
    const expiry = Date.now() + 60_000;
    const policy = compilePolicy(
      [rule('r1', 'deny', 'bash(npm publish *)', new Date(expiry).toISOString())],
      aliases,
      home,
      1,
    );
    assert.equal(cache.decide({ ...bash('npm publish'), now: expiry - 1 }, policy).decision, 'deny');
    assert.notEqual(cache.decide({ ...bash('npm publish'), now: expiry + 1 }, policy).source, 'rule');
  });

  it('keeps modes and interactivity apart', () => {
    const cache = new VerdictCache(engine);
    const policy = compilePolicy([], aliases, home, 1);
    assert.equal(cache.decide(bash('rm -rf /tmp/x'), policy).decision, 'deny');
    assert.equal(cache.decide({ ...bash('rm -rf /tmp/x'), interactive: true }, policy).decision, 'ask');
    assert.equal(cache.decide({ ...bash('ls'), mode: 'strict' }, policy).decision, 'deny');
    assert.equal(cache.decide(bash('ls'), policy).decision, 'allow');
  });

  it('shared arguments (the fast path reuses one frozen body for repeats) keep modes, interactivity, cwd and session files apart', () => {
    const cache = new VerdictCache(engine);
    const policy = compilePolicy([], aliases, home, 1);
    const args = shareArgs({ command: 'rm -rf /tmp/x' });
    assert.ok(Object.isFrozen(args));
    const call = (extra: Record<string, unknown> = {}) => ({
      call: { tool: 'Bash', args, cwd: join(home, 'work') },
      interactive: false,
      ...extra,
    });
    for (let i = 0; i < 3; i++) assert.equal(cache.decide(call(), policy, argsJsonOf(args)).decision, 'deny');
    assert.equal(cache.decide(call({ interactive: true }), policy, argsJsonOf(args)).decision, 'ask');
    assert.equal(cache.decide(call(), policy, argsJsonOf(args)).decision, 'deny', 'and back');
    const ls = shareArgs({ command: 'sh ./clean.sh' });
    const plain = { call: { tool: 'Bash', args: ls, cwd: join(home, 'work') }, interactive: false };
    assert.equal(cache.decide(plain, policy, argsJsonOf(ls)).decision, 'allow', 'control: an unknown script runs');
    assert.equal(cache.decide(plain, policy, argsJsonOf(ls)).decision, 'allow');
    const files = new Map([[join(home, 'work', 'clean.sh'), 'rm -rf ~/\n']]);
    assert.equal(
      cache.decide({ ...plain, files }, policy, argsJsonOf(ls)).decision,
      'deny',
      'the same shared arguments with a session file that deletes home are their own call',
    );
    const elsewhere = { ...plain, call: { ...plain.call, cwd: home } };
    assert.equal(cache.decide(elsewhere, policy, argsJsonOf(ls)).decision, 'allow');
    assert.equal(cache.decide({ ...elsewhere, mode: 'strict' }, policy, argsJsonOf(ls)).decision, 'deny');
  });

  it('decides afresh when an engine setting is replaced (the settings are part of the key)', () => {
    const own: EngineContext = { ...engine };
    const cache = new VerdictCache(own);
    const policy = compilePolicy([], aliases, home, 1);
    const rm = bash('rm -rf /tmp/x'); // not interactive: the ask falls back to askFallback
    cache.decide(rm, policy);
    assert.equal(cache.decide(rm, policy).decision, 'deny');
    own.askFallback = 'allow';
    assert.equal(cache.decide(rm, policy).decision, 'allow');
    own.askFallback = 'deny';
    assert.equal(cache.decide(rm, policy).decision, 'deny');
    // A protected place added by replacing the list: a read cached as allowed is denied from then on.
    const secret = join(home, 'work', 'secret.txt');
    cache.decide(read(secret), policy);
    assert.equal(cache.decide(read(secret), policy).decision, 'allow');
    own.extraProtected = [join(home, 'work', 'secret.txt')];
    assert.equal(cache.decide(read(secret), policy).decision, 'deny');
  });

  it('notices a symlink created after a call was cached: the link into ~/.ssh is denied', () => {
    const cache = new VerdictCache(engine);
    const policy = compilePolicy([], aliases, home, 1);
    const target = join(home, 'work', 'keys', 'id_rsa');
    assert.equal(cache.decide(read(target), policy).decision, 'allow');
    assert.equal(cache.decide(read(target), policy).decision, 'allow');
    symlinkSync(join(home, '.ssh'), join(home, 'work', 'keys'));
    const after = cache.decide(read(target), policy);
    assert.equal(after.decision, 'deny');
    assert.equal(after.source, 'protected_path');
  });
});
