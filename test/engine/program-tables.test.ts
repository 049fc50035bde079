// The per-program tables of the shell analyzer (issue 26): every program is in one entry only, and every program an
// entry names has a case here showing the entry at work. Adding a program, or a rule for one, is one entry in its
// family's file (src/engine/shell/nested/*.ts, src/engine/shell/operands/*.ts) plus its case below.
import { SHELLS } from '../../src/engine/catalog/programs.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NESTED_ENTRIES } from '../../src/engine/shell/nested.ts';
import { OPERAND_ENTRIES } from '../../src/engine/shell/operands.ts';
import { HOME, sharedAnalyzer } from './shell-support.ts';

/** A case for the programs of one entry: the line (`{p}` is each program's name) and what it shows. */
interface NestedCase {
  programs: string[];
  line: string;
  /** A program the nested code runs (found one level down or deeper). */
  runs: string;
}

const nestedCases: NestedCase[] = [
  {
    programs: [...SHELLS], // every shell the catalogue knows, each run for real below
    line: "{p} -c 'touch /tmp/marker'",
    runs: 'touch',
  },
  { programs: ['source', '.'], line: "{p} <(echo 'touch /tmp/marker')", runs: 'touch' },
  { programs: ['eval'], line: "{p} 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['alias'], line: "{p} t='touch /tmp/marker'", runs: 'touch' },
  { programs: ['trap'], line: "{p} 'touch /tmp/marker' EXIT", runs: 'touch' },
  { programs: ['compgen', 'complete', 'mapfile', 'readarray'], line: "{p} -C 'touch /tmp/marker' x", runs: 'touch' },
  { programs: ['read', 'mapfile', 'readarray'], line: "{p} x <<'EOF'\na[$(touch /tmp/marker)]\nEOF", runs: 'touch' },
  { programs: ['printf'], line: "{p} -v x '%s[%s(touch /tmp/marker)]' a '$'", runs: 'touch' },
  { programs: ['script'], line: "{p} -qc 'touch /tmp/marker' /dev/null", runs: 'touch' },
  { programs: ['fc'], line: "{p} -e 'touch /tmp/marker' -1", runs: 'touch' },
  { programs: ['history'], line: "{p} -s 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['xargs'], line: 'echo a | {p} touch', runs: 'touch' },
  { programs: ['parallel'], line: '{p} touch ::: a b', runs: 'touch' },
  { programs: ['find'], line: '{p} . -name x -exec touch {} \\;', runs: 'touch' },
  { programs: ['fd', 'fdfind'], line: '{p} x . -x touch', runs: 'touch' },
  { programs: ['su', 'runuser'], line: "{p} - alice -c 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['ssh'], line: "{p} host 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['ssh', 'scp', 'sftp'], line: "{p} -o 'ProxyCommand=touch /tmp/marker' host", runs: 'touch' },
  { programs: ['rsync'], line: "{p} -e 'touch /tmp/marker' a host:b", runs: 'touch' },
  { programs: ['ansible'], line: "{p} all -m shell -a 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['vagrant'], line: "{p} ssh -c 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['git'], line: "{p} -c alias.t='!touch /tmp/marker' t", runs: 'touch' },
  {
    programs: [
      'vim',
      'vi',
      'nvim',
      'ex',
      'view',
      'gvim',
      'rvim',
      'rview',
      'vimdiff',
      'vim.basic',
      'vim.tiny',
      'vim.nox',
      'vim.gtk',
      'vim.gtk3',
      'less',
      'more',
    ],
    line: "{p} -c '!touch /tmp/marker' f",
    runs: 'touch',
  },
  { programs: ['ed', 'ex', 'vim', 'vi', 'nvim'], line: "{p} f <<'EOF'\n!touch /tmp/marker\nEOF", runs: 'touch' },
  { programs: ['man'], line: "{p} -P 'touch /tmp/marker' ls", runs: 'touch' },
  { programs: ['sed'], line: "{p} '1e touch /tmp/marker' f", runs: 'touch' },
  { programs: ['tar'], line: "{p} --to-command='touch /tmp/marker' -xf a.tar", runs: 'touch' },
  { programs: ['zip'], line: "{p} -T -TT 'touch /tmp/marker' a.zip f", runs: 'touch' },
  { programs: ['split'], line: "{p} --filter='touch /tmp/marker' f", runs: 'touch' },
  { programs: ['psql', 'mysql', 'mariadb'], line: "{p} -c '\\! touch /tmp/marker'", runs: 'touch' },
  { programs: ['sqlite3'], line: "{p} db '.shell touch /tmp/marker'", runs: 'touch' },
  { programs: ['gdb'], line: "{p} -batch -ex 'shell touch /tmp/marker'", runs: 'touch' },
  { programs: ['m4'], line: "echo 'syscmd(touch /tmp/marker)' | {p}", runs: 'touch' },
  { programs: ['crontab'], line: "{p} - <<< '* * * * * touch /tmp/marker'", runs: 'touch' },
  { programs: ['at', 'batch'], line: "{p} now <<< 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['screen'], line: '{p} -dm touch /tmp/marker', runs: 'touch' },
  { programs: ['tmux'], line: "{p} new-session -d 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['start-stop-daemon'], line: '{p} --start --exec /usr/bin/touch -- /tmp/marker', runs: 'touch' },
  { programs: ['npm', 'pnpm', 'yarn', 'bun'], line: "{p} pkg set scripts.t='touch /tmp/marker'", runs: 'touch' },
  { programs: ['concurrently'], line: "{p} 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['nodemon'], line: "{p} --exec 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['watchexec', 'reflex'], line: '{p} -- touch /tmp/marker', runs: 'touch' },
  { programs: ['hyperfine'], line: "{p} 'touch /tmp/marker'", runs: 'touch' },
  { programs: ['make', 'gmake'], line: "{p} SHELL='touch /tmp/marker x'", runs: 'touch' },
  { programs: ['cmake'], line: '{p} -E rm -rf build', runs: 'rm' },
  { programs: ['del-cli', 'del'], line: '{p} dist', runs: 'rm' },
  { programs: ['shx'], line: '{p} touch /tmp/marker', runs: 'touch' },
  { programs: ['nix-shell'], line: "{p} --run 'touch /tmp/marker'", runs: 'touch' },
];

/** A case for the programs of one operand entry: the paths the line touches (`{p}` is each program's name). */
interface OperandCase {
  programs: string[];
  line: string;
  /** Paths the analysis reports (as `path`), and paths it must not report. */
  has?: string[];
  lacks?: string[];
  /** The kind the first operand's path has. */
  kind?: 'cwd';
}

const H = HOME;
const operandCases: OperandCase[] = [
  { programs: ['grep', 'egrep', 'fgrep'], line: '{p} -r PATTERN ~/src', has: [`${H}/src/**`], lacks: ['PATTERN'] },
  { programs: ['rg'], line: '{p} --hidden PATTERN ~/src', has: [`${H}/src/**`], lacks: ['PATTERN'] },
  { programs: ['ag'], line: '{p} --hidden PATTERN ~/src', has: [`${H}/src/**`], lacks: ['PATTERN'] },
  { programs: ['ack'], line: '{p} PATTERN ~/src', has: [`${H}/src/**`], lacks: ['PATTERN'] },
  { programs: ['ugrep', 'ug', 'sift'], line: '{p} -r x ~/src', has: [`${H}/src/**`] },
  { programs: ['pt'], line: '{p} --hidden x ~/src', has: [`${H}/src/**`] },
  { programs: ['sed'], line: "{p} 'r /etc/hosts' f", has: ['/etc/hosts', 'f'], lacks: ['r /etc/hosts'] },
  { programs: ['awk', 'gawk', 'mawk'], line: "{p} -F : '{print}' f", has: ['f'], lacks: ['{print}'] },
  { programs: ['jq', 'yq'], line: '{p} .name f.json', has: ['f.json'], lacks: ['.name'] },
  { programs: ['perl'], line: '{p} script.pl f', has: ['f'], lacks: ['script.pl'] },
  { programs: ['find'], line: '{p} ~ -name id_rsa', has: [`${H}/**/id_rsa`] },
  { programs: ['locate', 'plocate', 'mlocate', 'slocate'], line: '{p} id_rsa', has: ['/**/id_rsa'] },
  { programs: ['cp', 'scp'], line: '{p} -r ~/src /tmp/dst', has: [`${H}/src/**`], lacks: ['/tmp/dst/**'] },
  { programs: ['rsync'], line: '{p} -a ~/src /tmp/dst', has: [`${H}/src/**`], lacks: ['/tmp/dst/**'] },
  { programs: ['tar', 'bsdtar'], line: '{p} czf out.tgz -C ~ src', has: [`${H}/src/**`], lacks: ['out.tgz/**'] },
  { programs: ['zip'], line: '{p} -r out.zip ~/src', has: [`${H}/src/**`], lacks: ['out.zip/**'] },
  { programs: ['cpio'], line: "{p} -o <<< '/etc/hosts'", has: ['/etc/hosts'] },
  { programs: ['7z', '7za'], line: '{p} a out.7z ~/src', has: [`${H}/src/**`] },
  { programs: ['pax'], line: '{p} -w ~/src', has: [`${H}/src/**`] },
  { programs: ['mksquashfs', 'genisoimage', 'mkisofs', 'xorriso'], line: '{p} ~/src', has: [`${H}/src/**`] },
  { programs: ['borg'], line: '{p} create repo::a ~/src', has: [`${H}/src/**`] },
  { programs: ['restic'], line: '{p} backup ~/src', has: [`${H}/src/**`] },
  { programs: ['duplicity', 'rdiff-backup'], line: '{p} ~/src file:///tmp/b', has: [`${H}/src/**`] },
  { programs: ['rclone'], line: '{p} sync ~/src remote:b', has: [`${H}/src/**`] },
  { programs: ['aws'], line: '{p} s3 sync ~/src s3://b', has: [`${H}/src/**`] },
  { programs: ['gsutil'], line: '{p} rsync ~/src gs://b', has: [`${H}/src/**`] },
  { programs: ['azcopy'], line: '{p} copy ~/src https://x --recursive', has: [`${H}/src/**`] },
  { programs: ['s3cmd'], line: '{p} sync ~/src s3://b', has: [`${H}/src/**`] },
  { programs: ['mc'], line: '{p} mirror ~/src b/c', has: [`${H}/src/**`] },
  { programs: ['cd', 'pushd'], line: '{p} /tmp', kind: 'cwd' },
  { programs: ['git'], line: '{p} -C ~/src status', has: [`${H}/src/**`] },
  { programs: ['make', 'gmake'], line: '{p} -C ~/src', has: [`${H}/src/**`] },
  { programs: ['docker', 'podman'], line: '{p} run -v ~/src:/w img', has: [`${H}/src/**`] },
  { programs: ['buildah'], line: '{p} build -t img ~/src', has: [`${H}/src/**`], lacks: ['img/**'] },
  { programs: ['nerdctl'], line: '{p} run -v ~/src:/w img', has: [`${H}/src/**`] },
  {
    programs: ['kubectl', 'k', 'oc', 'helm', 'k9s', 'kubectx', 'kubens', 'stern', 'kustomize', 'flux', 'argocd'],
    // Handed back its own default kubeconfig, it reads no new file (another command given it would read it).
    line: '{p} --kubeconfig "$KUBECONFIG" get pods',
    lacks: [`${H}/.kube/config`],
  },
  {
    programs: ['sqlite3', 'duckdb', 'psql', 'mysql', 'mariadb'],
    line: '{p} db "select readfile(\'/etc/hosts\')"',
    has: ['/etc/hosts'],
  },
  { programs: ['socat'], line: '{p} FILE:/etc/hosts TCP:host:80', has: ['/etc/hosts'] },
  { programs: ['python', 'python3'], line: '{p} -m http.server --directory ~/src', has: [`${H}/src/**`] },
  { programs: ['php'], line: '{p} -S 0:8000 -t ~/src', has: [`${H}/src/**`] },
  { programs: ['httpd'], line: '{p} -h ~/src', has: [`${H}/src/**`] },
  { programs: ['http-server', 'serve'], line: '{p} ~/src', has: [`${H}/src/**`] },
];

/** Every program of the entries, and a name found in two of them. */
function programsOf(entries: readonly { programs: readonly string[] }[]): { all: Set<string>; twice: string[] } {
  const all = new Set<string>();
  const twice: string[] = [];
  for (const e of entries) {
    for (const p of e.programs) {
      if (all.has(p)) twice.push(p);
      all.add(p);
    }
  }
  return { all, twice };
}

describe('program tables: one entry per program, each with a case', async () => {
  const a = await sharedAnalyzer();

  describe('nested code (src/engine/shell/nested/*.ts)', () => {
    const { all, twice } = programsOf(NESTED_ENTRIES);
    it('names every program in one entry only', () => assert.deepEqual(twice, []));
    it('has a case for every program of every entry', () => {
      const covered = new Set(nestedCases.flatMap((c) => c.programs));
      assert.deepEqual(
        [...all].filter((p) => !covered.has(p)),
        [],
      );
    });
    for (const c of nestedCases) {
      it(`${c.line.replace(/\n/g, '\\n')} runs ${c.runs}, for ${c.programs.join(', ')}`, () => {
        for (const p of c.programs) {
          assert.ok(all.has(p), `${p} has no entry`);
          const r = a.analyze(c.line.replaceAll('{p}', p));
          assert.ok(r.ok, r.error);
          const nested = r.commands.filter((cmd) => cmd.depth > 0).map((cmd) => cmd.program);
          assert.ok(nested.includes(c.runs), `${p}: nested ${JSON.stringify(nested)}`);
        }
      });
    }
  });

  describe('path operands (src/engine/shell/operands/*.ts)', () => {
    const { all, twice } = programsOf(OPERAND_ENTRIES);
    it('names every program in one entry only', () => assert.deepEqual(twice, []));
    it('has a case for every program of every entry', () => {
      const covered = new Set(operandCases.flatMap((c) => c.programs));
      assert.deepEqual(
        [...all].filter((p) => !covered.has(p)),
        [],
      );
    });
    for (const c of operandCases) {
      it(`${c.line}, for ${c.programs.join(', ')}`, () => {
        for (const p of c.programs) {
          assert.ok(all.has(p), `${p} has no entry`);
          const r = a.analyze(c.line.replaceAll('{p}', p));
          assert.ok(r.ok, r.error);
          const paths = r.paths.map((x) => x.path);
          for (const want of c.has ?? [])
            assert.ok(paths.includes(want), `${p}: ${want} not in ${JSON.stringify(paths)}`);
          for (const not of c.lacks ?? []) assert.ok(!paths.includes(not), `${p}: ${not} in ${JSON.stringify(paths)}`);
          if (c.kind) assert.equal(r.paths[0]?.kind, c.kind, `${p}: ${JSON.stringify(r.paths)}`);
        }
      });
    }
  });
});
