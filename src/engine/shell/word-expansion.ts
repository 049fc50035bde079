// The expansions inside a word that word.ts resolves: parameter expansions (`$x`, `${x}`, `${x//a/b}`, IFS, the
// home and credential-file variables) and the command substitutions a word runs (`$(…)`, backticks, `$((…))`).
import type { InnerCommands, WordScope } from './word.ts';
import type { SyntaxNode } from './syntax.ts';
import { decodeAnsiC } from './ansi-c.ts';
import { subscriptCode, subscriptCodeOf } from './subscripts.ts';
import { DEFAULT_IFS } from './template.ts';

/** `${x/a/b}`, `${x//a/b}`, `${x,,}`, `${x^^}`, `${x@E}` of a known variable (a literal pattern), else undefined. */
function transformedValue(text: string, scope: WordScope): string | undefined {
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(,,?|\^\^?|@E|\/\/?)(?:([^/}]*)\/([^}]*))?\}$/.exec(text);
  const value = m ? scope.vars.get(m[1]!) : undefined;
  if (!m || value === undefined) return undefined;
  const unescape = (s: string | undefined) => (s ?? '').replace(/\\(.)/g, '$1');
  switch (m[2]) {
    case ',,':
    case ',':
      return value.toLowerCase();
    case '^^':
    case '^':
      return value.toUpperCase();
    case '@E':
      return decodeAnsiC(value);
    default: {
      const pattern = unescape(m[3]);
      if (pattern === '' || /[*?[]/.test(pattern)) return undefined;
      const replacement = unescape(m[4]);
      // `${x//a/bbbb…}` multiplies the value: bounded like any word.
      if (m[2] === '//' && replacement.length > pattern.length)
        scope.budget.word(value.length + (value.split(pattern).length - 1) * (replacement.length - pattern.length));
      return m[2] === '//' ? value.split(pattern).join(replacement) : value.replace(pattern, () => replacement);
    }
  }
}

/** The script's IFS when it set a known one, else bash's default (an unknowable IFS is taken as the default). */
export function fieldSeparators(scope: WordScope): string {
  return scope.vars.get('IFS') ?? DEFAULT_IFS;
}

/** Environment variables that name a credential file or directory, with the place below the home each defaults to. */
const CREDENTIAL_FILE_VARIABLES: Record<string, string> = {
  KUBECONFIG: '.kube/config',
  AWS_SHARED_CREDENTIALS_FILE: '.aws/credentials',
  AWS_CONFIG_FILE: '.aws/config',
  GOOGLE_APPLICATION_CREDENTIALS: '.config/gcloud/application_default_credentials.json',
  CLOUDSDK_CONFIG: '.config/gcloud',
  NETRC: '.netrc',
  DOCKER_CONFIG: '.docker',
  GNUPGHOME: '.gnupg',
  PASSWORD_STORE_DIR: '.password-store',
  AZURE_CONFIG_DIR: '.azure',
  // Round 5 of issue 26.
  NPM_CONFIG_USERCONFIG: '.npmrc',
  npm_config_userconfig: '.npmrc',
  SOPS_AGE_KEY_FILE: '.config/sops/age/keys.txt',
  VAULT_TOKEN_FILE: '.vault-token',
  PGPASSFILE: '.pgpass',
  MYSQL_TEST_LOGIN_FILE: '.mylogin.cnf',
  BOTO_CONFIG: '.boto',
  PULUMI_CREDENTIALS_PATH: '.pulumi/credentials.json',
  TF_CLI_CONFIG_FILE: '.terraformrc',
  RCLONE_CONFIG: '.config/rclone/rclone.conf',
  KAGGLE_CONFIG_DIR: '.kaggle',
  DATABRICKS_CONFIG_FILE: '.databrickscfg',
};

/** `$x` / `${x}` of a variable that holds a copied secret. */
export function holdsSecret(node: SyntaxNode, scope: WordScope): boolean {
  const held = scope.secretVars;
  if (!held || held.size === 0) return false;
  const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*|\d|[@*])/.exec(node.text);
  return m !== null && held.has(m[1]!);
}

/** The value of `$x` / `${x}` when statically known (HOME is the sidecar's home unless reassigned). */
export function expansionValue(node: SyntaxNode, scope: WordScope): string | undefined {
  const names = node.namedChildren.filter((c) => c !== null);
  // `${a[0]}`: an element of an array the script assigned.
  const element = node.type === 'expansion' ? /^\$\{([A-Za-z_][A-Za-z0-9_]*)\[(\d+)\]\}$/.exec(node.text) : null;
  if (element) return scope.arrayElement?.(element[1]!, Number(element[2]));
  // `${1}`: a positional parameter in braces (bound when a function's body is walked for a call).
  const braced = node.type === 'expansion' ? /^\$\{(\d)\}$/.exec(node.text) : null;
  if (braced) return scope.vars.get(braced[1]!);
  // `${1:-~/.netrc}`, `${x:-$HOME/y}`: the default of a variable known to be empty here (a parameter a call left out).
  const fallback =
    node.type === 'expansion' ? /^\$\{([A-Za-z_][A-Za-z0-9_]*|\d):?[-=]([^}]*)\}$/.exec(node.text) : null;
  if (fallback) {
    const known = scope.vars.get(fallback[1]!);
    if (known !== undefined && known !== '') return known;
    if (known !== '' || /[`$(]/.test(fallback[2]!.replace(/\$\{?HOME\}?/g, ''))) return undefined;
    return fallback[2]!
      .replace(/\$\{?HOME\}?/g, scope.home)
      .replace(/^~(?=\/|$)/, scope.home)
      .replace(/^["']|["']$/g, '');
  }
  if (names.length !== 1 || names[0]!.type !== 'variable_name') return undefined;
  // `${#x}`, `${!x}` and friends put an operator before the name.
  if (node.type === 'expansion' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text)) return undefined;
  const name = names[0]!.text;
  if (scope.vars.has(name)) return scope.vars.get(name);
  // IFS is whitespace unless the script sets it: `rm${IFS}-rf` is `rm -rf`.
  if (name === 'HOME') return scope.home;
  // `"$PWD/src"`: where the command runs, `.` (relative to a `cd` earlier in the script, as `~+` is).
  if (name === 'PWD') return '.';
  if (name === 'IFS') return DEFAULT_IFS;
  // `cat $KUBECONFIG`: a variable that names a credential file stands for where the tool keeps it by default.
  const credential = CREDENTIAL_FILE_VARIABLES[name];
  return credential === undefined ? undefined : `${scope.home}/${credential}`;
}

/**
 * Runs the substitutions nested in an unresolvable expansion (`${x:-$(cmd)}`, `$(( $(cmd) ))`, `(( … ))`); true if
 * any. Inside arithmetic, single quotes do not quote (bash reads `$(( '$(cmd)' ))` like double-quoted text).
 */
export function runInner(
  node: SyntaxNode,
  scope: WordScope,
  inner: InnerCommands,
  arithmetic = node.type === 'arithmetic_expansion',
): boolean {
  let found = false;
  const run = (code: string) => {
    inner.programs.push(...scope.evaluate(code, node.text));
    found = true;
  };
  for (const c of node.namedChildren) {
    if (c.type === 'command_substitution') {
      inner.programs.push(...scope.substitute(c).programs);
      found = true;
    } else if (c.type === 'process_substitution') {
      inner.programs.push(...scope.processSubstitute(c).programs);
      found = true;
    } else if (c.type === 'raw_string' || c.type === 'ansi_c_string') {
      const text = c.type === 'raw_string' ? c.text.slice(1, -1) : decodeAnsiC(c.text.slice(2, -1));
      if (arithmetic) {
        if (text.includes('$(') || text.includes('`')) run(`: ${text}`);
      } else for (const code of subscriptCodeOf(text)) run(code); // `${x:='a[$(cmd)]'}`
    } else if (arithmetic && c.type === 'expansion') {
      // `(( ${x/X/$} ))`, `(( ${x,,} ))`: the value a known variable takes through the operator is evaluated too.
      const value = transformedValue(c.text, scope);
      if (value !== undefined) for (const code of subscriptCodeOf(value)) run(code);
      if (runInner(c, scope, inner, arithmetic)) found = true;
    } else if (c.type === 'subscript') {
      // `${a['$(rm -rf ~)']}`: bash evaluates an indexed array's subscript and runs the code in it, single quotes
      // or not. (An unquoted `$(…)` there is a child node of its own, reached by the recursion.)
      if (!arithmetic) for (const code of subscriptCode(c.text)) run(code);
      if (runInner(c, scope, inner, arithmetic)) found = true;
    } else if (runInner(c, scope, inner, arithmetic || c.type === 'arithmetic_expansion')) found = true;
  }
  return found;
}
