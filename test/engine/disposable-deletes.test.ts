// Issue 26: a recursive delete of build output inside the working directory is not asked about; anything else is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { DISPOSABLE_OUTPUT } from '../../src/engine/catalog/disposable-output.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { CWD, HOME, sharedAnalyzer } from './shell-support.ts';

describe('disposable build output', async () => {
  const analyzer = await sharedAnalyzer();
  const aliases = buildAliasIndex();
  const policy = compilePolicy([], aliases, HOME);
  const base: EngineContext = { operatorMode: 'default', askFallback: 'deny', home: HOME, aliases, analyzer };
  const judge = (command: string, options: { cwd?: string; gitignore?: string[]; ctx?: Partial<EngineContext> } = {}) =>
    decide(
      {
        call: { tool: 'bash', args: { command }, cwd: options.cwd ?? CWD },
        ...(options.gitignore ? { gitignore: options.gitignore } : {}),
      },
      policy,
      { ...base, ...options.ctx },
    );

  describe('every example of the table is allowed', () => {
    for (const entry of DISPOSABLE_OUTPUT) {
      for (const example of entry.examples) {
        it(`${entry.id}: ${example}`, () => {
          const v = judge(example);
          assert.equal(v.decision, 'allow', v.reason);
        });
      }
    }
  });

  it('has an id, a reason, names and examples per entry, and unique ids', () => {
    const ids = DISPOSABLE_OUTPUT.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const e of DISPOSABLE_OUTPUT) {
      assert.match(e.id, /^[a-z0-9-]+$/);
      assert.ok(e.reason.length > 15 && e.names.length > 0 && e.examples.length > 0, e.id);
    }
  });

  for (const command of [
    'rm -rf src',
    'rm -rf ~/build',
    'rm -rf ../dist',
    'rm -rf build /',
    'rm -rf $X/build',
    'rm -rf "$(pwd)/../dist"',
    'cd .. && rm -rf dist',
    'rm -rf dist/../../x',
    'rm -rf .env.local dist',
    'rm -rf id_rsa build',
    'rm -rf .*/node_modules',
    'rm -rf ?/../dist',
    "find . -name '*.pyc' -or -name '*.py' -delete",
    "find . -name '*.pyc' -exec shred {} +",
    // Round 7: a find's alternatives and exclusions go only where every delete is narrowed to disposable names.
    'find . -type d \\( -name bin -o -name src \\) -prune -exec rm -rf {} +',
    'find . -type d -name bin -prune -exec rm -rf {} +',
    "find . -name '*.pyc' -o -delete",
    "find . -not -name '*.pyc' -delete",
    "find . ! -path './node_modules/*' -delete",
    'find . \\( -name obj -o -type f \\) -delete',
    'find . -name node_modules -prune -o -type f -delete',
    "find -L . -name '*.tsbuildinfo' -delete",
  ]) {
    it(`still asks: ${command}`, () => {
      const v = judge(command);
      assert.equal(v.decision, 'ask', v.reason);
      assert.equal(v.risk, 'high');
    });
  }

  for (const command of [
    'find . -type d \\( -name bin -o -name obj \\) -prune -exec rm -rf {} +',
    "find . \\( -name '*.pyc' -o -name __pycache__ \\) -exec rm -rf {} +",
    "find . -name '*.tsbuildinfo' -not -path './node_modules/*' -delete",
    "find . -path ./node_modules -prune -o -name '*.pyc' -delete",
    'find . -type d \\( -name .mypy_cache -o -name .pytest_cache \\) -print0 | xargs -0 rm -rf',
  ]) {
    it(`allows (round 7): ${command}`, () => {
      const v = judge(command);
      assert.equal(v.decision, 'allow', v.reason);
    });
  }

  it('asks when the working directory is the home (no project), or is not given', () => {
    assert.equal(judge('rm -rf build', { cwd: HOME }).decision, 'ask');
    assert.equal(judge('rm -rf build', { cwd: '/tmp' }).decision, 'ask');
    assert.equal(judge('rm -rf build', { cwd: '/usr/lib/app' }).decision, 'ask');
    assert.equal(decide({ call: { tool: 'bash', args: { command: 'rm -rf build' } } }, policy, base).decision, 'ask');
  });

  it('asks when the directory is a symlink out of the project (the service resolves it)', () => {
    const realpath = (p: string) =>
      p === `${CWD}/node_modules` ? '/srv/shared/node_modules' : p.startsWith(CWD) ? p : undefined;
    assert.equal(judge('rm -rf node_modules/', { ctx: { realpath } }).decision, 'ask');
    assert.equal(judge('rm -rf dist', { ctx: { realpath } }).decision, 'allow');
  });

  it("allows what the project's .gitignore ignores, never secrets or data", () => {
    const gitignore = ['# build', 'generated/', '/tmp-output', '*.log', 'data/', '.env*', 'secrets/'];
    assert.equal(judge('rm -rf generated', { gitignore }).decision, 'allow');
    assert.equal(judge('rm -rf tmp-output packages/a/generated', { gitignore }).decision, 'allow');
    assert.equal(judge('rm -rf generated', {}).decision, 'ask', 'without the .gitignore it is not known');
    for (const command of [
      'rm -rf data',
      'rm -rf .env.production',
      'rm -rf secrets',
      'rm -rf src',
      'rm -rf packages/tmp-output',
    ]) {
      assert.equal(judge(command, { gitignore }).decision, 'ask', command);
    }
  });

  it('ignores catch-all patterns and trusts no path a negation may re-include', () => {
    assert.equal(judge('rm -rf src', { gitignore: ['*', '!src/'] }).decision, 'ask');
    assert.equal(judge('rm -rf generated', { gitignore: ['generated/', '!generated/keep.txt'] }).decision, 'ask');
    assert.equal(judge('rm -rf generated', { gitignore: ['generated/', '!important'] }).decision, 'ask');
  });

  it('hands out no engine-internal fields on the findings it keeps', () => {
    const v = judge('rm -rf src');
    assert.ok(v.findings.length > 0);
    for (const f of v.findings)
      assert.deepEqual(
        Object.keys(f).filter((k) => ['deletes', 'inProject', 'overwrites', 'presumedNew'].includes(k)),
        [],
      );
  });

  it('asks about dd over a file the service finds, not one it does not', () => {
    const exists = (p: string) => (p === `${CWD}/fixtures/blank.img` || p === CWD ? p : undefined);
    assert.equal(
      judge('dd if=/dev/zero of=fixtures/blank.img bs=1k count=1', { ctx: { realpath: exists } }).decision,
      'ask',
    );
    assert.equal(
      judge('dd if=/dev/zero of=fixtures/new.img bs=1k count=1', { ctx: { realpath: exists } }).decision,
      'allow',
    );
  });

  it('judges a file the service cannot see by its name: the directory must be seen for a file to be known new', () => {
    // The probes' cwd may not exist on the sidecar's host (the agent can run elsewhere): nothing there is seen.
    const nothing = () => undefined;
    assert.equal(
      judge('dd if=/dev/urandom of=README.md bs=4k count=1', { ctx: { realpath: nothing } }).decision,
      'ask',
    );
    assert.equal(judge('truncate -s 0 data/users.csv', { ctx: { realpath: nothing } }).decision, 'ask');
    assert.equal(
      judge('dd if=/dev/zero of=fixtures/blank.img bs=1k count=1', { ctx: { realpath: nothing } }).decision,
      'allow',
    );
    assert.equal(judge(': > src/__init__.py', { ctx: { realpath: nothing } }).decision, 'allow');
    // The directory is there and the file is not: it is made, whatever its name.
    const dirOnly = (p: string) => (p === CWD || p === `${CWD}/data` ? p : undefined);
    assert.equal(
      judge('dd if=/dev/urandom of=README.md bs=4k count=1', { ctx: { realpath: dirOnly } }).decision,
      'allow',
    );
    assert.equal(judge('truncate -s 0 data/users.csv', { ctx: { realpath: dirOnly } }).decision, 'allow');
    // The file is there: asked, whatever its name.
    const there = (p: string) => (p.startsWith(CWD) ? p : undefined);
    for (const command of [
      'dd if=/dev/zero of=fixtures/blank.img bs=1k count=1',
      ': > src/__init__.py',
      'truncate -s 0 data/users.csv',
      'cp /dev/null notes.md',
    ]) {
      assert.equal(judge(command, { ctx: { realpath: there } }).decision, 'ask', command);
    }
    // Emptying build output or a log is not asked about even when the file is there.
    assert.equal(judge('truncate -s 0 build/results.xml', { ctx: { realpath: there } }).decision, 'allow');
    assert.equal(judge(': > server.log', { ctx: { realpath: there } }).decision, 'allow');
  });

  it("allows `find … | xargs rm` of one disposable name, as find's own -delete", () => {
    assert.equal(judge("find . -name '*.pyc' -print0 | xargs -0 rm -f").decision, 'allow');
    assert.equal(judge("find . -name '*.pyc' | xargs rm -f", { cwd: HOME }).decision, 'ask');
    assert.equal(judge("find . -name '*.csv' | xargs rm -f").decision, 'ask');
    assert.equal(judge('find . -type f | xargs rm').decision, 'ask');
  });
});
