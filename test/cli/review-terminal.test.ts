// toolgate review: the terminal driver gives the terminal back — raw mode off, cursor shown, main screen — on every way out.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { Terminal } from '../../src/cli/review/terminal.ts';

/** A fake TTY pair and process that record what the driver does to them. */
function fakes() {
  const input = Object.assign(new EventEmitter(), {
    raw: false,
    paused: true,
    setRawMode(on: boolean) {
      this.raw = on;
      return this;
    },
    setEncoding() {
      return this;
    },
    resume() {
      this.paused = false;
      return this;
    },
    pause() {
      this.paused = true;
      return this;
    },
  });
  const written: string[] = [];
  const output = Object.assign(new EventEmitter(), {
    columns: 80,
    rows: 24,
    write: (s: string) => written.push(s) > 0,
  });
  const exits: number[] = [];
  const stderr: string[] = [];
  const host = Object.assign(new EventEmitter(), {
    exit: (code: number) => void exits.push(code),
    stderr: { write: (s: string) => stderr.push(s) > 0 },
  });
  const terminal = new Terminal({ input: input as never, output: output as never }, { host: host as never });
  return { input, output, written, host, exits, stderr, terminal };
}

const restoredProperly = (f: ReturnType<typeof fakes>) => {
  assert.equal(f.input.raw, false, 'raw mode off');
  assert.equal(f.input.paused, true, 'input released');
  assert.ok(f.written.at(-1)!.includes('\x1b[?25h'), 'cursor shown');
  assert.ok(f.written.at(-1)!.includes('\x1b[?1049l'), 'main screen back');
  assert.equal(
    f.host.listenerCount('uncaughtException') + f.host.listenerCount('SIGTERM') + f.host.listenerCount('exit'),
    0,
    'handlers removed',
  );
};

test('start enters raw mode and the alternate screen; restore undoes both, once', () => {
  const f = fakes();
  f.terminal.start(
    () => {},
    () => {},
  );
  assert.equal(f.input.raw, true);
  assert.ok(f.written[0]!.includes('\x1b[?1049h'));
  f.terminal.restore();
  restoredProperly(f);
  const writes = f.written.length;
  f.terminal.restore();
  assert.equal(f.written.length, writes, 'a second restore writes nothing');
});

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
  ['SIGHUP', 129],
] as const) {
  test(`${signal} restores the terminal, then exits ${code}`, () => {
    const f = fakes();
    f.terminal.start(
      () => {},
      () => {},
    );
    f.host.emit(signal);
    restoredProperly(f);
    assert.deepEqual(f.exits, [code]);
  });
}

test('a crash restores the terminal before the error is printed', () => {
  for (const event of ['uncaughtException', 'unhandledRejection']) {
    const f = fakes();
    f.terminal.start(
      () => {},
      () => {},
    );
    f.host.emit(event, new Error('boom'));
    restoredProperly(f);
    assert.deepEqual(f.exits, [1]);
    assert.match(f.stderr.join(''), /boom/);
  }
});

test('process exit restores the terminal', () => {
  const f = fakes();
  f.terminal.start(
    () => {},
    () => {},
  );
  f.host.emit('exit', 0);
  restoredProperly(f);
});

test('frames redraw from the top left and erase what the last frame left behind', () => {
  const f = fakes();
  f.terminal.start(
    () => {},
    () => {},
  );
  f.terminal.draw(['a', 'b']);
  assert.equal(f.written.at(-1), '\x1b[Ha\x1b[K\r\nb\x1b[K\x1b[J');
});

test('a dumb terminal gets no escape sequences, and a frame only when it changed', () => {
  const f = fakes();
  const dumb = new Terminal(
    { input: f.input as never, output: f.output as never },
    { host: f.host as never, dumb: true },
  );
  dumb.start(
    () => {},
    () => {},
  );
  dumb.draw(['waiting']);
  dumb.draw(['waiting']);
  dumb.restore();
  assert.deepEqual(f.written, ['\r\nwaiting\r\n']);
  assert.equal(f.input.raw, false);
});
