// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/state.rs byte for byte as src/wire/state.rs of every generated crate; edit it here, never a copy.
//! The session-state reducer: what a schema's `x-state` annotations say each message
//! does to the state, applied. The generator writes the annotations as a table
//! (`registry::state_rules`); this file is the one interpreter of it, with the same
//! rules as the TypeScript and Python runtimes'.
//!
//! Each message is first decoded by the package's own types, so what is applied is the
//! canonical value: every wire rule checked, a malformed lenient member already left out.
//! Then each of its actions applies:
//!
//! - `upsert` merges the value into the target (by id, or the singleton): an omitted
//!   member is unchanged, `null` is stored as `null` (cleared), a value replaces; a
//!   first-seen id starts empty. A top-level `_meta` is patched key by key: a key set
//!   to `null` is removed, others replace their key; `_meta: null` clears it.
//! - `append` adds to a member of the target: an item or items to an array (`null` or
//!   absent counts as empty), text to a string, or the decoded bytes of a bytes member
//!   (each chunk decoded alone, never base64 text concatenated).
//! - `replace` sets the target (or its member) to the value; `remove` drops the target.
//!
//! An action whose id or value member the message does not have does nothing.
//!
//! What an Agent can make the state hold is bounded ([`StateLimits`]): past a limit the
//! oldest go first (the first-seen target of its kind, the first items, bytes or code
//! points of an appended member), and [`StateCounters`] counts what went.

use super::limits::{DEFAULT_MAX_STATE_BYTES, DEFAULT_MAX_STATE_ITEMS, DEFAULT_MAX_STATE_MEMBERS, DEFAULT_MAX_STATE_TARGETS, DEFAULT_MAX_STATE_TEXT};
use super::{Error, Json, Members, Warning, decode_base64, encode_base64, parse_value};
use std::collections::{HashMap, VecDeque};

/// What a session state keeps at most; the same in the three languages. The defaults
/// (`templates/rules/limits.txt`) are safe for an interactive Client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateLimits {
    /// Targets of one kind (of one owner) kept by id: a new one past it drops the first
    /// seen (counted in [`StateCounters::targets_dropped`]).
    pub max_targets: usize,
    /// Items an appended array member keeps: past it the first go.
    pub max_items: usize,
    /// Decoded bytes an appended bytes member keeps: past it the first go.
    pub max_bytes: usize,
    /// Code points an appended text member keeps: past it the first go.
    pub max_text: usize,
    /// Members an upsert lets a target have beyond those its definitions name (which are
    /// always kept), and keys its top-level `_meta`: a member (or key) new to the target
    /// past it is not kept (counted in [`StateCounters::members_dropped`]); one the target
    /// has is still replaced or cleared.
    pub max_members: usize,
}

impl Default for StateLimits {
    fn default() -> Self {
        Self {
            max_targets: DEFAULT_MAX_STATE_TARGETS,
            max_items: DEFAULT_MAX_STATE_ITEMS,
            max_bytes: DEFAULT_MAX_STATE_BYTES,
            max_text: DEFAULT_MAX_STATE_TEXT,
            max_members: DEFAULT_MAX_STATE_MEMBERS,
        }
    }
}

impl StateLimits {
    /// The limits a JSON object gives (`{"maxTargets": 100, "maxBytes": 0}`, as a `state`
    /// fixture or a Client's settings write them); a limit it leaves out is the default.
    ///
    /// # Errors
    /// Not an object (`wrong_type`), a member that is no limit (`forbidden_member`), or a
    /// limit that is not a whole number from 0 (`wrong_type`, `out_of_range`), at its pointer.
    pub fn from_json(v: &Json) -> Result<Self, Error> {
        use super::{ErrorKind, push_token};
        let Some(members) = v.as_object() else { return Err(Error::new(ErrorKind::WrongType, "", "limits are an object of maxTargets, maxItems, maxBytes, maxText and maxMembers")) };
        let mut out = Self::default();
        for (name, n) in members.iter() {
            let mut at = String::new();
            push_token(&mut at, name);
            let slot = match name.as_str() {
                "maxTargets" => &mut out.max_targets,
                "maxItems" => &mut out.max_items,
                "maxBytes" => &mut out.max_bytes,
                "maxText" => &mut out.max_text,
                "maxMembers" => &mut out.max_members,
                _ => return Err(Error::new(ErrorKind::ForbiddenMember, at, "the limits are maxTargets, maxItems, maxBytes, maxText and maxMembers")),
            };
            let Some(x) = n.as_f64().filter(|x| x.fract() == 0.0) else { return Err(Error::new(ErrorKind::WrongType, at, "a limit is a whole number")) };
            // The same range in the three languages: what a JSON number holds exactly.
            if !(0.0..=MAX_SAFE_INTEGER).contains(&x) {
                return Err(Error::new(ErrorKind::OutOfRange, at, "a limit is a whole number from 0 to 9007199254740991 (2^53 - 1)"));
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "checked whole, from 0 to 2^53 - 1; saturates on a 32-bit machine")]
            let n = x as usize;
            *slot = n;
        }
        Ok(out)
    }
}

/// What a session state dropped because a [`StateLimits`] limit was hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StateCounters {
    /// Targets dropped to make room for a new one of their kind.
    pub targets_dropped: u64,
    /// Items dropped from the front of appended array members.
    pub items_dropped: u64,
    /// Bytes dropped from the front of appended bytes members.
    pub bytes_dropped: u64,
    /// Code points dropped from the front of appended text members.
    pub text_dropped: u64,
    /// Members (and `_meta` keys) an upsert did not keep, past [`StateLimits::max_members`].
    pub members_dropped: u64,
}

impl StateCounters {
    /// The counters as JSON (`targetsDropped`, `itemsDropped`, `bytesDropped`,
    /// `textDropped`, `membersDropped`), as `state` fixtures compare them.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "counts stay far below 2^53")]
    pub fn to_json(&self) -> Json {
        let mut m = Members::new();
        for (name, n) in [
            ("targetsDropped", self.targets_dropped),
            ("itemsDropped", self.items_dropped),
            ("bytesDropped", self.bytes_dropped),
            ("textDropped", self.text_dropped),
            ("membersDropped", self.members_dropped),
        ] {
            m.insert(name, n as f64);
        }
        Json::Object(m)
    }
}

/// The largest whole number a JSON number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// Decodes a message of a definition: its canonical text and warnings, `None` when the
/// package has no such definition.
pub type StateDecoder = dyn Fn(&str, &str) -> Option<Result<(String, Vec<Warning>), Error>> + Send + Sync;

#[derive(Debug, Clone)]
struct Rule {
    owner: String,
    /// The definition the message is, or its union; and the union's tag member and value.
    message: String,
    tag: Option<(String, String)>,
    action: String,
    target: String,
    keyed: bool,
    id: Option<Vec<String>>,
    field: Option<Vec<String>>,
    value: Option<Vec<String>>,
    appends: Option<String>,
    /// The members the target's definitions name, sorted: always kept, where
    /// [`StateLimits::max_members`] bounds the others.
    known: Vec<String>,
    /// Tag members the message must have one of the given tags at (a value taken from a
    /// variant the package does not know changes nothing).
    when: Vec<(Vec<String>, Vec<String>)>,
}

/// One target: (owner, target, id).
type EntityKey = (String, String, Option<String>);

/// What one target's appended members hold (decoded bytes, text, items), by member path
/// (the state holds `""` or `[]` there).
type HeldMembers = Vec<(Vec<String>, Held)>;

/// What an appended member holds beside the state.
enum Held {
    Bytes(Tail),
    Text(TextTail),
    /// The items of an appended array member: the first past [`StateLimits::max_items`]
    /// leave the front in O(1) each.
    Items(VecDeque<Json>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bytes,
    Text,
    Items,
}

impl Held {
    const fn kind(&self) -> Kind {
        match self {
            Self::Bytes(_) => Kind::Bytes,
            Self::Text(_) => Kind::Text,
            Self::Items(_) => Kind::Items,
        }
    }
}

/// The text of one appended text member: `buf[start..]`, `points` code points. As [`Tail`]:
/// the first code points past [`StateLimits::max_text`] are dropped by moving `start`, and the
/// buffer is compacted once what it dropped is as long as what it keeps, so an append costs
/// its chunk (amortised), not the limit (where counting and cutting the whole string did).
#[derive(Default)]
struct TextTail {
    buf: String,
    start: usize,
    points: usize,
}

impl TextTail {
    fn text(&self) -> &str {
        &self.buf[self.start..]
    }

    /// Appends `chunk` and keeps the last `max` code points. Returns how many it dropped
    /// and the bytes it copied.
    fn push(&mut self, chunk: &str, max: usize) -> (usize, usize) {
        let more = chunk.chars().count();
        if more >= max {
            // The chunk alone fills the limit: its last code points are all that is kept.
            let dropped = self.points + more - max;
            let at = chunk.char_indices().nth(more - max).map_or(chunk.len(), |(i, _)| i);
            self.buf = chunk[at..].to_owned();
            self.start = 0;
            self.points = max;
            return (dropped, self.buf.len());
        }
        self.buf.push_str(chunk);
        self.points += more;
        let mut copied = chunk.len();
        let dropped = self.points.saturating_sub(max);
        if dropped > 0 {
            let rest = &self.buf[self.start..];
            self.start += rest.char_indices().nth(dropped).map_or(rest.len(), |(i, _)| i);
            self.points = max;
        }
        if self.start > 0 && self.start >= self.buf.len() - self.start {
            copied += self.buf.len() - self.start;
            self.buf.drain(..self.start);
            self.start = 0;
        }
        (dropped, copied)
    }
}

/// The decoded bytes of one appended member: `buf[start..]`. The first bytes past
/// [`StateLimits::max_bytes`] are dropped by moving `start`, and the buffer is compacted
/// once what it has dropped is as long as what it keeps, so an append costs its chunk
/// (amortised), not the limit, and the buffer holds at most twice the limit.
#[derive(Default)]
struct Tail {
    buf: Vec<u8>,
    start: usize,
}

impl Tail {
    fn bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// Appends `chunk` and keeps the last `max` bytes. Returns how many it dropped and the
    /// bytes it copied (the chunk, and what a compaction moved).
    fn push(&mut self, chunk: &[u8], max: usize) -> (usize, usize) {
        if chunk.len() >= max {
            // The chunk alone fills the limit: its last bytes are all that is kept (in a
            // buffer of their own, so that a larger one held before is freed).
            let dropped = self.buf.len() - self.start + chunk.len() - max;
            self.buf = chunk[chunk.len() - max..].to_vec();
            self.start = 0;
            return (dropped, max);
        }
        self.buf.extend_from_slice(chunk);
        let mut copied = chunk.len();
        let held = self.buf.len() - self.start;
        let dropped = held.saturating_sub(max);
        self.start += dropped;
        if self.start > 0 && self.start >= self.buf.len() - self.start {
            copied += self.buf.len() - self.start;
            self.buf.drain(..self.start);
            self.start = 0;
        }
        (dropped, copied)
    }
}

/// The state of one session, as the schema's `x-state` annotations define it.
pub struct SessionState {
    rules: Vec<Rule>,
    decode: Box<StateDecoder>,
    /// Owner -> target -> the target (singleton) or id -> target (keyed).
    state: Members,
    /// What appends added to appended members (bytes kept decoded, written as base64 by
    /// `get` and `snapshot`; text; items), by target and member path.
    held: HashMap<EntityKey, HeldMembers>,
    limits: StateLimits,
    counters: StateCounters,
    /// What appends copied ([`SessionState::work`]).
    work: u64,
    /// The definition each target of the `session` owner is ([`SessionState::type_of`]),
    /// and whether it is kept by id.
    types: Vec<(String, String, bool)>,
}

impl std::fmt::Debug for SessionState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionState").field("state", &self.snapshot()).finish_non_exhaustive()
    }
}

fn strings(v: Option<&Json>) -> Option<Vec<String>> {
    v.and_then(Json::as_array).map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
}

fn get<'a>(v: &'a Json, path: &[String]) -> Option<&'a Json> {
    path.iter().try_fold(v, |at, name| at.get(name))
}

/// The member at `path` of `v`, made an object on the way where it is not one.
fn slot<'a>(v: &'a mut Json, path: &[String]) -> &'a mut Json {
    let mut at = v;
    for name in path {
        if !at.is_object() {
            *at = Json::Object(Members::new());
        }
        let Json::Object(m) = at else { unreachable!("made an object above") };
        if !m.contains_key(name) {
            m.insert(name.clone(), Json::Null);
        }
        at = m.get_mut(name).expect("inserted above");
    }
    at
}

/// Upsert: merges the members of `value` into `into` (module docs). A member of `known`
/// (sorted) is always kept; of the others, and of the keys of `_meta`, at most `cap` (a
/// new one past it is not kept). Returns how many it did not keep.
fn merge(into: &mut Json, value: &Members, skip: Option<&str>, cap: usize, known: &[String]) -> u64 {
    if !into.is_object() {
        *into = Json::Object(Members::new());
    }
    let Json::Object(to) = into else { return 0 };
    let is_known = |name: &str| known.binary_search_by(|k| k.as_str().cmp(name)).is_ok();
    // The members kept that the definitions do not name, counted when first needed.
    let mut others: Option<usize> = None;
    let mut dropped = 0;
    for (name, v) in value.iter().filter(|(n, _)| Some(n.as_str()) != skip) {
        if to.get(name).is_none() && !is_known(name) {
            let n = others.get_or_insert_with(|| to.iter().filter(|(k, _)| !is_known(k)).count());
            if *n >= cap {
                dropped += 1;
                continue;
            }
            *n += 1;
        }
        match (name.as_str(), v, to.get_mut(name)) {
            ("_meta", Json::Object(patch), Some(Json::Object(meta))) => {
                for (k, x) in patch.iter() {
                    if x.is_null() {
                        meta.remove(k);
                    } else if meta.len() < cap || meta.get(k).is_some() {
                        meta.insert(k.clone(), x.clone());
                    } else {
                        dropped += 1;
                    }
                }
            }
            ("_meta", Json::Object(patch), _) => {
                let mut fresh = Members::new();
                for (k, x) in patch.iter().filter(|(_, x)| !x.is_null()) {
                    if fresh.len() < cap {
                        fresh.insert(k.clone(), x.clone());
                    } else {
                        dropped += 1;
                    }
                }
                to.insert(name.clone(), fresh);
            }
            _ => {
                to.insert(name.clone(), v.clone());
            }
        }
    }
    dropped
}

impl SessionState {
    /// An empty state with the table `rules` (`registry::state_rules`), decoding each
    /// message with `decode` (`registry::decode` of the schema's version).
    ///
    /// # Panics
    /// When `rules` is not a table the generator wrote.
    #[must_use]
    pub fn new(rules: &str, decode: impl Fn(&str, &str) -> Option<Result<(String, Vec<Warning>), Error>> + Send + Sync + 'static) -> Self {
        let table = parse_value(rules).expect("a session-state table written by cargo xtask gen");
        let mut out = Vec::new();
        for (owner, o) in table.as_object().map(Members::iter).into_iter().flatten() {
            let of = |t: &str| o.get("targets").and_then(Json::as_array).into_iter().flatten().find(|x| x.get("name").and_then(Json::as_str) == Some(t));
            let keyed = |t: &str| of(t).and_then(|x| x.get("keyed")).and_then(Json::as_bool) == Some(true);
            let known = |t: &str| {
                let mut names = of(t).and_then(|x| strings(x.get("members"))).unwrap_or_default();
                names.sort_unstable();
                names
            };
            for r in o.get("rules").and_then(Json::as_array).into_iter().flatten() {
                let s = |k: &str| r.get(k).and_then(Json::as_str).map(str::to_owned);
                let target = s("target").unwrap_or_default();
                let (union, tag, member) = (s("union"), s("tag"), s("tagMember"));
                out.push(Rule {
                    owner: owner.clone(),
                    message: union.clone().or_else(|| s("message")).unwrap_or_default(),
                    tag: tag.zip(member).map(|(t, m)| (m, t)),
                    action: s("action").unwrap_or_default(),
                    keyed: keyed(&target),
                    known: known(&target),
                    target,
                    id: strings(r.get("id")),
                    field: strings(r.get("field")),
                    value: strings(r.get("value")),
                    appends: s("appends"),
                    when: r.get("when").and_then(Json::as_array).into_iter().flatten().map(|g| (strings(g.get("path")).unwrap_or_default(), strings(g.get("in")).unwrap_or_default())).collect(),
                });
            }
        }
        let types = table
            .get("session")
            .and_then(|o| o.get("targets"))
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| Some((t.get("name")?.as_str()?.to_owned(), t.get("type")?.as_str()?.to_owned(), t.get("keyed").and_then(Json::as_bool) == Some(true))))
            .collect();
        // Every owner is there from the start, empty (`{"session": {}}`).
        let mut state = Members::new();
        for (owner, _) in table.as_object().map(Members::iter).into_iter().flatten() {
            state.insert(owner.clone(), Json::Object(Members::new()));
        }
        Self { rules: out, decode: Box::new(decode), state, held: HashMap::new(), limits: StateLimits::default(), counters: StateCounters::default(), work: 0, types }
    }

    /// The same state, keeping at most `limits` from now on.
    #[must_use]
    pub fn with_limits(mut self, limits: StateLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    #[must_use]
    pub fn limits(&self) -> StateLimits {
        self.limits
    }

    /// What the limits dropped so far.
    #[must_use]
    pub fn counters(&self) -> StateCounters {
        self.counters
    }

    /// What appends have copied so far: the bytes of each bytes or text chunk and each item,
    /// and what dropping the first bytes or code points past [`StateLimits::max_bytes`] and
    /// [`StateLimits::max_text`] moved. The work counter tests read to check, without a clock,
    /// that an append costs its chunk and not the limit.
    #[must_use]
    pub const fn work(&self) -> u64 {
        self.work
    }

    /// Replaces the whole state with `snapshot` (what [`SessionState::snapshot`] gave,
    /// kept elsewhere). The limits apply to what comes after, not to the snapshot.
    ///
    /// # Errors
    /// The state unchanged, when `snapshot` is not an object of owners, a bytes member holds
    /// anything but strict base64 or `null`, or a target does not decode as its definition
    /// ([`SessionState::type_of`]) without a warning: the problem's kind and pointer.
    pub fn restore(&mut self, snapshot: &Json) -> Result<(), Error> {
        use super::{ErrorKind, push_token};
        let pointer = |at: &[&str]| {
            let mut p = String::new();
            for token in at {
                push_token(&mut p, token);
            }
            p
        };
        let Some(owners) = snapshot.as_object() else { return Err(Error::new(ErrorKind::WrongType, "", "a session-state snapshot is an object of owners")) };
        if let Some((owner, _)) = owners.iter().find(|(_, t)| !t.is_object()) {
            return Err(Error::new(ErrorKind::WrongType, pointer(&[owner]), "each owner of a snapshot is an object"));
        }
        for r in self.rules.iter().filter(|r| r.appends.as_deref() == Some("bytes")) {
            let at = owners.get(&r.owner).and_then(|o| o.get(&r.target));
            let entities: Vec<(Option<&str>, Option<&Json>)> =
                if r.keyed { at.and_then(Json::as_object).map(|m| m.iter().map(|(id, e)| (Some(id.as_str()), Some(e))).collect()).unwrap_or_default() } else { vec![(None, at)] };
            let field = r.field.clone().unwrap_or_default();
            for (id, entity) in entities {
                let mut where_: Vec<&str> = vec![&r.owner, &r.target];
                where_.extend(id);
                where_.extend(field.iter().map(String::as_str));
                match entity.and_then(|e| get(e, &field)) {
                    Some(Json::String(text)) => {
                        if let Err(e) = decode_base64(text) {
                            return Err(Error::new(ErrorKind::InvalidBase64, pointer(&where_), e.to_string()));
                        }
                    }
                    None | Some(Json::Null) => {}
                    Some(_) => return Err(Error::new(ErrorKind::WrongType, pointer(&where_), "a bytes member is base64 text")),
                }
            }
        }
        // Each target of a definition must be one the package would have made: it decodes
        // as its definition without an error or a warning.
        for (target, name, keyed) in &self.types {
            let Some(at) = owners.get("session").and_then(|s| s.get(target)) else { continue };
            let entities: Vec<(Option<&str>, &Json)> = match (keyed, at) {
                (true, Json::Object(m)) => m.iter().map(|(id, e)| (Some(id.as_str()), e)).collect(),
                _ => vec![(None, at)],
            };
            for (id, entity) in entities {
                let mut base: Vec<&str> = vec!["session", target];
                base.extend(id);
                let base = pointer(&base);
                match (self.decode)(name, &super::to_string(entity)) {
                    Some(Err(e)) => return Err(Error::new(e.kind, format!("{base}{}", e.path), e.message)),
                    Some(Ok((_, warnings))) => {
                        if let Some(w) = warnings.first() {
                            return Err(Error::new(w.kind, format!("{base}{}", w.path), format!("not what the package keeps: {}", w.message)));
                        }
                    }
                    None => {}
                }
            }
        }
        self.state = owners.clone();
        self.held.clear();
        Ok(())
    }

    /// Decodes `text` as the definition `name` (`"SessionUpdate"`, `"NewSessionResponse"`
    /// ...) and applies what its annotations say. A message without annotations, or of
    /// an unknown variant, changes nothing.
    ///
    /// # Errors
    /// The decoding error (kind, pointer, message): the state is unchanged. A definition
    /// the package does not have is an `unknown_variant` error at the root.
    pub fn apply(&mut self, name: &str, text: &str) -> Result<Vec<Warning>, Error> {
        let (canonical, warnings) = (self.decode)(name, text).unwrap_or_else(|| Err(Error::new(super::ErrorKind::UnknownVariant, "", format!("the package has no definition `{name}`"))))?;
        let message = parse_value(&canonical)?;
        let rules: Vec<Rule> = self.rules_of(name, &message).cloned().collect();
        for r in &rules {
            self.act(r, &message);
        }
        Ok(warnings)
    }

    /// The rules of a message of definition `name` (its union's tag read from `message`).
    fn rules_of<'a>(&'a self, name: &'a str, message: &'a Json) -> impl Iterator<Item = &'a Rule> + 'a {
        self.rules.iter().filter(move |r| r.message == name && r.tag.as_ref().is_none_or(|(member, tag)| message.get(member).and_then(Json::as_str) == Some(tag.as_str())))
    }

    /// What rule `r` takes from `message`: the id (`None` for a singleton), the value and
    /// the tag member to leave out; `None` when its guards or paths do not hold.
    fn resolve<'m>(r: &'m Rule, message: &'m Json) -> Option<(Option<String>, &'m Json, Option<&'m str>)> {
        if !r.when.iter().all(|(path, tags)| get(message, path).and_then(Json::as_str).is_some_and(|t| tags.iter().any(|x| x == t))) {
            return None;
        }
        let id = match &r.id {
            Some(path) => Some(get(message, path).and_then(Json::as_str)?.to_owned()),
            None => None,
        };
        let value = match &r.value {
            Some(path) => get(message, path)?,
            None => message,
        };
        let skip = if r.value.is_none() { r.tag.as_ref().map(|(m, _)| m.as_str()) } else { None };
        Some((id, value, skip))
    }

    /// Applies the upserts that `message` (of definition `name`, already decoded by the
    /// package: its canonical value) makes to a target of kind `target`, to `entity`: one
    /// such target kept by the caller instead of this state. The terminal store keeps its
    /// terminals so, beside their bytes: an upsert changes `entity` exactly as it changes
    /// a target of this state (omitted unchanged, `null` kept as `null`, a value replacing,
    /// `_meta` key by key, at most `max_members` members and `_meta` keys as
    /// [`StateLimits::max_members`] says). Appends are not applied: the caller keeps what
    /// is appended. Returns how many members and keys it did not keep.
    pub fn upsert_into(&self, name: &str, message: &Json, target: &str, entity: &mut Json, max_members: usize) -> u64 {
        let mut dropped = 0;
        for r in self.rules_of(name, message).filter(|r| r.target == target && r.action == "upsert") {
            if let Some((_, Json::Object(v), skip)) = Self::resolve(r, message) {
                dropped += merge(entity, v, skip, max_members, &r.known);
            }
        }
        dropped
    }

    fn act(&mut self, r: &Rule, message: &Json) {
        let Some((id, value, skip)) = Self::resolve(r, message) else { return };
        if r.action == "remove" {
            if let (Some(id), Some(Json::Object(m))) = (&id, self.state.get_mut(&r.owner).and_then(|o| if let Json::Object(o) = o { o.get_mut(&r.target) } else { None })) {
                m.remove(id);
            }
            self.drop_held(r, id.as_deref(), &[]);
            return;
        }
        let fresh = r.keyed && id.as_ref().is_some_and(|id| self.state.get(&r.owner).and_then(|o| o.get(&r.target)).is_none_or(|t| t.get(id).is_none()));
        self.change(r, id.as_ref(), skip, value);
        if fresh {
            self.evict(r);
        }
    }

    /// Past `max_targets` of `r`'s kind, drops the first seen (and what they hold beside the
    /// state).
    fn evict(&mut self, r: &Rule) {
        let Some(Json::Object(by_id)) = self.state.get_mut(&r.owner).and_then(|o| if let Json::Object(o) = o { o.get_mut(&r.target) } else { None }) else { return };
        // In one pass: a restored snapshot past the limit may drop many at once.
        let cut = by_id.len().saturating_sub(self.limits.max_targets);
        let gone: Vec<String> = by_id.keys().take(cut).cloned().collect();
        let mut seen = 0;
        by_id.retain(|_, _| {
            seen += 1;
            seen > cut
        });
        self.counters.targets_dropped += count(gone.len());
        for id in gone {
            self.drop_held(r, Some(&id), &[]);
        }
    }

    fn change(&mut self, r: &Rule, id: Option<&String>, skip: Option<&str>, value: &Json) {
        let limits = self.limits;
        let targets = slot_in(&mut self.state, &r.owner);
        let entity = if r.keyed {
            let by_id = slot_in_json(targets, &r.target);
            slot(by_id, std::slice::from_ref(id.expect("a keyed target's rule has an id")))
        } else {
            slot_in_json(targets, &r.target)
        };
        match r.action.as_str() {
            "upsert" => {
                if let Json::Object(v) = value {
                    self.counters.members_dropped += merge(entity, v, skip, limits.max_members, &r.known);
                    let touched: Vec<String> = v.keys().cloned().collect();
                    for name in touched {
                        self.drop_held(r, id.map(String::as_str), std::slice::from_ref(&name));
                    }
                }
            }
            "replace" => {
                let v = match (value, skip) {
                    (Json::Object(m), Some(tag)) => {
                        let mut m = m.clone();
                        m.remove(tag);
                        Json::Object(m)
                    }
                    _ => value.clone(),
                };
                match &r.field {
                    Some(field) => *slot(entity, field) = v,
                    None => *entity = v,
                }
                let field = r.field.clone().unwrap_or_default();
                self.drop_held(r, id.map(String::as_str), &field);
            }
            "append" => {
                let field = r.field.clone().unwrap_or_default();
                if r.keyed && !entity.is_object() {
                    let mut m = Members::new();
                    if let (Some(id), Some(name)) = (id, r.id.as_ref().and_then(|p| p.last())) {
                        m.insert(name.clone(), id.as_str());
                    }
                    *entity = Json::Object(m);
                }
                let at = slot(entity, &field);
                // Beside the state (which holds "", or [] for items, there): an append costs
                // its chunk, not what the member holds.
                let kind = match r.appends.as_deref() {
                    Some("bytes") => Kind::Bytes,
                    Some("text") => Kind::Text,
                    _ => Kind::Items,
                };
                let members = self.held.entry((r.owner.clone(), r.target.clone(), id.cloned())).or_default();
                let i = match members.iter().position(|(p, held)| *p == field && held.kind() == kind) {
                    Some(i) => i,
                    None => {
                        members.retain(|(p, _)| *p != field);
                        let held = match kind {
                            Kind::Bytes => Held::Bytes(Tail { buf: at.as_str().and_then(|t| decode_base64(t).ok()).unwrap_or_default(), start: 0 }),
                            Kind::Text => {
                                let first = at.as_str().unwrap_or_default().to_owned();
                                Held::Text(TextTail { points: first.chars().count(), buf: first, start: 0 })
                            }
                            Kind::Items => Held::Items(match std::mem::take(at) {
                                Json::Array(items) => items.into(),
                                _ => VecDeque::new(),
                            }),
                        };
                        members.push((field, held));
                        members.len() - 1
                    }
                };
                match &mut members[i].1 {
                    Held::Bytes(tail) => {
                        let chunk = value.as_str().and_then(|t| decode_base64(t).ok()).unwrap_or_default();
                        let (dropped, copied) = tail.push(&chunk, limits.max_bytes);
                        self.counters.bytes_dropped += count(dropped);
                        self.work += count(copied);
                        *at = Json::String(String::new());
                    }
                    Held::Text(tail) => {
                        let (dropped, copied) = tail.push(value.as_str().unwrap_or_default(), limits.max_text);
                        self.counters.text_dropped += count(dropped);
                        self.work += count(copied);
                        *at = Json::String(String::new());
                    }
                    Held::Items(items) => {
                        let before = items.len();
                        match (r.appends.as_deref(), value) {
                            (Some("items"), Json::Array(more)) => items.extend(more.iter().cloned()),
                            (_, v) => items.push_back(v.clone()),
                        }
                        self.work += count(items.len() - before);
                        let cut = items.len().saturating_sub(limits.max_items);
                        items.drain(..cut);
                        self.counters.items_dropped += count(cut);
                        *at = Json::Array(Vec::new());
                    }
                }
            }
            _ => {}
        }
    }

    /// Forgets what the appended members of `r`'s target under `prefix` hold beside the
    /// state (the JSON value there is now the truth).
    fn drop_held(&mut self, r: &Rule, id: Option<&str>, prefix: &[String]) {
        let key = (r.owner.clone(), r.target.clone(), id.map(str::to_owned));
        if let Some(members) = self.held.get_mut(&key) {
            members.retain(|(p, _)| !p.starts_with(prefix));
            if members.is_empty() {
                self.held.remove(&key);
            }
        }
    }

    /// `entity` (a copy of the target `key`) with what its appended members hold written in
    /// (bytes as base64).
    fn with_held(&self, key: &EntityKey, mut entity: Json) -> Json {
        for (path, held) in self.held.get(key).into_iter().flatten() {
            *slot(&mut entity, path) = match held {
                Held::Bytes(tail) => Json::String(encode_base64(tail.bytes())),
                Held::Text(tail) => Json::String(tail.text().to_owned()),
                Held::Items(items) => Json::Array(items.iter().cloned().collect()),
            };
        }
        entity
    }

    /// One target of the `session` state as JSON, bytes members as base64: the singleton
    /// `target` (`id` `None`), or the one of id `id`; `None` when the state has none.
    #[must_use]
    pub fn get(&self, target: &str, id: Option<&str>) -> Option<Json> {
        let at = self.state.get("session")?.get(target)?;
        let entity = match id {
            Some(id) => at.get(id)?,
            None => at,
        };
        Some(self.with_held(&("session".to_owned(), target.to_owned(), id.map(str::to_owned)), entity.clone()))
    }

    /// The definition a target of the `session` state is: the one its upserts and replaces
    /// merge (`ToolCallUpdate` for `toolCall`); `None` for one without (a list replaced whole).
    #[must_use]
    pub fn type_of(&self, target: &str) -> Option<&str> {
        self.types.iter().find(|(t, ..)| t == target).map(|(_, d, _)| d.as_str())
    }

    /// One target (as [`SessionState::get`]) decoded as its definition
    /// ([`SessionState::type_of`]) by the package's decoder: its canonical text and
    /// warnings. `None` when the state has none or the target has no definition.
    ///
    /// # Errors
    /// What the state holds does not decode (a restored snapshot that was never the package's).
    pub fn typed(&self, target: &str, id: Option<&str>) -> Option<Result<(String, Vec<Warning>), Error>> {
        let name = self.type_of(target)?;
        let value = self.get(target, id)?;
        (self.decode)(name, &super::to_string(&value))
    }

    /// One target decoded as `T`, the type of its definition ([`SessionState::type_of`]):
    /// `state.get_as::<v2::ToolCallUpdate>("toolCall", Some("c1"))`. `None` when the state
    /// has none.
    ///
    /// # Errors
    /// What the state holds does not decode as `T`.
    pub fn get_as<T: super::Decode>(&self, target: &str, id: Option<&str>) -> Option<Result<super::Parsed<T>, Error>> {
        self.get(target, id).map(|v| super::from_json::<T>(&v))
    }

    /// Checks that the state is typed (for the fuzzers and tests): every target of the
    /// `session` state that has a definition decodes as it and writes back as the same
    /// value.
    ///
    /// # Errors
    /// The first target that does not, in a sentence.
    pub fn check_invariants(&self) -> Result<(), String> {
        for (target, name, keyed) in &self.types {
            let Some(at) = self.state.get("session").and_then(|s| s.get(target)) else { continue };
            let ids: Vec<Option<&str>> = match (keyed, at) {
                (true, Json::Object(m)) => m.iter().map(|(id, _)| Some(id.as_str())).collect(),
                _ => vec![None],
            };
            for id in ids {
                let place = id.map_or_else(|| target.clone(), |id| format!("{target} {id:?}"));
                match self.typed(target, id) {
                    None => {}
                    Some(Err(e)) => return Err(format!("{place} does not decode as {name}: {e}")),
                    Some(Ok((text, _))) => {
                        let back = parse_value(&text).map_err(|e| format!("{place}: {name} wrote text that is not JSON: {e}"))?;
                        if !same(&back, &self.get(target, id).unwrap_or_default()) {
                            return Err(format!("{place} does not write back as itself through {name}"));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The whole state as JSON: `{owner: {target: value}}`, a keyed target as an object
    /// of its ids (in first-seen order; an id removed and created again comes last),
    /// bytes members as base64.
    #[must_use]
    pub fn snapshot(&self) -> Json {
        let mut out = Json::Object(self.state.clone());
        for key @ (owner, target, id) in self.held.keys() {
            let mut at = vec![owner.clone(), target.clone()];
            at.extend(id.clone());
            let entity = slot(&mut out, &at);
            *entity = self.with_held(key, std::mem::take(entity));
        }
        out
    }
}

/// Whether two values are the same JSON value, member order aside.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Json::Object(x), Json::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

fn slot_in<'a>(m: &'a mut Members, name: &str) -> &'a mut Json {
    if !m.contains_key(name) {
        m.insert(name, Json::Object(Members::new()));
    }
    m.get_mut(name).expect("inserted above")
}

fn slot_in_json<'a>(v: &'a mut Json, name: &str) -> &'a mut Json {
    slot(v, &[name.to_owned()])
}

#[cfg(test)]
mod tests {
    //! The limits on what appends and new ids add, with a table written here: upstream's
    //! schema has no text append, so the fixtures cannot pin `max_text`. The same cases are
    //! in tests/runtime (state.test.ts, test_runtime_state.py).
    use super::super::{Json, encode_base64, to_string};
    use super::{SessionState, StateCounters, StateLimits};

    /// One keyed target `note` with a text member, an array member and a bytes member, each appended.
    const RULES: &str = r#"{"session":{"targets":[{"name":"note","keyed":true}],"rules":[
        {"message":"Text","action":"append","target":"note","id":["id"],"field":["text"],"value":["text"],"appends":"text"},
        {"message":"Item","action":"append","target":"note","id":["id"],"field":["items"],"value":["item"],"appends":"item"},
        {"message":"Bytes","action":"append","target":"note","id":["id"],"field":["data"],"value":["data"],"appends":"bytes"}]}}"#;

    fn state(limits: StateLimits) -> SessionState {
        SessionState::new(RULES, |_, text| Some(Ok((text.to_owned(), Vec::new())))).with_limits(limits)
    }

    fn text(v: Option<Json>) -> String {
        to_string(&v.expect("the target is there"))
    }

    #[test]
    fn text_keeps_the_last_code_points() {
        let mut s = state(StateLimits { max_text: 4, ..StateLimits::default() });
        for part in ["ab", "cd\u{e9}", "f\u{1f600}g"] {
            s.apply("Text", &format!(r#"{{"id":"n1","text":"{part}"}}"#)).expect("applies");
        }
        assert_eq!(text(s.get("note", Some("n1"))), "{\"id\":\"n1\",\"text\":\"\u{e9}f\u{1f600}g\"}");
        assert_eq!(s.counters(), StateCounters { text_dropped: 4, ..StateCounters::default() });
    }

    #[test]
    fn items_bytes_and_targets_keep_the_last() {
        let mut s = state(StateLimits { max_targets: 2, max_items: 2, max_bytes: 3, ..StateLimits::default() });
        for i in 0..3 {
            s.apply("Item", &format!(r#"{{"id":"n1","item":{i}}}"#)).expect("applies");
        }
        s.apply("Bytes", r#"{"id":"n1","data":"AQIDBA=="}"#).expect("applies"); // 01 02 03 04
        assert_eq!(text(s.get("note", Some("n1"))), r#"{"id":"n1","items":[1,2],"data":"AgME"}"#);
        for n in ["n2", "n3"] {
            s.apply("Item", &format!(r#"{{"id":"{n}","item":"{n}"}}"#)).expect("applies");
        }
        assert_eq!(to_string(&s.snapshot()), r#"{"session":{"note":{"n2":{"id":"n2","items":["n2"]},"n3":{"id":"n3","items":["n3"]}}}}"#);
        assert_eq!(s.counters(), StateCounters { targets_dropped: 1, items_dropped: 1, bytes_dropped: 1, ..StateCounters::default() });
    }

    #[test]
    fn bytes_dropped_across_many_chunks_keep_the_last_ones() {
        let mut s = state(StateLimits { max_bytes: 5, ..StateLimits::default() });
        for data in ["AQ==", "AgM=", "BAUG", "Bw=="] {
            s.apply("Bytes", &format!(r#"{{"id":"n1","data":"{data}"}}"#)).expect("applies");
        }
        assert_eq!(text(s.get("note", Some("n1"))), r#"{"id":"n1","data":"AwQFBgc="}"#);
        assert_eq!(s.counters().bytes_dropped, 2);
    }

    #[test]
    fn an_append_at_the_bytes_limit_costs_its_chunk_not_the_limit() {
        // 20,000 appends of 3 bytes past a limit of 4,096: dropping the first bytes never
        // moves what is kept on every append (that would be 4,096 bytes each, 82 MB here).
        let mut s = state(StateLimits { max_bytes: 4096, ..StateLimits::default() });
        let mut all = Vec::new();
        for i in 0..20_000_u32 {
            let chunk = [(i % 251) as u8, (i % 241) as u8, (i % 239) as u8];
            all.extend_from_slice(&chunk);
            s.apply("Bytes", &format!(r#"{{"id":"n1","data":"{}"}}"#, encode_base64(&chunk))).expect("applies");
        }
        assert!(s.work() <= 4 * all.len() as u64, "work {} for {} bytes appended", s.work(), all.len());
        let kept = encode_base64(&all[all.len() - 4096..]);
        assert_eq!(text(s.get("note", Some("n1"))), format!(r#"{{"id":"n1","data":"{kept}"}}"#));
        assert_eq!(s.counters().bytes_dropped, all.len() as u64 - 4096);
    }

    #[test]
    fn many_item_appends_at_the_limit_keep_the_last_items() {
        // Held beside the state: the first items leave the front of a deque, where shifting
        // the array moved every item kept on every append.
        let mut s = state(StateLimits { max_items: 64, ..StateLimits::default() });
        for i in 0..20_000 {
            s.apply("Item", &format!(r#"{{"id":"n1","item":{i}}}"#)).expect("applies");
        }
        let kept: Vec<String> = (20_000 - 64..20_000).map(|i| i.to_string()).collect();
        assert_eq!(text(s.get("note", Some("n1"))), format!(r#"{{"id":"n1","items":[{}]}}"#, kept.join(",")));
        assert_eq!(s.counters().items_dropped, 20_000 - 64);
        restored_goes_on_the_same(s, "Item", r#"{"id":"n1","item":"last"}"#);
    }

    /// A state restored from `s`'s snapshot (with `s`'s limits), then given one more
    /// `message`, holds what `s` holds after the same message.
    fn restored_goes_on_the_same(mut s: SessionState, name: &str, message: &str) {
        let mut again = state(s.limits());
        again.restore(&s.snapshot()).expect("restores");
        for x in [&mut s, &mut again] {
            x.apply(name, message).expect("applies");
        }
        assert_eq!(text(s.get("note", Some("n1"))), text(again.get("note", Some("n1"))));
    }

    #[test]
    fn an_append_at_the_text_limit_costs_its_chunk_not_the_limit() {
        // 20,000 appends of 2 or 3 code points past a limit of 4,096: counting and cutting
        // the whole text on every append would copy about 82 MB here.
        let mut s = state(StateLimits { max_text: 4096, ..StateLimits::default() });
        let mut all = String::new();
        for i in 0..20_000 {
            let part = if i % 7 == 0 { "\u{e9}\u{1f600}c" } else { "ab" };
            all.push_str(part);
            s.apply("Text", &format!(r#"{{"id":"n1","text":"{part}"}}"#)).expect("applies");
        }
        assert!(s.work() <= 4 * all.len() as u64, "work {} for {} bytes appended", s.work(), all.len());
        let points = all.chars().count();
        let kept: String = all.chars().skip(points - 4096).collect();
        assert_eq!(s.get("note", Some("n1")), Some(Json::Object([("id", Json::from("n1")), ("text", Json::from(kept.as_str()))].into_iter().collect())));
        assert_eq!(s.counters().text_dropped, points as u64 - 4096);
        // A restore of what it shows, then more text: the same as never restored.
        restored_goes_on_the_same(s, "Text", r#"{"id":"n1","text":"xyz"}"#);
    }

    #[test]
    fn a_chunk_longer_than_the_bytes_limit_keeps_its_last_bytes() {
        let mut s = state(StateLimits { max_bytes: 2, ..StateLimits::default() });
        s.apply("Bytes", r#"{"id":"n1","data":"AQ=="}"#).expect("applies"); // 01
        s.apply("Bytes", r#"{"id":"n1","data":"AgMEBQ=="}"#).expect("applies"); // 02 03 04 05
        assert_eq!(text(s.get("note", Some("n1"))), r#"{"id":"n1","data":"BAU="}"#); // 04 05
        assert_eq!(s.counters().bytes_dropped, 3);
        s.apply("Bytes", r#"{"id":"n1","data":"Bg=="}"#).expect("applies"); // 06
        assert_eq!(text(s.get("note", Some("n1"))), r#"{"id":"n1","data":"BQY="}"#); // 05 06
    }

    #[test]
    fn limits_from_json_take_defaults_and_name_what_is_wrong() {
        let l = StateLimits::from_json(&super::parse_value(r#"{"maxBytes":0,"maxItems":7}"#).expect("JSON")).expect("limits");
        assert_eq!(l, StateLimits { max_bytes: 0, max_items: 7, ..StateLimits::default() });
        let l = StateLimits::from_json(&super::parse_value(r#"{"maxMembers":9007199254740991}"#).expect("JSON")).expect("limits");
        assert_eq!(l.max_members, 9_007_199_254_740_991);
        for (text, kind, path) in [
            ("[]", "wrong_type", ""),
            (r#"{"maxBites":1}"#, "forbidden_member", "/maxBites"),
            (r#"{"maxText":1.5}"#, "wrong_type", "/maxText"),
            (r#"{"maxTargets":-1}"#, "out_of_range", "/maxTargets"),
            // Past 2^53 - 1 in all three languages, where TypeScript's numbers stop being exact.
            (r#"{"maxMembers":9007199254740992}"#, "out_of_range", "/maxMembers"),
            (r#"{"maxMembers":1e20}"#, "out_of_range", "/maxMembers"),
        ] {
            let e = StateLimits::from_json(&super::parse_value(text).expect("JSON")).expect_err(text);
            assert_eq!((e.kind.as_str(), e.path.as_str()), (kind, path), "{text}");
        }
    }

    #[test]
    fn a_limit_of_zero_keeps_nothing() {
        let mut s = state(StateLimits { max_targets: 0, ..StateLimits::default() });
        s.apply("Text", r#"{"id":"n1","text":"a"}"#).expect("applies");
        assert_eq!(to_string(&s.snapshot()), r#"{"session":{"note":{}}}"#);
        assert_eq!(s.counters().targets_dropped, 1);
    }
}
