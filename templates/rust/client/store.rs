//! The terminal store: what every Client must get right when it applies session
//! updates of the display-only terminal surface (upserts, replacement snapshots,
//! appended chunks, either-order arrival), with a safe transcript per terminal.
//!
//! Costs (README, "The store's guarantees"): applying an update takes time
//! proportional to its size, plus amortized constant time per terminal and per
//! reference. Memory is the retained bytes plus a small constant per terminal; the
//! transcript is built only for terminals whose text is asked for, incrementally.
//! Every limit ([`Limits`]) is visible when hit and never loses what was applied.

use crate::v2::{
    AbsolutePath, SessionId, SessionUpdate, TerminalCapabilities, TerminalExitStatus, TerminalId, TerminalSize, ToolCallContent,
    ToolCallId, UpdateSessionNotification,
};
use crate::wire::transcript::{MAX_LINE_LENGTH, MAX_TEXT_LENGTH};
use crate::wire::{self, Error, ErrorKind, Members, Patch, Transcript, Warning};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// Limits a Client sets on what an Agent can make it hold. The defaults are safe for
/// an interactive Client; every limit is the same in the three languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many terminals. An update or reference that would create one more
    /// is ignored and counted in [`Counters::terminals_refused`]; terminals the store
    /// already holds keep working.
    pub max_terminals: usize,
    /// At most this many output bytes retained per terminal. Past it the store keeps
    /// the most recent bytes and counts the rest in [`TerminalState::dropped_bytes`].
    /// The transcript still renders every byte (it reads bytes before they go).
    pub max_retained_bytes: usize,
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
}

impl Limits {
    /// The default limits: 1024 terminals, 1 MiB per terminal, 64 warnings per message,
    /// and the transcript's own defaults ([`MAX_LINE_LENGTH`] cells per line,
    /// [`MAX_TEXT_LENGTH`] code points of finished lines).
    pub const DEFAULT: Self = Self {
        max_terminals: 1024,
        max_retained_bytes: 1 << 20,
        max_warnings: 64,
        max_line_length: MAX_LINE_LENGTH,
        max_text_length: MAX_TEXT_LENGTH,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What the store ignored because a limit was hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Updates and references ignored because they would have created a terminal past
    /// [`Limits::max_terminals`].
    pub terminals_refused: u64,
    /// Warnings not returned because a message had more than [`Limits::max_warnings`].
    pub warnings_dropped: u64,
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
    command: Option<String>,
    cwd: Option<AbsolutePath>,
    output: ByteLog,
    exit_status: Option<TerminalExitStatus>,
    size: Option<TerminalSize>,
    capabilities: Option<TerminalCapabilities>,
    meta: Option<Members>,
    lazy: Mutex<Lazy>,
    tool_calls: BTreeSet<ToolCallId>,
}

impl TerminalState {
    /// The command line, when known.
    #[must_use]
    pub fn command(&self) -> Option<&str> {
        self.command.as_deref()
    }

    /// The absolute working directory, when known.
    #[must_use]
    pub const fn cwd(&self) -> Option<&AbsolutePath> {
        self.cwd.as_ref()
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
    pub const fn exit_status(&self) -> Option<&TerminalExitStatus> {
        self.exit_status.as_ref()
    }

    /// The terminal size the command runs with, when known: render the output at this
    /// width so that column layouts and progress bars look as the program wrote them.
    #[must_use]
    pub const fn size(&self) -> Option<&TerminalSize> {
        self.size.as_ref()
    }

    /// What the Client may ask the Agent to do with this terminal right now, as last
    /// replaced; `None` when the Agent never said or cleared it. The store only records
    /// it: a display may offer it to its user, and nothing is sent unless the user asks.
    #[must_use]
    pub const fn capabilities(&self) -> Option<&TerminalCapabilities> {
        self.capabilities.as_ref()
    }

    /// Whether the terminal currently offers `terminal/cancel` (`capabilities.cancel`), so
    /// a display may show a cancel control. The store never sends one.
    #[must_use]
    pub const fn can_cancel(&self) -> bool {
        matches!(&self.capabilities, Some(TerminalCapabilities { cancel: Some(_), .. }))
    }

    /// Terminal-scoped extension data, as last replaced (RFD semantics, docs/WIRE.md).
    #[must_use]
    pub const fn meta(&self) -> Option<&Members> {
        self.meta.as_ref()
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

/// Applies session updates and keeps every terminal's state, in first-seen order.
///
/// A store holds one session: the first `session/update` notification binds it, and a
/// notification of another session is rejected (`session_mismatch`) without effect.
/// Updates applied without their notification ([`TerminalStore::apply`],
/// [`TerminalStore::apply_text`]) are taken as the caller's session.
#[derive(Debug, Default)]
pub struct TerminalStore {
    terminals: Vec<(TerminalId, TerminalState)>,
    index: HashMap<TerminalId, usize>,
    /// The terminals each tool call's current content references, each once.
    tool_calls: HashMap<ToolCallId, Vec<usize>>,
    limits: Limits,
    counters: Counters,
    session: Option<SessionId>,
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

    /// What the limits made the store ignore so far.
    #[must_use]
    pub const fn counters(&self) -> Counters {
        self.counters
    }

    /// The session the store is bound to, once a notification has been applied.
    #[must_use]
    pub const fn session_id(&self) -> Option<&SessionId> {
        self.session.as_ref()
    }

    /// The state of `id`, if the store has seen it.
    #[must_use]
    pub fn terminal(&self, id: &str) -> Option<&TerminalState> {
        self.index.get(id).map(|&i| &self.terminals[i].1)
    }

    /// Every terminal, in first-seen order.
    pub fn terminals(&self) -> impl Iterator<Item = (&TerminalId, &TerminalState)> {
        self.terminals.iter().map(|(id, t)| (id, t))
    }

    /// The index of `id`, created when new; `None` (counted) past the terminal limit.
    fn entry(&mut self, id: &TerminalId) -> Option<usize> {
        if let Some(&i) = self.index.get(id) {
            return Some(i);
        }
        if self.terminals.len() >= self.limits.max_terminals {
            self.counters.terminals_refused += 1;
            return None;
        }
        let lazy = Lazy { limits: (self.limits.max_line_length, self.limits.max_text_length), ..Lazy::default() };
        self.terminals.push((id.clone(), TerminalState { lazy: Mutex::new(lazy), ..TerminalState::default() }));
        self.index.insert(id.clone(), self.terminals.len() - 1);
        Some(self.terminals.len() - 1)
    }

    /// Adds `terminal` to `tool_call`'s references unless it is there already.
    fn link(&mut self, tool_call: &ToolCallId, terminal: &TerminalId) {
        if let Some(i) = self.entry(terminal) {
            if self.terminals[i].1.tool_calls.insert(tool_call.clone()) {
                self.tool_calls.entry(tool_call.clone()).or_default().push(i);
            }
        }
    }

    /// Removes every reference of `tool_call`.
    fn unlink_all(&mut self, tool_call: &ToolCallId) {
        for i in self.tool_calls.remove(tool_call).unwrap_or_default() {
            self.terminals[i].1.tool_calls.remove(tool_call);
        }
    }

    fn relink(&mut self, tool_call: &ToolCallId, content: &[ToolCallContent]) {
        self.unlink_all(tool_call);
        for c in content {
            if let ToolCallContent::Terminal(t) = c {
                self.link(tool_call, &t.terminal_id);
            }
        }
    }

    /// Applies one parsed update. Updates outside the terminal surface are ignored.
    pub fn apply(&mut self, update: SessionUpdate) {
        let limit = self.limits.max_retained_bytes;
        match update {
            SessionUpdate::TerminalUpdate(u) => {
                let Some(i) = self.entry(&u.terminal_id) else { return };
                let t = &mut self.terminals[i].1;
                u.command.apply_to(&mut t.command);
                u.cwd.apply_to(&mut t.cwd);
                u.exit_status.apply_to(&mut t.exit_status);
                u.size.apply_to(&mut t.size);
                u.capabilities.apply_to(&mut t.capabilities);
                u.meta.apply_to(&mut t.meta);
                match u.output {
                    Patch::Keep => {}
                    Patch::Clear => t.replace_output(Vec::new(), limit),
                    Patch::Set(o) => t.replace_output(o.data.0, limit),
                }
            }
            SessionUpdate::TerminalOutputChunk(c) => {
                if let Some(i) = self.entry(&c.terminal_id) {
                    self.terminals[i].1.append_output(c.data.0, limit);
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

    fn keep_warnings(&mut self, mut warnings: Vec<Warning>) -> Vec<Warning> {
        if warnings.len() > self.limits.max_warnings {
            self.counters.warnings_dropped += (warnings.len() - self.limits.max_warnings) as u64;
            warnings.truncate(self.limits.max_warnings);
        }
        warnings
    }

    /// Parses one `SessionUpdate` (JSON text) and applies it; returns the warnings of
    /// lenient members that were dropped (at most [`Limits::max_warnings`]).
    ///
    /// # Errors
    /// The parse error; nothing is applied then.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Warning>, Error> {
        let parsed = wire::from_str::<SessionUpdate>(text)?;
        self.apply(parsed.value);
        Ok(self.keep_warnings(parsed.warnings))
    }

    /// Parses one `session/update` notification's params (JSON text) and applies its
    /// update. The first notification binds the store to its session.
    ///
    /// # Errors
    /// The parse error, or `session_mismatch` at `/sessionId` for a notification of
    /// another session; nothing is applied then.
    pub fn apply_notification_text(&mut self, text: &str) -> Result<Vec<Warning>, Error> {
        let parsed = wire::from_str::<UpdateSessionNotification>(text)?;
        self.apply_notification(parsed.value)?;
        Ok(self.keep_warnings(parsed.warnings))
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
                    format!(
                        "this store holds session {:?}, not {:?}; use one store per session",
                        bound.as_str(),
                        notification.session_id.as_str()
                    ),
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
