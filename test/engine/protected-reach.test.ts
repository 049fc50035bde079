// Ways to reach a protected path that a review against bash found allowed (fifth session): each must be denied,
// and the ordinary call beside it must still be allowed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { sharedAnalyzer } from './shell-support.ts';

const HOME = '/home/tester';
const CWD = `${HOME}/work/project`;
const aliases = buildAliasIndex();
const bash = (command: string, extra: Record<string, unknown> = {}) => ({ tool: 'Bash', args: { command, ...extra } });

/** [what, the call, the cwd when not the project] — each reaches ~/.ssh. */
const REACHES: [string, { tool: string; args: Record<string, unknown> }, string?][] = [
  ['a recursive grep given only its pattern searches the directory cd went to', bash('cd ~ && grep -r BEGIN')],
  ['the same with ripgrep searching hidden files', bash('cd ~ && rg --hidden BEGIN')],
  ['git grep in the home', bash('cd ~ && git grep --no-index BEGIN')],
  ['find -exec reads every file below its path', bash('cd ~ && find . -type f -exec cat {} +')],
  ['find with no path searches the cwd', bash('cd ~ && find -type f -exec cat {} +')],
  ['HOME set by the script changes what ~ means', bash(`HOME=${HOME}/.ssh; cat ~/id_rsa`)],
  ['the same through export', bash(`export HOME=${HOME}/.ssh; cat ~/id_rsa`)],
  ['cd - goes back to the directory left', bash('cd ~; cd /tmp; cd -; cat .ssh/id_rsa')],
  ['cd "$OLDPWD" too', bash('cd ~; cd /tmp; cd "$OLDPWD"; cat .ssh/id_rsa')],
  ['popd returns to the directory pushd left', bash('pushd ~ >/dev/null; pushd /tmp; popd; cat .ssh/id_rsa')],
  ['git -C names the directory git works in', bash('git -C ~/.ssh diff --no-index id_rsa /dev/null')],
  ['tar --directory= too', bash(`tar --directory=${HOME} -cf - .ssh`)],
  ['a container given the home as a volume reads all of it', bash('docker run -v ~:/h alpine cat /h/.ssh/id_rsa')],
  ['the same through --mount', bash(`docker run --mount type=bind,src=${HOME},dst=/h alpine sh`)],
  ["a shell tool's own working directory wins over the agent's cwd", bash('cat id_rsa', { workdir: `${HOME}/.ssh` })],
  [
    "Gemini's directory argument, relative to the cwd",
    { tool: 'run_shell_command', args: { command: 'cat .ssh/id_rsa', directory: '../..' } },
  ],
  [
    'an MCP move names its source',
    { tool: 'mcp__filesystem__move_file', args: { source: `${HOME}/.ssh/id_rsa`, destination: '/tmp/x' } },
  ],
  ['Grep reads every file below its path', { tool: 'Grep', args: { pattern: 'BEGIN', path: HOME } }],
  ['Grep without a path searches the cwd', { tool: 'Grep', args: { pattern: 'BEGIN' } }, HOME],
  ['a Glob pattern may name the protected directory', { tool: 'Glob', args: { pattern: `${HOME}/.ssh/*` } }],
  ['a relative Glob pattern below a path', { tool: 'Glob', args: { pattern: '.ssh/*', path: HOME } }],
  [
    "an MCP server's shell tool reading a key",
    { tool: 'mcp__desktop-commander__start_process', args: { command: `cat ${HOME}/.ssh/id_rsa`, timeout_ms: 1000 } },
  ],
  ['an MCP fetch of a file: URL', { tool: 'mcp__fetch__fetch', args: { url: `file://${HOME}/.ssh/id_rsa` } }],
  [
    "Gemini's dir_path is where its command runs",
    { tool: 'run_shell_command', args: { command: 'cat id_rsa', dir_path: `${HOME}/.ssh` } },
  ],
  [
    "a Glob's ** crosses hidden directories: a key's name below the home",
    { tool: 'Glob', args: { pattern: '**/id_rsa', path: HOME } },
  ],
  ["a Glob's * matches a hidden directory", { tool: 'Glob', args: { pattern: `${HOME}/*/id_ed25519` } }],
  ['a Glob for key files anywhere below the home', { tool: 'Glob', args: { pattern: '~/**/*.pem' } }],
  ['a Glob for credentials files from the home', { tool: 'Glob', args: { pattern: '**/credentials' } }, HOME],
  ['a bracket bash negates with !', bash('cat ~/.s[!x]h/*')],
  ['a loop over a glob reads the files it matches', bash('for f in ~/.??h/*; do cat "$f"; done')],
  ['/proc/<pid>/root is the root, whatever the pid', bash(`cat /proc/$$/root${HOME}/.ssh/id_rsa`)],
  ['a symlink to the home made on the same line', bash('ln -s ~ h && cat h/.ssh/id_rsa')],
  ['a relative symlink made on the same line', bash('ln -sf ../.. h && cat h/.ssh/id_rsa')],
];

/** Paths partly unknown that may reach ~/.ssh: asked about (denied when no human can answer). */
const MAY_REACH: [string, { tool: string; args: Record<string, unknown> }][] = [
  ['a name whose known parts fit .ssh', bash('cat ~/.s${x}sh/id_rsa')],
  ['a default value of an unset variable', bash('cat ~/.${x:-ssh}/id_rsa')],
  // (Issue 26, round 4: `cat /proc/self/cwd/../../.ssh/id_rsa` is now denied, key-file-print: the name is an SSH key's
  // wherever it is; regressions.jsonl keeps it. The reach below some directory is asked about for another secret.)
  ['/proc/self/cwd: below some directory', bash('cat /proc/self/cwd/../../.aws/credentials')],
];

/** Ordinary calls next to those: allowed. */
const ORDINARY: [string, { tool: string; args: Record<string, unknown> }][] = [
  ['a recursive grep in the project', bash('grep -rn TODO')],
  ['find -exec in the project', bash("find . -name '*.ts' -exec wc -l {} +")],
  ['cd - inside the project', bash('cd src; cd -; cat package.json')],
  ['git -C a package', bash('git -C packages/a status')],
  ['tar -C dist', bash('tar -C dist -czf out.tgz .')],
  ['the project mounted into a container', bash('docker run -v $PWD:/app -w /app node:20 npm test')],
  ['a shell tool run in a package directory', bash('npm test', { workdir: 'packages/a' })],
  ['Grep in the project', { tool: 'Grep', args: { pattern: 'TODO', path: 'src' } }],
  ['Grep without a path in the project', { tool: 'Grep', args: { pattern: 'TODO' } }],
  ['a Glob over the project', { tool: 'Glob', args: { pattern: '**/*.ts' } }],
  [
    'a Glob for source files below the home lists no secret',
    { tool: 'Glob', args: { pattern: '**/*.ts', path: HOME } },
  ],
  ['a Glob for package.json files below the home', { tool: 'Glob', args: { pattern: '~/**/package.json' } }],
  ['a variable file under the home', bash('cat ~/$f')],
  ['a variable directory under ~/.config', bash('cat ~/.config/$APP/settings.json')],
  ['a loop over the project', bash('for f in src/*.ts; do wc -l "$f"; done')],
  ['/proc/self/status', bash('cat /proc/self/status')],
  ['a symlink inside the project', bash('ln -s ../common/config.json config.json && cat config.json')],
];

describe('protected paths reached through the shell state, other programs and file-tool arguments', async () => {
  const policy = compilePolicy([], aliases, HOME);
  const ctx: EngineContext = {
    operatorMode: 'default',
    askFallback: 'deny',
    home: HOME,
    dataDir: `${HOME}/.toolgate`,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  for (const [what, call, cwd] of REACHES) {
    it(`denies: ${what}`, () => {
      const v = decide({ call: { ...call, cwd: cwd ?? CWD }, interactive: false }, policy, ctx);
      assert.equal(v.decision, 'deny', `${JSON.stringify(call)}: ${v.decision} (${v.source}) ${v.reason}`);
      assert.equal(v.source, 'protected_path', v.reason);
    });
  }
  for (const [what, call] of MAY_REACH) {
    it(`asks: ${what}`, () => {
      const v = decide({ call: { ...call, cwd: CWD }, interactive: true }, policy, ctx);
      assert.equal(v.decision, 'ask', `${JSON.stringify(call)}: ${v.decision} (${v.source}) ${v.reason}`);
      assert.match(v.reason, /may reach a protected path/);
    });
  }
  for (const [what, call] of ORDINARY) {
    it(`allows: ${what}`, () => {
      const v = decide({ call: { ...call, cwd: CWD }, interactive: false }, policy, ctx);
      assert.equal(v.decision, 'allow', `${JSON.stringify(call)}: ${v.decision} (${v.source}) ${v.reason}`);
    });
  }
});
