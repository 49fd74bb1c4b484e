//! `hostile_clock [SCALE]`: the hostile corpus timed, for `cargo xtask fuzz` only (never a
//! test: a loaded machine slows one measurement). Every entry at SCALE times its size,
//! n and 8n, best of three: t(8n) / t(n) must stay below the corpus's `maxRatio` (linear
//! work gives about 8, quadratic 64).

use acp_terminal_conformance::hostile::{Input, corpus, expand, run};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How long a measurement runs at least: short inputs are run again and again.
const MIN_TIME: Duration = Duration::from_millis(20);

/// The time of one run of `input`, averaged over enough runs to last `MIN_TIME`.
fn per_run(input: &Input) -> f64 {
    let mut reps = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(run(input));
        }
        let total = start.elapsed();
        if total >= MIN_TIME || reps >= 1024 {
            return total.as_secs_f64() / f64::from(reps);
        }
        reps *= 2;
    }
}

fn best_of_three(input: &Input) -> f64 {
    (0..3).map(|_| per_run(input)).fold(f64::INFINITY, f64::min)
}

fn main() -> ExitCode {
    let scale: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let corpus = corpus();
    let max_ratio = corpus["maxRatio"].as_f64().unwrap_or(32.0);
    let mut failures = Vec::new();
    for entry in corpus["entries"].as_array().into_iter().flatten() {
        let name = entry["name"].as_str().unwrap_or("?");
        let n = usize::try_from(entry["n"].as_u64().unwrap_or(1)).unwrap_or(1) * scale;
        let (small, large) = (expand(entry, n), expand(entry, 8 * n));
        let t1 = best_of_three(&small);
        // 8n once; again (best of three) when it looks slow (past half the bound), to rule out noise.
        let mut t8 = per_run(&large);
        if t8 / t1.max(1e-9) > max_ratio / 2.0 {
            t8 = t8.min(best_of_three(&large));
        }
        let ratio = t8 / t1.max(1e-9);
        println!("rust {name}: n = {n}: {:.3} ms, 8n: {:.3} ms, ratio {ratio:.1}", t1 * 1e3, t8 * 1e3);
        if ratio > max_ratio {
            failures.push(format!("{name}: t(8n)/t(n) = {ratio:.1}"));
        }
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("hostile corpus, Rust: grows faster than linear:\n{}", failures.join("\n"));
        ExitCode::FAILURE
    }
}
