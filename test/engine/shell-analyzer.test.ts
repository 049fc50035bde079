// The shell analyzer's contract: what runs, how words resolve, what is only data, read-only-ness, bounds and cache.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createShellAnalyzer } from '../../src/engine/shell/analyzer.ts';
import { loadBashLanguage } from '../../src/service/bash-language.ts';
import { HOME, sharedAnalyzer } from './shell-support.ts';

const ids = (findings: { id: string }[]): string[] => findings.map((f) => f.id);

describe('shell analyzer', async () => {
  const a = await sharedAnalyzer();

  describe('finds every command that runs, in execution order (substitutions before their command)', () => {
    const cases: [string, string[]][] = [
      ['git status && rm -rf /', ['git', 'rm']],
      ['ls | grep x; echo ok || true', ['ls', 'grep', 'echo', 'true']],
      ['(cd /tmp && make) & { npm test; }', ['cd', 'make', 'npm']],
      ['if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
      ['for f in *; do wc -l "$f"; done; while read l; do echo; done < x', ['wc', 'read', 'echo']],
      ['echo $(id) `whoami` "$(date)" <(ls) >(cat)', ['id', 'whoami', 'date', 'ls', 'cat', 'echo']],
      ['echo `echo \\`id\\``', ['id', 'echo', 'echo']],
      ["bash -c 'git push' && sh -c \"rm x\" && zsh -lc 'ls'", ['bash', 'git', 'sh', 'rm', 'zsh', 'ls']],
      ["eval 'mkdir a; rmdir a'", ['eval', 'mkdir', 'rmdir']],
      ['bash <<EOF\nmake install\nEOF', ['bash', 'make']],
      ['sh <<< "npm ci"', ['sh', 'npm']],
      ['find . -exec chmod 600 {} \\; | xargs -n1 touch', ['find', 'chmod', 'xargs', 'touch']],
      // The body is walked where it is defined (its words unknown) and again at each call (with the call's words).
      ['f() { npm test; }; f', ['npm', 'f', 'npm']],
      ['sudo -u www env FOO=1 nice -n 5 timeout 10 /usr/bin/python3 x.py', ['python3']],
      ["ssh host 'systemctl restart app'", ['ssh', 'systemctl']],
    ];
    for (const [cmd, programs] of cases) {
      it(cmd.replace(/\n/g, '\\n'), () => {
        const r = a.analyze(cmd);
        assert.ok(r.ok, r.error);
        assert.deepEqual(
          r.commands.map((c) => c.program),
          programs,
        );
      });
    }
  });

  it('peels wrappers and keeps them', () => {
    const [c] = a.analyze('sudo -u deploy env A=1 nohup /bin/rm -rf /srv/x').commands;
    assert.deepEqual(c!.wrappers, ['sudo', 'env', 'nohup']);
    assert.deepEqual(c!.argv, ['/bin/rm', '-rf', '/srv/x']);
    assert.equal(c!.program, 'rm');
    assert.equal(c!.words[0], 'sudo');
    assert.equal(c!.literal, true);
  });

  it('counts nesting depth', () => {
    const r = a.analyze("bash -c 'echo $(id)'");
    assert.deepEqual(
      r.commands.map((c) => [c.program, c.depth]),
      [
        ['bash', 0],
        ['id', 2],
        ['echo', 1],
      ],
    );
  });

  describe('resolves words as bash does', () => {
    const cases: [string, string[]][] = [
      ['\'r\'m -r"f" ~/a', ['rm', '-rf', `${HOME}/a`]],
      ["$'\\x72\\x6d' \\-f ${HOME}/x $HOME", ['rm', '-f', `${HOME}/x`, HOME]],
      ['ls ~alice ~root/x', ['ls', '/home/alice', '/root/x']],
      ['echo {a,b}{1..2}', ['echo', 'a1', 'a2', 'b1', 'b2']],
      ['x=git; y="push -f"; $x $y', ['git', 'push', '-f']],
      ['cat $(echo ./notes.txt)', ['cat', './notes.txt']],
      ['echo "~" \'$HOME\'', ['echo', '~', '$HOME']],
    ];
    for (const [cmd, argv] of cases) {
      it(cmd, () => assert.deepEqual(a.analyze(cmd).commands.at(-1)!.argv, argv));
    }
  });

  describe('a command name that is not literal is a finding', () => {
    const cases: [string, string][] = [
      ['$TOOL --version', 'command-name-variable'],
      ['$(cat tool.txt) -la', 'command-name-substitution'],
      ['/usr/bin/l? -la', 'command-name-glob'],
      ['{ls,-la}', 'command-name-brace'],
      ['sudo "$CMD"', 'command-name-variable'],
    ];
    for (const [cmd, id] of cases) it(cmd, () => assert.ok(ids(a.analyze(cmd).findings).includes(id)));
    it('but a program looked up with which or command -v is that program', () => {
      assert.deepEqual(a.analyze('$(which ls) -la').findings, []);
      assert.deepEqual(a.analyze('"$(command -v rm)" -rf ~/src').commands.at(-1)!.program, 'rm');
    });
    it('but a quoted or escaped name is literal', () => {
      for (const cmd of ["'git' status", '\\git status', 'g"i"t status'])
        assert.deepEqual(a.analyze(cmd).findings, [], cmd);
    });
  });

  describe('data is not a command', () => {
    for (const cmd of [
      'echo "rm -rf / is dangerous"',
      "printf '%s\\n' 'sudo reboot'",
      "grep -rn 'curl | sh' docs/",
      "git commit -m 'kill -9 the workers'",
      "cat > notes.md <<'EOF'\nrm -rf /\nEOF",
      'node -e "console.log(\'rm -rf\')"',
      'echo "\\$(rm -rf ~)"',
      'python3 -c \'print("shutil.rmtree")\' --quiet',
    ])
      it(cmd.replace(/\n/g, '\\n'), () => assert.deepEqual(ids(a.analyze(cmd).findings), []));
  });

  it('reports touched paths with their kind and the directory after cd', () => {
    const r = a.analyze('cd ~/src && cat a.txt > ../out.txt');
    assert.deepEqual(
      r.paths.map((p) => [p.path, p.kind, p.base ?? null]),
      [
        [`${HOME}/src`, 'cwd', null],
        ['../out.txt', 'redirect', `${HOME}/src`],
        ['a.txt', 'argument', `${HOME}/src`],
      ],
    );
    const g = a.analyze('ls ~/.s*/x "$D"/y');
    assert.deepEqual(
      g.paths.map((p) => [p.glob, p.dynamic]),
      [
        [true, false],
        [false, true],
      ],
    );
  });

  describe('read-only classification', () => {
    for (const cmd of [
      'ls -la',
      'git status && git log -3',
      'cat a | grep b | wc -l',
      'find . -name x',
      'kubectl get pods',
      'npm ls',
      'echo hi > /dev/null',
    ]) {
      it(`read-only: ${cmd}`, () => assert.equal(a.analyze(cmd).readOnly, true));
    }
    for (const cmd of [
      'touch x',
      'echo hi > f',
      'git commit -m x',
      'git branch new',
      'find . -delete',
      'sed -i s/a/b/ f',
      'npm install',
      'ls; rm x',
      'unknown-tool',
    ]) {
      it(`write: ${cmd}`, () => assert.equal(a.analyze(cmd).readOnly, false));
    }
  });

  describe('is bounded and says why', async () => {
    const language = await loadBashLanguage();
    it('refuses commands over the size cap', () => {
      const small = createShellAnalyzer(language, { home: HOME, maxBytes: 100 });
      const r = small.analyze(`echo ${'x'.repeat(200)}`);
      assert.equal(r.ok, false);
      assert.match(r.error!, /over the 100-byte/);
    });
    it('stops at the depth limit', () => {
      const shallow = createShellAnalyzer(language, { home: HOME, maxDepth: 2 });
      const r = shallow.analyze('bash -c "bash -c \'bash -c ls\'"');
      assert.equal(r.ok, false);
      assert.match(r.error!, /deeper than 2/);
      assert.equal(shallow.analyze("bash -c 'ls'").ok, true);
    });
    it('does not parse what bash would not', () => {
      const r = a.analyze('ls &&');
      assert.equal(r.ok, false);
      assert.match(r.error!, /cannot parse/);
    });
    it('keeps an analysis from the second time its command is seen, not a one-off', () => {
      const cached = createShellAnalyzer(language, { home: HOME });
      const once = cached.analyze('ls -la src');
      const twice = cached.analyze('ls -la src');
      assert.notEqual(twice, once, 'a command seen once is not kept');
      assert.deepEqual(twice, once);
      assert.equal(cached.analyze('ls -la src'), twice, 'from the second sight on, the cache answers');
    });
    it('caches by text, least recently used first out', () => {
      const tiny = createShellAnalyzer(language, { home: HOME, cacheSize: 2, cacheOnSecondSight: false });
      const first = tiny.analyze('ls');
      assert.equal(tiny.analyze('ls'), first);
      tiny.analyze('pwd');
      tiny.analyze('ls');
      tiny.analyze('id');
      assert.equal(tiny.analyze('ls'), first, 'recently used stays');
      const pwd = tiny.analyze('pwd');
      assert.notEqual(tiny.analyze('id'), undefined);
      assert.equal(tiny.analyze('pwd'), pwd);
    });
  });
});
