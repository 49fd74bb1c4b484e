//! Extracts every ```rust block of README.md into `$OUT_DIR/snippets.rs`: each block (a
//! complete program with its own `fn main`) becomes a module, and a test named after the
//! block's README line runs its `main` (a panic or an `Err` fails the test).

use std::fmt::Write as _;

fn main() {
    let readme_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    println!("cargo:rerun-if-changed={readme_path}");
    let readme = std::fs::read_to_string(readme_path).expect("README.md is readable");
    let mut out = String::new();
    let mut block: Option<(usize, String)> = None;
    for (i, line) in readme.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut block, fence) {
            (None, Some(lang)) if lang.trim() == "rust" => block = Some((i + 1, String::new())),
            (None, Some(_)) => block = Some((0, String::new())), // not Rust: skipped
            (Some(_), Some(rest)) if rest.trim().is_empty() => {
                if let Some((n, code)) = block.take().filter(|(n, _)| *n > 0) {
                    writeln!(out, "/// README.md line {n}\n#[allow(dead_code, clippy::all)]\nmod readme_line_{n} {{\n{code}\n#[test]\nfn runs() {{\n    crate::Outcome::check(main());\n}}\n}}\n")
                        .unwrap();
                }
            }
            (Some((_, code)), _) => {
                code.push_str(line);
                code.push('\n');
            }
            (None, None) => {}
        }
    }
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR is set")).join("snippets.rs");
    std::fs::write(dest, out).expect("snippets.rs is writable");
}
