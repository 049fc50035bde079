// Symlinked roots (issue 23, row 8): a path is judged where it leads on the host. `ln -s ~ /tmp/h` then
// `grep -r tgr_ /tmp/h/` read the reviewer token; a recursive reader whose root (after its links) contains a
// protected place reaches it, and `..` after a link climbs from the link's target.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { loadShellAnalyzer } from '../../src/service/bash-language.ts';
import { realpathIfExists } from '../../src/service/toolgate.ts';

describe('symlinked roots are judged where they lead', () => {
  let root: string;
  let home: string;
  let links: string;
  let ctx: EngineContext;
  const aliases = buildAliasIndex();
  before(async () => {
    // A home of our own (realpath: /tmp may itself be a link), with keys, toolgate's data dir and a project.
    root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-links-')));
    home = join(root, 'home');
    links = join(root, 'tmp');
    for (const dir of ['.ssh', '.toolgate', 'proj/src', 'proj/docs']) mkdirSync(join(home, dir), { recursive: true });
    mkdirSync(links);
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'key');
    writeFileSync(join(home, '.toolgate', 'tokens.json'), '{"reviewer":"tgr_x"}');
    writeFileSync(join(home, 'proj', 'src', 'a.ts'), '// TODO');
    symlinkSync(home, join(links, 'h')); // ln -s ~ /tmp/h
    symlinkSync(join(home, 'proj'), join(links, 'p')); // ln -s ~/proj /tmp/p
    symlinkSync(join(home, 'proj', 'docs'), join(links, 'docs')); // a link to a harmless directory
    ctx = {
      operatorMode: 'default',
      askFallback: 'deny',
      home,
      dataDir: join(home, '.toolgate'),
      aliases,
      analyzer: await loadShellAnalyzer({ home }),
      realpath: realpathIfExists,
    };
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const judge = (tool: string, args: Record<string, unknown>) =>
    decide({ call: { tool, args, cwd: join(home, 'proj') } }, compilePolicy([], aliases, home), ctx);
  const bash = (command: string) => judge('Bash', { command });

  it('denies recursive readers rooted at a link to the home', () => {
    for (const command of [
      'grep -r tgr_ /tmp/h/',
      'grep -r tgr_ /tmp/h',
      'grep -rn BEGIN /tmp/h/.',
      'rg --hidden tgr_ /tmp/h',
      'tar -chf /tmp/x.tar /tmp/h',
      'cp -rL /tmp/h /tmp/x',
      'find -L /tmp/h -type f -exec cat {} +',
      'find -L /tmp/h -name id_rsa',
      'cd /tmp/h && grep -r tgr_ .',
    ]) {
      const v = bash(command.replaceAll('/tmp/', `${links}/`));
      assert.equal(v.decision, 'deny', `${command}: ${v.reason}`);
      assert.equal(v.source, 'protected_path', command);
    }
  });

  it('denies the Grep and Glob tools rooted at the link', () => {
    for (const args of [
      { pattern: 'tgr_', path: `${links}/h` },
      { pattern: 'tgr_', path: `${links}/h/` },
    ])
      assert.equal(judge('Grep', args).decision, 'deny', JSON.stringify(args));
    for (const args of [
      { pattern: '**/tokens.json', path: `${links}/h` },
      { pattern: '.ssh/*', path: `${links}/h` },
      { pattern: `${links}/h/.ssh/*` },
    ])
      assert.equal(judge('Glob', args).decision, 'deny', JSON.stringify(args));
  });

  it('follows `..` from the target of a link, not from where the link is', () => {
    for (const path of [
      `${links}/p/../.toolgate/tokens.json`,
      `${links}/p/../.ssh/id_rsa`,
      `${links}/p/src/../../.toolgate/tokens.json`,
    ]) {
      assert.equal(judge('Read', { file_path: path }).decision, 'deny', `Read ${path}`);
      assert.equal(judge('Write', { file_path: path, content: '{}' }).decision, 'deny', `Write ${path}`);
      assert.equal(bash(`cat ${path}`).decision, 'deny', `cat ${path}`);
    }
  });

  it('denies a link made and read on the same line', () => {
    for (const command of [
      'ln -s ~ /tmp/h2 && grep -r tgr_ /tmp/h2/',
      'ln -s ~ /tmp/h2; rg --hidden tgr_ /tmp/h2',
      'ln -s ~ /tmp/h2; find -L /tmp/h2 -type f -exec cat {} +',
    ]) {
      const v = bash(command);
      assert.equal(v.decision, 'deny', `${command}: ${v.reason}`);
      assert.doesNotMatch(v.reason, /\u0003/, 'the reason shows ** for any directories');
    }
  });

  it('still allows searches of harmless trees, through links too (controls)', () => {
    for (const command of [
      'grep -r TODO src/',
      `grep -r TODO ${links}/docs`,
      `grep -r TODO ${links}/p/src`,
      `cat ${links}/p/src/a.ts`,
      `ls ${links}/h`,
      'ln -s ~/proj/docs /tmp/d && grep -r x /tmp/d',
    ]) {
      const v = bash(command);
      assert.equal(v.decision, 'allow', `${command}: ${v.reason}`);
    }
    assert.equal(judge('Grep', { pattern: 'TODO', path: `${links}/docs` }).decision, 'allow');
    assert.equal(judge('Glob', { pattern: '**/*.ts', path: `${links}/h` }).decision, 'allow');
    assert.equal(judge('Read', { file_path: `${links}/p/../proj/src/a.ts` }).decision, 'allow');
  });
});
