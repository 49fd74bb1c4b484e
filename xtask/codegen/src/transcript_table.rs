//! The transcript's state machine, compiled once into data for every runtime.
//!
//! `templates/transcript/transitions.txt` is the one hand-written source of which inputs
//! start, continue and end an escape or control sequence and which controls act (its
//! header documents the format). This module parses it into a table of
//! `states x inputs -> (action, next state)` and writes it into each runtime as a generated
//! file (`templates/<lang>/client/transcript_table.*`), where a small interpreter runs it.
//!
//! The TypeScript and Python runtimes also get the regular expressions of their bulk paths,
//! derived from the same table (see [`Derive`]): a whole chunk is cleaned with a few
//! regular-expression passes that run in the language's native code, and only what is left
//! goes through the interpreter. So the table decides every path of every runtime.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Where the source lives, relative to the repository root.
pub const SOURCE: &str = "templates/transcript/transitions.txt";

/// Inputs: the code points U+0000..U+009F one by one, then two classes.
pub const CLASSES: usize = 162;
/// The bidi embedding, override and isolate controls (docs/TRANSCRIPT.md rule 4).
pub const BIDI: usize = 160;
/// Every other code point from U+00A0 up.
pub const TEXT: usize = 161;
/// The code points of [`BIDI`].
pub const BIDI_RANGES: [(u32, u32); 2] = [(0x202A, 0x202E), (0x2066, 0x2069)];

/// The actions every runtime's interpreter implements, in the order of their numbers.
pub const ACTIONS: [&str; 11] = ["ignore", "print", "backspace", "carriage_return", "line_feed", "csi_start", "param", "cursor_column", "cursor_left", "cursor_right", "erase_in_line"];
const IGNORE: u8 = 0;
const PRINT: u8 = 1;
const BACKSPACE: u8 = 2;
const CARRIAGE_RETURN: u8 = 3;
const LINE_FEED: u8 = 4;
const CSI_START: u8 = 5;
const PARAM: u8 = 6;

/// Actions without a visible effect of their own (a parameter only matters to the final byte
/// that acts on it).
fn silent(action: u8) -> bool {
    matches!(action, IGNORE | CSI_START | PARAM)
}

/// The compiled machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// State names; state 0 is the ground state.
    pub states: Vec<String>,
    /// `(action, next)` for `state * CLASSES + input`.
    pub table: Vec<(u8, u8)>,
    /// `constant` lines, in order.
    pub constants: Vec<(String, u64)>,
}

impl Machine {
    fn at(&self, state: usize, input: usize) -> (u8, u8) {
        self.table[state * CLASSES + input]
    }

    /// A state that keeps what it reads as payload: CR does not act in it (an OSC or DCS
    /// string). The bulk paths remove such strings before they look for line controls.
    fn is_string(&self, state: usize) -> bool {
        self.at(state, 0x0D).0 != CARRIAGE_RETURN
    }

    fn constant(&self, name: &str) -> Result<u64, String> {
        self.constants.iter().find(|(n, _)| n == name).map(|(_, v)| *v).ok_or_else(|| format!("{SOURCE}: no `constant {name}`"))
    }
}

/// Parses the source text; errors name the line.
pub fn parse(text: &str) -> Result<Machine, String> {
    let mut states: Vec<String> = Vec::new();
    let mut sets: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut constants = Vec::new();
    let mut cells: Vec<Option<(u8, u8, usize)>> = Vec::new();
    let mut rules = 0;
    for (no, raw) in text.lines().enumerate() {
        let line_no = no + 1;
        let err = |msg: String| format!("{SOURCE}:{line_no}: {msg}");
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "constant" => {
                let [_, name, value] = words[..] else { return Err(err("expected `constant NAME VALUE`".into())) };
                let v = value.parse::<u64>().map_err(|_| err(format!("`{value}` is not a whole number")))?;
                constants.push((name.to_owned(), v));
            }
            "states" => {
                if !states.is_empty() {
                    return Err(err("a second `states` line".into()));
                }
                states = words[1..].iter().map(|s| (*s).to_owned()).collect();
                if states.is_empty() || states.len() > 16 {
                    return Err(err(format!("{} states; between 1 and 16 fit the table's encoding", states.len())));
                }
                for (i, s) in states.iter().enumerate() {
                    if states[..i].contains(s) || ["all", "same"].contains(&s.as_str()) {
                        return Err(err(format!("state `{s}` is repeated or a reserved word")));
                    }
                }
                cells = vec![None; states.len() * CLASSES];
            }
            "set" => {
                if words.len() < 4 || words[2] != "=" {
                    return Err(err("expected `set NAME = STATE...`".into()));
                }
                let members = state_list(&words[3..], &states, &sets).map_err(err)?;
                if states.contains(&words[1].to_owned()) || sets.insert(words[1].to_owned(), members).is_some() {
                    return Err(err(format!("`{}` is already a state or a set", words[1])));
                }
            }
            _ => {
                if states.is_empty() {
                    return Err(err("a rule before the `states` line".into()));
                }
                let (lhs, rhs) = line.split_once("->").ok_or_else(|| err("a rule is `STATES : INPUTS -> ACTION NEXT`".into()))?;
                let (who, what) = lhs.split_once(':').ok_or_else(|| err("a rule is `STATES : INPUTS -> ACTION NEXT`".into()))?;
                let who = state_list(&who.split_whitespace().collect::<Vec<_>>(), &states, &sets).map_err(err)?;
                let rhs: Vec<&str> = rhs.split_whitespace().collect();
                let [action, next] = rhs[..] else { return Err(err("after `->`: an action and the next state".into())) };
                let action = ACTIONS.iter().position(|a| *a == action).ok_or_else(|| err(format!("unknown action `{action}` (the actions: {})", ACTIONS.join(", "))))?;
                let next = match next {
                    "same" => None,
                    n => Some(states.iter().position(|s| s == n).ok_or_else(|| err(format!("unknown state `{n}`")))?),
                };
                let inputs = inputs(what).map_err(err)?;
                if ACTIONS[action] == "param"
                    && let Inputs::Set(set) = &inputs
                    && set.iter().enumerate().any(|(i, &on)| on && !(0x30..=0x39).contains(&i))
                {
                    return Err(err("`param` takes only the digits 30-39 (its value is the digit's)".into()));
                }
                if ACTIONS[action] == "param" && matches!(inputs, Inputs::Otherwise) {
                    return Err(err("`param` takes only the digits 30-39 (its value is the digit's)".into()));
                }
                rules += 1;
                let mut decided = 0;
                for &s in &who {
                    for i in 0..CLASSES {
                        let wanted = match &inputs {
                            Inputs::Otherwise => true,
                            Inputs::Set(set) => set[i],
                        };
                        let cell = &mut cells[s * CLASSES + i];
                        if wanted && cell.is_none() {
                            let n = next.unwrap_or(s);
                            *cell = Some((u8::try_from(action).unwrap_or(0), u8::try_from(n).unwrap_or(0), line_no));
                            decided += 1;
                        }
                    }
                }
                if decided == 0 {
                    return Err(err("this rule decides nothing: earlier rules already cover every state and input it names".into()));
                }
            }
        }
    }
    if states.is_empty() || rules == 0 {
        return Err(format!("{SOURCE}: no `states` line or no rules"));
    }
    let mut table = Vec::with_capacity(cells.len());
    for (k, c) in cells.iter().enumerate() {
        let Some((a, n, _)) = c else {
            return Err(format!("{SOURCE}: no rule decides input {} in state `{}`", input_name(k % CLASSES), states[k / CLASSES]));
        };
        table.push((*a, *n));
    }
    Ok(Machine { states, table, constants })
}

fn input_name(i: usize) -> String {
    match i {
        BIDI => "bidi".into(),
        TEXT => "text".into(),
        _ => format!("{i:02X}"),
    }
}

fn state_list(words: &[&str], states: &[String], sets: &BTreeMap<String, Vec<usize>>) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for w in words {
        let add: Vec<usize> = if *w == "all" {
            (0..states.len()).collect()
        } else if let Some(i) = states.iter().position(|s| s == w) {
            vec![i]
        } else if let Some(set) = sets.get(*w) {
            set.clone()
        } else {
            return Err(format!("`{w}` is neither a state nor a set"));
        };
        for s in add {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    if out.is_empty() {
        return Err("no state named".into());
    }
    Ok(out)
}

enum Inputs {
    Otherwise,
    Set(Vec<bool>),
}

fn inputs(text: &str) -> Result<Inputs, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words == ["otherwise"] {
        return Ok(Inputs::Otherwise);
    }
    let mut set = vec![false; CLASSES];
    let hex = |h: &str| -> Result<usize, String> {
        let v = usize::from_str_radix(h, 16).map_err(|_| format!("`{h}` is not a hex code point"))?;
        if v >= BIDI {
            return Err(format!("`{h}`: code points are written only up to 9F (then `bidi` and `text`)"));
        }
        Ok(v)
    };
    for w in &words {
        match *w {
            "bidi" => set[BIDI] = true,
            "text" => set[TEXT] = true,
            "otherwise" => return Err("`otherwise` stands alone".into()),
            q if q.len() == 3 && q.starts_with('\'') && q.ends_with('\'') => {
                let c = q.as_bytes()[1];
                if !(0x21..0x7F).contains(&c) {
                    return Err(format!("{q}: only a printable character may be quoted"));
                }
                set[usize::from(c)] = true;
            }
            r => {
                let (lo, hi) = match r.split_once('-') {
                    Some((a, b)) => (hex(a)?, hex(b)?),
                    None => (hex(r)?, hex(r)?),
                };
                if lo > hi {
                    return Err(format!("`{r}` is an empty range"));
                }
                for x in &mut set[lo..=hi] {
                    *x = true;
                }
            }
        }
    }
    if words.is_empty() {
        return Err("no inputs".into());
    }
    Ok(Inputs::Set(set))
}

// ---------------------------------------------------------------- regular expressions

/// What a derived expression matches, from a state reached by a silent path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Silent steps back to the ground state, or up to an input that acts the same as it
    /// would in the ground state (ESC, CAN, a character that cancels a CSI sequence):
    /// everything matched can be removed, and what follows is read from the ground state.
    Silent,
    /// Silent steps, then one step whose action has an effect and goes to the ground state
    /// (CSI `K`): a token for the line discipline.
    Effect,
    /// Silent steps up to the end of the text: a sequence still open.
    Open,
}

/// The regular-expression syntax of one runtime.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// Python `re` on the UTF-8 bytes of a chunk that holds no C1 control (such chunks take
    /// the interpreter): possessive quantifiers, `\Z`.
    PyBytes,
    /// Python `re` on `str` (code points): the interpreter's runs.
    PyStr,
}

/// One input's part in a derived expression, from a given state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Acts as in the ground state: the sequence ends before it.
    Interrupt,
    /// A silent step that stays.
    Loop,
    /// A silent step to the ground state.
    Ground,
    /// A silent step to another state.
    To(usize),
    /// An effect, then the ground state.
    Effect,
    /// Anything else: the derived expression does not match through it.
    Fail,
}

fn role(m: &Machine, state: usize, input: usize) -> Role {
    let (a, n) = m.at(state, input);
    let n = usize::from(n);
    if state != 0 && m.at(state, input) == m.at(0, input) {
        Role::Interrupt
    } else if silent(a) && n == state {
        Role::Loop
    } else if silent(a) && n == 0 {
        Role::Ground
    } else if silent(a) {
        Role::To(n)
    } else if n == 0 {
        Role::Effect
    } else {
        Role::Fail
    }
}

/// Renders sets of inputs as regular-expression pieces.
struct Syntax(Flavor);

impl Syntax {
    fn byte(b: u32) -> String {
        format!("\\x{b:02x}")
    }

    fn code_point(u: u32) -> String {
        if u < 0x100 {
            Self::byte(u)
        } else if u < 0x10000 {
            format!("\\u{u:04x}")
        } else {
            format!("\\U{u:08x}")
        }
    }

    /// `[...]` of the ranges, or `None` when empty.
    fn class(ranges: &[(u32, u32)], render: fn(u32) -> String) -> Option<String> {
        if ranges.is_empty() {
            return None;
        }
        if let [(lo, hi)] = ranges
            && lo == hi
        {
            return Some(render(*lo));
        }
        let mut s = String::from("[");
        for &(lo, hi) in ranges {
            s.push_str(&render(lo));
            if hi > lo {
                if hi > lo + 1 {
                    s.push('-');
                }
                s.push_str(&render(hi));
            }
        }
        s.push(']');
        Some(s)
    }

    fn ranges(codes: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for c in codes {
            match out.last_mut() {
                Some((_, hi)) if *hi + 1 == c => *hi = c,
                _ => out.push((c, c)),
            }
        }
        out
    }

    /// Alternatives that each match exactly one of the inputs `set` (one code point). For
    /// Python bytes, C1 controls are left out (the bulk path never sees them) and, with
    /// `whole_bytes`, text and bidi controls together become the non-ASCII bytes (right
    /// inside a loop or a look-ahead over valid UTF-8, where all of a character's bytes are
    /// taken or none).
    fn one_of(&self, set: &[bool], whole_bytes: bool) -> Vec<String> {
        let mut alts = Vec::new();
        match self.0 {
            Flavor::PyStr => {
                let mut ranges: Vec<(u32, u32)> = Self::ranges((0..0xA0u32).filter(|&c| set[c as usize]));
                if set[BIDI] {
                    ranges.extend(BIDI_RANGES);
                }
                if set[TEXT] {
                    let mut lo = 0xA0;
                    for (b0, b1) in BIDI_RANGES {
                        ranges.push((lo, b0 - 1));
                        lo = b1 + 1;
                    }
                    ranges.push((lo, 0x10_FFFF));
                }
                ranges.sort_unstable();
                let mut merged: Vec<(u32, u32)> = Vec::new();
                for (lo, hi) in ranges {
                    match merged.last_mut() {
                        Some((_, h)) if *h + 1 >= lo => *h = (*h).max(hi),
                        _ => merged.push((lo, hi)),
                    }
                }
                if let Some(c) = Self::class(&merged, Self::code_point) {
                    alts.push(c);
                }
            }
            Flavor::PyBytes => {
                let mut bytes: Vec<u32> = (0..0x80u32).filter(|&c| set[c as usize]).collect();
                if whole_bytes && set[BIDI] && set[TEXT] {
                    bytes.extend(0x80..=0xFF);
                } else {
                    let bidi = "\\xe2\\x80[\\xaa-\\xae]|\\xe2\\x81[\\xa6-\\xa9]";
                    if set[BIDI] {
                        alts.push(bidi.to_owned());
                    }
                    if set[TEXT] {
                        alts.push(format!("(?!{bidi})[\\xc0-\\xff][\\x80-\\xbf]*+"));
                    }
                }
                if let Some(c) = Self::class(&Self::ranges(bytes.into_iter()), Self::byte) {
                    alts.insert(0, c);
                }
            }
        }
        alts
    }

    fn group(alts: &[String]) -> String {
        if alts.len() == 1 && !alts[0].contains('|') { alts[0].clone() } else { format!("(?:{})", alts.join("|")) }
    }

    fn star(&self) -> &'static str {
        "*+"
    }

    fn end(&self) -> &'static str {
        "\\Z"
    }
}

/// Derives regular expressions from a machine for one runtime's syntax. C1 controls are
/// left out of every expression (a bulk path hands text that holds one to the interpreter),
/// so a C1 control matches nothing and ends what a sequence's expression matched.
struct Derive<'a> {
    m: &'a Machine,
    syntax: Syntax,
}

impl Derive<'_> {
    /// The expression for what `mode` matches from `state` (after the input that led there),
    /// or `None` when it matches nothing from there.
    fn from(&self, state: usize, mode: Mode, stack: &mut Vec<usize>) -> Result<Option<String>, String> {
        if stack.contains(&state) {
            let path: Vec<&str> = stack.iter().chain([&state]).map(|&s| self.m.states[s].as_str()).collect();
            return Err(format!("{SOURCE}: the states {} form a cycle of silent steps; the bulk paths' regular expressions need every such path to end", path.join(" -> ")));
        }
        stack.push(state);
        let rep = self.quotient(mode);
        let mut by_role: BTreeMap<(u8, usize), Vec<bool>> = BTreeMap::new();
        for i in 0..CLASSES {
            if (0x80..0xA0).contains(&i) {
                continue;
            }
            let key = match role(self.m, state, i) {
                Role::Interrupt => (0, 0),
                Role::Loop => (1, 0),
                Role::To(n) if rep[n] == rep[state] => (1, 0),
                Role::Ground => (2, 0),
                Role::To(n) => (3, rep[n]),
                Role::Effect => (4, 0),
                Role::Fail => continue,
            };
            by_role.entry(key).or_insert_with(|| vec![false; CLASSES])[i] = true;
        }
        let star = self.syntax.star();
        let mut out = String::new();
        if let Some(set) = by_role.get(&(1, 0)) {
            out.push_str(&Syntax::group(&self.syntax.one_of(set, true)));
            out.push_str(star);
        }
        // The last step first, then the steps to other states (fewest inputs first), then the
        // look-ahead: the order only matters for speed (the sets are disjoint), and a
        // backtracking engine tries the alternatives in order.
        let mut alts = Vec::new();
        for (&(kind, _), set) in &by_role {
            match (kind, mode) {
                (2, Mode::Silent) | (4, Mode::Effect) => alts.push(Syntax::group(&self.syntax.one_of(set, false))),
                _ => {}
            }
        }
        let mut steps: Vec<(usize, String)> = Vec::new();
        for (&(kind, next), set) in &by_role {
            if kind == 3
                && let Some(rest) = self.from(next, mode, stack)?
            {
                steps.push((set.iter().filter(|&&x| x).count(), format!("{}{rest}", Syntax::group(&self.syntax.one_of(set, false)))));
            }
        }
        steps.sort_by_key(|(n, _)| *n);
        alts.extend(steps.into_iter().map(|(_, a)| a));
        if mode == Mode::Silent
            && let Some(set) = by_role.get(&(0, 0))
        {
            alts.push(format!("(?={})", Syntax::group(&self.syntax.one_of(set, true))));
        }
        if mode == Mode::Open {
            alts.push(self.syntax.end().to_owned());
        }
        stack.pop();
        Ok(match alts.len() {
            0 => None,
            1 => Some(out + &alts[0]),
            _ => Some(format!("{out}(?:{})", alts.join("|"))),
        })
    }

    /// For each state, the first state it cannot be told apart from by what `mode` matches
    /// from there (partition refinement over the inputs' parts): the derived expressions are
    /// written over these classes, so states that only keep a parameter apart (CSI entry,
    /// first parameter, later parameters) are one loop, not a tree of copies.
    fn quotient(&self, mode: Mode) -> Vec<usize> {
        let n = self.m.states.len();
        // The part an input plays, as far as `mode` can tell: accepted as the end, a look-ahead
        // end, a step to some class, or no match.
        let kind = |state: usize, i: usize| -> (u8, Option<usize>) {
            match (role(self.m, state, i), mode) {
                (Role::Loop, _) => (1, Some(state)),
                (Role::To(next), _) => (1, Some(next)),
                (Role::Interrupt, Mode::Silent) => (2, None),
                (Role::Ground, Mode::Silent) | (Role::Effect, Mode::Effect) => (3, None),
                _ => (0, None),
            }
        };
        let mut block: Vec<usize> = (0..n).map(|s| usize::from(s != 0)).collect();
        loop {
            let signature = |s: usize| -> Vec<(u8, usize)> {
                (0..CLASSES)
                    .filter(|&i| !(0x80..0xA0).contains(&i))
                    .map(|i| {
                        let (k, to) = kind(s, i);
                        (k, to.map_or(usize::MAX, |t| block[t]))
                    })
                    .collect()
            };
            let mut seen: Vec<(usize, Vec<(u8, usize)>)> = Vec::new();
            let mut next = vec![0; n];
            for s in 0..n {
                let key = (block[s], signature(s));
                next[s] = seen.iter().position(|k| *k == key).unwrap_or_else(|| {
                    seen.push(key);
                    seen.len() - 1
                });
            }
            let stable = (0..n).all(|a| (0..n).all(|b| (block[a] == block[b]) == (next[a] == next[b])));
            block = next;
            if stable {
                break;
            }
        }
        (0..n).map(|s| if s == 0 { 0 } else { (0..n).find(|&r| block[r] == block[s]).unwrap_or(s) }).collect()
    }

    /// An input that leaves the ground state and does not start a whole sequence `mode`
    /// matches (a negative look-ahead after each opener).
    fn not_sequences(&self, mode: Mode) -> Result<String, String> {
        let mut alts = Vec::new();
        for (next, set) in self.openers() {
            let next = self.quotient(mode)[next];
            let rest = self.from(next, mode, &mut Vec::new())?.unwrap_or_else(|| "(?:)".into());
            alts.push(format!("{}(?!{rest})", Syntax::group(&self.syntax.one_of(&set, false))));
        }
        Ok(alts.join("|"))
    }

    /// The inputs that leave the ground state silently, by the state they go to.
    fn openers(&self) -> BTreeMap<usize, Vec<bool>> {
        let mut by_next: BTreeMap<usize, Vec<bool>> = BTreeMap::new();
        for i in 0..CLASSES {
            if (0x80..0xA0).contains(&i) {
                continue;
            }
            if let Role::To(n) = role(self.m, 0, i) {
                by_next.entry(n).or_insert_with(|| vec![false; CLASSES])[i] = true;
            }
        }
        by_next
    }

    /// Every sequence `mode` matches from the ground state: the inputs that leave the ground
    /// state silently, each followed by what `mode` matches from there.
    fn sequences(&self, mode: Mode) -> Result<String, String> {
        let mut alts = Vec::new();
        for (next, set) in &self.openers() {
            if let Some(rest) = self.from(self.quotient(mode)[*next], mode, &mut Vec::new())? {
                alts.push(format!("{}{rest}", Syntax::group(&self.syntax.one_of(set, false))));
            }
        }
        if alts.is_empty() {
            return Err(format!("{SOURCE}: no sequence from the ground state ends; the bulk paths need at least one"));
        }
        Ok(alts.join("|"))
    }
}

// ---------------------------------------------------------------- the bulk paths' facts

/// Ground-state inputs below U+0080 (as bytes) by action.
fn ground_ascii(m: &Machine, action: u8) -> Vec<u8> {
    (0u8..0x80).filter(|&b| m.at(0, usize::from(b)) == (action, 0)).collect()
}

/// ASCII inputs a bulk path may delete once the silent sequences are gone: nothing in the
/// ground state, and in every other non-string state either nothing (a silent step that
/// stays) or the same as in the ground state.
fn deletable(m: &Machine) -> Vec<u8> {
    (0u8..0x80)
        .filter(|&b| {
            let i = usize::from(b);
            m.at(0, i) == (IGNORE, 0)
                && (1..m.states.len()).filter(|&s| !m.is_string(s)).all(|s| {
                    let (a, n) = m.at(s, i);
                    (a == IGNORE && usize::from(n) == s) || m.at(s, i) == m.at(0, i)
                })
        })
        .collect()
}

/// For each input that enters a string state from the ESC state (`]`, `P` ...), the
/// silent expression of that string, as `(opener, expression after the opener)`.
fn strings(m: &Machine, d: &Derive<'_>) -> Result<Vec<(u8, String)>, String> {
    let Some(esc) = (0..m.states.len()).find(|&s| m.at(0, 0x1B) == (IGNORE, u8::try_from(s).unwrap_or(0)) && s != 0) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for b in 0x20u8..0x7F {
        if let Role::To(n) = role(m, esc, usize::from(b))
            && m.is_string(n)
            && let Some(re) = d.from(d.quotient(Mode::Silent)[n], Mode::Silent, &mut vec![esc])?
        {
            out.push((b, re));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------- emitters

const HEADER: &str = "@generated by cargo xtask gen from templates/transcript/transitions.txt; do not edit";

fn state_const(name: &str) -> String {
    name.to_uppercase()
}

fn hex_rows(m: &Machine) -> Vec<(String, String)> {
    m.states
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let row: String = (0..CLASSES).map(|i| format!("{:02x}", (m.at(s, i).0 << 4) | m.at(s, i).1)).collect();
            (name.clone(), row)
        })
        .collect()
}

fn py_bytes_literal(bytes: &[u8]) -> String {
    let mut s = String::from("b\"");
    for &b in bytes {
        write!(s, "\\x{b:02x}").ok();
    }
    s.push('"');
    s
}

/// Whether the machine reads ESC [ digits ; final as the inline CSI paths of the Rust and
/// TypeScript transcripts do: ESC starts an escape, `[` a CSI (the parameter reset), digits
/// of the first parameter are `param` into `csi_param`, `;` moves to `csi_param_rest` where
/// digits and `;` are ignored, and every final byte 40-7E goes back to the ground state.
/// False (every sequence through the table) when a state is missing or reads them otherwise.
fn inline_csi(m: &Machine) -> bool {
    let state = |name: &str| m.states.iter().position(|s| s == name);
    let (Some(escape), Some(entry), Some(param), Some(rest)) = (state("escape"), state("csi_entry"), state("csi_param"), state("csi_param_rest")) else { return false };
    let is = |s: usize, b: usize, action: u8, next: usize| m.at(s, b) == (action, u8::try_from(next).unwrap_or(u8::MAX));
    is(0, 0x1B, IGNORE, escape)
        && is(escape, 0x5B, CSI_START, entry)
        && [entry, param, rest]
            .into_iter()
            .all(|s| is(s, 0x3B, IGNORE, rest) && (0x30..=0x39).all(|d| if s == rest { is(s, d, IGNORE, s) } else { is(s, d, PARAM, param) }) && (0x40..=0x7E).all(|f| m.at(s, f).1 == 0))
}

const INLINE_CSI_DOC: &str = "Whether ESC [ digits ; final (the plain CSI states, the first parameter only) may be stepped inline, without the table: computed by cargo xtask gen from this table.";

/// `templates/rust/client/transcript_table.rs`.
pub fn rust(m: &Machine) -> Result<String, String> {
    let mut s = format!("// {HEADER}\n");
    s.push_str("//! The transcript's escape-sequence state machine as data: each state's row gives, for every\n");
    s.push_str("//! input (a code point U+0000..U+009F, then `CLASS_BIDI` and `CLASS_TEXT`), the action to take\n");
    s.push_str("//! and the next state, as `action << 4 | next`. `transcript.rs` interprets it.\n\n");
    s.push_str("#![allow(dead_code)]\n\n");
    for (name, v) in &m.constants {
        let ty = if name.starts_with("max_line") || name.starts_with("max_text") || name == "max_move_column" { "usize" } else { "u32" };
        writeln!(s, "pub(super) const {}: {ty} = {v};", state_const(name)).ok();
    }
    writeln!(s, "\n/// Inputs per row.\npub(super) const CLASSES: usize = {CLASSES};").ok();
    writeln!(s, "/// The input of the bidi controls {}.", BIDI_RANGES.iter().map(|(a, b)| format!("U+{a:04X}..U+{b:04X}")).collect::<Vec<_>>().join(" and ")).ok();
    writeln!(s, "pub(super) const CLASS_BIDI: usize = {BIDI};").ok();
    writeln!(s, "/// The input of every other code point from U+00A0 up.\npub(super) const CLASS_TEXT: usize = {TEXT};").ok();
    writeln!(
        s,
        "/// The code points of `CLASS_BIDI`.\npub(super) const BIDI: [(u32, u32); {}] = [{}];",
        BIDI_RANGES.len(),
        BIDI_RANGES.iter().map(|(a, b)| format!("(0x{a:04X}, 0x{b:04X})")).collect::<Vec<_>>().join(", ")
    )
    .ok();
    s.push_str("\n// States.\n");
    for (i, name) in m.states.iter().enumerate() {
        writeln!(s, "pub(super) const {}: u8 = {i};", state_const(name)).ok();
    }
    s.push_str("\n// Actions.\n");
    for (i, a) in ACTIONS.iter().enumerate() {
        writeln!(s, "pub(super) const {}: u8 = {i};", a.to_uppercase()).ok();
    }
    writeln!(s, "\n/// {INLINE_CSI_DOC}\npub(super) const INLINE_CSI: bool = {};", inline_csi(m)).ok();
    writeln!(s, "\n/// `action << 4 | next` for `state * CLASSES + input`.\npub(super) const TABLE: [u8; {}] = [", m.states.len() * CLASSES).ok();
    for (name, row) in hex_rows(m) {
        writeln!(s, "    // {name}").ok();
        let bytes: Vec<String> = (0..CLASSES).map(|i| format!("0x{}", &row[2 * i..2 * i + 2])).collect();
        for chunk in bytes.chunks(18) {
            writeln!(s, "    {},", chunk.join(", ")).ok();
        }
    }
    s.push_str("];\n");
    Ok(s)
}

/// `templates/typescript/client/transcript_table.ts`.
pub fn typescript(m: &Machine) -> Result<String, String> {
    let mut s = format!("// {HEADER}\n\n");
    s.push_str("/*\n * The transcript's escape-sequence state machine as data: each state's row gives, for every\n");
    s.push_str(" * input (a code point U+0000..U+009F, then CLASS_BIDI and CLASS_TEXT), the action to take and\n");
    s.push_str(" * the next state, as `action << 4 | next`. transcript.ts interprets it.\n */\n\n");
    for (name, v) in &m.constants {
        writeln!(s, "export const {} = {v};", state_const(name)).ok();
    }
    writeln!(s, "export const CLASSES = {CLASSES};\nexport const CLASS_BIDI = {BIDI};\nexport const CLASS_TEXT = {TEXT};").ok();
    writeln!(
        s,
        "/** The code points of CLASS_BIDI, as inclusive ranges. */\nexport const BIDI: readonly (readonly [number, number])[] = [{}];",
        BIDI_RANGES.iter().map(|(a, b)| format!("[0x{a:04x}, 0x{b:04x}]")).collect::<Vec<_>>().join(", ")
    )
    .ok();
    s.push('\n');
    for (i, name) in m.states.iter().enumerate() {
        writeln!(s, "export const {} = {i};", state_const(name)).ok();
    }
    s.push('\n');
    for (i, a) in ACTIONS.iter().enumerate() {
        writeln!(s, "export const {} = {i};", a.to_uppercase()).ok();
    }
    writeln!(s, "\n/** {INLINE_CSI_DOC} */\nexport const INLINE_CSI: boolean = {};", inline_csi(m)).ok();
    s.push_str("\nfunction fromHex(rows: readonly string[]): Uint8Array {\n  const hex = rows.join(\"\");\n  const out = new Uint8Array(hex.length / 2);\n  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);\n  return out;\n}\n\n");
    s.push_str("/** `action << 4 | next` for `state * CLASSES + input`. */\nexport const TABLE: Uint8Array = fromHex([\n");
    for (name, row) in hex_rows(m) {
        writeln!(s, "  // {name}\n  \"{row}\",").ok();
    }
    s.push_str("]);\n\n");
    Ok(s)
}

/// `templates/python/client/transcript_table.py`.
pub fn python(m: &Machine) -> Result<String, String> {
    let d = Derive { m, syntax: Syntax(Flavor::PyBytes) };
    let mut s = format!("# {HEADER}\n");
    s.push_str("\"\"\"The transcript's escape-sequence state machine as data.\n\n");
    s.push_str("Each state's row gives, for every input (a code point U+0000..U+009F, then ``CLASS_BIDI`` and\n");
    s.push_str("``CLASS_TEXT``), the action to take and the next state, as ``action << 4 | next``. The regular\n");
    s.push_str("expressions of the bulk path are derived from the same table (xtask/codegen/src/transcript_table.rs says\n");
    s.push_str("how); they run on the UTF-8 bytes of a chunk without C1 controls. ``transcript.py`` interprets\n");
    s.push_str("them.\n\"\"\"\n\nimport re\nfrom typing import Final\n\n");
    for (name, v) in &m.constants {
        writeln!(s, "{}: Final = {v}", state_const(name)).ok();
    }
    writeln!(s, "CLASSES: Final = {CLASSES}\nCLASS_BIDI: Final = {BIDI}\nCLASS_TEXT: Final = {TEXT}").ok();
    writeln!(s, "BIDI: Final = ({})", BIDI_RANGES.iter().map(|(a, b)| format!("(0x{a:04X}, 0x{b:04X})")).collect::<Vec<_>>().join(", ")).ok();
    s.push_str("\n# States.\n");
    for (i, name) in m.states.iter().enumerate() {
        writeln!(s, "{}: Final = {i}", state_const(name)).ok();
    }
    s.push_str("\n# Actions.\n");
    for (i, a) in ACTIONS.iter().enumerate() {
        writeln!(s, "{}: Final = {i}", a.to_uppercase()).ok();
    }
    s.push_str("\nTABLE: Final = bytes.fromhex(\n");
    for (name, row) in hex_rows(m) {
        writeln!(s, "    # {name}").ok();
        for part in row.as_bytes().chunks(96) {
            writeln!(s, "    \"{}\"", String::from_utf8_lossy(part)).ok();
        }
    }
    s.push_str(")\n\"\"\"``action << 4 | next`` for ``state * CLASSES + input``.\"\"\"\n\n");
    // As `ruff format` writes them: on one line when it fits in 120 columns.
    let lit = |re: &str| {
        if re.len() + 40 <= 120 { format!("re.compile(rb\"{re}\")") } else { format!("re.compile(\n    rb\"{re}\"\n)") }
    };
    writeln!(s, "SILENT: Final = {}\n\"\"\"Every sequence without a visible effect, or its silent start up to an input that acts as in the ground state.\"\"\"\n", lit(&d.sequences(Mode::Silent)?))
        .ok();
    let cr_bs: Vec<u8> = [ground_ascii(m, CARRIAGE_RETURN), ground_ascii(m, BACKSPACE)].concat();
    let token = format!("[{}]|{}", cr_bs.iter().map(|b| format!("\\x{b:02x}")).collect::<String>(), d.sequences(Mode::Effect)?);
    writeln!(s, "TOKEN: Final = {}\n\"\"\"What acts on the line once the silent sequences are gone: CR, BS, or a sequence whose last step acts (CSI G, D, C, K).\"\"\"\n", lit(&token)).ok();
    writeln!(
        s,
        "BAD: Final = {}\n\"\"\"Once the silent sequences are gone, an ESC that does not start one acting on the line: the chunk takes the interpreter.\"\"\"\n",
        lit(&d.not_sequences(Mode::Effect)?)
    )
    .ok();
    writeln!(s, "OPEN: Final = {}\n\"\"\"A sequence still open at the end of the bytes.\"\"\"\n", lit(&d.sequences(Mode::Open)?)).ok();
    s.push_str("STRINGS: Final = (\n");
    for (opener, re) in strings(m, &d)? {
        writeln!(s, "    (b\"\\x1b\\x{opener:02x}\", re.compile(rb\"\\x1b\\x{opener:02x}{re}\")),").ok();
    }
    s.push_str(")\n\"\"\"For each string opener after ESC, the string and its payload up to what ends it.\"\"\"\n\n");
    let abort = (0u8..0x80).find(|&b| (0..m.states.len()).all(|st| m.at(st, usize::from(b)) == (IGNORE, 0)));
    match abort {
        Some(b) => writeln!(
            s,
            "ABORT: Final = {}\n\"\"\"An input that ends whatever is open, without effect (what a removed string leaves, so a sequence it interrupted stays interrupted).\"\"\"\n",
            py_bytes_literal(&[b])
        )
        .ok(),
        None => writeln!(s, "ABORT: Final = None\n\"\"\"No input ends every sequence without effect.\"\"\"\n").ok(),
    };
    writeln!(s, "DELETE: Final = (\n    {}\n)\n\"\"\"C0 controls and DEL without any effect once the sequences are gone (for ``bytes.translate``).\"\"\"\n", py_bytes_literal(&deletable(m))).ok();
    let no_effect_bidi = m.at(0, BIDI) == (IGNORE, 0);
    if no_effect_bidi {
        writeln!(
            s,
            "BIDI_BYTES: Final = {}\n\"\"\"The bidi controls, which the ground state removes, in UTF-8.\"\"\"\n",
            lit(&Syntax::group(&d.syntax.one_of(&(0..CLASSES).map(|i| i == BIDI).collect::<Vec<_>>(), false)))
        )
        .ok();
    } else {
        s.push_str("BIDI_BYTES: Final = None\n\"\"\"The ground state does not remove the bidi controls.\"\"\"\n\n");
    }
    writeln!(s, "CARRIAGE_RETURNS: Final = {}\nLINE_FEEDS: Final = {}", py_bytes_literal(&ground_ascii(m, CARRIAGE_RETURN)), py_bytes_literal(&ground_ascii(m, LINE_FEED))).ok();
    s.push_str("\"\"\"The ASCII inputs that move the cursor to column 0, and that end the line, in the ground state.\"\"\"\n\n");
    let text = Derive { m, syntax: Syntax(Flavor::PyStr) };
    let plain: Vec<bool> = (0..CLASSES).map(|i| !(0x80..0xA0).contains(&i) && m.at(0, i) == (PRINT, 0)).collect();
    writeln!(s, "PLAIN: Final = re.compile(r\"{}*\")\n\"\"\"A run of code points the ground state prints (and stays), for the interpreter.\"\"\"\n", Syntax::group(&text.syntax.one_of(&plain, true)))
        .ok();
    s.push_str("STAY: Final = (\n");
    for (st, name) in m.states.iter().enumerate() {
        let stay: Vec<bool> = (0..CLASSES).map(|i| m.at(st, i) == (IGNORE, u8::try_from(st).unwrap_or(0))).collect();
        let class = if stay.iter().any(|&x| x) { format!("{}*", Syntax::group(&text.syntax.one_of(&stay, true))) } else { String::new() };
        let entry = format!("re.compile(r\"{class}\"),");
        if entry.len() + 4 <= 120 {
            writeln!(s, "    # {name}\n    {entry}").ok();
        } else {
            writeln!(s, "    # {name}\n    re.compile(\n        r\"{class}\"\n    ),").ok();
        }
    }
    s.push_str(")\n\"\"\"For each state, a run of code points that do nothing there and stay, for the interpreter.\"\"\"\n");
    let _ = m.constant("max_param")?;
    // What the module exports: every name it defines.
    let mut names: Vec<&str> =
        s.lines().filter_map(|l| l.split_once(": Final").map(|(n, _)| n)).filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')).collect();
    names.sort_unstable();
    names.dedup();
    let all: String = names.iter().map(|n| format!("    \"{n}\",\n")).collect();
    s.push_str(&format!("\n__all__ = [\n{all}]\n"));
    Ok(s)
}

/// The three generated files, by path.
pub fn files(root: &std::path::Path) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(root.join(SOURCE)).map_err(|e| format!("{SOURCE}: {e}"))?;
    let m = parse(&text)?;
    Ok(vec![
        ("templates/rust/client/transcript_table.rs".into(), crate::rustfmt::rustfmt(&rust(&m)?)?),
        ("templates/typescript/client/transcript_table.ts".into(), typescript(&m)?),
        ("templates/python/client/transcript_table.py".into(), python(&m)?),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Machine {
        parse(&std::fs::read_to_string(crate::root().join(SOURCE)).expect("the source")).expect("it parses")
    }

    #[test]
    fn the_source_compiles_and_decides_the_documented_cases() {
        let m = machine();
        let st = |n: &str| m.states.iter().position(|s| s == n).expect(n);
        let act = |n: &str| u8::try_from(ACTIONS.iter().position(|a| *a == n).expect(n)).expect("small");
        let at = |s: &str, i: usize| (ACTIONS[usize::from(m.at(st(s), i).0)], m.states[usize::from(m.at(st(s), i).1)].as_str());
        assert_eq!(m.states[0], "ground");
        assert_eq!(at("ground", 0x1B), ("ignore", "escape"));
        assert_eq!(at("ground", usize::from(b'a')), ("print", "ground"));
        assert_eq!(at("csi_param", usize::from(b'K')), ("erase_in_line", "ground"));
        assert_eq!(at("csi_private", usize::from(b'K')), ("ignore", "ground"), "a private marker disables the final");
        assert_eq!(at("csi_param", usize::from(b':')), ("ignore", "csi_ignore"));
        assert_eq!(at("osc", 0x07), ("ignore", "ground"), "BEL ends an OSC string");
        assert_eq!(at("string", 0x07), ("ignore", "string"), "BEL is DCS payload");
        assert_eq!(at("csi_entry", 0x0D), ("carriage_return", "csi_entry"), "C0 controls act inside CSI");
        assert_eq!(at("osc", 0x0D), ("ignore", "osc"), "and are payload in strings");
        assert_eq!(at("csi_param", TEXT), ("print", "ground"));
        assert_eq!(at("osc", TEXT), ("ignore", "osc"));
        assert_eq!(at("string", 0x9C), ("ignore", "ground"), "C1 ST");
        assert_eq!(at("ground", BIDI), ("ignore", "ground"));
        assert_eq!(m.constant("max_param"), Ok(65535));
        assert_eq!(act("param"), PARAM);
        assert!(m.is_string(st("osc")) && m.is_string(st("string")) && !m.is_string(st("csi_ignore")));
    }

    #[test]
    fn bad_sources_are_errors_that_name_the_line() {
        let head = "states ground esc\n";
        let cases = [
            (format!("{head}all : 00-9F bidi text -> ignore same\nground : 41 -> print same\n"), ":3: this rule decides nothing"),
            (format!("{head}ground : 00-9F bidi text -> ignore same\n"), "no rule decides input 00 in state `esc`"),
            (format!("{head}all : 00-9F bidi text -> jump same\n"), ":2: unknown action `jump`"),
            (format!("{head}all : 00-A0 -> ignore same\n"), "code points are written only up to 9F"),
            (format!("{head}nowhere : otherwise -> ignore same\n"), "`nowhere` is neither a state nor a set"),
            ("ground : 41 -> print same\n".to_owned(), "a rule before the `states` line"),
        ];
        for (src, want) in cases {
            let e = parse(&src).expect_err(&src);
            assert!(e.contains(want), "{src}\n{e}\n(wanted {want})");
        }
    }

    #[test]
    fn the_inline_csi_path_is_allowed_exactly_when_the_table_reads_csi_so() {
        let mut m = machine();
        assert!(super::inline_csi(&m));
        // `;` in csi_param taken as a parameter digit would make the inline path wrong.
        let param = m.states.iter().position(|s| s == "csi_param").expect("csi_param");
        m.table[param * CLASSES + 0x3B] = (super::PARAM, u8::try_from(param).expect("fits"));
        assert!(!super::inline_csi(&m));
    }

    #[test]
    fn a_cycle_of_silent_steps_is_refused() {
        // `a` and `b` differ (42 prints in `a` only), so the derivation cannot merge them.
        let src = "states ground a b\nall : 1B -> ignore a\na : 41 -> ignore b\nb : 41 -> ignore a\na : 42 -> print ground\nall : otherwise -> ignore ground\n";
        let m = parse(src).expect("parses");
        let e = python(&m).expect_err("a cycle");
        assert!(e.contains("a -> b -> a"), "{e}");
    }

    #[test]
    fn the_derived_expressions_read_as_intended() {
        let m = machine();
        let py = Derive { m: &m, syntax: Syntax(Flavor::PyBytes) };
        let silent = py.sequences(Mode::Silent).expect("silent");
        assert!(silent.starts_with("\\x1b"), "{silent}");
        // An SGR sequence ends at `m`; CSI `K` is no silent final.
        assert!(silent.contains("[\\x40-\\x42\\x45\\x46\\x48-\\x4a\\x4c-\\x7e]"), "{silent}");
        let effect = py.sequences(Mode::Effect).expect("effect");
        assert!(effect.contains("[\\x43\\x44\\x47\\x4b]"), "{effect}");
        assert_eq!(deletable(&m), [(0x00..=0x07).collect::<Vec<u8>>(), vec![0x0B, 0x0C], (0x0E..=0x1A).collect(), (0x1C..=0x1F).collect(), vec![0x7F]].concat());
        let s = strings(&m, &py).expect("strings");
        assert_eq!(s.iter().map(|(b, _)| *b).collect::<Vec<_>>(), b"PX]^_");
    }
}
