//! `pattern`: the one regular-expression subset the three bindings check the same way.
//!
//! A pattern is compiled here, once, into a sequence of atoms (a set of code points and
//! how many times it repeats). Each binding writes the atoms as data and runs the same
//! small matcher over code points (`templates/*/runtime/pattern.*`), so no binding's own
//! regex engine is involved and nothing can differ between Rust, JavaScript and Python
//! (`\d`, `\s`, `.` and case rules differ between those engines).
//!
//! The subset: literal characters; escaped punctuation (`\.`, `\-` ...); `\d` (`[0-9]`),
//! `\w` (`[A-Za-z0-9_]`), `\s` (ECMAScript's white space and line terminators) and their
//! negations `\D`, `\W`, `\S`; `\t`, `\n`, `\r`, `\uXXXX`; `.` (any code point but a line
//! terminator, as in ECMAScript); classes `[...]` with ranges and `[^...]`; the quantifiers
//! `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`; `^` at the start and `$` at the end. Without
//! `^` (or `$`) the pattern may match anywhere, as JSON Schema says. Groups, alternation,
//! back-references, look-around and lazy quantifiers are outside the subset and are an
//! error naming the construct.

use serde::Serialize;

/// One repeated set of code points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Atom {
    /// The set is everything outside `ranges`.
    pub negated: bool,
    /// Inclusive code point ranges, sorted and merged.
    pub ranges: Vec<(u32, u32)>,
    pub min: u32,
    /// `None`: unbounded.
    pub max: Option<u32>,
}

/// A compiled `pattern`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pattern {
    pub source: String,
    pub atoms: Vec<Atom>,
}

/// The largest repeat count a quantifier may give: the matcher keeps a state per count.
const MAX_COUNT: u32 = 1000;

const LINE_TERMINATORS: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];
const SPACE: &[(u32, u32)] = &[(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)];
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];

fn unsupported(what: &str) -> String {
    format!("{what} is outside the supported pattern subset (literals, escapes `\\d \\w \\s`, `.`, classes `[...]`, quantifiers `? * + {{n,m}}`, `^` first and `$` last)")
}

/// A class escape (`\d` ...) as (negated, ranges), or a single code point.
enum Escaped {
    Class(bool, &'static [(u32, u32)]),
    Char(u32),
}

fn escape(chars: &[char], i: &mut usize) -> Result<Escaped, String> {
    let Some(&c) = chars.get(*i) else { return Err("the pattern ends with a lone `\\`".into()) };
    *i += 1;
    Ok(match c {
        'd' => Escaped::Class(false, DIGIT),
        'D' => Escaped::Class(true, DIGIT),
        'w' => Escaped::Class(false, WORD),
        'W' => Escaped::Class(true, WORD),
        's' => Escaped::Class(false, SPACE),
        'S' => Escaped::Class(true, SPACE),
        't' => Escaped::Char(9),
        'n' => Escaped::Char(10),
        'r' => Escaped::Char(13),
        'f' => Escaped::Char(12),
        'v' => Escaped::Char(11),
        'u' => {
            let hex: String = chars.get(*i..*i + 4).map(|h| h.iter().collect()).unwrap_or_default();
            let n = u32::from_str_radix(&hex, 16).ok().filter(|_| hex.len() == 4).ok_or_else(|| "`\\u` needs four hex digits".to_owned())?;
            if (0xD800..=0xDFFF).contains(&n) {
                return Err(unsupported("a surrogate escape (`\\uD800`-`\\uDFFF`)"));
            }
            *i += 4;
            Escaped::Char(n)
        }
        c if c.is_ascii_punctuation() => Escaped::Char(c as u32),
        c if c.is_ascii_digit() => return Err(unsupported("a back-reference")),
        'b' | 'B' => return Err(unsupported("a word boundary (`\\b`, `\\B`)")),
        'p' | 'P' => return Err(unsupported("a Unicode property escape (`\\p{...}`)")),
        c => return Err(unsupported(&format!("the escape `\\{c}`"))),
    })
}

fn normalize(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The complement of sorted, merged ranges over all code points.
fn complement(ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(lo, hi) in ranges {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi + 1;
    }
    if next <= 0x10_FFFF {
        out.push((next, 0x10_FFFF));
    }
    out
}

fn class(chars: &[char], i: &mut usize) -> Result<(bool, Vec<(u32, u32)>), String> {
    let negated = chars.get(*i) == Some(&'^');
    if negated {
        *i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let Some(&c) = chars.get(*i) else { return Err("a class `[` is not closed by `]`".into()) };
        *i += 1;
        if c == ']' && !first {
            break;
        }
        first = false;
        let lo = match c {
            '\\' => match escape(chars, i)? {
                Escaped::Class(false, set) => {
                    ranges.extend_from_slice(set);
                    continue;
                }
                Escaped::Class(true, set) => {
                    ranges.extend(complement(set));
                    continue;
                }
                Escaped::Char(n) => n,
            },
            '[' => return Err(unsupported("a nested class or a class operation")),
            c => c as u32,
        };
        if chars.get(*i) == Some(&'-') && chars.get(*i + 1).is_some_and(|c| *c != ']') {
            *i += 1;
            let c = chars[*i];
            *i += 1;
            let hi = match c {
                '\\' => match escape(chars, i)? {
                    Escaped::Char(n) => n,
                    Escaped::Class(..) => return Err("a class range cannot end in a class escape".into()),
                },
                c => c as u32,
            };
            if hi < lo {
                return Err(format!("the class range {}-{} is out of order", char::from_u32(lo).unwrap_or('?'), char::from_u32(hi).unwrap_or('?')));
            }
            ranges.push((lo, hi));
        } else {
            ranges.push((lo, lo));
        }
    }
    Ok((negated, normalize(ranges)))
}

fn count(chars: &[char], i: &mut usize) -> Option<u32> {
    let start = *i;
    while chars.get(*i).is_some_and(char::is_ascii_digit) {
        *i += 1;
    }
    chars[start..*i].iter().collect::<String>().parse().ok()
}

/// `{n}`, `{n,}`, `{n,m}` after the `{`: `None` when the brace is not a quantifier.
fn braces(chars: &[char], i: &mut usize) -> Result<Option<(u32, Option<u32>)>, String> {
    let mut j = *i;
    let Some(min) = count(chars, &mut j) else { return Ok(None) };
    let max = match chars.get(j) {
        Some('}') => Some(min),
        Some(',') => {
            j += 1;
            let max = count(chars, &mut j);
            if chars.get(j) != Some(&'}') {
                return Ok(None);
            }
            max
        }
        _ => return Ok(None),
    };
    *i = j + 1;
    if max.is_some_and(|m| m < min) {
        return Err(format!("the quantifier {{{min},{}}} is out of order", max.unwrap_or_default()));
    }
    if min > MAX_COUNT || max.is_some_and(|m| m > MAX_COUNT) {
        return Err(format!("a repeat count above {MAX_COUNT} is not supported"));
    }
    Ok(Some((min, max)))
}

/// Compiles a `pattern` into atoms, or says what is outside the subset.
pub fn compile(source: &str) -> Result<Pattern, String> {
    let chars: Vec<char> = source.chars().collect();
    let mut i = 0;
    let mut end = chars.len();
    let anchored_start = chars.first() == Some(&'^');
    if anchored_start {
        i = 1;
    }
    // A final `$` not escaped by an odd run of backslashes.
    let trailing_backslashes = chars[..end.saturating_sub(1)].iter().rev().take_while(|c| **c == '\\').count();
    let anchored_end = end > i && chars[end - 1] == '$' && trailing_backslashes % 2 == 0;
    if anchored_end {
        end -= 1;
    }
    let chars = &chars[..end];
    let any = Atom { negated: true, ranges: vec![], min: 0, max: None };
    let mut atoms = Vec::new();
    if !anchored_start {
        atoms.push(any.clone());
    }
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let (negated, ranges) = match c {
            '\\' => match escape(chars, &mut i)? {
                Escaped::Class(negated, set) => (negated, set.to_vec()),
                Escaped::Char(n) => (false, vec![(n, n)]),
            },
            '[' => class(chars, &mut i)?,
            '.' => (true, LINE_TERMINATORS.to_vec()),
            '(' | ')' => return Err(unsupported("a group `(...)`")),
            '|' => return Err(unsupported("alternation `|`")),
            '^' => return Err(unsupported("`^` other than first")),
            '$' => return Err(unsupported("`$` other than last")),
            '*' | '+' | '?' => return Err(format!("the quantifier `{c}` follows nothing")),
            '{' if braces(chars, &mut i.clone())?.is_some() => return Err("a `{` quantifier follows nothing".into()),
            c => (false, vec![(c as u32, c as u32)]),
        };
        let (min, max) = match chars.get(i) {
            Some('?') => {
                i += 1;
                (0, Some(1))
            }
            Some('*') => {
                i += 1;
                (0, None)
            }
            Some('+') => {
                i += 1;
                (1, None)
            }
            Some('{') => {
                let mut j = i + 1;
                match braces(chars, &mut j)? {
                    Some(q) => {
                        i = j;
                        q
                    }
                    None => (1, Some(1)),
                }
            }
            _ => (1, Some(1)),
        };
        if matches!(chars.get(i), Some('?' | '*' | '+')) || (chars.get(i) == Some(&'{') && braces(chars, &mut (i + 1))?.is_some()) {
            return Err(unsupported("a lazy or repeated quantifier (`*?`, `a**`)"));
        }
        atoms.push(Atom { negated, ranges, min, max });
    }
    if !anchored_end {
        atoms.push(any);
    }
    Ok(Pattern { source: source.to_owned(), atoms })
}

#[cfg(test)]
#[path = "../../../templates/rust/runtime/pattern.rs"]
#[allow(dead_code)]
mod runtime;

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the Rust runtime's matcher (the very file every package carries) on atoms
    /// compiled here.
    fn matches(source: &str, s: &str) -> bool {
        let p = compile(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let atoms: Vec<(Vec<(u32, u32)>, runtime::Atom)> =
            p.atoms.iter().map(|a| (a.ranges.clone(), runtime::Atom { negated: a.negated, ranges: &[], min: a.min, max: a.max.unwrap_or(u32::MAX) })).collect();
        let leaked: &'static [runtime::Atom] = Box::leak(atoms.into_iter().map(|(r, a)| runtime::Atom { ranges: Box::leak(r.into_boxed_slice()), ..a }).collect::<Vec<_>>().into_boxed_slice());
        runtime::Pattern { source: "", atoms: leaked }.matches(s)
    }

    #[test]
    fn the_subset_means_what_ecmascript_means() {
        let cases: &[(&str, &str, bool)] = &[
            ("^[A-Z]{3}$", "USD", true),
            ("^[A-Z]{3}$", "usd", false),
            ("^[A-Z]{3}$", "USDX", false),
            ("^[A-Z]{3}$", "US", false),
            ("^[A-Z]{3}$", "", false),
            ("[A-Z]{3}", "xxUSDxx", true),
            ("[A-Z]{3}", "xxUSxx", false),
            ("^a+b*c?$", "aaab", true),
            ("^a+b*c?$", "ac", true),
            ("^a+b*c?$", "bc", false),
            ("^\\d{2,4}$", "12345", false),
            ("^\\d{2,4}$", "123", true),
            ("^\\d{2,}$", "1234567", true),
            ("^\\d$", "\u{0661}", false),
            ("^\\w+$", "ab_9", true),
            ("^\\w+$", "é", false),
            ("^\\s$", "\u{3000}", true),
            ("^\\S$", " ", false),
            ("^.$", "\n", false),
            ("^.$", "😀", true),
            ("^[^a-c]$", "d", true),
            ("^[^a-c]$", "b", false),
            ("^[a\\-z]$", "-", true),
            ("^[a-]$", "-", true),
            ("^a\\.b$", "a.b", true),
            ("^a\\.b$", "axb", false),
            ("^a.b$", "axb", true),
            ("^\\u00e9$", "é", true),
            ("x{", "ax{", true),
            ("^a?a?a?aaa$", "aaa", true),
            ("^[\\d.]+$", "1.5", true),
            ("^[\\D]$", "5", false),
            ("", "anything", true),
            ("^$", "", true),
            ("^$", "a", false),
            ("a\\$", "a$", true),
        ];
        for &(p, s, want) in cases {
            assert_eq!(matches(p, s), want, "{p:?} on {s:?}");
        }
    }

    #[test]
    fn outside_the_subset_is_an_error_naming_the_construct() {
        for (p, what) in [
            ("^(ab)+$", "group"),
            ("^a|b$", "alternation"),
            ("^a*?$", "lazy"),
            ("^\\1$", "back-reference"),
            ("^\\bx$", "word boundary"),
            ("^\\p{L}$", "property"),
            ("a^b", "`^` other than first"),
            ("a$b", "`$` other than last"),
            ("^[a$", "not closed"),
            ("^a{2,1}$", "out of order"),
            ("^a{5000}$", "above 1000"),
            ("^[z-a]$", "out of order"),
            ("*a", "follows nothing"),
        ] {
            let e = compile(p).expect_err(p);
            assert!(e.contains(what), "{p}: {e}");
        }
    }

    #[test]
    fn matching_is_linear_in_the_input() {
        // A pattern that makes a backtracking engine exponential.
        let p = "^a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?aaaaaaaaaaaaaaaaaaaa$";
        assert!(!matches(p, &"a".repeat(41)));
        assert!(matches(p, &"a".repeat(40)));
        assert!(!matches("^\\w*\\w*\\w*x$", &"a".repeat(20_000)));
    }
}
