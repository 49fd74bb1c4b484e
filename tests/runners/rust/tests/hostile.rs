//! The hostile corpus (tests/hostile/corpus.json) in Rust: every entry survives, and the
//! work it costs grows linearly (work(8n) / work(n) at most the corpus's
//! `maxWorkRatio`). Counted, never timed: `cargo xtask fuzz` times the corpus (the
//! `hostile_clock` binary) at many times these sizes.

use acp_terminal_conformance::hostile::{corpus, expand, run};

#[test]
fn every_hostile_input_is_survived_in_linear_work() {
    let corpus = corpus();
    let max_ratio = corpus["maxWorkRatio"].as_f64().expect("maxWorkRatio");
    let mut failures = Vec::new();
    for entry in corpus["entries"].as_array().expect("entries") {
        let name = entry["name"].as_str().unwrap_or("?");
        let n = usize::try_from(entry["n"].as_u64().expect("n")).expect("fits");
        let (small, large) = (expand(entry, n), expand(entry, 8 * n));
        let (a, b) = (run(&small), run(&large));
        #[allow(clippy::cast_precision_loss)]
        let ratio = b as f64 / a as f64;
        eprintln!("{name}: n = {n}: work {a}, 8n: {b}, ratio {ratio:.2}");
        if ratio > max_ratio || a < small.len() as u64 {
            failures.push(format!("{name}: work(8n)/work(n) = {ratio:.2} (n: {a} for {} bytes, 8n: {b})", small.len()));
        }
    }
    assert!(failures.is_empty(), "grows faster than linear:\n{}", failures.join("\n"));
}
