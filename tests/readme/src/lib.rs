//! The README's Rust snippets as tests: `cargo test -p acp-terminal-readme`. Each
//! ```rust block of README.md must be a complete program (`fn main`); build.rs turns it
//! into a module and a test named `readme_line_N` after the line the block starts on.
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
