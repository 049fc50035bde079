// Masks obvious secrets in tool arguments, reasons and findings before anything is stored, logged or shown to a reviewer.
import type { Verdict } from './decide.ts';
import { canonicalJson } from './normalize.ts';

/**
 * One kind of secret. When the pattern has a named group `s`, only that group is masked and the text around it
 * (groups `pre` and `post`) is kept, so a reviewer still sees *what* was there (`GITHUB_TOKEN=[REDACTED]`);
 * without `s` the whole match is masked.
 */
export interface SecretPattern {
  id: string;
  reason: string;
  pattern: RegExp;
  /**
   * Text every match must contain, tested first: most texts that pass the catalogue-wide HINT hold one kind of
   * secret at most, and testing 25 short hints costs a tenth of running 25 patterns.
   */
  hint: RegExp;
}

/** What a masked secret is replaced with. */
export const MASK = '[REDACTED]';

// Names that mark a value as secret. Bounded quantifiers everywhere: a hostile 1 MB word must not make a pattern
// backtrack quadratically (see test/security/redaction.test.ts).
// `PASS`, `PAT`, `AUTH` and `_PWD` only as whole words of a name (`DB_PASS`, `GITHUB_PAT`, `X-Auth`), not inside one
// (`BYPASS`, `PATH`, `AUTHOR`, `PWD` itself).
const SECRET_WORDS =
  'SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|APIKEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIALS?|AUTH_?KEY|SESSION_?KEY|(?<![A-Za-z])(?:PASS|PAT|AUTH)(?![A-Za-z])|(?<=_)PWD(?![A-Za-z])';
// What every SECRET_WORDS match contains, as a plain alternation: the hint of the patterns built on SECRET_WORDS.
// SECRET_WORDS itself as the hint cost ~18 µs on a 2 KB script holding none of them (its lookarounds are tried at
// every position); this costs ~2.4.
const SECRET_WORDS_HINT = /secret|token|pass|key|credential|auth|pat|pwd/i;
// A variable name: word characters only, so the scan cannot restart inside every `-x-x-x…` of a hostile text.
const SECRET_NAME = String.raw`[A-Za-z0-9_]{0,64}?(?:${SECRET_WORDS})[A-Za-z0-9_]{0,64}`;
// A JSON key may also hold `-` and `.` (`"x-api-key"`); it is anchored by its opening quote.
const SECRET_KEY_NAME = String.raw`[A-Za-z0-9_.-]{0,64}?(?:${SECRET_WORDS})[A-Za-z0-9_.-]{0,64}`;
// A value ends where shell syntax begins: a masked value must never swallow code the reviewer has to see
// (`mysql -p$(rm -rf ~) db` stays as it is). A bare word's character: not a quote, blank, `;|&()<>`, a backtick or
// the `$` of `$(`; a double-quoted string holds no `$(` or backtick (those run inside it); single quotes are literal.
const BARE_CHAR = String.raw`(?:[^\s'"&;|()<>\`$]|\$(?!\())`;
const BARE = `${BARE_CHAR}{1,4096}`;
const DOUBLE_QUOTED = String.raw`"(?:[^"\n\`$]|\$(?!\()){1,4096}"`;
// A value: a double- or single-quoted string (up to 4 KiB), or a bare word.
const VALUE = `${DOUBLE_QUOTED}|'[^'\n]{1,4096}'|${BARE}`;
// Cookie pairs (`a=b; c=d`): a value is the pairs, so `Cookie: a=b; rm -rf ~` masks `a=b` and keeps the command.
const COOKIE_PAIRS = String.raw`[^\s;=,'"]{1,256}=[^\s;'"\`$]{0,4096}(?:;\s?[^\s;=,'"]{1,256}=[^\s;'"\`$]{0,4096}){0,64}`;

/**
 * The catalogue, applied in order. Entries come first that consume whole structures (key blocks, URLs), then
 * vendor token shapes (recognisable anywhere), then the name-based assignments and options.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    id: 'private-key-block',
    reason: 'PEM / OpenSSH / PGP private key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    hint: /PRIVATE KEY/,
  },
  {
    id: 'url-credentials',
    reason: 'password in a URL (scheme://user:password@host)',
    pattern: /(?<pre>\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@'"]{0,256}:)(?<s>(?:[^\s@/'"`$]|\$(?!\()){1,1024})(?=@)/gi,
    hint: /:\/\//,
  },
  {
    id: 'authorization-header',
    reason: 'HTTP Authorization credentials',
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:Proxy-)?Authorization["']?\s{0,8}[:=]\s{0,8}["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate|AWS4-HMAC-SHA256)\s{1,8})?)(?<s>${BARE_CHAR}{4,4096})`,
      'gi',
    ),
    hint: /authorization/i,
  },
  {
    id: 'api-key-header',
    reason: 'API key header',
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:X-)?(?:API|Auth|Access)-?(?:Key|Token)["']?\s{0,8}:\s{0,8}["']?)(?<s>${BARE_CHAR}{4,4096})`,
      'gi',
    ),
    hint: /(?:api|auth|access)-?(?:key|token)/i,
  },
  {
    id: 'auth-header',
    reason: 'X-Auth-style credential header',
    pattern: new RegExp(
      String.raw`(?<pre>\bX-Auth(?:-[A-Za-z]{1,20})?["']?\s{0,8}:\s{0,8}["']?)(?<s>${BARE_CHAR}{4,4096})`,
      'gi',
    ),
    hint: /x-auth/i,
  },
  {
    id: 'cookie-header',
    reason: 'HTTP cookies (session credentials)',
    pattern: new RegExp(
      String.raw`(?<pre>(?:\b(?:Set-)?Cookie["']?\s{0,8}:\s{0,8}|(?:^|\s)(?:-b|--cookie)\s{1,8})["']?)(?<s>${COOKIE_PAIRS})`,
      'gi',
    ),
    hint: /cookie|(?:^|\s)-b/i,
  },
  {
    id: 'url-signature',
    reason: 'signature in a signed URL (?sig=, X-Amz-Signature=)',
    pattern:
      /(?<pre>[?&](?:sig|signature|X-Amz-Signature|X-Goog-Signature|X-Amz-Security-Token|X-Amz-Credential)=)(?<s>[^&\s'"#`$]{1,4096})/gi,
    hint: /sig=|signature=|security-token=|credential=/i,
  },
  {
    id: 'bearer-token',
    reason: 'bearer token',
    pattern: /(?<pre>\bBearer\s{1,8})(?<s>[A-Za-z0-9._~+/=-]{8,})/g,
    hint: /Bearer/,
  },
  {
    id: 'aws-access-key-id',
    reason: 'AWS access key id',
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    hint: /AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA/,
  },
  {
    id: 'aws-secret-access-key',
    reason: 'AWS secret access key',
    pattern:
      /(?<pre>\baws_?secret_?access_?key["']?(?:\s{0,8}[:=]\s{0,8}|\s{1,8})["']?)(?<s>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    hint: /aws_?secret_?access_?key/i,
  },
  {
    id: 'github-token',
    reason: 'GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b/g,
    hint: /gh[pousr]_|github_pat_/,
  },
  {
    id: 'gitlab-token',
    reason: 'GitLab token',
    pattern: /\bgl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{20,255}/g,
    hint: /gl(?:pat|dt|rt|ptt|cbt)-/,
  },
  {
    id: 'slack-token',
    reason: 'Slack token',
    pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,255}|\bxapp-\d-[A-Za-z0-9-]{10,255}/g,
    hint: /xox[abposre]-|xapp-/,
  },
  {
    id: 'slack-webhook',
    reason: 'Slack webhook URL',
    pattern: /(?<pre>https:\/\/hooks\.slack\.com\/services\/)(?<s>[A-Za-z0-9/_-]{20,255})/g,
    hint: /hooks\.slack\.com/,
  },
  {
    id: 'openai-key',
    reason: 'OpenAI / Anthropic-style API key',
    pattern: /\bsk-(?:proj-|ant-(?:api|admin)\d{2}-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/g,
    hint: /sk-/,
  },
  {
    id: 'stripe-key',
    reason: 'Stripe secret key',
    pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}\b/g,
    hint: /(?:sk|rk)_(?:live|test)_/,
  },
  { id: 'google-api-key', reason: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, hint: /AIza/ },
  {
    id: 'sendgrid-key',
    reason: 'SendGrid API key',
    pattern: /\bSG\.[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{16,128}/g,
    hint: /SG\./,
  },
  { id: 'npm-token', reason: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, hint: /npm_/ },
  { id: 'pypi-token', reason: 'PyPI token', pattern: /\bpypi-[A-Za-z0-9_-]{50,255}/g, hint: /pypi-/ },
  { id: 'huggingface-token', reason: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,255}\b/g, hint: /hf_/ },
  {
    id: 'jwt',
    reason: 'JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}/g,
    hint: /eyJ/,
  },
  {
    id: 'json-secret-field',
    reason: 'secret-named JSON field',
    pattern: new RegExp(
      String.raw`(?<pre>"${SECRET_KEY_NAME}"\s{0,8}:\s{0,8}")(?<s>(?:[^"\\\n]|\\.){1,4096})(?<post>")`,
      'gi',
    ),
    hint: SECRET_WORDS_HINT,
  },
  {
    id: 'secret-assignment',
    reason: 'secret-named variable assignment (*_SECRET*=, *_TOKEN=, password=)',
    pattern: new RegExp(String.raw`(?<pre>\b${SECRET_NAME}=)(?<s>${VALUE})`, 'gi'),
    hint: SECRET_WORDS_HINT,
  },
  {
    id: 'secret-config-line',
    reason: 'secret-named key in a config line (key: value / key = value)',
    pattern: new RegExp(
      String.raw`(?<pre>(?:^|[\s{,])["']?(?:aws_session_token|password|passwd|secret|client_secret|api_?key|access_token|refresh_token|auth_token|private_key)["']?\s{0,8}(?::\s{1,8}|\s{1,8}=\s{0,8}))(?<s>${VALUE})`,
      'gim',
    ),
    hint: /aws_session_token|password|passwd|secret|api_?key|access_token|refresh_token|auth_token|private_key/i,
  },
  {
    id: 'secret-option',
    reason: 'secret passed as a command-line option',
    pattern: new RegExp(
      String.raw`(?<pre>(?:^|\s)--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|access-token|auth-token|private-key)(?:=|\s{1,8}))(?<s>${DOUBLE_QUOTED}|'[^'\n]{1,4096}'|(?!-)${BARE})`,
      'gi',
    ),
    hint: /-(?:pass|token|api-?key|secret|client-secret|access-token|auth-token|private-key)/i,
  },
  // The lookbehinds run only where ` -p` (` -a`, ` -k`) occurs, so a text full of `mysql` words stays linear.
  {
    id: 'mysql-password',
    reason: 'MySQL -p<password>',
    pattern: new RegExp(
      String.raw`(?<pre>\s-p)(?<=\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n;|&]{0,200}\s-p)(?<s>${BARE_CHAR}{1,512})`,
      'g',
    ),
    hint: /\s-p/,
  },
  {
    id: 'login-password',
    reason: 'password given to a login command (-p: docker/podman/az login, sshpass)',
    pattern: new RegExp(
      String.raw`(?<pre>\s-p\s{0,8})(?<=(?:\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:\s{1,8}registry)?|crane(?:\s{1,8}auth)?|az|cf)\s{1,8}login\b|\bsshpass\b)[^\n;|&]{0,200}\s-p\s{0,8})(?<s>${DOUBLE_QUOTED}|'[^'\n]{1,4096}'|(?!-)${BARE})`,
      'g',
    ),
    hint: /\s-p/,
  },
  {
    id: 'redis-password',
    reason: 'redis-cli -a <password>',
    pattern: new RegExp(
      String.raw`(?<pre>\s-a\s{1,8})(?<=\bredis-cli\b[^\n;|&]{0,200}\s-a\s{1,8})(?<s>${DOUBLE_QUOTED}|'[^'\n]{1,4096}'|${BARE})`,
      'g',
    ),
    hint: /\s-a/,
  },
  {
    id: 'openssl-password',
    reason: 'openssl -k <password> / -pass pass:<password>',
    pattern: new RegExp(
      String.raw`(?<pre>\s(?:-k\s{1,8}|-pass(?:in|out|word)?\s{1,8}["']?pass:))(?<=\bopenssl\b[^\n;|&]{0,300}\s(?:-k\s{1,8}|-pass(?:in|out|word)?\s{1,8}["']?pass:))(?<s>${BARE_CHAR}{1,4096})`,
      'g',
    ),
    hint: /\s-(?:k|pass)/,
  },
  // htpasswd -b takes the password as its last argument: `htpasswd -b[c] FILE USER PASSWORD`, `htpasswd -nb USER PASSWORD`.
  {
    id: 'htpasswd-password',
    reason: 'htpasswd -b <password>',
    pattern: new RegExp(
      String.raw`(?<pre>\bhtpasswd(?:\s{1,8}-[A-Za-z]{1,10}){0,6}?\s{1,8}-[A-Za-z]{0,9}b[A-Za-z]{0,9}(?:\s{1,8}-[A-Za-z]{1,10}){0,6}(?:\s{1,8}${BARE_CHAR}{1,1024}){1,2}\s{1,8})(?<s>${DOUBLE_QUOTED}|'[^'\n]{1,4096}'|${BARE})(?=\s{0,8}(?:$|[;|&)\n]))`,
      'g',
    ),
    hint: /htpasswd/,
  },
  {
    id: 'basic-auth-option',
    reason: 'user:password given to curl/wget',
    pattern: new RegExp(
      String.raw`(?<pre>(?:^|\s)(?:-u|--user|--proxy-user|--http-password=|--password=)\s{0,8}["']?[^\s:'"]{0,256}:)(?<s>${BARE_CHAR}{1,1024})`,
      'g',
    ),
    hint: /(?:^|\s)-u|--user|--proxy-user|--http-password=|--password=/,
  },
  {
    id: 'netrc-password',
    reason: '.netrc password',
    pattern: new RegExp(
      String.raw`(?<pre>\bmachine\s{1,8}\S{1,256}(?:\s{1,8}login\s{1,8}\S{1,256})?\s{1,8}password\s{1,8})(?<s>${BARE_CHAR}{1,1024})`,
      'g',
    ),
    hint: /machine/,
  },
];

// Object keys whose string value is masked whole, whatever it looks like.
const SECRET_KEY =
  /^(?:[A-Za-z0-9_.-]*(?:secret|token|password|passwd|passphrase|api_?key|apikey|private_?key|access_?key|credentials?|authorization|cookie)[A-Za-z0-9_.-]*|(?:[A-Za-z0-9_.-]*[_.-])?(?:pass|pat|auth|pwd)(?:[_.-][A-Za-z0-9_.-]*)?)$/i;
// ...except keys that merely count or describe tokens (LLM tool args carry `max_tokens`, `token_count`).
const NOT_SECRET_KEY =
  /^(?:max_?tokens?|tokens?_?(?:count|limit|budget|usage|type)|num_?tokens|input_?tokens|output_?tokens|token_?file|password_?file|secret_?name|key_?name|auth_?(?:type|method|mode|provider|url|endpoint|required)|pass_?(?:count|number|through|fail)|pat_?file)$/i;

// A cheap pre-filter: a string without any of these substrings cannot match any pattern (keeps decide fast). It is
// also tested on JSON text (redactSecretsToJson), so `-u` (an option only after whitespace, see basic-auth-option)
// is also looked for after an opening quote and after JSON's escapes of the whitespace below U+0020.
const HINT =
  /BEGIN|:\/\/|auth|bearer|key|secret|token|pass|pwd|cookie|(?:^|[^a-z])pat(?![a-z])|SG\.|sig=|signature=|redis-cli|openssl|(?:^|[\s"]|\\[tnrf]|\\u000b)-b|AKIA|ASIA|A[GINRBC][PDO]A|gh[pousr]_|github_pat_|gl[a-z]{1,3}-|xox|xapp|sk-|sk_|rk_|AIza|npm_|pypi-|hf_|eyJ|mysql|mariadb|(?:^|[\s"]|\\[tnrf]|\\u000b)-u|--user|--proxy-user|machine|credential/i;

/**
 * The last long text masked, and its masked copy: one decision masks the same command in its arguments, its
 * canonical arguments and its subject — a 2 KB script three times, ~90 µs each. Masking is a function of the text.
 */
let lastText = '';
let lastMasked = '';
const REMEMBERED_LENGTH = 256;

/** Masks secrets in one string. Idempotent: masking masked text changes nothing. */
export function redactText(text: string): string {
  if (text.length < 8 || !HINT.test(text)) return text;
  const remember = text.length >= REMEMBERED_LENGTH;
  if (remember && text === lastText) return lastMasked;
  const out = maskText(text);
  if (remember) {
    lastText = text;
    lastMasked = out;
  }
  return out;
}

function maskText(text: string): string {
  let out = text;
  for (const { pattern, hint } of SECRET_PATTERNS) {
    if (!hint.test(out)) continue;
    pattern.lastIndex = 0;
    out = out.replace(pattern, (...args: unknown[]) => {
      const groups = args[args.length - 1];
      if (!groups || typeof groups !== 'object' || !('s' in groups)) return MASK;
      const g = groups as { pre?: string; s?: string; post?: string };
      // Already masked (a second pass, or a masked value inside a quoted one): leave it.
      if (g.s === MASK || g.s?.replace(/^["']|["']$/g, '') === MASK) return String(args[0]);
      return (g.pre ?? '') + MASK + (g.post ?? '');
    });
  }
  return out;
}

/** Masks secrets in every string of a JSON-like value; object keys that name secrets mask their whole value. */
export function redactSecrets(value: unknown): unknown {
  return redactValue(value, 0);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  // Bodies are depth-limited before they get here; this bound only keeps a direct caller from recursing forever.
  if (depth > 200 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const masked =
      typeof v === 'string' && v.length > 0 && SECRET_KEY.test(key) && !NOT_SECRET_KEY.test(key)
        ? MASK
        : redactValue(v, depth + 1);
    // defineProperty, not `out[key] =`: a `__proto__` key from JSON.parse must stay a plain field, not a prototype.
    Object.defineProperty(out, key, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * `redactSecrets(value)` and its JSON, without walking a value whose JSON text holds none of HINT's substrings: every
 * pattern and every secret key name contains one, and JSON escapes only quotes, backslashes and control characters,
 * which no hint contains — so such a value has nothing to mask. `json`, when given, is `JSON.stringify(value ?? null)`
 * (the decider has made it already).
 */
export function redactSecretsToJson(
  value: unknown,
  json: string = JSON.stringify(value ?? null),
): { value: unknown; json: string } {
  if (!HINT.test(json)) return { value, json };
  const masked = redactSecrets(value);
  return { value: masked, json: JSON.stringify(masked ?? null) };
}

/** Whether any text of a verdict carries one of HINT's substrings (without one, redactText changes nothing). */
function mayHoldSecret(verdict: Verdict): boolean {
  const hinted = (text: string | undefined) => text !== undefined && HINT.test(text);
  const { call } = verdict;
  return (
    hinted(verdict.reason) ||
    hinted(call.canonicalArgs) ||
    hinted(call.command) ||
    hinted(call.url) ||
    hinted(call.problem) ||
    call.paths.some(hinted) ||
    verdict.findings.some((f) => hinted(f.reason) || hinted(f.command)) ||
    hinted(verdict.rule?.pattern) ||
    (verdict.trace?.some((step) => hinted(step.detail)) ?? false)
  );
}

/** True when a string carries something the catalogue masks. */
export function containsSecret(text: string): boolean {
  return redactText(text) !== text;
}

/**
 * The copy of a verdict that may be stored, shown to a reviewer or logged: arguments, canonical arguments (the
 * approval's dedupe key), subjects, the reason and every finding masked. The agent's own answer keeps the original.
 */
export function redactVerdict<V extends Verdict>(verdict: V): V {
  const call = verdict.call;
  // Most verdicts hold no text any pattern could mask: then the verdict itself is its masked copy (copying a
  // verdict's dozen fields cost more than the whole cached decision).
  if (!mayHoldSecret(verdict)) return verdict;
  // Nothing to mask in the arguments (no hint in their text, see redactSecretsToJson): keep them as they are.
  const clean = !HINT.test(call.canonicalArgs);
  let args: unknown;
  try {
    args = clean ? undefined : JSON.parse(call.canonicalArgs);
  } catch {
    args = undefined;
  }
  return {
    ...verdict,
    reason: redactText(verdict.reason),
    findings: verdict.findings.map((f) => ({
      ...f,
      reason: redactText(f.reason),
      ...(f.command === undefined ? {} : { command: redactText(f.command) }),
    })),
    rule: verdict.rule && { ...verdict.rule, pattern: redactText(verdict.rule.pattern) },
    call: {
      ...call,
      canonicalArgs: clean
        ? call.canonicalArgs
        : args === undefined
          ? redactText(call.canonicalArgs)
          : canonicalJson(redactSecrets(args)),
      command: call.command === undefined ? undefined : redactText(call.command),
      ...(call.otherCommands ? { otherCommands: call.otherCommands.map(redactText) } : {}),
      ...(call.otherUrls ? { otherUrls: call.otherUrls.map(redactText) } : {}),
      ...(call.mentionedPaths ? { mentionedPaths: call.mentionedPaths.map(redactText) } : {}),
      url: call.url === undefined ? undefined : redactText(call.url),
      paths: call.paths.map(redactText),
      problem: call.problem === undefined ? undefined : redactText(call.problem),
    },
    trace: verdict.trace?.map((step) => ({ ...step, detail: redactText(step.detail) })),
  };
}
