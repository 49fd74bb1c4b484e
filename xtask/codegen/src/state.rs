//! The session-state model a schema writes into its `x-state` annotations, read and
//! checked once for every language: which state objects there are (the targets), which
//! are kept by id and which are singletons, and, for every message that changes state,
//! its actions with each member path resolved against the schema.
//!
//! Upstream ACP's schema says on each `SessionUpdate` branch (and on some requests and
//! responses) what the message does to the session's state:
//! `{"action":"append","target":"terminal","id":"terminalId","field":"output.data","value":"data"}`
//! appends the message's `data` to the `output.data` of the terminal whose id is the
//! message's `terminalId`. The four actions are `upsert` (patch semantics, a first-seen
//! id created), `append` (array items, or decoded bytes for a bytes member), `replace`
//! and `remove`; `{}` says the message changes no state.
//!
//! Nothing is guessed: a path that names no member, an id that is not a string, an
//! append whose value does not fit its field, a target no action creates, or one kept
//! by id here and as a singleton there, is an error naming the `$defs` entry and the
//! JSON pointer of the annotation.

use crate::ir::{Annotations, Def, Field, Ir, IrError, StateAction, Ty};
use serde::Serialize;
use std::collections::BTreeMap;

/// What an action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Merge the value into the target: omitted members unchanged, `null` clears a
    /// patch member, a value replaces; a first-seen id is created.
    Upsert,
    /// Append the value to the target's field: array items, or the decoded bytes of a
    /// bytes member (each chunk decoded alone).
    Append,
    /// Replace the target (or its field) with the value.
    Replace,
    /// Remove the target.
    Remove,
}

impl Action {
    fn parse(word: &str) -> Option<Self> {
        Some(match word {
            "upsert" => Self::Upsert,
            "append" => Self::Append,
            "replace" => Self::Replace,
            "remove" => Self::Remove,
            _ => return None,
        })
    }
}

/// The kind of value an `append` adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Appends {
    /// Decoded bytes onto a bytes member.
    Bytes,
    /// One item onto an array member.
    Item,
    /// Every item of an array onto an array member.
    Items,
    /// Text onto a string member.
    Text,
}

/// One resolved action of one message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    /// The definition whose value the message is: the union variant's payload, or the
    /// annotated definition itself.
    pub message: String,
    /// The union and the variant's tag, when the annotation is on a union branch
    /// (`SessionUpdate`, `terminal_output_chunk`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub union: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    pub action: Action,
    pub target: String,
    /// The message's member path of the target's id (`None`: a singleton target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<Vec<String>>,
    /// The target's member path the action changes (`None`: the whole target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<Vec<String>>,
    /// The message's member path of the value (`None`: the whole message).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Vec<String>>,
    /// The definition the value is (when it is one): what an upsert or replace merges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_type: Option<String>,
    /// For an append: what it adds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appends: Option<Appends>,
    /// When the value path goes into a tagged union's variant: the union's tag member (its
    /// path in the message) and the tags of the variants that have the path. The action
    /// applies only to those: a variant the package does not know (kept as it came, never
    /// checked by its types), or one without the member, changes nothing, as an unknown
    /// `SessionUpdate` does not.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<Guard>,
    /// The `$defs` entry the annotation is in, and the action's JSON pointer there
    /// (`/anyOf/10/x-state/session/0`), for messages.
    #[serde(skip)]
    pub def: String,
    #[serde(skip)]
    pub at: String,
}

/// A condition on a message: the member at `path` is one of the tags `is`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Guard {
    pub path: Vec<String>,
    #[serde(rename = "in")]
    pub is: Vec<String>,
}

/// One state object kind of one owner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    pub name: String,
    /// Kept by id (a map), or one of its kind (a singleton).
    pub keyed: bool,
    /// The definitions upserted or replaced into it, in schema order: its members are theirs.
    pub sources: Vec<String>,
}

/// The state one owner (`session`) keeps.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Owner {
    pub name: String,
    pub targets: Vec<Target>,
    pub rules: Vec<Rule>,
}

/// The state model of a schema: empty when it has no `x-state`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Model {
    pub owners: Vec<Owner>,
    /// The messages that say they change no state (`"x-state": {}`), as (union, tag) or
    /// (definition, `None`).
    pub inert: Vec<(String, Option<String>)>,
}

impl Model {
    /// Whether the schema says anything of state.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.owners.is_empty() && self.inert.is_empty()
    }
}

/// A message that carries `x-state`: where its annotation is and what value it is.
struct Site<'a> {
    /// The `$defs` entry the annotation is in, and its pointer there.
    def: &'a str,
    at: &'a str,
    /// The definition of the message's value (`None`: a tag-only variant).
    message: Option<&'a str>,
    tag: Option<&'a str>,
    annotations: &'a Annotations,
}

fn sites(ir: &Ir) -> Vec<Site<'_>> {
    let mut out = Vec::new();
    for d in &ir.defs {
        if let Some(a) = ir.annotations.get(d.name()) {
            out.push(Site { def: d.name(), at: &a.at, message: Some(d.name()), tag: None, annotations: a });
        }
        if let Def::TaggedUnion { name, variants, tagless, .. } | Def::TaggedStruct { name, variants, tagless, .. } = d {
            for v in variants {
                out.push(Site { def: name, at: &v.annotations.at, message: v.payload.as_deref(), tag: Some(&v.wire), annotations: &v.annotations });
            }
            if let Some(t) = tagless {
                out.push(Site { def: name, at: &t.annotations.at, message: Some(&t.payload), tag: None, annotations: &t.annotations });
            }
        }
    }
    out.retain(|s| s.annotations.state.is_some());
    out
}

/// A member path's end: the member, and the definition that declares it.
struct Member<'a> {
    field: &'a Field,
}

fn def<'a>(ir: &'a Ir, name: &str) -> Option<&'a Def> {
    ir.defs.iter().find(|d| d.name() == name)
}

/// The members a value of definition `name` may have: an object's own; a tagged
/// object's common ones and each variant's; a union's variants' (a path through a union
/// applies when the value is a variant that has the member).
fn members<'a>(ir: &'a Ir, name: &str, depth: usize, out: &mut Vec<&'a Field>) {
    if depth > 4 {
        return;
    }
    match def(ir, name) {
        Some(Def::Struct { fields, .. } | Def::Envelope { fields, .. }) => out.extend(fields.iter()),
        Some(Def::TaggedStruct { common, variants, tagless, .. }) => {
            out.extend(common.iter());
            for p in variants.iter().filter_map(|v| v.payload.as_deref()).chain(tagless.as_ref().map(|t| t.payload.as_str())) {
                members(ir, p, depth + 1, out);
            }
        }
        Some(Def::TaggedUnion { variants, tagless, .. }) => {
            for p in variants.iter().filter_map(|v| v.payload.as_deref()).chain(tagless.as_ref().map(|t| t.payload.as_str())) {
                members(ir, p, depth + 1, out);
            }
        }
        Some(Def::ShapeUnion { alternatives, .. }) => {
            for a in alternatives {
                members(ir, &a.name, depth + 1, out);
            }
        }
        Some(Def::Alias { ty: Ty::Ref { name }, .. }) => members(ir, name, depth + 1, out),
        _ => {}
    }
}

/// `name` with its aliases followed (an alias of an alias ... of a definition).
fn unaliased<'a>(ir: &'a Ir, name: &'a str) -> &'a str {
    let mut at = name;
    for _ in 0..8 {
        match def(ir, at) {
            Some(Def::Alias { ty: Ty::Ref { name }, .. }) => at = name,
            _ => break,
        }
    }
    at
}

/// Whether every value of definition `name` has member `seg` (in every variant or shape it
/// may be), so that a path through it needs no guard below.
fn all_have(ir: &Ir, name: &str, seg: &str, depth: usize) -> bool {
    if depth > 4 {
        return false;
    }
    let every = |payloads: Vec<Option<&str>>| payloads.into_iter().all(|p| p.is_some_and(|p| all_have(ir, p, seg, depth + 1)));
    match def(ir, unaliased(ir, name)) {
        Some(Def::Struct { fields, .. } | Def::Envelope { fields, .. }) => fields.iter().any(|f| f.wire == seg),
        Some(Def::TaggedStruct { common, variants, tagless, .. }) => {
            common.iter().any(|f| f.wire == seg) || every(variants.iter().map(|v| v.payload.as_deref()).chain(tagless.as_ref().map(|t| Some(t.payload.as_str()))).collect())
        }
        Some(Def::TaggedUnion { variants, tagless, .. }) => every(variants.iter().map(|v| v.payload.as_deref()).chain(tagless.as_ref().map(|t| Some(t.payload.as_str()))).collect()),
        Some(Def::ShapeUnion { alternatives, .. }) => alternatives.iter().all(|a| all_have(ir, &a.name, seg, depth + 1)),
        _ => false,
    }
}

/// The guard a path step through `at` needs to name `seg`: when `at` (its aliases followed)
/// is a tagged union (or tagged object) whose member `seg` only some variants have, and no
/// tagless one, the tag's path (`prefix` then the tag member) and those variants' tags.
///
/// # Errors
/// When the reducer could not tell, from one tag, whether a value has `seg`: a shape union
/// (no tag) only some of whose shapes have it, or a variant that is itself a union only some
/// of whose variants have it. A guard the table cannot state must stop the generation,
/// never let an unchecked value through.
fn guard(ir: &Ir, at: &str, prefix: &[String], seg: &str) -> Result<Option<Guard>, String> {
    let at = unaliased(ir, at);
    let has = |payload: &str| {
        let mut all = Vec::new();
        members(ir, payload, 1, &mut all);
        all.iter().any(|f| f.wire == seg)
    };
    let (tag, common, variants, tagless) = match def(ir, at) {
        Some(Def::TaggedUnion { tag, variants, tagless, .. }) => (tag, &[][..], variants, tagless.as_ref().map(|t| t.payload.as_str())),
        Some(Def::TaggedStruct { tag, common, variants, tagless, .. }) => (tag, common.as_slice(), variants, tagless.as_ref().map(|t| t.payload.as_str())),
        Some(Def::ShapeUnion { .. }) if has(at) && !all_have(ir, at, seg, 0) => {
            return Err(format!("`{seg}` is a member of only some shapes of `{at}`, which has no tag: the reducer cannot tell when it applies"));
        }
        _ => return Ok(None),
    };
    if common.iter().any(|f| f.wire == seg) {
        return Ok(None);
    }
    let mut is = Vec::new();
    for v in variants {
        if let Some(p) = v.payload.as_deref().filter(|p| has(p)) {
            if !all_have(ir, p, seg, 0) {
                return Err(format!("`{seg}` is a member of only some values of `{p}` (variant `{}` of `{at}`): the reducer cannot tell from the tag when it applies", v.wire));
            }
            is.push(v.wire.clone());
        }
    }
    if let Some(t) = tagless.filter(|t| has(t)) {
        if !all_have(ir, t, seg, 0) {
            return Err(format!("`{seg}` is a member of only some values of `{t}` (the tagless branch of `{at}`): the reducer cannot tell when it applies"));
        }
        return Ok(None);
    }
    let mut path = prefix.to_vec();
    path.push(tag.clone());
    Ok(Some(Guard { path, is }))
}

/// Resolves the dotted `path` from a value of definition `root`.
fn resolve<'a>(ir: &'a Ir, root: &str, path: &[String]) -> Result<Member<'a>, String> {
    resolve_guarded(ir, root, path, &mut Vec::new(), false)
}

/// As [`resolve`], also giving the guards the path needs ([`guard`]); with `strict` (a value
/// path), a step no guard can state is an error.
fn resolve_guarded<'a>(ir: &'a Ir, root: &str, path: &[String], guards: &mut Vec<Guard>, strict: bool) -> Result<Member<'a>, String> {
    let mut at = root.to_owned();
    let mut found: Option<&Field> = None;
    for (i, seg) in path.iter().enumerate() {
        if i > 0 {
            match found.map(|f| &f.ty) {
                Some(Ty::Ref { name }) => at.clone_from(name),
                Some(_) => return Err(format!("`{}` is not an object, so `{seg}` names nothing in it", path[..i].join("."))),
                None => unreachable!("a member was found before"),
            }
        }
        match guard(ir, &at, &path[..i], seg) {
            Ok(g) => guards.extend(g),
            Err(e) if strict => return Err(e),
            Err(_) => {}
        }
        let mut all = Vec::new();
        members(ir, &at, 0, &mut all);
        found = Some(all.into_iter().find(|f| f.wire == *seg).ok_or_else(|| {
            let mut names = Vec::new();
            let mut all = Vec::new();
            members(ir, &at, 0, &mut all);
            for f in all {
                if !names.contains(&f.wire) {
                    names.push(f.wire.clone());
                }
            }
            format!("`{seg}` names no member of `{at}` (its members: {})", if names.is_empty() { "none".to_owned() } else { names.join(", ") })
        })?);
    }
    found.map(|field| Member { field }).ok_or_else(|| "an empty member path".to_owned())
}

fn is_string(ir: &Ir, ty: &Ty) -> bool {
    match ty {
        Ty::String => true,
        Ty::Ref { name } => matches!(def(ir, name), Some(Def::StringAlias { .. } | Def::StringEnum { .. })),
        _ => false,
    }
}

fn split(path: &str) -> Vec<String> {
    path.split('.').map(str::to_owned).collect()
}

/// Reads and checks the state model of `ir`. Every problem is one error.
///
/// # Errors
/// Each annotation that does not resolve, with its `$defs` entry and pointer.
pub fn model(ir: &Ir) -> Result<Model, Vec<IrError>> {
    let mut errors = Vec::new();
    let mut owners: BTreeMap<String, Owner> = BTreeMap::new();
    // Where each target was first used with or without an id, for the error.
    let mut keyed: BTreeMap<(String, String), (bool, String)> = BTreeMap::new();
    let mut inert = Vec::new();
    for site in sites(ir) {
        if site.annotations.state.as_ref().is_some_and(Vec::is_empty) {
            inert.push((site.def.to_owned(), site.tag.map(str::to_owned)));
        }
        for owner_actions in site.annotations.state.iter().flatten() {
            let owner = owners.entry(owner_actions.owner.clone()).or_insert_with(|| Owner { name: owner_actions.owner.clone(), targets: vec![], rules: vec![] });
            let oat = format!("{}/x-state/{}", site.at, owner_actions.owner);
            for (i, a) in owner_actions.actions.iter().enumerate() {
                let aat = format!("{oat}/{i}");
                let fail = |key: &str, message: String| IrError { def: site.def.to_owned(), pointer: if key.is_empty() { aat.clone() } else { format!("{aat}/{key}") }, message };
                match rule(ir, &site, a, &aat, &fail) {
                    Ok(r) => {
                        let k = (owner.name.clone(), r.target.clone());
                        match keyed.get(&k) {
                            Some((was, first)) if *was != r.id.is_some() => errors.push(fail(
                                "id",
                                format!(
                                    "target `{}` is kept {} here but {} at {first}: a target is either kept by id or one of its kind",
                                    r.target,
                                    if r.id.is_some() { "by id" } else { "as a singleton" },
                                    if *was { "by id" } else { "as a singleton" }
                                ),
                            )),
                            Some(_) => {}
                            None => {
                                keyed.insert(k, (r.id.is_some(), format!("$defs/{}{aat}", site.def)));
                            }
                        }
                        owner.rules.push(r);
                    }
                    Err(e) => errors.push(e),
                }
            }
        }
    }
    // The targets, in the order they are first named; each needs an action that creates it.
    for owner in owners.values_mut() {
        let mut targets: Vec<Target> = Vec::new();
        for r in &owner.rules {
            let t = match targets.iter_mut().position(|t| t.name == r.target) {
                Some(i) => &mut targets[i],
                None => {
                    targets.push(Target { name: r.target.clone(), keyed: r.id.is_some(), sources: vec![] });
                    targets.last_mut().expect("just pushed")
                }
            };
            if matches!(r.action, Action::Upsert | Action::Replace)
                && r.field.is_none()
                && let Some(v) = &r.value_type
                && !t.sources.contains(v)
            {
                t.sources.push(v.clone());
            }
        }
        for t in &targets {
            if !owner.rules.iter().any(|r| r.target == t.name && matches!(r.action, Action::Upsert | Action::Replace)) {
                let (def, at) = owner.rules.iter().find(|r| r.target == t.name).map(|r| (r.def.clone(), format!("{}/target", r.at))).unwrap_or_default();
                errors.push(IrError { def, pointer: at, message: format!("`x-state` target `{}` of `{}` is only appended to or removed: no `upsert` or `replace` creates it", t.name, owner.name) });
            }
        }
        // A field path of an append resolves in what the target holds.
        for r in &owner.rules {
            let (Some(field), Some(t)) = (&r.field, targets.iter().find(|t| t.name == r.target)) else { continue };
            if t.sources.is_empty() {
                continue;
            }
            let at = || format!("{}/field", r.at);
            let Some(member) = t.sources.iter().find_map(|s| resolve(ir, s, field).ok()) else {
                let e = resolve(ir, &t.sources[0], field).err().unwrap_or_default();
                errors.push(IrError { def: r.def.clone(), pointer: at(), message: format!("field `{}` of target `{}` ({}): {e}", field.join("."), r.target, t.sources.join(", ")) });
                continue;
            };
            // What an append adds must fit the member it adds to.
            let fits = match (r.appends, &member.field.ty) {
                (None, _) | (Some(Appends::Bytes), Ty::Bytes) | (Some(Appends::Text), Ty::String) | (Some(Appends::Items), Ty::Array { .. }) => true,
                (Some(Appends::Item), Ty::Array { items }) => r.value_type.as_ref().is_none_or(|v| matches!(&**items, Ty::Ref { name } if name == v)),
                _ => false,
            };
            if !fits {
                errors.push(IrError {
                    def: r.def.clone(),
                    pointer: at(),
                    message: format!(
                        "an `append` of {} to field `{}` of target `{}`, which is not {}",
                        match r.appends {
                            Some(Appends::Bytes) => "bytes",
                            Some(Appends::Text) => "text",
                            Some(Appends::Items) => "items",
                            _ => "an item",
                        },
                        field.join("."),
                        r.target,
                        match r.appends {
                            Some(Appends::Bytes) => "bytes",
                            Some(Appends::Text) => "a string",
                            _ => "an array of them",
                        }
                    ),
                });
            }
        }
        owner.targets = targets;
    }
    if errors.is_empty() { Ok(Model { owners: owners.into_values().collect(), inert }) } else { Err(errors) }
}

fn rule(ir: &Ir, site: &Site<'_>, a: &StateAction, at: &str, fail: &dyn Fn(&str, String) -> IrError) -> Result<Rule, IrError> {
    let action = Action::parse(&a.action).ok_or_else(|| fail("action", format!("unknown `x-state` action `{}` (known: upsert, append, replace, remove)", a.action)))?;
    let Some(message) = site.message else {
        return Err(fail("", "a variant without a payload has no members for an action to use".into()));
    };
    // Guards come from the value path only: a value taken from inside a variant the package
    // does not know was never checked by its types, so it must not reach a typed target; an
    // id read from one is only a string, checked where it is used.
    let guards = std::cell::RefCell::new(Vec::new());
    let path = |key: &str, p: &Option<String>| -> Result<Option<(Vec<String>, &Field)>, IrError> {
        let Some(p) = p else { return Ok(None) };
        let segs = split(p);
        let mut found = Vec::new();
        let resolved =
            resolve_guarded(ir, message, &segs, &mut found, key == "value").map(|m| Some((segs, m.field))).map_err(|e| fail(key, format!("{key} path `{p}` of the `{message}` message: {e}")));
        if key == "value" {
            guards.borrow_mut().extend(found);
        }
        resolved
    };
    let id = path("id", &a.id)?;
    if let Some((segs, f)) = &id
        && !is_string(ir, &f.ty)
    {
        return Err(fail("id", format!("id path `{}` names a member that is not a string id", segs.join("."))));
    }
    let value = path("value", &a.value)?;
    let field = a.field.as_deref().map(split);
    match action {
        Action::Append if field.is_none() => return Err(fail("", "an `append` needs the `field` it appends to".into())),
        Action::Remove if a.value.is_some() || a.field.is_some() => return Err(fail("", "a `remove` takes only the target and its id".into())),
        Action::Upsert if a.field.is_some() => return Err(fail("field", "an `upsert` merges into the whole target: it takes no `field`".into())),
        _ => {}
    }
    let value_type = match &value {
        _ if action == Action::Remove => None,
        None => Some(message.to_owned()),
        Some((_, f)) => match &f.ty {
            Ty::Ref { name } => Some(name.clone()),
            _ => None,
        },
    };
    let appends = if action == Action::Append {
        let ty = value.as_ref().map(|(_, f)| &f.ty);
        Some(match ty {
            Some(Ty::Bytes) => Appends::Bytes,
            Some(Ty::Array { .. }) => Appends::Items,
            Some(Ty::String) => Appends::Text,
            Some(_) => Appends::Item,
            None => return Err(fail("value", "an `append` needs the `value` it appends".into())),
        })
    } else {
        None
    };
    if matches!(action, Action::Upsert) && value_type.is_none() {
        return Err(fail("value", "an `upsert` merges an object: its value must be one".into()));
    }
    Ok(Rule {
        message: message.to_owned(),
        union: site.tag.map(|_| site.def.to_owned()),
        tag: site.tag.map(str::to_owned),
        action,
        target: a.target.clone(),
        id: id.map(|(s, _)| s),
        field,
        value: value.map(|(s, _)| s),
        value_type,
        appends,
        when: {
            let mut when = guards.into_inner();
            when.dedup();
            when
        },
        def: site.def.to_owned(),
        at: at.to_owned(),
    })
}

/// The state model as the data every runtime's session-state reducer reads
/// (`templates/*/runtime/state.*`): compact JSON, `None` for a schema without `x-state`.
/// Per owner, its targets (`name`, `keyed`, the `members` its definitions name, and the
/// `type` its upserts and replaces merge when there is one) and its rules, each with what the reducer
/// needs to find and apply it: the message (`union` and `tag`, with the union's
/// `tagMember`, or the definition `message`), the `action`, the `target`, and the member
/// paths `id`, `field` and `value` (arrays of member names), and for an append what it
/// `appends` (`bytes`, `item`, `items`, `text`).
///
/// # Errors
/// When the model does not resolve ([`model`]'s errors, one per line).
pub fn table(ir: &Ir) -> Result<Option<String>, String> {
    let m = model(ir).map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    if m.owners.is_empty() {
        return Ok(None);
    }
    let tag_member = |union: &str| match def(ir, union) {
        Some(Def::TaggedUnion { tag, .. } | Def::TaggedStruct { tag, .. }) => Some(tag.clone()),
        _ => None,
    };
    let mut owners = serde_json::Map::new();
    for o in &m.owners {
        let rules: Vec<serde_json::Value> = o
            .rules
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r).unwrap_or_default();
                if let (Some(u), Some(obj)) = (&r.union, v.as_object_mut()) {
                    obj.insert("tagMember".into(), tag_member(u).into());
                }
                if let Some(obj) = v.as_object_mut() {
                    obj.remove("value_type");
                }
                v
            })
            .collect();
        // A target's `type`: the one definition its upserts and replaces merge (a list
        // replaced whole, such as the available commands, has none).
        // Its `members`: the names its definitions give (`StateLimits::max_members` bounds
        // only the others, so that no upsert can leave a target without a member its
        // definition names).
        let targets: Vec<serde_json::Value> = o
            .targets
            .iter()
            .map(|t| {
                let mut fields = Vec::new();
                for s in &t.sources {
                    members(ir, s, 0, &mut fields);
                }
                let mut names: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
                names.sort_unstable();
                names.dedup();
                let mut v = serde_json::json!({ "name": t.name, "keyed": t.keyed, "members": names });
                if let ([one], Some(obj)) = (t.sources.as_slice(), v.as_object_mut()) {
                    obj.insert("type".into(), one.clone().into());
                }
                v
            })
            .collect();
        owners.insert(o.name.clone(), serde_json::json!({ "targets": targets, "rules": rules }));
    }
    Ok(Some(serde_json::Value::Object(owners).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstream() -> Ir {
        let text = std::fs::read_to_string(crate::root().join("tests/upstream/acp-v2-schema.json")).expect("upstream's schema");
        crate::ir::build(&serde_json::from_str(&text).expect("JSON")).expect("builds")
    }

    #[test]
    fn upstream_v2_state_model_resolves() {
        let m = model(&upstream()).unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")));
        let session = m.owners.iter().find(|o| o.name == "session").expect("session state");
        let target = |n: &str| session.targets.iter().find(|t| t.name == n).unwrap_or_else(|| panic!("no target {n}"));
        assert_eq!((session.targets.len(), session.targets.iter().filter(|t| t.keyed).count(), session.rules.len()), (14, 9, 28));
        assert!(target("terminal").keyed);
        assert!(!target("usage").keyed);
        assert!(target("toolCall").sources.contains(&"ToolCallUpdate".to_owned()), "{:?}", target("toolCall"));
        let chunk = session.rules.iter().find(|r| r.tag.as_deref() == Some("terminal_output_chunk")).expect("the chunk's rule");
        assert_eq!(chunk.appends, Some(Appends::Bytes));
        assert_eq!(chunk.field.as_deref(), Some(&["output".to_owned(), "data".to_owned()][..]));
        assert_eq!(m.inert, [("SessionUpdate".to_owned(), Some("notice".to_owned())), ("SessionUpdate".to_owned(), Some("replay_complete".to_owned()))]);
        // A value taken from inside the permission subject applies only for the variant
        // that has it; a plan's id read from inside its union needs no guard (the value is
        // the whole plan, unknown variants kept as the union keeps them).
        let permission = session.rules.iter().find(|r| r.message == "RequestPermissionRequest").expect("the permission request's rule");
        assert_eq!(permission.when, [Guard { path: vec!["subject".into(), "type".into()], is: vec!["tool_call".into()] }]);
        assert!(session.rules.iter().filter(|r| r.message != "RequestPermissionRequest").all(|r| r.when.is_empty()));
    }

    fn with_state(state: &str) -> Vec<String> {
        let schema = format!(
            r##"{{"$defs":{{
              "U":{{"oneOf":[
                {{"$ref":"#/$defs/A","type":"object","properties":{{"k":{{"const":"a","type":"string"}}}},"required":["k"],"x-state":{state}}}
              ]}},
              "A":{{"type":"object","properties":{{"aId":{{"type":"string"}},"n":{{"type":"integer","format":"int64"}},"items":{{"type":"array","items":{{"type":"string"}}}}}},"required":["aId"]}}
            }}}}"##
        );
        let ir = crate::ir::build(&serde_json::from_str(&schema).expect("JSON")).expect("builds");
        match model(&ir) {
            Ok(_) => vec![],
            Err(e) => e.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_path_that_names_nothing_is_an_error_with_its_pointer() {
        let e = with_state(r#"{"session":[{"action":"upsert","target":"a","id":"aIdx"}]}"#);
        assert_eq!(e, ["$defs/U at /oneOf/0/x-state/session/0/id: id path `aIdx` of the `A` message: `aIdx` names no member of `A` (its members: aId, n, items)"]);
        let e = with_state(r#"{"session":[{"action":"upsert","target":"a","id":"n"}]}"#);
        assert_eq!(e, ["$defs/U at /oneOf/0/x-state/session/0/id: id path `n` names a member that is not a string id"]);
        let e = with_state(r#"{"session":[{"action":"upsert","target":"a","id":"aId"},{"action":"append","target":"a","id":"aId","field":"itemz","value":"items"}]}"#);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("field `itemz` of target `a` (A): `itemz` names no member of `A`"), "{e:?}");
        let e = with_state(r#"{"session":[{"action":"merge","target":"a"}]}"#);
        assert_eq!(e, ["$defs/U at /oneOf/0/x-state/session/0/action: unknown `x-state` action `merge` (known: upsert, append, replace, remove)"]);
    }

    /// The model of a message `M` whose member `sub` is of definition `S` (given), its
    /// `sub.box` upserted by the id `sub.box.bId` (`X1` has a box, `X2` none).
    fn through(defs: &str) -> Result<Vec<Guard>, Vec<String>> {
        let schema = format!(
            r##"{{"$defs":{{
              "U":{{"oneOf":[
                {{"$ref":"#/$defs/M","type":"object","properties":{{"k":{{"const":"m","type":"string"}}}},"required":["k"],"x-state":{{"session":[{{"action":"upsert","target":"x","id":"sub.box.bId","value":"sub.box"}}]}}}}
              ]}},
              "M":{{"type":"object","properties":{{"sub":{{"$ref":"#/$defs/S"}}}},"required":["sub"]}},
              "X1":{{"type":"object","properties":{{"box":{{"$ref":"#/$defs/B"}}}},"required":["box"]}},
              "B":{{"type":"object","properties":{{"bId":{{"type":"string"}}}},"required":["bId"]}},
              "X2":{{"type":"object","properties":{{"n":{{"type":"integer","format":"int64"}}}},"required":["n"]}},
              {defs}
            }}}}"##
        );
        let ir = crate::ir::build(&serde_json::from_str(&schema).expect("JSON")).expect("builds");
        match model(&ir) {
            Ok(m) => Ok(m.owners.iter().flat_map(|o| o.rules.iter()).flat_map(|r| r.when.clone()).collect()),
            Err(e) => Err(e.iter().map(ToString::to_string).collect()),
        }
    }

    #[test]
    fn a_path_through_a_union_the_tag_cannot_guard_stops_the_generation() {
        let tagged = r##""T":{"oneOf":[
                {"$ref":"#/$defs/X1","type":"object","properties":{"t":{"const":"one","type":"string"}},"required":["t"]},
                {"$ref":"#/$defs/X2","type":"object","properties":{"t":{"const":"two","type":"string"}},"required":["t"]}
              ]}"##;
        // Through a tagged union: guarded by the tag.
        let guards = through(&tagged.replacen("\"T\"", "\"S\"", 1)).expect("resolves");
        assert_eq!(guards, [Guard { path: vec!["sub".into(), "t".into()], is: vec!["one".into()] }]);
        // A union of shapes without a tag: no guard can say which values have a box.
        let e = through(r##""S":{"anyOf":[{"$ref":"#/$defs/X1"},{"$ref":"#/$defs/X2"}]}"##).expect_err("no tag to guard by");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("value path `sub.box` of the `M` message: `box` is a member of only some shapes of `S`, which has no tag"), "{e:?}");
    }

    #[test]
    fn a_target_no_action_creates_or_kept_two_ways_is_an_error() {
        let e = with_state(r#"{"session":[{"action":"remove","target":"a","id":"aId"}]}"#);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("`x-state` target `a` of `session` is only appended to or removed"), "{e:?}");
        let e = with_state(r#"{"session":[{"action":"upsert","target":"a","id":"aId"},{"action":"replace","target":"a"}]}"#);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("target `a` is kept as a singleton here but by id at $defs/U/oneOf/0/x-state/session/0"), "{e:?}");
        assert_eq!(with_state(r#"{"session":[{"action":"upsert","target":"a","id":"aId"},{"action":"append","target":"a","id":"aId","field":"items","value":"items"}]}"#), Vec::<String>::new());
    }
}
