// A seeded pseudo-random generator for generated test inputs: the same cases on every run, and all of them reachable.
// (A `seed * 1103515245` LCG in doubles loses its low bits past 2^53 and cycles within ~10,000 draws, never
// reaching some choices at all; mulberry32 works in 32-bit integers.)

/** mulberry32: uniform floats in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform integers in [0, n) from a seed. */
export function seededInts(seed: number): (n: number) => number {
  const random = seededRandom(seed);
  return (n) => Math.floor(random() * n);
}
