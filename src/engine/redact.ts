// Masks obvious secrets in tool arguments before anything is stored, logged or shown to a reviewer.

/** One kind of secret: a pattern and how to mask it (the first capture group, when present, is kept). */
export interface SecretPattern {
  id: string;
  reason: string;
  pattern: RegExp;
}

/** The catalogue of secrets toolgate masks. Each keeps enough context for a reviewer to know what was there. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { id: 'private-key-block', reason: 'PEM private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { id: 'aws-access-key-id', reason: 'AWS access key id', pattern: /\b((?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16})\b/g },
  { id: 'authorization-header', reason: 'HTTP Authorization credentials', pattern: /(\b(?:Authorization|Proxy-Authorization)\s*[:=]\s*(?:Bearer|Basic|Token|Bot)\s+)[^\s'"]+/gi },
  { id: 'bearer-token', reason: 'bearer token', pattern: /(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g },
  { id: 'github-token', reason: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g },
  { id: 'slack-token', reason: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { id: 'openai-key', reason: 'OpenAI-style API key', pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/g },
  { id: 'google-api-key', reason: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { id: 'url-credentials', reason: 'password in a URL', pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:)[^\s@/'"]+(?=@)/gi },
  { id: 'secret-assignment', reason: 'secret-looking variable assignment', pattern: /(\b[A-Za-z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|ACCESS_KEY)[A-Za-z0-9_]*\s*[=:]\s*['"]?)[^\s'"&;]+/gi },
  { id: 'password-option', reason: 'password on the command line', pattern: /((?:^|\s)(?:--password|--passwd|-p(?=\S))[=\s]?)(?!\s)[^\s'"]{3,}/g },
  { id: 'password-pair', reason: 'password= pair', pattern: /(\b(?:password|passwd|pwd|secret|token|api_key|apikey|access_token|client_secret)=)[^\s&'";]+/gi },
];

const MASK = '[REDACTED]';

/** Masks secrets in one string. */
export function redactText(text: string): string {
  if (text.length < 8) return text;
  let out = text;
  for (const { pattern } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    out = out.replace(pattern, (match: string, keep?: unknown) => (typeof keep === 'string' && match.startsWith(keep) && keep !== match ? keep + MASK : MASK));
  }
  return out;
}

/** Masks secrets in every string of a JSON-like value (object keys that name secrets mask their whole value). */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = /^(?:password|passwd|secret|token|api_?key|access_?token|client_?secret|private_?key|authorization)$/i.test(key) && typeof v === 'string' ? MASK : redactSecrets(v);
    }
    return out;
  }
  return value;
}
