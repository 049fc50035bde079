// Asking the person at the terminal for a secret, without echoing it.

/**
 * Reads one line from an interactive terminal with echo off; undefined when standard input is not a terminal or
 * the person presses Ctrl+C / Ctrl+D. The question goes to standard error, so standard output stays clean.
 */
export function promptHidden(question: string): Promise<string | undefined> {
  const stdin = process.stdin;
  if (!stdin.isTTY || !process.stderr.isTTY) return Promise.resolve(undefined);
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve) => {
    let text = '';
    const done = (value: string | undefined) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(text);
        if (ch === '\u0003' || ch === '\u0004') return done(undefined);
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else if (ch >= ' ') text += ch;
      }
    };
    stdin.on('data', onData);
  });
}
