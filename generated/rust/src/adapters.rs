// @generated in its copies: cargo xtask gen vendors templates/rust/client/adapters.rs byte for byte as src/adapters.rs of the acp-terminal crate; edit it here, never a copy.
//! Version adapters (docs/ADAPTERS.md): stateless v1 <-> v2 converters that refuse
//! terminals, a stateful v2 -> v1 [`Bridge`] for Clients that only speak v1, and
//! [`ingest_v1`], which reads the v1 `_meta` terminal convention into a [`TerminalStore`].
//!
//! The converters work on the canonical JSON of the parsed value: the members are moved
//! into the other version's shape, the result is parsed as the target type, and anything
//! the target would reject, drop or change is a `not_representable` error with the JSON
//! pointer of the item at fault (in the input). What converts, converts exactly.

use crate::adapter_rules::{self as rules, PAIRS};
use crate::registry;
use crate::store::TerminalStore;
use crate::transcript::Transcript;
use crate::wire::{self, Error, ErrorKind, Warning};
// The crate's own ordered JSON: member order must survive whatever features a
// dependent enables on serde_json (its `Map` is sorted without `preserve_order`).
use crate::wire::{Json as Value, Members as Map};
use std::collections::HashMap;

/// Which way a conversion goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From ACP v1 to ACP v2.
    V1ToV2,
    /// From ACP v2 to ACP v1.
    V2ToV1,
}

impl Direction {
    /// The direction from `from` to `to` (`"v1"`, `"v2"`).
    #[must_use]
    pub fn between(from: &str, to: &str) -> Option<Self> {
        match (from, to) {
            ("v1", "v2") => Some(Self::V1ToV2),
            ("v2", "v1") => Some(Self::V2ToV1),
            _ => None,
        }
    }
    /// The source version.
    #[must_use]
    pub const fn from(self) -> &'static str {
        match self {
            Self::V1ToV2 => "v1",
            Self::V2ToV1 => "v2",
        }
    }
    /// The target version.
    #[must_use]
    pub const fn to(self) -> &'static str {
        match self {
            Self::V1ToV2 => "v2",
            Self::V2ToV1 => "v1",
        }
    }
}

/// A converted value: the canonical text of the target definition, and the warnings
/// from parsing the input (lenient members it dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The target definition's name.
    pub type_name: String,
    /// Canonical JSON of the converted value.
    pub text: String,
    /// What parsing the input dropped, in document order.
    pub warnings: Vec<Warning>,
}

fn refuse(path: &str, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::NotRepresentable, path, message)
}

fn at(path: &str, token: &str) -> String {
    let mut p = path.to_owned();
    wire::push_token(&mut p, token);
    p
}

fn parse_canonical(text: &str) -> Value {
    wire::parse_value(text).unwrap_or(Value::Null)
}

/// Converts `text`, a value of definition `type_name` in the source version, to the
/// target definition `to_type` (default: the usual counterpart, see docs/ADAPTERS.md).
///
/// # Errors
/// The input's parse error, as it is; `not_representable` (with the pointer of the item
/// at fault in the input and what to do) for what the other version cannot say exactly.
pub fn convert(direction: Direction, type_name: &str, to_type: Option<&str>, text: &str) -> Result<Converted, Error> {
    let pair = PAIRS.iter().find(|(from, source, to)| *from == direction.from() && *source == type_name && (to_type.is_none() || *to == to_type));
    let Some(&(_, _, target)) = pair else {
        return Err(refuse("", rules::no_pair(direction.to(), direction.from(), type_name)));
    };
    let (canonical, warnings) = registry::decode(direction.from(), type_name, text).ok_or_else(|| refuse("", rules::not_a_definition(type_name, direction.from())))??;
    let Some(target) = target else {
        return Err(refuse("", rules::refusal(direction.from(), type_name).unwrap_or(rules::SUBJECT_ALONE)));
    };
    let source = parse_canonical(&canonical);
    let out = Converter { direction }.value(type_name, target, &source, "")?;
    let out_text = wire::to_string(&out);
    let back = |p: &str| map_back(direction, type_name, p);
    let (final_text, target_warnings) = registry::decode(direction.to(), target, &out_text)
        .ok_or_else(|| refuse("", rules::not_a_definition(target, direction.to())))?
        .map_err(|e| refuse(&back(&e.path), rules::not_accepted(direction.to(), &e.message)))?;
    if let Some(w) = target_warnings.first() {
        return Err(refuse(&back(&w.path), rules::would_drop(direction.to(), &w.message)));
    }
    if let Some(p) = first_difference(&out, &parse_canonical(&final_text), "") {
        return Err(refuse(&back(&p), rules::not_kept(direction.to())));
    }
    Ok(Converted { type_name: target.to_owned(), text: final_text, warnings })
}

/// Maps a pointer into the converted value back to the input.
fn map_back(direction: Direction, type_name: &str, path: &str) -> String {
    if type_name != "RequestPermissionRequest" {
        return path.to_owned();
    }
    match direction {
        Direction::V1ToV2 => {
            if let Some(rest) = path.strip_prefix("/subject/toolCall") {
                format!("/toolCall{rest}")
            } else if path == "/title" {
                "/toolCall/title".to_owned()
            } else if path.starts_with("/subject") {
                "/toolCall".to_owned()
            } else {
                path.to_owned()
            }
        }
        Direction::V2ToV1 => path.strip_prefix("/toolCall").map_or_else(|| path.to_owned(), |rest| format!("/subject/toolCall{rest}")),
    }
}

/// The first pointer where `a` and `b` differ (object member order aside).
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => {
                        if let Some(p) = first_difference(v, w, &at(path, k)) {
                            return Some(p);
                        }
                    }
                    None => return Some(at(path, k)),
                }
            }
            y.keys().find(|k| !x.contains_key(k)).map(|k| at(path, k))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(path.to_owned());
            }
            x.iter().zip(y).enumerate().find_map(|(i, (v, w))| first_difference(v, w, &at(path, &i.to_string())))
        }
        (Value::Number(x), Value::Number(y)) => (x != y).then(|| path.to_owned()),
        _ => (a != b).then(|| path.to_owned()),
    }
}

/// The patch members of v2 `ToolCallUpdate` (a `null` there clears; an unknown member's
/// `null` is just a value).
const PATCH_MEMBERS: &[&str] = &["title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "_meta"];

struct Converter {
    direction: Direction,
}

fn obj(v: &Value) -> Map {
    v.as_object().cloned().unwrap_or_default()
}

fn tag_of<'v>(v: &'v Value, name: &str) -> &'v str {
    v.get(name).and_then(Value::as_str).unwrap_or("")
}

impl Converter {
    fn value(&self, from: &str, to: &str, v: &Value, p: &str) -> Result<Value, Error> {
        match from {
            "SessionNotification" | "UpdateSessionNotification" => {
                let mut o = obj(v);
                if let Some(u) = v.get("update") {
                    o.insert("update", self.session_update(u, &at(p, "update"))?);
                }
                Ok(Value::Object(o))
            }
            "SessionUpdate" => self.session_update(v, p),
            "ToolCall" | "ToolCallUpdate" => self.tool_call_update(v, p, to == "ToolCall"),
            "ToolCallContent" => self.tool_call_content(v, p),
            "Content" => self.content(v, p),
            "ContentBlock" => self.content_block(v, p),
            "Diff" => Err(refuse(p, self.diff_message())),
            "Terminal" => Err(refuse(p, rules::TERMINAL)),
            "RequestPermissionRequest" => match self.direction {
                Direction::V1ToV2 => self.permission_request_to_v2(v, p),
                Direction::V2ToV1 => self.permission_request_to_v1(v, p),
            },
            _ => Ok(v.clone()),
        }
    }

    fn diff_message(&self) -> &'static str {
        match self.direction {
            Direction::V1ToV2 => rules::DIFF_FROM_V1,
            Direction::V2ToV1 => rules::DIFF_FROM_V2,
        }
    }

    fn session_update(&self, v: &Value, p: &str) -> Result<Value, Error> {
        let tag = tag_of(v, "sessionUpdate");
        match (self.direction, tag) {
            (Direction::V1ToV2, "tool_call" | "tool_call_update") => {
                let mut o = obj(&self.tool_call_update(v, p, false)?);
                o.insert("sessionUpdate", Value::String("tool_call_update".into()));
                Ok(Value::Object(o))
            }
            (Direction::V2ToV1, "tool_call_update") => self.tool_call_update(v, p, false),
            (Direction::V2ToV1, "terminal_update" | "terminal_output_chunk") => Err(refuse(p, rules::TERMINAL_UPDATE)),
            (Direction::V2ToV1, "tool_call_content_chunk") => Err(refuse(p, rules::CHUNK)),
            _ => Err(refuse(p, rules::not_tool_call_update(self.direction.from(), tag))),
        }
    }

    fn tool_call_update(&self, v: &Value, p: &str, needs_title: bool) -> Result<Value, Error> {
        let mut o = obj(v);
        if self.direction == Direction::V2ToV1 {
            for (k, x) in obj(v) {
                if x.is_null() && PATCH_MEMBERS.contains(&k.as_str()) {
                    if k == "content" || k == "locations" {
                        o.insert(k, Value::Array(Vec::new()));
                    } else {
                        return Err(refuse(&at(p, &k), rules::cannot_clear(&k)));
                    }
                }
            }
        }
        if let Some(Value::Array(items)) = v.get("content") {
            let base = at(p, "content");
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(self.tool_call_content(item, &at(&base, &i.to_string()))?);
            }
            o.insert("content", Value::Array(out));
        }
        if needs_title && !v.get("title").is_some_and(is_string) {
            return Err(refuse(&at(p, "title"), rules::NEEDS_TITLE));
        }
        Ok(Value::Object(o))
    }

    fn tool_call_content(&self, v: &Value, p: &str) -> Result<Value, Error> {
        match tag_of(v, "type") {
            "content" => self.content(v, p),
            "terminal" => Err(refuse(p, rules::TERMINAL)),
            "diff" => Err(refuse(p, self.diff_message())),
            other => Err(refuse(p, rules::tool_call_content_type(other))),
        }
    }

    fn content(&self, v: &Value, p: &str) -> Result<Value, Error> {
        let mut o = obj(v);
        if let Some(b) = v.get("content") {
            o.insert("content", self.content_block(b, &at(p, "content"))?);
        }
        Ok(Value::Object(o))
    }

    fn content_block(&self, v: &Value, p: &str) -> Result<Value, Error> {
        let tag = tag_of(v, "type");
        if !matches!(tag, "text" | "image" | "audio" | "resource_link" | "resource") {
            return Err(refuse(p, rules::content_type(tag)));
        }
        if tag == "resource_link" && v.get("icons").is_some() {
            let why = match self.direction {
                Direction::V2ToV1 => rules::ICONS_FROM_V2,
                Direction::V1ToV2 => rules::ICONS_FROM_V1,
            };
            return Err(refuse(&at(p, "icons"), why));
        }
        Ok(v.clone())
    }

    fn permission_request_to_v2(&self, v: &Value, p: &str) -> Result<Value, Error> {
        for k in ["title", "description", "subject"] {
            if v.get(k).is_some() {
                return Err(refuse(&at(p, k), rules::v2_member_in_v1(k)));
            }
        }
        let tool_call = v.get("toolCall").cloned().unwrap_or(Value::Null);
        let Some(title) = tool_call.get("title").and_then(Value::as_str) else {
            return Err(refuse(&at(&at(p, "toolCall"), "title"), rules::PERMISSION_NEEDS_TITLE));
        };
        let converted = self.tool_call_update(&tool_call, &at(p, "toolCall"), false)?;
        let mut subject = Map::new();
        subject.insert("type", Value::String("tool_call".into()));
        subject.insert("toolCall", converted);
        let mut o = Map::new();
        for (k, x) in obj(v) {
            if k == "toolCall" {
                o.insert("title", Value::String(title.to_owned()));
                o.insert("subject", Value::Object(subject.clone()));
            } else {
                o.insert(k, x);
            }
        }
        Ok(Value::Object(o))
    }

    fn permission_request_to_v1(&self, v: &Value, p: &str) -> Result<Value, Error> {
        if v.get("toolCall").is_some() {
            return Err(refuse(&at(p, "toolCall"), rules::TOOL_CALL_MEMBER_IN_V2));
        }
        if v.get("description").is_some() {
            return Err(refuse(&at(p, "description"), rules::NO_DESCRIPTION));
        }
        let Some(subject) = v.get("subject") else {
            return Err(refuse(&at(p, "subject"), rules::NO_SUBJECT));
        };
        let sp = at(p, "subject");
        match tag_of(subject, "type") {
            "tool_call" => {}
            "command" => return Err(refuse(&sp, rules::COMMAND_SUBJECT)),
            other => return Err(refuse(&sp, rules::subject_kind(other))),
        }
        if let Some(k) = obj(subject).keys().find(|k| *k != "type" && *k != "toolCall") {
            return Err(refuse(&at(&sp, k), rules::subject_member(k)));
        }
        let tool_call = subject.get("toolCall").cloned().unwrap_or(Value::Null);
        if tool_call.get("title") != v.get("title") {
            return Err(refuse(&at(p, "title"), rules::TITLE_DIFFERS));
        }
        let converted = self.tool_call_update(&tool_call, &at(&sp, "toolCall"), false)?;
        let mut o = Map::new();
        for (k, x) in obj(v) {
            match k.as_str() {
                "title" => {}
                "subject" => {
                    o.insert("toolCall", converted.clone());
                }
                _ => {
                    o.insert(k, x);
                }
            }
        }
        Ok(Value::Object(o))
    }
}

// ---------------------------------------------------------------------------------
// The v2 -> v1 bridge

/// What the [`Bridge`] does beyond the plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BridgeOptions {
    /// Keep at most this many characters (Unicode scalar values) of each transcript:
    /// the head and the tail, with a marker saying how many were left out. `None`: keep
    /// everything.
    pub cap: Option<usize>,
    /// Also emit the `_meta` terminal convention (`terminal_info`, `terminal_output`
    /// with only the new output, `terminal_exit`) on the tool-call updates.
    pub meta: bool,
}

#[derive(Debug, Default)]
struct CallState {
    content: Option<Vec<Value>>,
    sent: bool,
}

#[derive(Debug, Default, Clone, Copy)]
struct MetaSent {
    info: bool,
    offset: usize,
    exit: bool,
}

/// Feeds v2 `SessionUpdate`s to a Client that only speaks v1. Terminal output reaches
/// it as text content (the safe transcript, with the command and exit status) in place
/// of the terminal item in every tool call that references the terminal; text is made
/// only on [`Bridge::flush`], on exit, and when a tool call's content is set. It never
/// emits a v1 terminal item.
#[derive(Debug, Default)]
pub struct Bridge {
    options: BridgeOptions,
    store: TerminalStore,
    calls: Vec<(String, CallState)>,
    index: HashMap<String, usize>,
    dirty: Vec<String>,
    sent: HashMap<(String, String), MetaSent>,
}

/// The v1 updates to send: canonical JSON texts of v1 `SessionUpdate`s, in order.
pub type Emitted = Vec<String>;

impl Bridge {
    /// A bridge with an empty store.
    #[must_use]
    pub fn new(options: BridgeOptions) -> Self {
        Self { options, ..Self::default() }
    }

    /// The store the bridge keeps.
    #[must_use]
    pub const fn store(&self) -> &TerminalStore {
        &self.store
    }

    fn call(&mut self, id: &str) -> &mut CallState {
        let i = match self.index.get(id) {
            Some(&i) => i,
            None => {
                self.calls.push((id.to_owned(), CallState::default()));
                self.index.insert(id.to_owned(), self.calls.len() - 1);
                self.calls.len() - 1
            }
        };
        &mut self.calls[i].1
    }

    fn mark_dirty(&mut self, id: &str) {
        if !self.dirty.iter().any(|d| d == id) {
            self.dirty.push(id.to_owned());
        }
    }

    /// Applies one v2 `SessionUpdate` (JSON text) and returns the v1 updates to send.
    ///
    /// # Errors
    /// The parse error (nothing is applied), or `not_representable` for an update or
    /// content item v1 cannot show (it is applied to the store all the same).
    pub fn push(&mut self, text: &str) -> Result<Emitted, Error> {
        let parsed = wire::from_str::<crate::v2::SessionUpdate>(text)?;
        let v = parse_canonical(&wire::to_string(&parsed.value));
        self.store.apply(parsed.value);
        let tag = tag_of(&v, "sessionUpdate");
        match tag {
            "terminal_output_chunk" => {
                self.mark_dirty(tag_of(&v, "terminalId"));
                Ok(Vec::new())
            }
            "terminal_update" => {
                let id = tag_of(&v, "terminalId").to_owned();
                if v.get("output").is_some() {
                    for ((_, t), s) in &mut self.sent {
                        if *t == id {
                            s.offset = 0;
                        }
                    }
                }
                self.mark_dirty(&id);
                if v.get("exitStatus").is_some_and(Value::is_object) { self.emit_terminal(&id) } else { Ok(Vec::new()) }
            }
            "tool_call_update" => {
                let id = tag_of(&v, "toolCallId").to_owned();
                let mut update = obj(&v);
                update.remove("sessionUpdate");
                match v.get("content") {
                    Some(Value::Array(items)) => self.call(&id).content = Some(items.clone()),
                    Some(_) => {
                        self.call(&id).content = Some(Vec::new());
                        update.insert("content", Value::Array(Vec::new()));
                    }
                    None => {}
                }
                let first = !self.call(&id).sent;
                let out = self.emit(&id, update, v.get("content").is_some(), first)?;
                self.call(&id).sent = true;
                Ok(out)
            }
            "tool_call_content_chunk" => {
                let id = tag_of(&v, "toolCallId").to_owned();
                let item = v.get("content").cloned().unwrap_or(Value::Null);
                self.call(&id).content.get_or_insert_with(Vec::new).push(item);
                let mut update = Map::new();
                update.insert("toolCallId", Value::String(id.clone()));
                let out = self.emit(&id, update, true, false)?;
                self.call(&id).sent = true;
                Ok(out)
            }
            other => Err(refuse("", rules::bridge_only(other))),
        }
    }

    /// Sends the current text of every terminal that changed since the last flush to
    /// every tool call that references it.
    ///
    /// # Errors
    /// `not_representable` when a referencing tool call's content holds an item v1
    /// cannot show.
    pub fn flush(&mut self) -> Result<Emitted, Error> {
        let dirty = std::mem::take(&mut self.dirty);
        let mut out = Vec::new();
        let ids: Vec<String> = self.calls.iter().map(|(id, _)| id.clone()).collect();
        for id in ids {
            if self.references(&id).iter().any(|t| dirty.contains(t)) {
                let mut update = Map::new();
                update.insert("toolCallId", Value::String(id.clone()));
                out.extend(self.emit(&id, update, true, false)?);
            }
        }
        Ok(out)
    }

    fn emit_terminal(&mut self, terminal: &str) -> Result<Emitted, Error> {
        self.dirty.retain(|d| d != terminal);
        let mut out = Vec::new();
        let ids: Vec<String> = self.calls.iter().map(|(id, _)| id.clone()).collect();
        for id in ids {
            if self.references(&id).iter().any(|t| t == terminal) {
                let mut update = Map::new();
                update.insert("toolCallId", Value::String(id.clone()));
                out.extend(self.emit(&id, update, true, false)?);
            }
        }
        Ok(out)
    }

    fn references(&self, call: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if let Some(&i) = self.index.get(call) {
            for item in self.calls[i].1.content.iter().flatten() {
                if tag_of(item, "type") == "terminal" {
                    let t = tag_of(item, "terminalId").to_owned();
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
        }
        out
    }

    /// Builds and converts one v1 update for tool call `id` from the v2 members in
    /// `update`; with `with_content`, the content is the call's whole content with every
    /// terminal item shown as text.
    fn emit(&mut self, id: &str, mut update: Map, with_content: bool, first: bool) -> Result<Emitted, Error> {
        let terminals = self.references(id);
        if with_content {
            let items = self.calls[self.index[id]].1.content.clone().unwrap_or_default();
            let rendered: Vec<Value> = items.iter().map(|item| self.render_item(item)).collect();
            update.insert("content", Value::Array(rendered));
        }
        let mut extra = Vec::new();
        if self.options.meta && with_content {
            for (n, t) in terminals.iter().enumerate() {
                let members = self.convention(id, t);
                if members.is_empty() {
                    continue;
                }
                if n == 0 {
                    let mut meta = update.get("_meta").and_then(Value::as_object).cloned().unwrap_or_default();
                    meta.extend(members);
                    update.insert("_meta", Value::Object(meta));
                } else {
                    let mut u = Map::new();
                    u.insert("toolCallId", Value::String(id.to_owned()));
                    u.insert("_meta", Value::Object(members));
                    extra.push(u);
                }
            }
        }
        let create = first && update.get("title").is_some_and(is_string);
        let mut out = vec![Self::to_v1(update, create)?];
        for u in extra {
            out.push(Self::to_v1(u, false)?);
        }
        Ok(out)
    }

    fn to_v1(update: Map, create: bool) -> Result<String, Error> {
        let text = wire::to_string(&Value::Object(update));
        let (target, tag) = if create { ("ToolCall", "tool_call") } else { ("ToolCallUpdate", "tool_call_update") };
        let converted = convert(Direction::V2ToV1, "ToolCallUpdate", Some(target), &text)?;
        let mut o = Map::new();
        o.insert("sessionUpdate", Value::String(tag.into()));
        if let Value::Object(m) = parse_canonical(&converted.text) {
            o.extend(m);
        }
        let tagged = wire::to_string(&Value::Object(o));
        registry::decode("v1", "SessionUpdate", &tagged).map_or_else(|| Ok(tagged.clone()), |r| r.map(|(t, _)| t))
    }

    fn render_item(&self, item: &Value) -> Value {
        if tag_of(item, "type") != "terminal" {
            return item.clone();
        }
        let mut text = Map::new();
        text.insert("type", Value::String("text".into()));
        text.insert("text", Value::String(self.render(tag_of(item, "terminalId"))));
        let mut o = Map::new();
        o.insert("type", Value::String("content".into()));
        o.insert("content", Value::Object(text));
        if let Some(m) = item.get("_meta") {
            o.insert("_meta", m.clone());
        }
        Value::Object(o)
    }

    /// The text shown for `terminal`: `$ command`, the (capped) transcript, the exit status.
    #[must_use]
    pub fn render(&self, terminal: &str) -> String {
        let Some(t) = self.store.terminal(terminal) else { return String::new() };
        let mut s = String::new();
        if let Some(c) = t.command() {
            s.push_str("$ ");
            s.push_str(&one_line(c));
            s.push('\n');
        }
        s.push_str(&cap_text(&t.transcript(), self.options.cap));
        if let Some(e) = t.exit_status() {
            if !s.is_empty() && !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(&exit_text(e.exit_code, e.signal.as_deref()));
        }
        s
    }

    fn convention(&mut self, call: &str, terminal: &str) -> Map {
        let mut out = Map::new();
        let Some(t) = self.store.terminal(terminal) else { return out };
        let mut sent = self.sent.get(&(call.to_owned(), terminal.to_owned())).copied().unwrap_or_default();
        if !sent.info {
            let mut info = Map::new();
            info.insert("terminal_id", Value::String(terminal.to_owned()));
            info.insert("cwd", t.cwd().map_or(Value::Null, |c| Value::String(c.as_str().to_owned())));
            out.insert("terminal_info", Value::Object(info));
            sent.info = true;
        }
        // `sent.offset` is a position in the output since the last snapshot, dropped
        // bytes included: the store keeps only the most recent `max_retained_bytes`, so a
        // position in the retained bytes would stop moving once the first ones go.
        let dropped = usize::try_from(t.dropped_bytes()).unwrap_or(usize::MAX);
        let bytes = t.output().to_vec();
        if dropped + bytes.len() < sent.offset {
            sent.offset = 0;
        }
        // Bytes the store dropped before a flush sent them are gone: go on from the oldest kept.
        let from = sent.offset.saturating_sub(dropped).min(bytes.len());
        let exited = t.exit_status();
        let new = &bytes[from..];
        let end = if exited.is_some() { new.len() } else { new.len() - incomplete_tail(new) };
        if end > 0 {
            let mut o = Map::new();
            o.insert("terminal_id", Value::String(terminal.to_owned()));
            o.insert("data", Value::String(String::from_utf8_lossy(&new[..end]).into_owned()));
            out.insert("terminal_output", Value::Object(o));
            sent.offset = dropped + from + end;
        }
        if let Some(e) = exited
            && !sent.exit
        {
            let mut o = Map::new();
            o.insert("terminal_id", Value::String(terminal.to_owned()));
            // Exact: a decoded exit code is within 2^53 - 1 of 0 (docs/WIRE.md).
            #[allow(clippy::cast_precision_loss)]
            o.insert("exit_code", e.exit_code.map_or(Value::Null, |c| Value::Number(c as f64)));
            o.insert("signal", e.signal.clone().map_or(Value::Null, Value::String));
            out.insert("terminal_exit", Value::Object(o));
            sent.exit = true;
        }
        self.sent.insert((call.to_owned(), terminal.to_owned()), sent);
        out
    }
}

/// How many bytes at the end of `b` start a UTF-8 sequence that is not complete yet.
fn incomplete_tail(b: &[u8]) -> usize {
    let n = b.len();
    for back in 1..=n.min(3) {
        let x = b[n - back];
        if x & 0xC0 == 0x80 {
            continue;
        }
        let need = match x {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 0,
        };
        return if back < need { back } else { 0 };
    }
    0
}

/// `text` through the safe transcript, on one line.
fn one_line(text: &str) -> String {
    let mut t = Transcript::new();
    t.push(text.as_bytes());
    t.text().replace('\n', " ")
}

/// The head and tail of `text` when it has more than `cap` characters.
#[must_use]
pub fn cap_text(text: &str, cap: Option<usize>) -> String {
    let Some(cap) = cap else { return text.to_owned() };
    let n = text.chars().count();
    if n <= cap {
        return text.to_owned();
    }
    let head = cap / 2;
    let tail = cap - head;
    let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let tail_start = text.char_indices().nth(n - tail).map_or(text.len(), |(i, _)| i);
    format!("{}\n[... {} characters left out ...]\n{}", &text[..head_end], n - cap, &text[tail_start..])
}

fn exit_text(code: Option<i64>, signal: Option<&str>) -> String {
    match (code, signal) {
        (Some(c), None) => format!("[exit code {c}]"),
        (None, Some(s)) => format!("[signal {}]", one_line(s)),
        (Some(c), Some(s)) => format!("[exit code {c}, signal {}]", one_line(s)),
        (None, None) => "[exited]".to_owned(),
    }
}

// ---------------------------------------------------------------------------------
// Ingest of the v1 `_meta` terminal convention

fn warn(out: &mut Vec<Warning>, kind: ErrorKind, path: String, message: impl Into<String>) {
    out.push(Warning { kind, path, message: message.into() });
}

/// Applies one v1 `SessionUpdate` (JSON text) to `store`: the `_meta` terminal
/// convention of `tool_call` / `tool_call_update` (`terminal_info` {terminal_id, cwd},
/// `terminal_output` {terminal_id, data}, `terminal_exit` {terminal_id, exit_code,
/// signal}) becomes terminal state, output bytes (the UTF-8 of `data`) and a link from
/// the tool call. Returns the parse warnings plus one warning per malformed
/// convention member (which is then skipped; the rest still applies).
///
/// # Errors
/// The parse error of the update; nothing is applied then.
pub fn ingest_v1(store: &mut TerminalStore, text: &str) -> Result<Vec<Warning>, Error> {
    let (canonical, mut warnings) = registry::decode("v1", "SessionUpdate", text).ok_or_else(|| refuse("", "no v1 SessionUpdate"))??;
    let v = parse_canonical(&canonical);
    if !matches!(tag_of(&v, "sessionUpdate"), "tool_call" | "tool_call_update") {
        return Ok(warnings);
    }
    let Some(meta) = v.get("_meta").and_then(Value::as_object) else { return Ok(warnings) };
    let call = tag_of(&v, "toolCallId").to_owned();
    let mut updates: Vec<Value> = Vec::new();
    let mut linked: Vec<String> = Vec::new();
    for key in ["terminal_info", "terminal_output", "terminal_exit"] {
        let Some(m) = meta.get(key) else { continue };
        let p = format!("/_meta/{key}");
        let Some(m) = m.as_object() else {
            warn(&mut warnings, ErrorKind::WrongType, p, rules::convention_not_object(key));
            continue;
        };
        let id = match m.get("terminal_id") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => {
                warn(&mut warnings, ErrorKind::WrongType, format!("{p}/terminal_id"), rules::convention_id_type(key));
                continue;
            }
            None => {
                warn(&mut warnings, ErrorKind::MissingField, format!("{p}/terminal_id"), rules::convention_no_id(key));
                continue;
            }
        };
        if !linked.contains(&id) {
            linked.push(id.clone());
        }
        let mut u = Map::new();
        match key {
            "terminal_info" => {
                u.insert("sessionUpdate", "terminal_update");
                u.insert("terminalId", Value::String(id));
                match m.get("cwd") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(c)) if wire::is_absolute_path(c) => {
                        u.insert("cwd", Value::String(c.clone()));
                    }
                    Some(Value::String(_)) => {
                        warn(&mut warnings, ErrorKind::RelativePath, format!("{p}/cwd"), rules::CWD_RELATIVE);
                    }
                    Some(_) => warn(&mut warnings, ErrorKind::WrongType, format!("{p}/cwd"), rules::CWD_TYPE),
                }
            }
            "terminal_output" => match m.get("data") {
                Some(Value::String(d)) => {
                    u.insert("sessionUpdate", "terminal_output_chunk");
                    u.insert("terminalId", Value::String(id));
                    u.insert("data", Value::String(wire::encode_base64(d.as_bytes())));
                }
                Some(_) => {
                    warn(&mut warnings, ErrorKind::WrongType, format!("{p}/data"), rules::OUTPUT_DATA_TYPE);
                    continue;
                }
                None => {
                    warn(&mut warnings, ErrorKind::MissingField, format!("{p}/data"), rules::OUTPUT_NO_DATA);
                    continue;
                }
            },
            _ => {
                let mut status = Map::new();
                match m.get("exit_code") {
                    None | Some(Value::Null) => {}
                    Some(Value::Number(n)) => match Some(*n) {
                        Some(f) if f.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&f) => {
                            status.insert("exitCode", Value::Number(f));
                        }
                        Some(f) if f.fract() == 0.0 => {
                            warn(&mut warnings, ErrorKind::OutOfRange, format!("{p}/exit_code"), rules::EXIT_CODE_RANGE);
                        }
                        _ => warn(&mut warnings, ErrorKind::WrongType, format!("{p}/exit_code"), rules::EXIT_CODE_TYPE),
                    },
                    Some(_) => warn(&mut warnings, ErrorKind::WrongType, format!("{p}/exit_code"), rules::EXIT_CODE_TYPE),
                }
                match m.get("signal") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) => {
                        status.insert("signal", Value::String(s.clone()));
                    }
                    Some(_) => warn(&mut warnings, ErrorKind::WrongType, format!("{p}/signal"), rules::SIGNAL_TYPE),
                }
                u.insert("sessionUpdate", "terminal_update");
                u.insert("terminalId", Value::String(id));
                u.insert("exitStatus", Value::Object(status));
            }
        }
        updates.push(Value::Object(u));
    }
    if !linked.is_empty() {
        let mut refs: Vec<String> = store.terminals().filter(|(_, t)| t.tool_calls().any(|c| c.as_str() == call)).map(|(id, _)| id.as_str().to_owned()).collect();
        for id in linked {
            if !refs.contains(&id) {
                refs.push(id);
            }
        }
        let content: Vec<Value> = refs.into_iter().map(|id| Value::Object([("type", Value::from("terminal")), ("terminalId", Value::String(id))].into_iter().collect())).collect();
        let update: Map = [("sessionUpdate", Value::from("tool_call_update")), ("toolCallId", Value::from(call)), ("content", Value::Array(content))].into_iter().collect();
        updates.insert(0, Value::Object(update));
    }
    for u in updates {
        store.apply_text(&wire::to_string(&u))?;
    }
    Ok(warnings)
}

fn is_string(v: &Value) -> bool {
    matches!(v, Value::String(_))
}
