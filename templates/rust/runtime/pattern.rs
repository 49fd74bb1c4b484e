// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/pattern.rs byte for byte as src/wire/pattern.rs of every generated crate; edit it here, never a copy.
//! `pattern` checks, the same in the TypeScript and Python runtimes.
//!
//! The generator compiles each schema pattern into atoms (a set of code points repeated
//! `min` to `max` times), and this matcher runs them over the value's code points. The TypeScript and Python runtimes carry the same matcher, so a
//! pattern means the same in every binding (see the generator's pattern subset).

/// A set of code points repeated `min` to `max` times (`max == u32::MAX`: unbounded).
#[derive(Debug)]
pub struct Atom {
    /// The set is every code point outside `ranges`.
    pub negated: bool,
    /// Inclusive, sorted code point ranges.
    pub ranges: &'static [(u32, u32)],
    /// The fewest repeats.
    pub min: u32,
    /// The most repeats (`u32::MAX`: no limit).
    pub max: u32,
}

impl Atom {
    fn accepts(&self, c: char) -> bool {
        let c = c as u32;
        self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != self.negated
    }
}

/// A compiled `pattern`: its source (for messages) and its atoms.
#[derive(Debug)]
pub struct Pattern {
    /// The schema's pattern text.
    pub source: &'static str,
    /// The atoms, in order.
    pub atoms: &'static [Atom],
}

impl Pattern {
    /// Whether `s` matches. Time is linear in `s`: the matcher follows every way through
    /// the atoms at once (a set of states), never backtracking.
    #[must_use]
    pub fn matches(&self, s: &str) -> bool {
        let mut current = Vec::new();
        self.enter(&mut current, 0, 0);
        let mut next = Vec::new();
        for c in s.chars() {
            next.clear();
            for &(i, n) in &current {
                if let Some(a) = self.atoms.get(i)
                    && n < a.max
                    && a.accepts(c)
                {
                    // Past `min`, an unbounded atom's count no longer matters.
                    let n = if a.max == u32::MAX { (n + 1).min(a.min) } else { n + 1 };
                    self.enter(&mut next, i, n);
                }
            }
            if next.is_empty() {
                return false;
            }
            std::mem::swap(&mut current, &mut next);
        }
        current.iter().any(|&(i, _)| i == self.atoms.len())
    }

    /// Adds state (atom `i`, `n` repeats taken) and every state reachable from it without
    /// reading (leaving an atom that has its `min`).
    fn enter(&self, states: &mut Vec<(usize, u32)>, i: usize, n: u32) {
        if states.contains(&(i, n)) {
            return;
        }
        states.push((i, n));
        if let Some(a) = self.atoms.get(i)
            && n >= a.min
        {
            self.enter(states, i + 1, 0);
        }
    }
}
