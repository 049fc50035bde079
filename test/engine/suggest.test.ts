// The suggested "allow for this session" / "always allow" pattern: exact for high risk, else narrow and anchored, never the bare program, never reaching a new danger.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { normalizeCall } from '../../src/engine/normalize.ts';
import { compileCommandSpec } from '../../src/engine/rules/matcher.ts';
import type { ShellAnalyzer } from '../../src/engine/shell/analyzer.ts';
import { suggestPattern } from '../../src/engine/suggest.ts';
import { TEST_HOME, testAnalyzer } from '../support/harness.ts';

let analyzer: ShellAnalyzer;
const aliases = buildAliasIndex({});

function suggest(tool: string, args: Record<string, unknown>, cwd = `${TEST_HOME}/work/project`): string | undefined {
  const call = normalizeCall({ tool, args, cwd }, aliases);
  const analysis = call.command !== undefined ? analyzer.analyze(call.command) : undefined;
  return suggestPattern(call, analysis, analyzer, TEST_HOME);
}

/** The spec inside `bash(...)`. */
function specOf(pattern: string): string {
  const m = /^bash\((.*)\)$/s.exec(pattern);
  assert.ok(m, `not a bash pattern: ${pattern}`);
  return m[1]!;
}

/** Whether an allow rule with this spec would cover every simple command of `command`. */
function covers(spec: string, command: string): boolean {
  const matcher = compileCommandSpec(spec);
  const { commands } = analyzer.analyze(command);
  return commands.length > 0 && commands.every((c) => matcher.test({ words: c.words, line: c.words.join(' ') }));
}

before(async () => (analyzer = await testAnalyzer()));

describe('suggestPattern for bash', () => {
  const cases: [command: string, expected: string][] = [
    ['npm run test -- --watch', 'bash(npm run test *)'],
    ['npm run test', 'bash(npm run test *)'],
    ['sudo systemctl restart nginx', 'bash(sudo systemctl restart nginx *)'],
    // High risk: the exact command the reviewer saw (issue 22; it was `git push --force *`, any branch, any remote).
    ['git push --force origin main', 'bash(git push --force origin main)'],
    ['rm -rf /', 'bash(rm -rf /)'],
    ['kill -9 4242', 'bash(kill -9 4242)'],
    ['sudo apt-get install -y vim', 'bash(sudo apt-get install -y *)'],
  ];
  for (const [command, expected] of cases) {
    it(`${command} → ${expected}`, () => assert.equal(suggest('Bash', { command }), expected));
  }

  // Changed on purpose (issue 22): these suggested nothing, so "allow for this session" was impossible. A spec without
  // wildcard is now the exact command, so the exact command is suggested — and it covers no dangerous variant.
  it('suggests the exact command when every prefix form would reach a new danger', () => {
    // `kill -9 *` covers `kill -9 -1` (every process); `rm -rf *` and `rm -rf /tmp/build *` cover `rm -rf /`.
    const cases: [command: string, dangerous: string[]][] = [
      ['kill -9 1234', ['kill -9 -1', 'kill -9 1234 -1', 'sudo kill -9 1234', 'kill -9 -1 1234']],
      [
        'rm -rf /tmp/build',
        ['rm -rf /tmp/build /', 'rm -rf / /tmp/build', 'rm -rf ~/x rm -rf /tmp/build', 'sudo rm -rf /tmp/build'],
      ],
      ['chmod -R 777 /srv/app', ['chmod -R 777 /', 'chmod -R 777 /srv/app /']],
    ];
    for (const [command, dangerous] of cases) {
      const pattern = suggest('bash', { command });
      assert.equal(pattern, `bash(${command})`, command);
      assert.ok(covers(specOf(pattern!), command), command);
      for (const variant of dangerous)
        assert.ok(!covers(specOf(pattern!), variant), `${pattern} must not cover ${variant}`);
    }
  });

  it('is never the bare program name (the seed suggested bash(*sudo*) / bash(*mkdir*))', () => {
    for (const command of [
      'sudo systemctl restart nginx',
      'sudo apt-get install -y vim',
      'npm run test -- --watch',
      'git push --force origin main',
    ]) {
      const spec = specOf(suggest('bash', { command })!);
      const program = analyzer.analyze(command).commands[0]!.words[0]!;
      assert.notEqual(spec, program, command);
      assert.notEqual(spec, `${program} *`, command);
      assert.ok(!spec.startsWith('*'), `${command}: ${spec}`);
    }
  });

  it('covers the command it was suggested for', () => {
    for (const command of [
      'npm run test -- --watch',
      'sudo systemctl restart nginx',
      'git push --force origin main',
      'sudo apt-get install -y vim',
    ]) {
      assert.ok(covers(specOf(suggest('bash', { command })!), command), command);
    }
  });

  it('does not cover a dangerous variant the approved command was not', () => {
    const variants: [approved: string, dangerous: string[]][] = [
      [
        'sudo systemctl restart nginx',
        [
          'sudo rm -rf /var/www',
          'sudo systemctl restart nginx; rm -rf /',
          'rm -rf /var/www sudo systemctl restart nginx',
          'sudo reboot',
        ],
      ],
      ['npm run test -- --watch', ['npm run test; rm -rf ~', 'rm -rf / npm run test', 'sudo npm run test']],
      [
        'sudo apt-get install -y vim',
        ['sudo apt-get remove -y vim', 'sudo rm -rf /', 'rm -rf / sudo apt-get install -y vim'],
      ],
      ['git push --force origin main', ['git reset --hard', 'git push --force origin main; rm -rf /']],
    ];
    for (const [approved, dangerous] of variants) {
      const spec = specOf(suggest('bash', { command: approved })!);
      for (const command of dangerous)
        assert.ok(!covers(spec, command), `${spec} (from ${approved}) must not cover ${command}`);
    }
  });

  it('suggests for the command that asked in a compound command', () => {
    assert.equal(
      suggest('bash', { command: 'cd /srv && sudo systemctl restart nginx' }),
      'bash(sudo systemctl restart nginx *)',
    );
  });

  // Changed on purpose (issue 22): nothing was suggested; now the exact command, its star quoted (not a wildcard).
  it('suggests the exact command, star quoted, rather than a glob when the command itself has a *', () => {
    const pattern = suggest('bash', { command: 'rm -rf ./build/*' })!;
    assert.equal(pattern, "bash(rm -rf './build/*')");
    assert.ok(covers(specOf(pattern), 'rm -rf ./build/*'));
    assert.ok(!covers(specOf(pattern), 'rm -rf ./build/x'));
    assert.ok(!covers(specOf(pattern), 'rm -rf ./build/x /'));
  });
});

describe('suggestPattern for other tools', () => {
  it('a file tool gets the absolute file', () => {
    assert.equal(suggest('Write', { file_path: 'src/app.ts' }), `write_file(${TEST_HOME}/work/project/src/app.ts)`);
  });

  it('a fetch tool gets its domain', () => {
    assert.equal(suggest('WebFetch', { url: 'https://docs.example.com/a?b=1' }), 'web_fetch(domain:docs.example.com)');
  });

  it('any other tool gets its name', () => {
    assert.equal(suggest('mcp__github__create_issue', { title: 'x' }), 'mcp__github__create_issue');
  });
});
