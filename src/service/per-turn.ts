// Answers remembered for one turn of the event loop: requests handled in one turn arrived together, so asking the
// file system once for all of them is the same as asking for each (one of them simply went first).

/**
 * Wraps a lookup so that each key is looked up at most once per turn of the event loop; the memory is dropped
 * when the turn ends (setImmediate). Under load, dozens of decisions in one turn share their realpath lookups
 * (the agent's cwd, the files it reads); an idle sidecar looks up everything afresh, as before.
 */
export function perTurn<T>(lookup: (key: string) => T): (key: string) => T {
  let memo: Map<string, T> | undefined;
  const forget = () => void (memo = undefined);
  return (key) => {
    if (!memo) {
      memo = new Map();
      setImmediate(forget);
    }
    // One look-up for a key seen this turn; has() only when the answer held is itself undefined.
    const held = memo.get(key);
    if (held !== undefined || memo.has(key)) return held as T;
    const value = lookup(key);
    memo.set(key, value);
    return value;
  };
}
