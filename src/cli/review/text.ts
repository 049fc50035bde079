// Terminal text helpers: make untrusted text inert, measure it in columns, wrap and pad it.

/**
 * Replaces control characters with visible stand-ins. The command under review comes from the agent:
 * written raw, an ESC sequence in it could move the cursor, recolour or redraw the dialog and make a
 * dangerous command look harmless. Newlines become `⏎` so a second line cannot hide below the first.
 */
export function inert(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\n') out += '⏎';
    else if (ch === '\t') out += '  ';
    else if (code < 0x20) out += `^${String.fromCharCode(code + 0x40)}`;
    else if (code === 0x7f) out += '^?';
    // C1 controls (0x9b is a one-byte CSI on some terminals) and bidi overrides that reorder what is shown.
    else if ((code >= 0x80 && code < 0xa0) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069))
      out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return out;
}

/** Columns a code point occupies: 2 for East Asian wide and fullwidth characters and emoji, 0 for combining marks. */
export function charWidth(ch: string): number {
  const code = ch.codePointAt(0)!;
  if ((code >= 0x300 && code <= 0x36f) || code === 0x200b || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f))
    return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** Columns a string occupies (no escape sequences expected: measure before colouring). */
export function width(text: string): number {
  let n = 0;
  for (const ch of text) n += charWidth(ch);
  return n;
}

/** Pads with spaces to exactly `columns`, cutting with `…` when longer. */
export function fit(text: string, columns: number): string {
  const w = width(text);
  if (w <= columns) return text + ' '.repeat(columns - w);
  let out = '';
  let used = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (used + cw > columns - 1) break;
    out += ch;
    used += cw;
  }
  return out + '…' + ' '.repeat(Math.max(0, columns - used - 1));
}

/** Breaks text into lines of at most `columns`, at spaces when it can, mid-word when a word is too long. */
export function wrap(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of text.split(/(?<= )/)) {
    const ww = width(word);
    if (used + ww <= columns) {
      line += word;
      used += ww;
      continue;
    }
    if (line.trim() !== '' && ww <= columns) {
      lines.push(line.trimEnd());
      line = word;
      used = ww;
      continue;
    }
    for (const ch of word) {
      const cw = charWidth(ch);
      if (used + cw > columns) {
        lines.push(line);
        line = '';
        used = 0;
      }
      line += ch;
      used += cw;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}
