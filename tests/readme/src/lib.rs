//! The Rust snippets of README.md and docs/*.md as tests: `cargo test -p acp-terminal-readme`. Each
//! ```rust block must be a complete program (`fn main`); build.rs turns it
//! into a module and a test named after the file and the line the block starts on
//! (`readme_line_N`, `docs_clients_line_N`).
//! (`cargo xtask e2e readme` also checks the fences and runs the ```ts and ```python
//! blocks.)

/// What a snippet's `main` may return: `()` or a `Result` whose `Err` fails the test.
#[cfg(test)]
trait Outcome {
    fn check(self);
}

#[cfg(test)]
impl Outcome for () {
    fn check(self) {}
}

#[cfg(test)]
impl<E: std::fmt::Debug> Outcome for Result<(), E> {
    fn check(self) {
        if let Err(e) = self {
            panic!("the snippet's main returned Err: {e:?}");
        }
    }
}

#[cfg(test)]
include!(concat!(env!("OUT_DIR"), "/snippets.rs"));
