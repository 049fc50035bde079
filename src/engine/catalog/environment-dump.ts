// Inline code that prints the whole environment (issue 26, round 6): `python3 -c "print(dict(os.environ))"`,
// `node -e "console.log(process.env)"`, `ruby -e 'p ENV'`, `php -r 'print_r(getenv());'`. The environment holds the
// session's tokens and keys; code that serialises all of it is collecting them, and is denied as a secret variable
// printed by name is (`secret-variable-print`). Names only (`sorted(os.environ)`, `Object.keys(process.env)`, `ENV.keys`, Perl's `keys %ENV`),
// one variable (`os.environ.get('HOME')`, `process.env.NODE_ENV`) and the environment handed to a child
// (`subprocess.run(…, env=dict(os.environ, X='1'))`, `{...process.env, X: '1'}`) print no values. The shell's own
// `env` and `printenv` stay allowed: the everyday look at one's environment (filtered down to its secrets, `env | grep
// TOKEN`, it is denied).
import type { InlineCode } from './inline-code.ts';

/** The environment's names only, or its size: taken out of the code before it is read. */
const NAMES_ONLY =
  /\b(?:sorted|list|len|set|tuple)\s*\(\s*(?:os\s*\.\s*)?environ\s*\)|\bObject\s*\.\s*keys\s*\(\s*process\s*\.\s*env\s*\)|\bENV\s*\.\s*keys\b/g;

/** Python: `print(os.environ)`, `print(dict(os.environ))`, `[print(k, v) for k, v in os.environ.items()]`, a loop printing each item, `json.dump(dict(os.environ), sys.stdout)`. */
const PYTHON_DUMP =
  /\b(?:print|pprint|pp)\s*\([^;\n]{0,80}?(?:\benviron\s*(?:\)|,|\.\s*(?:items|values|copy)\s*\()|\bdict\s*\(\s*(?:os\s*\.\s*)?environ\s*\))|\bfor\s+\w+\s*(?:,\s*\w+\s*)?in\s+(?:os\s*\.\s*)?environ\s*\.\s*items\s*\(\s*\)[\s\S]{0,80}?\bprint\b|\bjson\s*\.\s*dump\s*\(\s*(?:dict\s*\(\s*)?(?:os\s*\.\s*)?environ\b[^;\n]{0,40}?\bsys\s*\.\s*stdout/;

/** The whole environment as a JavaScript value: `process.env`, `Bun.env`, `Deno.env.toObject()` (not `process.env.X`). */
const JS_ENVIRONMENT = String.raw`(?:\b(?:process|Bun)\s*\.\s*env\b(?!\s*(?:\.|\[|\?\.))|\bDeno\s*\.\s*env\s*\.\s*toObject\s*\(\s*\))`;
/** JavaScript: `console.log(process.env)`, `console.log(JSON.stringify(process.env))`, entries printed one by one. */
const JS_DUMP = new RegExp(
  String.raw`\b(?:console\s*\.\s*(?:log|dir|table|info|error|warn|debug)|process\s*\.\s*stdout\s*\.\s*write)\s*\([^;\n]{0,80}?` +
    JS_ENVIRONMENT +
    String.raw`|\bObject\s*\.\s*(?:entries|values)\s*\(\s*` +
    JS_ENVIRONMENT +
    String.raw`\s*\)[^;\n]{0,120}?\bconsole\s*\.\s*log\b`,
);
/** `node -p process.env`, `node -p 'JSON.stringify(process.env)'`: the expression is printed. */
const JS_VALUE = new RegExp(String.raw`^\s*(?:JSON\s*\.\s*stringify\s*\(\s*)?` + JS_ENVIRONMENT);

/** Ruby `p ENV`, `puts ENV.to_h`, `ENV.each { … puts … }`; Perl's `$ENV{$_}` over `keys %ENV`; PHP `print_r(getenv())`, `var_dump($_ENV)`. */
const OTHER_DUMP =
  /(?:^|[\s;({])(?:p|pp|puts|print)\s*\(?\s*ENV\b(?!\s*(?:\[|\.\s*(?:fetch|keys|key\?|has_key\?|include\?|\[\])))|\bENV\s*\.\s*(?:each(?:_pair)?|map|to_a|sort|select|filter|inspect|to_h|to_hash)\b[^\n]{0,80}?\b(?:p|pp|puts|print)\b|%ENV\b[^\n]{0,80}?\$ENV\s*\{\s*\$|\$ENV\s*\{\s*\$\w+\s*\}[^\n]{0,80}?\bkeys\s*%ENV|\bDumper\s*\(\s*\\%ENV|\b(?:print_r|var_dump|var_export|json_encode|dump|dd)\s*\(\s*(?:getenv\s*\(\s*\)|\$_(?:ENV|SERVER)\s*\))|\bfor\s*\(\s*\w+\s+in\s+ENVIRON\s*\)/;

/** PowerShell: `Get-ChildItem env:`, `dir env:`, `[Environment]::GetEnvironmentVariables()`. */
const POWERSHELL_DUMP =
  /\b(?:Get-ChildItem|gci|dir|ls|Get-Item)\s+env:(?![\w$])|\[(?:System\.)?Environment\]::GetEnvironmentVariables\s*\(\s*\)/i;

/** Whether inline code prints the whole environment's values; `prints`: the code's value is printed (`node -p`). */
export function dumpsEnvironment(code: InlineCode, prints: boolean): boolean {
  const text = code.code.replace(NAMES_ONLY, 'names');
  if (/^(pwsh|powershell)/.test(code.language)) return POWERSHELL_DUMP.test(text);
  return (
    PYTHON_DUMP.test(text) ||
    JS_DUMP.test(text) ||
    (prints && JS_VALUE.test(text)) ||
    (/\bENV\b|%ENV|getenv|\$_(?:ENV|SERVER)|ENVIRON/.test(text) && OTHER_DUMP.test(text))
  );
}
