// The time limit of one analysis: wall-clock first, CPU time as the judge on a busy machine.

/**
 * The time limit of one analysis. Wall time alone would fail harmless commands whenever the machine is
 * busy (a loaded CI box stretches 50 µs into 50 ms), so past the wall-clock budget the analysis is only
 * stopped once the process's CPU time also exceeds twice the budget (twice: JIT and GC threads count
 * too) — or wall time exceeds twenty budgets.
 */
export class Deadline {
  readonly #wall: number;
  readonly #hardWall: number;
  readonly #budgetUs: number;
  readonly #cpuStart = process.cpuUsage();

  constructor(timeoutMs: number) {
    const now = performance.now();
    this.#wall = now + timeoutMs;
    this.#hardWall = now + 20 * timeoutMs;
    this.#budgetUs = 2 * timeoutMs * 1000;
  }

  passed(): boolean {
    const now = performance.now();
    if (now <= this.#wall) return false;
    if (now > this.#hardWall) return true;
    const cpu = process.cpuUsage(this.#cpuStart);
    return cpu.user + cpu.system > this.#budgetUs;
  }
}
