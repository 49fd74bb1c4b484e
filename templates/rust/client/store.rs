//! The terminal store: what every Client must get right when it applies session
//! updates of the display-only terminal surface (upserts, replacement snapshots,
//! appended chunks, either-order arrival), with a safe transcript per terminal.

use crate::v2::{
    AbsolutePath, SessionUpdate, TerminalExitStatus, TerminalId, ToolCallContent, ToolCallId, UpdateSessionNotification,
};
use crate::wire::{self, Error, Members, Patch, Transcript, Warning};
use std::collections::{BTreeSet, HashMap};

/// Output bytes kept as a list of blocks: appending never copies what is already
/// stored, and at most one partly filled block is spare capacity, so the memory held
/// stays close to the bytes retained.
#[derive(Debug, Default)]
pub struct ByteLog {
    blocks: Vec<Vec<u8>>,
    len: usize,
}

impl ByteLog {
    /// The size of the blocks chunks are appended into.
    pub const BLOCK: usize = 64 * 1024;

    /// Replaces everything with `bytes` (kept as they are, without a copy).
    pub fn replace(&mut self, bytes: Vec<u8>) {
        self.len = bytes.len();
        self.blocks.clear();
        if !bytes.is_empty() {
            self.blocks.push(bytes);
        }
    }

    /// Appends `bytes`.
    pub fn append(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len();
        while !bytes.is_empty() {
            match self.blocks.last_mut() {
                Some(last) if last.len() < last.capacity() => {
                    let n = bytes.len().min(last.capacity() - last.len());
                    last.extend_from_slice(&bytes[..n]);
                    bytes = &bytes[n..];
                }
                _ => {
                    let mut block = Vec::with_capacity(Self::BLOCK.max(bytes.len().min(16 * Self::BLOCK)));
                    let n = bytes.len().min(block.capacity());
                    block.extend_from_slice(&bytes[..n]);
                    bytes = &bytes[n..];
                    self.blocks.push(block);
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

    /// The retained bytes, block by block, in order.
    pub fn blocks(&self) -> impl Iterator<Item = &[u8]> {
        self.blocks.iter().map(Vec::as_slice)
    }

    /// The retained bytes as one vector (a copy).
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        for b in &self.blocks {
            out.extend_from_slice(b);
        }
        out
    }

    /// The memory the blocks hold, spare capacity included.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.blocks.iter().map(Vec::capacity).sum()
    }
}

/// What the store knows about one terminal.
#[derive(Debug, Default)]
pub struct TerminalState {
    command: Option<String>,
    cwd: Option<AbsolutePath>,
    output: ByteLog,
    exit_status: Option<TerminalExitStatus>,
    meta: Option<Members>,
    transcript: Transcript,
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

    /// Every retained output byte: the last snapshot plus every chunk since.
    #[must_use]
    pub const fn output(&self) -> &ByteLog {
        &self.output
    }

    /// The exit status; `Some` means the process exited.
    #[must_use]
    pub const fn exit_status(&self) -> Option<&TerminalExitStatus> {
        self.exit_status.as_ref()
    }

    /// Terminal-scoped extension data, as last patched.
    #[must_use]
    pub const fn meta(&self) -> Option<&Members> {
        self.meta.as_ref()
    }

    /// The safe transcript of the retained output (docs/TRANSCRIPT.md).
    #[must_use]
    pub fn transcript(&self) -> String {
        self.transcript.text()
    }

    /// The tool calls whose current content references this terminal, sorted.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCallId> {
        self.tool_calls.iter()
    }

    fn replace_output(&mut self, bytes: Vec<u8>) {
        self.transcript.reset();
        self.transcript.push(&bytes);
        self.output.replace(bytes);
    }

    fn append_output(&mut self, bytes: &[u8]) {
        self.transcript.push(bytes);
        self.output.append(bytes);
    }
}

/// Applies session updates and keeps every terminal's state, in first-seen order.
#[derive(Debug, Default)]
pub struct TerminalStore {
    terminals: Vec<(TerminalId, TerminalState)>,
    index: HashMap<TerminalId, usize>,
    /// The terminals each tool call's current content references.
    tool_calls: HashMap<ToolCallId, Vec<TerminalId>>,
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
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
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

    fn entry(&mut self, id: &TerminalId) -> &mut TerminalState {
        let i = match self.index.get(id) {
            Some(&i) => i,
            None => {
                self.terminals.push((id.clone(), TerminalState::default()));
                self.index.insert(id.clone(), self.terminals.len() - 1);
                self.terminals.len() - 1
            }
        };
        &mut self.terminals[i].1
    }

    fn link(&mut self, tool_call: &ToolCallId, terminals: Vec<TerminalId>) {
        if let Some(old) = self.tool_calls.remove(tool_call) {
            for t in old {
                self.entry(&t).tool_calls.remove(tool_call);
            }
        }
        for t in &terminals {
            self.entry(t).tool_calls.insert(tool_call.clone());
        }
        if !terminals.is_empty() {
            self.tool_calls.insert(tool_call.clone(), terminals);
        }
    }

    fn referenced(content: &[ToolCallContent]) -> Vec<TerminalId> {
        let mut out: Vec<TerminalId> = Vec::new();
        for c in content {
            if let ToolCallContent::Terminal(t) = c {
                if !out.contains(&t.terminal_id) {
                    out.push(t.terminal_id.clone());
                }
            }
        }
        out
    }

    /// Applies one parsed update. Updates outside the terminal surface are ignored.
    pub fn apply(&mut self, update: SessionUpdate) {
        match update {
            SessionUpdate::TerminalUpdate(u) => {
                let t = self.entry(&u.terminal_id);
                u.command.apply_to(&mut t.command);
                u.cwd.apply_to(&mut t.cwd);
                u.exit_status.apply_to(&mut t.exit_status);
                u.meta.apply_to(&mut t.meta);
                match u.output {
                    Patch::Keep => {}
                    Patch::Clear => t.replace_output(Vec::new()),
                    Patch::Set(o) => t.replace_output(o.data.0),
                }
            }
            SessionUpdate::TerminalOutputChunk(c) => self.entry(&c.terminal_id).append_output(&c.data),
            SessionUpdate::ToolCallUpdate(u) => match u.content {
                Patch::Keep => {}
                Patch::Clear => self.link(&u.tool_call_id, Vec::new()),
                Patch::Set(content) => self.link(&u.tool_call_id, Self::referenced(&content)),
            },
            SessionUpdate::ToolCallContentChunk(c) => {
                if let ToolCallContent::Terminal(t) = &c.content {
                    let mut current = self.tool_calls.get(&c.tool_call_id).cloned().unwrap_or_default();
                    if !current.contains(&t.terminal_id) {
                        current.push(t.terminal_id.clone());
                    }
                    self.link(&c.tool_call_id, current);
                }
            }
            SessionUpdate::Unknown(_) => {}
        }
    }

    /// Parses one `SessionUpdate` (JSON text) and applies it; returns the warnings of
    /// lenient members that were dropped.
    ///
    /// # Errors
    /// The parse error; nothing is applied then.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Warning>, Error> {
        let parsed = wire::from_str::<SessionUpdate>(text)?;
        self.apply(parsed.value);
        Ok(parsed.warnings)
    }

    /// Parses one `session/update` notification's params (JSON text) and applies its
    /// update.
    ///
    /// # Errors
    /// The parse error; nothing is applied then.
    pub fn apply_notification_text(&mut self, text: &str) -> Result<Vec<Warning>, Error> {
        let parsed = wire::from_str::<UpdateSessionNotification>(text)?;
        self.apply(parsed.value.update);
        Ok(parsed.warnings)
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
