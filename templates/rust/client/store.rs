// @generated in its copies: cargo xtask gen vendors templates/rust/client/store.rs byte for byte as src/store.rs of the acp-terminal crate; edit it here, never a copy.
//! The terminal store: what every Client must get right when it applies session
//! updates of the display-only terminal surface (upserts, replacement snapshots,
//! appended chunks, either-order arrival), with a safe transcript per terminal.
//!
//! Costs (docs/CLIENTS.md, "The store's guarantees"): applying an update takes time
//! proportional to its size, plus amortized constant time (logarithmic in the number of
//! terminals) per terminal and per reference. Memory is the retained bytes plus a small
//! constant per terminal; the transcript is built only for terminals whose text is asked
//! for, incrementally. Every limit ([`Limits`]) is visible when hit.
//!
//! A long session never stops showing output: past [`Limits::max_terminals`] the store
//! evicts the least recently updated terminal that has exited (a live one only when
//! every terminal is live) and reports it ([`TerminalStore::take_events`]); past
//! [`Limits::max_total_bytes`] it drops the oldest bytes of the least recently updated
//! exited terminals first.

use crate::limits::{DEFAULT_MAX_RETAINED_BYTES, DEFAULT_MAX_TERMINALS, DEFAULT_MAX_TOTAL_BYTES};
use crate::transcript::{MAX_LINE_LENGTH, MAX_TEXT_LENGTH, Transcript};
use crate::v2::{AbsolutePath, SessionId, SessionUpdate, TerminalCapabilities, TerminalExitStatus, TerminalId, TerminalSize, ToolCallContent, ToolCallId, UpdateSessionNotification};
use crate::wire::{self, Error, ErrorKind, Members, Patch, Warning};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Limits a Client sets on what an Agent can make it hold. The defaults are safe for
/// an interactive Client; every limit is the same in the three languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many terminals. An update or reference that would create one more
    /// first evicts the least recently updated terminal that has exited, or, when every
    /// terminal is live, the least recently updated live one: counted in
    /// [`Counters::terminals_evicted`] and reported as a [`StoreEvent::Evicted`]. An
    /// update for an evicted id starts a fresh terminal ([`StoreEvent::Restarted`],
    /// [`TerminalState::restarted`]). With 0, no terminal is kept (each is counted in
    /// [`Counters::terminals_refused`]).
    pub max_terminals: usize,
    /// At most this many output bytes retained per terminal. Past it the store keeps
    /// the most recent bytes and counts the rest in [`TerminalState::dropped_bytes`].
    /// The transcript still renders every byte (it reads bytes before they go).
    pub max_retained_bytes: usize,
    /// At most this many output bytes retained by all terminals together. Past it the
    /// store drops the oldest bytes of the least recently updated exited terminals
    /// first (then of live ones, least recently updated first), counted in
    /// [`Counters::bytes_evicted`] and in each terminal's
    /// [`TerminalState::dropped_bytes`]. A transcript already built reads the bytes
    /// before they go; one built later starts at the first byte kept.
    pub max_total_bytes: usize,
    /// At most this many warnings returned per applied message; the rest are counted
    /// in [`Counters::warnings_dropped`].
    pub max_warnings: usize,
    /// The line length limit, in cells, of every transcript the store creates
    /// ([`Transcript::with_limits`]): a longer line wraps, counted in
    /// [`Transcript::wrapped_lines`].
    pub max_line_length: usize,
    /// The text length limit, in code points of finished lines, of every transcript the
    /// store creates ([`Transcript::with_limits`]): past it the oldest lines are left
    /// out, counted in [`Transcript::dropped_lines`] and [`Transcript::dropped_chars`].
    pub max_text_length: usize,
    /// At most this many members per terminal beyond those `TerminalUpdate` names (which are
    /// always kept), and keys in its `_meta`: what a `terminal_update` sets is kept as the
    /// session state keeps it (unknown members and `_meta` merged key by key), so without a
    /// bound an Agent could grow a terminal with every update. A member or key new to the
    /// terminal past it is not kept, counted in [`Counters::members_dropped`]; one it has is
    /// still replaced or cleared.
    pub max_members: usize,
}

impl Limits {
    /// The default limits: 1024 terminals, 1 MiB per terminal, 256 MiB in all, 64
    /// warnings per message, 256 unknown members and `_meta` keys per terminal, and the
    /// transcript's own defaults ([`MAX_LINE_LENGTH`] cells per line, [`MAX_TEXT_LENGTH`]
    /// code points of finished lines).
    pub const DEFAULT: Self = Self {
        max_terminals: DEFAULT_MAX_TERMINALS,
        max_retained_bytes: DEFAULT_MAX_RETAINED_BYTES,
        max_total_bytes: DEFAULT_MAX_TOTAL_BYTES,
        max_warnings: wire::DEFAULT_MAX_WARNINGS,
        max_line_length: MAX_LINE_LENGTH,
        max_text_length: MAX_TEXT_LENGTH,
        max_members: wire::DEFAULT_MAX_STATE_MEMBERS,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What the store dropped because a limit was hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Updates and references ignored because [`Limits::max_terminals`] is 0.
    pub terminals_refused: u64,
    /// Warnings not returned because a message had more than [`Limits::max_warnings`].
    pub warnings_dropped: u64,
    /// Terminals evicted to make room for a new one ([`Limits::max_terminals`]).
    pub terminals_evicted: u64,
    /// Output bytes dropped to keep the store within [`Limits::max_total_bytes`].
    pub bytes_evicted: u64,
    /// Events not kept because more were waiting than the store keeps
    /// ([`Limits::max_terminals`], at least 64) before [`TerminalStore::take_events`]
    /// took them: the oldest go first.
    pub events_dropped: u64,
    /// Members and `_meta` keys of `terminal_update`s not kept, past
    /// [`Limits::max_members`].
    pub members_dropped: u64,
}

/// What the store did on its own that a display may want to show
/// ([`TerminalStore::take_events`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreEvent {
    /// The terminal was evicted to make room for a new one ([`Limits::max_terminals`]):
    /// its output and state are no longer kept ("output no longer kept").
    Evicted {
        /// The evicted terminal.
        terminal_id: TerminalId,
        /// Whether it had exited (the store evicts a live terminal only when every
        /// terminal it holds is live).
        exited: bool,
    },
    /// An update named a terminal the store had evicted: it starts fresh, without what
    /// it held before ([`TerminalState::restarted`]).
    Restarted {
        /// The terminal started again.
        terminal_id: TerminalId,
    },
}

impl StoreEvent {
    /// The event as JSON: `{"kind": "evicted", "terminalId", "exited"}` or
    /// `{"kind": "restarted", "terminalId"}`, as `replay` vectors list events.
    #[must_use]
    pub fn to_json(&self) -> wire::Json {
        let mut m = Members::new();
        match self {
            Self::Evicted { terminal_id, exited } => {
                m.insert("kind", "evicted");
                m.insert("terminalId", terminal_id.as_str());
                m.insert("exited", *exited);
            }
            Self::Restarted { terminal_id } => {
                m.insert("kind", "restarted");
                m.insert("terminalId", terminal_id.as_str());
            }
        }
        m.into()
    }
}

impl Counters {
    /// The counters as JSON, as `replay` vectors compare them: `None` when all are zero;
    /// else `terminalsRefused` and `warningsDropped`, and each of `terminalsEvicted`,
    /// `bytesEvicted`, `eventsDropped` and `membersDropped` above zero.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "counts stay far below 2^53")]
    pub fn to_json(&self) -> Option<wire::Json> {
        if *self == Self::default() {
            return None;
        }
        let mut m = Members::new();
        m.insert("terminalsRefused", self.terminals_refused as f64);
        m.insert("warningsDropped", self.warnings_dropped as f64);
        for (name, n) in [("terminalsEvicted", self.terminals_evicted), ("bytesEvicted", self.bytes_evicted), ("eventsDropped", self.events_dropped), ("membersDropped", self.members_dropped)] {
            if n > 0 {
                m.insert(name, n as f64);
            }
        }
        Some(m.into())
    }
}

/// Output bytes kept as a list of blocks. Chunks of 4 KiB or more are kept as they
/// came; smaller ones are gathered into blocks of at most 4 KiB that grow as they fill.
/// Appending never copies what is stored, and the only spare capacity is in the last,
/// partly filled small block, so the memory held stays close to the bytes retained.
#[derive(Debug, Default)]
pub struct ByteLog {
    blocks: VecDeque<Vec<u8>>,
    /// Bytes at the start of the first block that were dropped.
    head: usize,
    len: usize,
    dropped: u64,
}

impl ByteLog {
    /// The largest block small chunks are gathered into.
    pub const SMALL: usize = 4096;

    /// Replaces everything with `bytes` (kept as they are, without a copy).
    pub fn replace(&mut self, mut bytes: Vec<u8>) {
        self.blocks.clear();
        self.head = 0;
        self.dropped = 0;
        self.len = bytes.len();
        if !bytes.is_empty() {
            Self::trim(&mut bytes);
            self.blocks.push_back(bytes);
        }
    }

    fn trim(bytes: &mut Vec<u8>) {
        if bytes.capacity() - bytes.len() > bytes.len() / 32 {
            bytes.shrink_to_fit();
        }
    }

    fn seal_last(&mut self) {
        if let Some(last) = self.blocks.back_mut() {
            Self::trim(last);
        }
    }

    /// Appends `bytes`.
    pub fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.len += bytes.len();
        if let Some(last) = self.blocks.back_mut() {
            let (held, need) = (last.len(), last.len() + bytes.len());
            if held < Self::SMALL && need <= Self::SMALL {
                if last.capacity() < need {
                    let target = need.max(2 * last.capacity()).min(Self::SMALL);
                    last.reserve_exact(target - held);
                }
                last.extend_from_slice(bytes);
                return;
            }
        }
        self.seal_last();
        self.blocks.push_back(bytes.to_vec());
    }

    /// Appends `bytes`, keeping the vector itself as a block when it is large.
    pub fn append_owned(&mut self, mut bytes: Vec<u8>) {
        if bytes.len() < Self::SMALL {
            self.append(&bytes);
            return;
        }
        self.seal_last();
        self.len += bytes.len();
        Self::trim(&mut bytes);
        self.blocks.push_back(bytes);
    }

    /// Drops the first `n` retained bytes (all of them when `n` is larger).
    pub fn drop_front(&mut self, n: usize) {
        let mut n = n.min(self.len);
        self.len -= n;
        self.dropped += n as u64;
        while n > 0 {
            let Some(front) = self.blocks.front_mut() else { break };
            let live = front.len() - self.head;
            if n >= live {
                n -= live;
                self.head = 0;
                self.blocks.pop_front();
            } else {
                self.head += n;
                n = 0;
                // A large block more than half dead is copied down, so the dead part
                // never exceeds what is retained.
                if self.head > front.len() / 2 && front.len() > Self::SMALL {
                    front.drain(..self.head);
                    front.shrink_to_fit();
                    self.head = 0;
                }
            }
        }
    }

    /// How many bytes are retained.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether no byte is retained.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many bytes before the retained ones were dropped by
    /// [`Limits::max_retained_bytes`] since the last snapshot.
    #[must_use]
    pub const fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The retained bytes, block by block, in order.
    pub fn blocks(&self) -> impl Iterator<Item = &[u8]> {
        self.blocks.iter().enumerate().map(|(i, b)| if i == 0 { &b[self.head..] } else { b.as_slice() })
    }

    /// The retained bytes from `offset` (counted from the first retained byte) on.
    fn blocks_from(&self, mut offset: usize) -> impl Iterator<Item = &[u8]> {
        self.blocks().filter_map(move |b| {
            if offset >= b.len() {
                offset -= b.len();
                None
            } else {
                let s = &b[offset..];
                offset = 0;
                Some(s)
            }
        })
    }

    /// The retained bytes as one vector (a copy).
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        for b in self.blocks() {
            out.extend_from_slice(b);
        }
        out
    }

    /// The memory the blocks hold, spare capacity and dropped bytes not yet released
    /// included.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.blocks.iter().map(Vec::capacity).sum()
    }
}

/// The transcript, built on demand: `rendered` counts the bytes since the last
/// snapshot it has read.
#[derive(Debug)]
struct Lazy {
    /// Boxed, so a terminal whose text is never asked for holds one pointer.
    transcript: Option<Box<Transcript>>,
    rendered: u64,
    /// The limits of the transcript when it is created: line length, text length.
    limits: (usize, usize),
}

impl Default for Lazy {
    fn default() -> Self {
        Self { transcript: None, rendered: 0, limits: (MAX_LINE_LENGTH, MAX_TEXT_LENGTH) }
    }
}

impl Lazy {
    /// Reads every byte of `output` not read yet; returns the transcript.
    fn catch_up(&mut self, output: &ByteLog) -> &Transcript {
        let end = output.dropped() + output.len() as u64;
        let (line, text) = self.limits;
        if self.transcript.is_none() {
            // A transcript built now starts at the first byte kept (bytes the total
            // limit dropped before any transcript was asked for are not rendered).
            self.rendered = self.rendered.max(output.dropped());
        }
        let t = self.transcript.get_or_insert_with(|| Box::new(Transcript::with_limits(line, text)));
        if self.rendered == end {
            return t;
        }
        // Bytes are never dropped before they are read, so `rendered >= dropped`.
        let from = usize::try_from(self.rendered - output.dropped()).unwrap_or(usize::MAX);
        for b in output.blocks_from(from) {
            t.push(b);
        }
        self.rendered = end;
        t
    }
}

/// What the store knows about one terminal.
#[derive(Debug, Default)]
pub struct TerminalState {
    /// The terminal as the session state keeps it (`terminalId`, `command`, `cwd`,
    /// `exitStatus` ...), changed only by the session state's upsert (docs/SESSIONS.md);
    /// its output is kept in `output` instead.
    members: wire::Json,
    output: ByteLog,
    lazy: Mutex<Lazy>,
    tool_calls: BTreeSet<ToolCallId>,
    restarted: bool,
}

impl TerminalState {
    /// The member `name` as kept, `None` when absent or cleared (`null`).
    fn member(&self, name: &str) -> Option<&wire::Json> {
        self.members.get(name).filter(|v| !v.is_null())
    }

    /// The member `name` decoded as `T`. What is kept was decoded once already, so this
    /// cannot fail; it costs the member's size, on each call.
    fn typed<T: wire::Decode>(&self, name: &str) -> Option<T> {
        self.member(name).and_then(|v| wire::from_json::<T>(v).ok()).map(|p| p.value)
    }

    /// The command line, when known.
    #[must_use]
    pub fn command(&self) -> Option<&str> {
        self.member("command").and_then(wire::Json::as_str)
    }

    /// The absolute working directory, when known.
    #[must_use]
    pub fn cwd(&self) -> Option<AbsolutePath> {
        self.typed("cwd")
    }

    /// Whether the terminal has an exit status (its process exited).
    #[must_use]
    pub fn exited(&self) -> bool {
        self.member("exitStatus").is_some()
    }

    /// The retained output bytes: the last snapshot plus every chunk since, less what
    /// [`Limits::max_retained_bytes`] dropped from the front.
    #[must_use]
    pub const fn output(&self) -> &ByteLog {
        &self.output
    }

    /// How many output bytes since the last snapshot are no longer retained because of
    /// [`Limits::max_retained_bytes`] (0 when nothing was dropped).
    #[must_use]
    pub const fn dropped_bytes(&self) -> u64 {
        self.output.dropped()
    }

    /// The exit status; `Some` means the process exited.
    #[must_use]
    pub fn exit_status(&self) -> Option<TerminalExitStatus> {
        self.typed("exitStatus")
    }

    /// The terminal size the command runs with, when known: render the output at this
    /// width so that column layouts and progress bars look as the program wrote them.
    #[must_use]
    pub fn size(&self) -> Option<TerminalSize> {
        self.typed("size")
    }

    /// What the Client may ask the Agent to do with this terminal right now, as last
    /// replaced; `None` when the Agent never said or cleared it. The store only records
    /// it: a display may offer it to its user, and nothing is sent unless the user asks.
    #[must_use]
    pub fn capabilities(&self) -> Option<TerminalCapabilities> {
        self.typed("capabilities")
    }

    /// Whether the terminal currently offers `terminal/cancel` (`capabilities.cancel`), so
    /// a display may show a cancel control. The store never sends one.
    #[must_use]
    pub fn can_cancel(&self) -> bool {
        self.member("capabilities").and_then(|c| c.get("cancel")).is_some_and(|c| !c.is_null())
    }

    /// Terminal-scoped extension data, patched key by key as the session state does
    /// (upstream's meta-patch rule, docs/WIRE.md): a key set to `null` is removed.
    #[must_use]
    pub fn meta(&self) -> Option<&Members> {
        self.member("_meta").and_then(wire::Json::as_object)
    }

    /// The safe transcript of every output byte since the last snapshot
    /// (docs/TRANSCRIPT.md). It is built on the first call and then only reads the
    /// bytes that arrived since the previous call, so asking once per frame is cheap.
    ///
    /// This builds a new `String` of the whole text on every call; a display that reads
    /// after every chunk reads only what is new through [`TerminalState::with_transcript`].
    #[must_use]
    pub fn transcript(&self) -> String {
        self.with_transcript(Transcript::text)
    }

    /// Calls `f` with this terminal's [`Transcript`], caught up with every output byte
    /// since the last snapshot, without copying its text: read only what is new with
    /// [`Transcript::finished_len`], [`Transcript::finished_since`] and
    /// [`Transcript::current_line`], and the limits' counters
    /// ([`Transcript::wrapped_lines`], [`Transcript::dropped_lines`],
    /// [`Transcript::dropped_chars`]). The transcript has the store's
    /// [`Limits::max_line_length`] and [`Limits::max_text_length`].
    ///
    /// A replacement snapshot (a `terminal_update` with `output`) starts a new transcript:
    /// its positions start again from 0, so a display that keeps a position starts over
    /// when it applies one. `f` runs with this terminal's transcript locked: it must not
    /// read this terminal's transcript again (that would deadlock).
    pub fn with_transcript<R>(&self, f: impl FnOnce(&Transcript) -> R) -> R {
        let mut lazy = self.lazy.lock().unwrap_or_else(PoisonError::into_inner);
        f(lazy.catch_up(&self.output))
    }

    /// The tool calls whose current content references this terminal, sorted.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCallId> {
        self.tool_calls.iter()
    }

    /// `true` when the store had evicted a terminal of this id ([`Limits::max_terminals`])
    /// and this one started fresh on a later update: what came before is no longer kept.
    #[must_use]
    pub const fn restarted(&self) -> bool {
        self.restarted
    }

    /// This terminal as JSON, the view that `replay` vectors compare (docs/CLIENTS.md,
    /// "A store's snapshot"): `command`, `cwd`, `output` (the retained bytes, base64),
    /// `exitStatus` (`{exitCode, signal}` or `null`), `transcript` and `toolCallIds`;
    /// then `size` when known, `capabilities` (`{cancel}`) when the Agent gave them, and
    /// `droppedBytes`, `wrappedLines`, `droppedLines` with `droppedChars`, and
    /// `restarted` only when they are not zero or false. For a debugger view or a test.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "counts and exit codes stay far below 2^53")]
    pub fn snapshot(&self) -> wire::Json {
        let (text, wrapped, lines, chars) = self.with_transcript(|r| (r.text(), r.wrapped_lines(), r.dropped_lines(), r.dropped_chars()));
        let opt = |v: Option<&str>| v.map_or(wire::Json::Null, wire::Json::from);
        let mut view = Members::new();
        view.insert("command", opt(self.command()));
        view.insert("cwd", opt(self.member("cwd").and_then(wire::Json::as_str)));
        view.insert("output", wire::encode_base64(&self.output.to_vec()));
        let exit = self.exit_status().map_or(wire::Json::Null, |e| {
            let mut m = Members::new();
            m.insert("exitCode", e.exit_code.map_or(wire::Json::Null, |c| wire::Json::Number(c as f64)));
            m.insert("signal", opt(e.signal.as_deref()));
            m.into()
        });
        view.insert("exitStatus", exit);
        view.insert("transcript", text);
        view.insert("toolCallIds", self.tool_calls().map(|c| wire::Json::from(c.as_str())).collect::<Vec<_>>());
        if let Some(size) = self.size() {
            let mut m = Members::new();
            m.insert("cols", f64::from(size.cols));
            m.insert("rows", f64::from(size.rows));
            view.insert("size", m);
        }
        if self.capabilities().is_some() {
            let mut m = Members::new();
            m.insert("cancel", self.can_cancel());
            view.insert("capabilities", m);
        }
        for (name, n) in [("droppedBytes", self.dropped_bytes()), ("wrappedLines", wrapped), ("droppedLines", lines)] {
            if n > 0 {
                view.insert(name, n as f64);
            }
        }
        if lines > 0 {
            view.insert("droppedChars", chars as f64);
        }
        if self.restarted {
            view.insert("restarted", true);
        }
        view.into()
    }

    /// Drops the first `n` retained bytes for the store's total limit: a transcript
    /// already built reads them first; otherwise they go unread.
    fn evict_bytes(&mut self, n: usize) {
        let lazy = self.lazy.get_mut().unwrap_or_else(PoisonError::into_inner);
        if lazy.transcript.is_some() {
            lazy.catch_up(&self.output);
        }
        self.output.drop_front(n);
    }

    fn replace_output(&mut self, bytes: Vec<u8>, limit: usize) {
        let lazy = self.lazy.get_mut().unwrap_or_else(PoisonError::into_inner);
        *lazy = Lazy { limits: lazy.limits, ..Lazy::default() };
        self.output.replace(bytes);
        self.enforce(limit);
    }

    fn append_output(&mut self, bytes: Vec<u8>, limit: usize) {
        self.output.append_owned(bytes);
        self.enforce(limit);
    }

    /// Keeps at most `limit` bytes; a transcript already started reads what goes first.
    fn enforce(&mut self, limit: usize) {
        if self.output.len() > limit {
            let lazy = self.lazy.get_mut().unwrap_or_else(PoisonError::into_inner);
            lazy.catch_up(&self.output);
            self.output.drop_front(self.output.len() - limit);
        }
    }
}

/// The package's session-state table, read once: the store applies its upserts to the
/// terminals it keeps ([`wire::SessionState::upsert_into`]).
fn session_rules() -> &'static wire::SessionState {
    static RULES: OnceLock<wire::SessionState> = OnceLock::new();
    RULES.get_or_init(|| crate::registry::session_state("v2").expect("cargo xtask gen writes the v2 session-state table of this package"))
}

/// Applies session updates and keeps every terminal's state, in first-seen order.
///
/// A store holds one session: the first `session/update` notification binds it, and a
/// notification of another session is rejected (`session_mismatch`) without effect.
/// Updates applied without their notification ([`TerminalStore::apply`],
/// [`TerminalStore::apply_text`]) are taken as the caller's session.
///
/// A long session keeps showing output: past [`Limits::max_terminals`] the least
/// recently updated exited terminal is evicted (a live one only when all are live), and
/// past [`Limits::max_total_bytes`] the oldest bytes of the least recently updated
/// exited terminals go first. What was evicted is reported by
/// [`TerminalStore::take_events`].
#[derive(Debug, Default)]
pub struct TerminalStore {
    /// Every terminal, by its handle: the order it was (last) created in.
    held: BTreeMap<u64, Held>,
    index: HashMap<TerminalId, u64>,
    /// Eviction order: (0 exited or 1 live, last update) to handle.
    recency: BTreeMap<(u8, u64), u64>,
    /// The same order, for the terminals that retain bytes (the total limit's victims).
    with_bytes: BTreeMap<(u8, u64), u64>,
    /// The terminals each tool call's current content references, each once.
    tool_calls: HashMap<ToolCallId, HashSet<u64>>,
    /// Ids evicted lately (at most `max_terminals`, at least 64), to report a restart:
    /// id to the number of its eviction, and the evictions in order.
    evicted: HashMap<TerminalId, u64>,
    evicted_order: VecDeque<(TerminalId, u64)>,
    events: VecDeque<StoreEvent>,
    /// Bytes retained by all terminals.
    total_bytes: usize,
    /// Counts creations, updates and evictions (handles and recency come from it).
    clock: u64,
    /// Elementary steps done (see [`TerminalStore::work`]).
    work: u64,
    limits: Limits,
    counters: Counters,
    session: Option<SessionId>,
}

/// One terminal the store holds.
#[derive(Debug)]
struct Held {
    id: TerminalId,
    state: TerminalState,
    /// When it was last updated (its place in the eviction order).
    touched: u64,
}

impl Held {
    fn key(&self) -> (u8, u64) {
        (u8::from(!self.state.exited()), self.touched)
    }
}

/// An update that failed to parse, with its position in the sequence applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyError {
    /// The index of the failing update.
    pub index: usize,
    /// Why it failed (the pointer is relative to that update).
    pub error: Error,
}

impl TerminalStore {
    /// An empty store with the default [`Limits`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with `limits`.
    #[must_use]
    pub fn with_limits(limits: Limits) -> Self {
        Self { limits, ..Self::default() }
    }

    /// The limits in force.
    #[must_use]
    pub const fn limits(&self) -> Limits {
        self.limits
    }

    /// What the limits made the store drop so far.
    #[must_use]
    pub const fn counters(&self) -> Counters {
        self.counters
    }

    /// Every terminal's [`TerminalState::snapshot`], by id in the store's order (what
    /// [`TerminalStore::terminals`] iterates).
    #[must_use]
    pub fn snapshot(&self) -> wire::Json {
        let mut out = Members::new();
        for (id, t) in self.terminals() {
            out.insert(id.as_str(), t.snapshot());
        }
        out.into()
    }

    /// The session the store is bound to, once a notification has been applied.
    #[must_use]
    pub const fn session_id(&self) -> Option<&SessionId> {
        self.session.as_ref()
    }

    /// The state of `id`, if the store holds it.
    #[must_use]
    pub fn terminal(&self, id: &str) -> Option<&TerminalState> {
        self.index.get(id).and_then(|h| self.held.get(h)).map(|h| &h.state)
    }

    /// Every terminal, in first-seen order (a terminal started again after an eviction
    /// counts as new).
    pub fn terminals(&self) -> impl Iterator<Item = (&TerminalId, &TerminalState)> {
        self.held.values().map(|h| (&h.id, &h.state))
    }

    /// The output bytes all terminals retain ([`Limits::max_total_bytes`] bounds it).
    #[must_use]
    pub const fn total_bytes(&self) -> usize {
        self.total_bytes
    }

    /// What happened since the last call, oldest first: terminals evicted and terminals
    /// started again after an eviction. A display calls it after applying updates, to
    /// say "output no longer kept". The store keeps at most `max_terminals` (at least
    /// 64) events; older ones are counted in [`Counters::events_dropped`].
    pub fn take_events(&mut self) -> Vec<StoreEvent> {
        self.events.drain(..).collect()
    }

    /// Elementary steps done so far (references visited, terminals and tool calls
    /// touched, bytes copied or dropped, evictions): the work counter the tests read to
    /// check that it grows linearly with the input, without a clock.
    #[doc(hidden)]
    #[must_use]
    pub const fn work(&self) -> u64 {
        self.work
    }

    /// How many evicted ids (and events waiting) the store keeps: `max_terminals`, at
    /// least 64.
    fn remembered(&self) -> usize {
        self.limits.max_terminals.max(64)
    }

    fn event(&mut self, e: StoreEvent) {
        if self.events.len() >= self.remembered() {
            self.events.pop_front();
            self.counters.events_dropped += 1;
        }
        self.events.push_back(e);
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The handle of `id`, created when new (evicting a terminal when the store is full);
    /// `None` (counted) when `max_terminals` is 0.
    fn entry(&mut self, id: &TerminalId) -> Option<u64> {
        if let Some(&h) = self.index.get(id) {
            return Some(h);
        }
        if self.limits.max_terminals == 0 {
            self.counters.terminals_refused += 1;
            return None;
        }
        // Known as evicted before this eviction can push it out of the memory of ids.
        let restarted = self.evicted.remove(id).is_some();
        while self.held.len() >= self.limits.max_terminals && self.evict_one() {}
        let h = self.tick();
        let lazy = Lazy { limits: (self.limits.max_line_length, self.limits.max_text_length), ..Lazy::default() };
        let held = Held { id: id.clone(), state: TerminalState { lazy: Mutex::new(lazy), restarted, ..TerminalState::default() }, touched: h };
        self.recency.insert(held.key(), h);
        self.held.insert(h, held);
        self.index.insert(id.clone(), h);
        self.work += 1;
        if restarted {
            self.event(StoreEvent::Restarted { terminal_id: id.clone() });
        }
        Some(h)
    }

    /// Evicts the least recently updated exited terminal, else the least recently
    /// updated live one: every trace of it goes at once (its references, its bytes).
    fn evict_one(&mut self) -> bool {
        let Some((&key, &h)) = self.recency.iter().next() else { return false };
        self.recency.remove(&key);
        self.with_bytes.remove(&key);
        let Some(held) = self.held.remove(&h) else { return false };
        self.index.remove(&held.id);
        for call in &held.state.tool_calls {
            self.work += 1;
            if let Some(set) = self.tool_calls.get_mut(call) {
                set.remove(&h);
                if set.is_empty() {
                    self.tool_calls.remove(call);
                }
            }
        }
        self.total_bytes -= held.state.output.len();
        self.counters.terminals_evicted += 1;
        self.work += 1;
        let n = self.tick();
        self.evicted.insert(held.id.clone(), n);
        self.evicted_order.push_back((held.id.clone(), n));
        // At most `remembered` ids, the oldest evictions forgotten first; an id evicted
        // again counts once (its older entry in the order is stale and skipped).
        while self.evicted.len() > self.remembered() {
            let Some((old, m)) = self.evicted_order.pop_front() else { break };
            if self.evicted.get(&old) == Some(&m) {
                self.evicted.remove(&old);
            }
        }
        if self.evicted_order.len() > 2 * self.remembered() {
            let evicted = &self.evicted;
            self.evicted_order.retain(|(id, m)| evicted.get(id) == Some(m));
        }
        self.event(StoreEvent::Evicted { terminal_id: held.id, exited: key.0 == 0 });
        true
    }

    /// Runs `f` on terminal `h` as one update: it becomes the most recently updated,
    /// moves between exited and live as its exit status says, and the total limit is
    /// applied after.
    fn update(&mut self, h: u64, f: impl FnOnce(&mut TerminalState)) {
        let now = self.tick();
        let Some(held) = self.held.get_mut(&h) else { return };
        let (old_key, old_len) = (held.key(), held.state.output.len());
        f(&mut held.state);
        held.touched = now;
        let (key, len) = (held.key(), held.state.output.len());
        self.recency.remove(&old_key);
        self.recency.insert(key, h);
        if old_len > 0 {
            self.with_bytes.remove(&old_key);
        }
        if len > 0 {
            self.with_bytes.insert(key, h);
        }
        self.total_bytes = self.total_bytes - old_len + len;
        self.work += 1;
        self.enforce_total();
    }

    /// Drops the oldest bytes of the least recently updated exited terminals (then live
    /// ones) until the store is within [`Limits::max_total_bytes`].
    fn enforce_total(&mut self) {
        while self.total_bytes > self.limits.max_total_bytes {
            let Some((&key, &h)) = self.with_bytes.iter().next() else { return };
            let Some(held) = self.held.get_mut(&h) else { return };
            let n = held.state.output.len().min(self.total_bytes - self.limits.max_total_bytes);
            held.state.evict_bytes(n);
            self.total_bytes -= n;
            self.counters.bytes_evicted += n as u64;
            self.work += 1;
            if held.state.output.is_empty() {
                self.with_bytes.remove(&key);
            }
        }
    }

    /// Adds `terminal` to `tool_call`'s references unless it is there already.
    fn link(&mut self, tool_call: &ToolCallId, terminal: &TerminalId) {
        self.work += 1;
        if let Some(h) = self.entry(terminal)
            && let Some(held) = self.held.get_mut(&h)
            && held.state.tool_calls.insert(tool_call.clone())
        {
            self.tool_calls.entry(tool_call.clone()).or_default().insert(h);
        }
    }

    /// Removes every reference of `tool_call`.
    fn unlink_all(&mut self, tool_call: &ToolCallId) {
        for h in self.tool_calls.remove(tool_call).unwrap_or_default() {
            self.work += 1;
            if let Some(held) = self.held.get_mut(&h) {
                held.state.tool_calls.remove(tool_call);
            }
        }
    }

    fn relink(&mut self, tool_call: &ToolCallId, content: &[ToolCallContent]) {
        self.unlink_all(tool_call);
        for c in content {
            self.work += 1;
            if let ToolCallContent::Terminal(t) = c {
                self.link(tool_call, &t.terminal_id);
            }
        }
    }

    /// Applies one parsed update. Updates outside the terminal surface are ignored.
    /// What it evicted is reported by [`TerminalStore::take_events`].
    pub fn apply(&mut self, update: SessionUpdate) {
        let limit = self.limits.max_retained_bytes;
        match update {
            SessionUpdate::TerminalUpdate(mut u) => {
                let Some(h) = self.entry(&u.terminal_id) else { return };
                let output = std::mem::take(&mut u.output);
                let bytes = match &output {
                    Patch::Set(o) => o.data.0.len(),
                    _ => 0,
                };
                self.work += bytes as u64;
                // Every member but the output changes as the session state's upsert
                // changes it (the package's x-state table): the store has no patch rule
                // of its own. Our own canonical text always parses.
                let message = wire::parse_value(&wire::to_string(&SessionUpdate::TerminalUpdate(u))).unwrap_or_default();
                let cap = self.limits.max_members;
                let mut dropped = 0;
                self.update(h, |t| {
                    dropped = session_rules().upsert_into("SessionUpdate", &message, "terminal", &mut t.members, cap);
                    match output {
                        Patch::Keep => {}
                        Patch::Clear => t.replace_output(Vec::new(), limit),
                        Patch::Set(o) => t.replace_output(o.data.0, limit),
                    }
                });
                self.counters.members_dropped += dropped;
            }
            SessionUpdate::TerminalOutputChunk(c) => {
                if let Some(h) = self.entry(&c.terminal_id) {
                    self.work += c.data.0.len() as u64;
                    self.update(h, |t| t.append_output(c.data.0, limit));
                }
            }
            SessionUpdate::ToolCallUpdate(u) => match u.content {
                Patch::Keep => {}
                Patch::Clear => self.unlink_all(&u.tool_call_id),
                Patch::Set(content) => self.relink(&u.tool_call_id, &content),
            },
            SessionUpdate::ToolCallContentChunk(c) => {
                if let ToolCallContent::Terminal(t) = &c.content {
                    self.link(&c.tool_call_id, &t.terminal_id);
                }
            }
            SessionUpdate::Unknown(_) => {}
        }
    }

    /// Checks that every structure of the store agrees (for the fuzzers and tests):
    /// no terminal is ever half-evicted.
    ///
    /// # Errors
    /// The first disagreement found.
    #[doc(hidden)]
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.index.len() != self.held.len() || self.recency.len() != self.held.len() {
            return Err(format!("{} ids, {} terminals, {} in the eviction order", self.index.len(), self.held.len(), self.recency.len()));
        }
        if self.limits.max_terminals > 0 && self.held.len() > self.limits.max_terminals {
            return Err(format!("{} terminals held, past the limit {}", self.held.len(), self.limits.max_terminals));
        }
        let mut total = 0;
        for (&h, held) in &self.held {
            if self.index.get(&held.id) != Some(&h) {
                return Err(format!("{:?} is not indexed", held.id.as_str()));
            }
            if self.evicted.contains_key(&held.id) {
                return Err(format!("{:?} is held and remembered as evicted", held.id.as_str()));
            }
            if self.recency.get(&held.key()) != Some(&h) {
                return Err(format!("{:?} is not in the eviction order", held.id.as_str()));
            }
            if (self.with_bytes.get(&held.key()) == Some(&h)) == held.state.output.is_empty() {
                return Err(format!("{:?}: the byte order does not match its {} bytes", held.id.as_str(), held.state.output.len()));
            }
            for call in &held.state.tool_calls {
                if !self.tool_calls.get(call).is_some_and(|s| s.contains(&h)) {
                    return Err(format!("{:?} names tool call {:?}, which does not reference it", held.id.as_str(), call.as_str()));
                }
            }
            total += held.state.output.len();
        }
        for (call, set) in &self.tool_calls {
            for h in set {
                if !self.held.get(h).is_some_and(|held| held.state.tool_calls.contains(call)) {
                    return Err(format!("tool call {:?} references a terminal the store does not hold (half-evicted)", call.as_str()));
                }
            }
        }
        if self.with_bytes.len() > self.held.len() || total != self.total_bytes {
            return Err(format!("{} bytes counted, {total} held", self.total_bytes));
        }
        if total > self.limits.max_total_bytes {
            return Err(format!("{total} bytes held, past the limit {}", self.limits.max_total_bytes));
        }
        if self.evicted.len() > self.remembered() || self.evicted_order.len() > 2 * self.remembered() {
            return Err(format!("{} evicted ids remembered ({} in their order)", self.evicted.len(), self.evicted_order.len()));
        }
        Ok(())
    }

    /// Parses `text` keeping at most [`Limits::max_warnings`] warnings: the decoder
    /// only counts the others, so a message of millions of bad items costs no memory
    /// beyond its text.
    fn parse<T: wire::Decode>(&self, text: &str) -> Result<wire::Parsed<T>, Error> {
        wire::from_str_with::<T>(text, wire::ParseOptions::DEFAULT.max_warnings(self.limits.max_warnings))
    }

    fn keep_warnings(&mut self, parsed_dropped: u64, warnings: Vec<Warning>) -> Vec<Warning> {
        self.counters.warnings_dropped += parsed_dropped;
        warnings
    }

    /// Parses one `SessionUpdate` (JSON text) and applies it; returns the warnings of
    /// lenient members that were dropped (at most [`Limits::max_warnings`]).
    ///
    /// # Errors
    /// The parse error; nothing is applied then.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Warning>, Error> {
        let parsed = self.parse::<SessionUpdate>(text)?;
        self.apply(parsed.value);
        Ok(self.keep_warnings(parsed.warnings_dropped, parsed.warnings))
    }

    /// Parses one `session/update` notification's params (JSON text) and applies its
    /// update. The first notification binds the store to its session.
    ///
    /// # Errors
    /// The parse error, or `session_mismatch` at `/sessionId` for a notification of
    /// another session; nothing is applied then.
    pub fn apply_notification_text(&mut self, text: &str) -> Result<Vec<Warning>, Error> {
        let parsed = self.parse::<UpdateSessionNotification>(text)?;
        self.apply_notification(parsed.value)?;
        Ok(self.keep_warnings(parsed.warnings_dropped, parsed.warnings))
    }

    /// Applies one parsed `session/update` notification's update, keeping its session:
    /// the first notification binds the store to its session. Use it when an SDK or
    /// your own serde types already parsed the notification; [`TerminalStore::apply`]
    /// of its `update` alone would not check the session.
    ///
    /// # Errors
    /// `session_mismatch` at `/sessionId` for a notification of another session;
    /// nothing is applied then.
    pub fn apply_notification(&mut self, notification: UpdateSessionNotification) -> Result<(), Error> {
        match &self.session {
            Some(bound) if *bound != notification.session_id => {
                return Err(Error::new(
                    ErrorKind::SessionMismatch,
                    "/sessionId",
                    format!("this store holds session {:?}, not {:?}; use one store per session", bound.as_str(), notification.session_id.as_str()),
                ));
            }
            Some(_) => {}
            None => self.session = Some(notification.session_id),
        }
        self.apply(notification.update);
        Ok(())
    }

    /// Applies updates in order, stopping at the first that fails to parse: everything
    /// applied before it stays applied.
    ///
    /// # Errors
    /// The index and error of the first update that fails.
    pub fn apply_all<'a>(&mut self, texts: impl IntoIterator<Item = &'a str>) -> Result<Vec<Warning>, ApplyError> {
        let mut warnings = Vec::new();
        for (index, text) in texts.into_iter().enumerate() {
            warnings.extend(self.apply_text(text).map_err(|error| ApplyError { index, error })?);
        }
        Ok(warnings)
    }
}
