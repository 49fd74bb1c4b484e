//! The benchmark inputs (design: BENCHMARKS.md): one seeded generator, written once
//! into `target/bench/<size>/`, read by the Rust, Node and Python benchmarks alike,
//! so every language measures the very same bytes.
//!
//! - `pty.bin`: PTY-like command output with CRLF lines (build, test and log lines,
//!   SGR colours in 16, 256 and true colour, erase and cursor CSI, OSC titles ended by
//!   BEL and OSC 8 hyperlinks ended by ST, CR progress bars, tabs, BEL, BS, multi-byte
//!   UTF-8 and some invalid UTF-8). It is cut into 4 KiB chunks ignoring boundaries.
//! - `updates.jsonl`: one `session/update` notification's params per line: the chunks
//!   of `pty.bin` for 4 terminals in bursts, plus `terminal_update`s with command,
//!   cwd, a 4 KiB snapshot and exit status.

use std::io::Write;
use std::path::Path;

/// Bump when the generator's output changes, so stale inputs are rebuilt.
const VERSION: &str = "1";

/// The size of every output chunk.
pub const CHUNK: usize = 4096;

/// A small, fast, seeded PRNG (SplitMix64): the same numbers on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const CRATES: &[&str] = &["serde", "tokio", "regex", "hyper", "clap", "rayon", "memchr", "anyhow", "syn", "quote"];
const WORDS: &[&str] = &[
    "build", "test", "error", "warning", "compiled", "finished", "running", "request", "handler", "session", "terminal", "output", "bytes", "buffer", "stream", "worker", "cache", "index", "module",
    "target",
];
/// Multi-byte UTF-8: Latin, CJK, Cyrillic, emoji, box drawing.
const INTL: &[&str] = &["café", "naïve", "Straße", "日本語", "中文字符", "привет", "мир", "🚀", "✅", "🔥", "│", "─┼─", "└──", "±µ°"];
/// Invalid UTF-8: stray continuation bytes, truncated sequences, bytes that never occur.
const INVALID: &[&[u8]] = &[b"\xff", b"\xc3(", b"\xe2\x82", b"\x80\x80", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xfe"];

fn sgr16(r: &mut Rng, out: &mut Vec<u8>) {
    let c = 30 + r.below(8);
    if r.below(2) == 0 {
        write!(out, "\x1b[1;{c}m").ok();
    } else {
        write!(out, "\x1b[{c}m").ok();
    }
}

fn colour(r: &mut Rng, out: &mut Vec<u8>) {
    match r.below(3) {
        0 => sgr16(r, out),
        1 => {
            let c = r.below(256);
            write!(out, "\x1b[38;5;{c}m").ok();
        }
        _ => {
            let (a, b, c) = (r.below(256), r.below(256), r.below(256));
            write!(out, "\x1b[38;2;{a};{b};{c}m").ok();
        }
    }
}

fn words(r: &mut Rng, out: &mut Vec<u8>, n: usize) {
    for i in 0..n {
        if i > 0 {
            out.push(b' ');
        }
        if r.below(4) == 0 {
            out.extend_from_slice(r.pick(INTL).as_bytes());
        } else {
            out.extend_from_slice(r.pick(WORDS).as_bytes());
        }
    }
}

/// One line (or a small group of lines) of PTY output.
fn line(r: &mut Rng, out: &mut Vec<u8>) {
    match r.below(20) {
        0..=4 => {
            // cargo-like build line
            out.extend_from_slice(b"\x1b[1m\x1b[32m   Compiling\x1b[0m ");
            let krate = r.pick(CRATES);
            let (a, b, c) = (r.below(3), r.below(40), r.below(20));
            write!(out, "{krate} v{a}.{b}.{c} (/home/dev/src/{krate})").ok();
        }
        5..=8 => {
            // test line
            write!(out, "test {}::{}_{} ... ", r.pick(CRATES), r.pick(WORDS), r.pick(WORDS)).ok();
            if r.below(10) == 0 {
                out.extend_from_slice(b"\x1b[31mFAILED\x1b[0m");
            } else {
                out.extend_from_slice(b"\x1b[32mok\x1b[0m");
            }
        }
        9..=12 => {
            // log line with colours, tabs and international text
            write!(out, "2026-12-01T08:{:02}:{:02}Z ", r.below(60), r.below(60)).ok();
            colour(r, out);
            out.extend_from_slice(r.pick(&["INFO ", "WARN ", "DEBUG", "ERROR"]).as_bytes());
            out.extend_from_slice(b"\x1b[0m\t");
            let n = 3 + r.below(8);
            words(r, out, n);
            if r.below(3) == 0 {
                out.push(b'\t');
                colour(r, out);
                words(r, out, 2);
                out.extend_from_slice(b"\x1b[39m");
            }
        }
        13 | 14 => {
            // CR progress bar, redrawn a few times, with erase and cursor movement
            let steps = 2 + r.below(5);
            for s in 0..=steps {
                let done = s * 30 / steps;
                out.extend_from_slice(b"\r\x1b[2K\x1b[36m[");
                out.extend(std::iter::repeat_n(b'=', done));
                out.push(b'>');
                out.extend(std::iter::repeat_n(b' ', 30 - done));
                write!(out, "]\x1b[0m {:3}% ", s * 100 / steps).ok();
                out.extend_from_slice("▕█▏".as_bytes());
            }
            out.extend_from_slice(b"\x1b[1G\x1b[K done");
        }
        15 => {
            // OSC title (BEL) and an OSC 8 hyperlink (ST)
            write!(out, "\x1b]0;{} — {}\x07", r.pick(CRATES), r.pick(WORDS)).ok();
            let w = r.pick(WORDS);
            write!(out, "see \x1b]8;;https://docs.example.com/{w}/{}\x1b\\{w} docs\x1b]8;;\x1b\\ for more", r.below(1000)).ok();
        }
        16 => {
            // cursor movement, BEL and backspaces
            write!(out, "\x1b[{}A\x1b[{}C", 1 + r.below(3), 1 + r.below(20)).ok();
            words(r, out, 3);
            out.extend_from_slice(b"\x07 abc\x08\x08\x08xyz");
        }
        17 => {
            // box drawing table row
            out.extend_from_slice("│ ".as_bytes());
            words(r, out, 2);
            out.extend_from_slice(" │ ".as_bytes());
            words(r, out, 2);
            out.extend_from_slice(" │".as_bytes());
        }
        _ => {
            // plain text
            let n = 4 + r.below(10);
            words(r, out, n);
        }
    }
    // a few thousand invalid sequences over 64 MiB
    if r.below(256) == 0 {
        let bad: &[u8] = INVALID[r.below(INVALID.len())];
        out.extend_from_slice(bad);
    }
    out.extend_from_slice(b"\r\n");
}

/// `size` bytes of PTY-like output.
fn pty(size: usize) -> Vec<u8> {
    let mut r = Rng(0x0AC9_7E41);
    let mut out = Vec::with_capacity(size + 1024);
    while out.len() < size {
        line(&mut r, &mut out);
    }
    out.truncate(size);
    out
}

/// Canonical padded standard base64.
fn encode(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for g in bytes.chunks(3) {
        let x = (u32::from(g[0]) << 16) | (u32::from(*g.get(1).unwrap_or(&0)) << 8) | u32::from(*g.get(2).unwrap_or(&0));
        out.push(A[(x >> 18) as usize & 63] as char);
        out.push(A[(x >> 12) as usize & 63] as char);
        out.push(if g.len() > 1 { A[(x >> 6) as usize & 63] as char } else { '=' });
        out.push(if g.len() > 2 { A[x as usize & 63] as char } else { '=' });
    }
    out
}

/// The notification stream over the chunks of `pty`.
fn updates(pty: &[u8]) -> String {
    const TERMINALS: usize = 4;
    let mut r = Rng(0x5E55_1011);
    let mut out = String::with_capacity(pty.len() * 4 / 3 + pty.len() / 20);
    let mut started = [false; TERMINALS];
    let line = |out: &mut String, update: String| {
        out.push_str(r#"{"sessionId":"sess_bench_0001","update":"#);
        out.push_str(&update);
        out.push_str("}\n");
    };
    let mut chunks = pty.chunks(CHUNK).peekable();
    while chunks.peek().is_some() {
        let t = r.below(TERMINALS);
        if !started[t] {
            started[t] = true;
            // The snapshot a Client joining late would get: 4 KiB of earlier output.
            let at = r.below(pty.len().saturating_sub(CHUNK).max(1));
            let snapshot = &pty[at..(at + CHUNK).min(pty.len())];
            line(
                &mut out,
                format!(
                    r#"{{"sessionUpdate":"terminal_update","terminalId":"term_{t}","command":"cargo test --workspace -p crate{t}","cwd":"/home/dev/src/project{t}","output":{{"data":"{}"}},"exitStatus":null}}"#,
                    encode(snapshot)
                ),
            );
        }
        for _ in 0..1 + r.below(32) {
            let Some(chunk) = chunks.next() else { break };
            line(&mut out, format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"term_{t}","data":"{}"}}"#, encode(chunk)));
        }
    }
    for t in 0..TERMINALS {
        line(&mut out, format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"term_{t}","exitStatus":{{"exitCode":{}}}}}"#, t % 2));
    }
    out
}

/// Writes `pty.bin` and `updates.jsonl` for `size` bytes of output into `dir`, unless
/// they are already there from this version of the generator. Returns a summary line.
pub fn ensure(dir: &Path, size: usize) -> Result<String, String> {
    let stamp = dir.join("inputs.version");
    let want = format!("{VERSION} {size}");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
        return Ok(format!("inputs in {} (cached)", dir.display()));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let bytes = pty(size);
    let jsonl = updates(&bytes);
    let esc = escape_share(&bytes);
    let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
    std::fs::write(dir.join("pty.bin"), &bytes).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("updates.jsonl"), &jsonl).map_err(|e| e.to_string())?;
    std::fs::write(&stamp, want).map_err(|e| e.to_string())?;
    Ok(format!(
        "inputs in {}: {} bytes of output ({:.1}% in escape sequences, {:.1}% non-ASCII), {} notifications ({} bytes)",
        dir.display(),
        bytes.len(),
        esc * 100.0,
        non_ascii as f64 * 100.0 / bytes.len() as f64,
        jsonl.lines().count(),
        jsonl.len()
    ))
}

/// The share of bytes inside ESC sequences (CSI up to its final byte, OSC up to BEL or ST).
fn escape_share(b: &[u8]) -> f64 {
    let mut inside = 0usize;
    let mut i = 0;
    while i < b.len() {
        if b[i] != 0x1b {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        match b.get(i) {
            Some(b'[') => {
                i += 1;
                while i < b.len() && !(0x40..=0x7e).contains(&b[i]) {
                    i += 1;
                }
                i += 1;
            }
            Some(b']') => {
                while i < b.len() && b[i] != 0x07 && !(b[i] == 0x1b && b.get(i + 1) == Some(&b'\\')) {
                    i += 1;
                }
                i += if b.get(i) == Some(&0x07) { 1 } else { 2 };
            }
            _ => i += 1,
        }
        inside += i.min(b.len()) - start;
    }
    inside as f64 / b.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_deterministic_and_cuts_sequences() {
        let a = pty(1 << 16);
        assert_eq!(a, pty(1 << 16));
        assert_eq!(a.len(), 1 << 16);
        // Chunk boundaries fall inside escape sequences and inside code points.
        let cuts = (1..a.len() / CHUNK).map(|k| k * CHUNK);
        let inside_utf8 = cuts.clone().filter(|&c| (0x80..0xc0).contains(&a[c])).count();
        assert!(inside_utf8 > 0 || a.len() < CHUNK * 64, "no chunk starts inside a code point");
        let s = escape_share(&a);
        assert!((0.1..0.4).contains(&s), "escape share {s}");
        let j = updates(&a);
        let starts = j.lines().filter(|l| l.contains("\"output\"")).count();
        assert!((1..=4).contains(&starts));
        assert_eq!(j.lines().count(), 16 + starts + 4);
        assert_eq!(j.lines().filter(|l| l.contains("terminal_output_chunk")).count(), 16);
        assert_eq!(encode(b"hello"), "aGVsbG8=");
        assert_eq!(encode(b"hi"), "aGk=");
        assert_eq!(encode(b""), "");
    }
}
