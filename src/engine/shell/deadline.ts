// The time limit of one analysis: wall-clock first, CPU time as the judge on a busy machine.

/**
 * The time limit of one analysis. Wall time alone would fail harmless commands whenever the machine is
 * busy (a loaded CI box stretches 50 µs into 50 ms), so past the wall-clock budget the analysis is only
 * stopped once the process's CPU time also exceeds twice the budget (twice: JIT and GC threads count
 * too) — or wall time exceeds twenty budgets.
 *
 * Reading the CPU clock is a system call that cost more than a whole one-line analysis's walk, so it is
 * first read by the first check after a twentieth of the budget (2.5 ms of the default 50): analyses
 * shorter than that never read it, and longer ones have their CPU time counted from that check on —
 * at most a twentieth of the budget per busy thread goes uncounted, while the twenty-budget wall cap holds.
 *
 * One Deadline serves every analysis of an analyzer (analyses are synchronous): `start` begins the next one.
 */
export class Deadline {
  #wall = 0;
  #hardWall = 0;
  #cpuFrom = 0;
  #budgetUs = 0;
  #cpuStart: NodeJS.CpuUsage | undefined;

  /** Starts the clock for one analysis of at most `timeoutMs`. */
  start(timeoutMs: number): void {
    const now = performance.now();
    this.#wall = now + timeoutMs;
    this.#hardWall = now + 20 * timeoutMs;
    this.#cpuFrom = now + timeoutMs / 20;
    this.#budgetUs = 2 * timeoutMs * 1000;
    this.#cpuStart = undefined;
  }

  passed(): boolean {
    const now = performance.now();
    if (now < this.#cpuFrom) return false;
    this.#cpuStart ??= process.cpuUsage();
    if (now <= this.#wall) return false;
    if (now > this.#hardWall) return true;
    const cpu = process.cpuUsage(this.#cpuStart);
    return cpu.user + cpu.system > this.#budgetUs;
  }
}
