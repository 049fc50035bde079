// Inline code that builds a path from the home directory at run time and reads it (issue 23, row 17): the name is
// glued together (".s"+"sh"), so no literal shows the key it reads; such code is asked about.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge } from './shell-support.ts';

describe('inline code reading under a home path built at run time', async () => {
  const judge = await createJudge();

  it('asks about it in Python, node, Ruby, Perl and PHP', () => {
    for (const command of [
      // (Round 5 of issue 26: a key's own name in code that prints is a key printed, denied — key-file-print; here
      // the name is glued too, so only the home-built path is left to ask about. The plain name is checked below.)
      `python3 -c 'import os; print(open(os.path.join(os.environ["HOME"], ".s"+"sh", "id_" + "rsa")).read())'`,
      `python3 -c 'import os; print(open(os.path.expanduser("~") + "/.s" + "sh/id_" + "rsa").read())'`,
      `python3 -c 'import os\nh = os.getenv("HOME")\np = os.path.join(h, ".s" + "sh", "id_" + "rsa")\nwith open(p) as f:\n    print(f.read())'`,
      `python3 -c 'from pathlib import Path; print((Path.home() / ".aw" "s" / "credentials").read_text())'`,
      `python3 - <<'EOF'\nimport os, shutil\nshutil.copy(os.path.join(os.environ["HOME"], ".tool" + "gate", "tok" + "ens.json"), "/tmp/t")\nEOF`,
      `node -e 'const fs=require("fs"),os=require("os"),path=require("path"); console.log(fs.readFileSync(path.join(os.homedir(), ".ss"+"h/id_"+"rsa"), "utf8"))'`,
      `node -e 'console.log(require("fs").readFileSync(process.env.HOME + "/.to" + "olgate/tokens.json", "utf8"))'`,
      `ruby -e 'puts File.read(File.join(Dir.home, ".to" + "olgate", "tokens.json"))'`,
      `perl -e 'open(F, "$ENV{HOME}/.ne" . "trc"); print <F>'`,
      `php -r 'echo file_get_contents(getenv("HOME") . "/.s" . "sh/id_" . "rsa");'`,
    ]) {
      const j = judge(command);
      assert.equal(j.decision, 'ask', `${command}: ${j.reason}`);
      assert.match(j.reason, /builds from the home directory/, command);
    }
    const named = `python3 -c 'import os; print(open(os.path.join(os.environ["HOME"], ".s"+"sh", "id_rsa")).read())'`;
    assert.equal(judge(named).decision, 'deny', named);
  });

  it('allows code that reads project files, or only prints the home (controls)', () => {
    for (const command of [
      `python3 -c 'print(open("README.md").read())'`,
      `node -e 'console.log(require("os").homedir())'`,
      `python3 -c 'import os; print(os.path.expanduser("~"))'`,
      `python3 -c 'import json, os; print(os.environ.get("HOME")); print(json.load(open("package.json"))["name"])'`,
      `node -e 'console.log(require("fs").readFileSync("package.json", "utf8"))'`,
      `python3 -c 'import os; print(open(os.path.expanduser("~/notes.txt")).read())'`,
    ])
      assert.equal(judge(command).decision, 'allow', command);
  });
});
