import { loadBashLanguage } from '/work/main/src/service/bash-language.ts';
import { parseSimple } from '/work/main/src/engine/shell/simple-parse.ts';
import { plainShape, treeSitterShape } from '/work/main/test/engine/shell-trees.ts';
import { Parser } from 'web-tree-sitter';
const lang = await loadBashLanguage();
const p = new Parser(); p.setLanguage(lang);
for (const cmd of [process.argv[2]!]) {
  console.log(JSON.stringify(plainShape(parseSimple(cmd)!), null, 1).split('\n').join(' ').replace(/\s+/g,' '));
  console.log(JSON.stringify(treeSitterShape(p.parse(cmd)!.rootNode), null, 1).split('\n').join(' ').replace(/\s+/g,' '));
}
