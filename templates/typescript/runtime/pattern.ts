// `pattern` checks, the same in the Rust and Python runtimes.

/*
 * The generator compiles each schema pattern into atoms, and this matcher runs them
 * over the value's code points.
 */

/** A set of code points repeated `min` to `max` times: `[negated, ranges, min, max]` (`max` -1: unbounded). */
export type Atom = readonly [negated: boolean, ranges: readonly (readonly [lo: number, hi: number])[], min: number, max: number];

/** A compiled `pattern`: its source (for messages) and its atoms. */
export interface Pattern {
  readonly source: string;
  readonly atoms: readonly Atom[];
}

function accepts(a: Atom, c: number): boolean {
  let inside = false;
  for (const [lo, hi] of a[1]) {
    if (lo <= c && c <= hi) {
      inside = true;
      break;
    }
  }
  return inside !== a[0];
}

/** Adds state (atom `i`, `n` repeats) and every state reachable from it without reading. */
function enter(p: Pattern, states: number[][], i: number, n: number): void {
  for (const [si, sn] of states) if (si === i && sn === n) return;
  states.push([i, n]);
  const a = p.atoms[i];
  if (a !== undefined && n >= a[2]) enter(p, states, i + 1, 0);
}

/** Whether `s` matches `p`, in time linear in `s` (a set of states, no backtracking). */
export function matchesPattern(p: Pattern, s: string): boolean {
  let current: number[][] = [];
  enter(p, current, 0, 0);
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    const next: number[][] = [];
    for (const [i, n] of current) {
      const a = p.atoms[i as number];
      if (a === undefined) continue;
      const unbounded = a[3] < 0;
      if ((unbounded || (n as number) < a[3]) && accepts(a, c)) {
        // Past `min`, an unbounded atom's count no longer matters.
        enter(p, next, i as number, unbounded ? Math.min((n as number) + 1, a[2]) : (n as number) + 1);
      }
    }
    if (next.length === 0) return false;
    current = next;
  }
  return current.some(([i]) => i === p.atoms.length);
}
