// Decodes what a terminal in raw mode sends into the few keys the review dialog understands.

/** One key press the dialog reacts to. `char` carries a printable character (feedback typing). */
export type Key =
  { name: 'up' | 'down' | 'enter' | 'escape' | 'backspace' | 'interrupt' | 'eof' } | { name: 'char'; char: string };

/**
 * Splits one chunk of raw input into keys. A lone ESC is the Escape key; ESC `[` or ESC `O` starts a
 * sequence (arrows, or keys the dialog ignores, such as bracketed-paste markers). Terminals deliver a
 * sequence in one read, so a chunk-local decoder needs no timer — readline's keypress decoder waits
 * 500 ms after a lone ESC before reporting it, which makes Esc feel slow.
 */
export function decodeKeys(chunk: string): Key[] {
  const keys: Key[] = [];
  const chars = [...chunk];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\x1b') {
      const next = chars[i + 1];
      if (next === '[' || next === 'O') {
        // CSI: parameter bytes, then one final byte in @..~; SS3: one byte.
        let j = i + 2;
        if (next === '[') while (j < chars.length && !/[@-~]/.test(chars[j]!)) j++;
        const final = chars[j];
        if (final === 'A') keys.push({ name: 'up' });
        else if (final === 'B') keys.push({ name: 'down' });
        i = j;
        continue;
      }
      keys.push({ name: 'escape' });
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && chars[i + 1] === '\n') i++;
      keys.push({ name: 'enter' });
    } else if (ch === '\x7f' || ch === '\b') keys.push({ name: 'backspace' });
    else if (ch === '\x03') keys.push({ name: 'interrupt' });
    else if (ch === '\x04') keys.push({ name: 'eof' });
    else if (ch.codePointAt(0)! >= 0x20) keys.push({ name: 'char', char: ch });
    // Other control characters (Tab, Ctrl+letters) mean nothing here and are dropped.
  }
  return keys;
}
