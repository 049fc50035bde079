// WAL checkpoints from a worker thread: copying the write-ahead log back into the database file, and that file's
// fsync, happen off the event loop. With SQLite's automatic checkpoint, the commit that crosses 1000 pages of log
// does that copy itself — and the event loop, with every decision and held long-poll, waits for the disk.
//
// The log starts over from its beginning only when a commit finds every frame in it copied back. A checkpoint from
// another thread copies the frames that were there when it began; under steady load a commit always lands while it
// copies, so the log never started over and its file grew without end (1.7 GB after 40 s of the HTTP bench's
// one-agent calls). So when commits landed during a checkpoint, a second one copies the rest while the audit writer
// holds its commits back (once an interval, for as long as that pass takes, at most HOLD_LIMIT_MS): the next commit
// then starts the log over, and the file stays about one interval's writes.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** What one checkpoint did (SQLite's `PRAGMA wal_checkpoint` row). */
export interface CheckpointResult {
  /** 1 when a writer or reader kept it from finishing (PASSIVE never waits). */
  busy: number;
  /** Frames in the log. */
  log: number;
  /** Frames copied into the database file. */
  checkpointed: number;
}

/** The connection's commits as the checkpointer sees them (the audit writer: every commit on the decision path). */
export interface HeldCommits {
  /** Transactions committed so far. */
  commits(): number;
  /** Keeps new commits back until `until` settles. */
  holdUntil(until: Promise<unknown>): void;
}

/** The longest the audit writer's commits are held for the last pass (a stalled disk must not stall the answers). */
const HOLD_LIMIT_MS = 200;

/** Bytes of log file kept when the log starts over. */
const WAL_FILE_LIMIT = 64 * 1024 * 1024;

/** A running checkpointer. */
export interface Checkpointer {
  /** Checkpoints now (tests, shutdown); resolves with what SQLite did. */
  checkpointNow(): Promise<CheckpointResult>;
  /** Stops the timer and the worker; the connection checkpoints by itself again. */
  close(): Promise<void>;
}

// CommonJS, evaluated in the worker: it needs no loader, whether toolgate runs from dist/ or through tsx.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -256'); // it only copies log frames into the file: a small page cache will do
parentPort.on('message', (id) => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ id, row });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Takes over checkpointing of `db` (a WAL database file): the connection's automatic checkpoint is turned off and
 * a worker with its own connection runs a PASSIVE checkpoint every `intervalMs` (it never blocks a writer). If the
 * worker fails, the connection checkpoints by itself again, as SQLite does by default.
 */
export function startCheckpointer(
  db: Database.Database,
  path: string,
  intervalMs = 1000,
  writer?: HeldCommits,
): Checkpointer {
  const automatic = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  // A small heap: the worker holds one connection and runs one statement (the limits keep its RSS near 10 MB).
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, driver: DRIVER },
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  // When the log starts over, a file a burst made large is cut back to this (SQLite keeps it otherwise).
  db.pragma(`journal_size_limit = ${WAL_FILE_LIMIT}`);
  let closed = false;
  let next = 0;
  let inFlight: Promise<CheckpointResult> | undefined;
  const waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();

  const fallBack = (why: Error) => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${automatic}`);
    for (const w of waiting.values()) w.reject(why);
    waiting.clear();
  };
  worker.on('message', (msg: { id: number; row?: CheckpointResult; error?: string }) => {
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.row) w?.resolve(msg.row);
    else w?.reject(new Error(`checkpoint failed: ${msg.error}`));
  });
  worker.on('error', (error) => fallBack(error));
  worker.on('exit', () => {
    if (!closed) fallBack(new Error('the checkpoint worker exited'));
  });

  const checkpointNow = (): Promise<CheckpointResult> => {
    if (closed) return Promise.reject(new Error('the checkpointer is closed'));
    const id = ++next;
    return new Promise<CheckpointResult>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage(id);
    });
  };

  // One interval's checkpoint: a pass while commits go on, and if any landed during it (frames it did not copy), a
  // last pass with them held, so that the next commit finds the whole log copied and starts it over.
  const checkpointRound = async (): Promise<CheckpointResult> => {
    const before = writer?.commits();
    const first = await checkpointNow();
    if (!writer || first.busy || writer.commits() === before || closed) return first;
    const last = checkpointNow();
    writer.holdUntil(Promise.race([last, new Promise((resolve) => setTimeout(resolve, HOLD_LIMIT_MS).unref())]));
    return last;
  };

  const timer = setInterval(() => {
    if (inFlight) return; // a slow disk: one checkpoint at a time
    inFlight = checkpointRound().finally(() => (inFlight = undefined));
    inFlight.catch(() => {}); // a failed checkpoint is retried at the next tick; the worker's death falls back
  }, intervalMs);
  timer.unref();

  return {
    checkpointNow,
    async close() {
      if (closed) return;
      clearInterval(timer);
      await inFlight?.catch(() => {});
      closed = true;
      await worker.terminate();
      if (db.open) db.pragma(`wal_autocheckpoint = ${automatic}`);
    },
  };
}
