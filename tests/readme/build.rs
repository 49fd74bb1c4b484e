//! Extracts every ```rust block of README.md and of docs/*.md into `$OUT_DIR/snippets.rs`:
//! each block (a complete program with its own `fn main`) becomes a module, and a test
//! named after the block's file and line runs its `main` (a panic or an `Err` fails the
//! test).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let docs = root.join("docs");
    println!("cargo:rerun-if-changed={}", docs.display());
    let mut files: Vec<(String, PathBuf)> = vec![("readme".into(), root.join("README.md"))];
    let mut found: Vec<PathBuf> = std::fs::read_dir(&docs).expect("docs/ is readable").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
    found.sort();
    for p in found {
        let stem = p.file_stem().expect("a file name").to_string_lossy().to_lowercase().replace(['-', '.'], "_");
        files.push((format!("docs_{stem}"), p));
    }
    let mut out = String::new();
    for (stem, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{} is readable: {e}", path.display()));
        let shown = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let mut block: Option<(usize, String)> = None;
        for (i, line) in text.lines().enumerate() {
            let fence = line.trim_start().strip_prefix("```");
            match (&mut block, fence) {
                (None, Some(lang)) if lang.trim() == "rust" => block = Some((i + 1, String::new())),
                (None, Some(_)) => block = Some((0, String::new())), // not Rust: skipped
                (Some(_), Some(rest)) if rest.trim().is_empty() => {
                    if let Some((n, code)) = block.take().filter(|(n, _)| *n > 0) {
                        writeln!(out, "/// {shown} line {n}\n#[allow(dead_code, clippy::all)]\nmod {stem}_line_{n} {{\n{code}\n#[test]\nfn runs() {{\n    crate::Outcome::check(main());\n}}\n}}\n")
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
    }
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR is set")).join("snippets.rs");
    std::fs::write(dest, out).expect("snippets.rs is writable");
}
