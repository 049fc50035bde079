// Decodes bash ANSI-C quoting ($'…'), which attackers use to spell command names in escapes.

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The text a `$'…'` word stands for; `body` is what lies between `$'` and the closing quote. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i]!;
    if (n in SIMPLE) out += SIMPLE[n];
    else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (n === 'u' || n === 'U') {
      const m = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(body.slice(i + 1));
      if (m) {
        out += String.fromCodePoint(Math.min(parseInt(m[0], 16), 0x10ffff));
        i += m[0].length;
      } else out += '\\' + n;
    } else if (n >= '0' && n <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (n === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else out += '\\' + n;
  }
  return out;
}
