//! The IR: a small, language-neutral model built only from an emitted JSON Schema
//! document (never from the Rust types). Every construct outside the supported subset
//! is an error naming the `$defs` entry and the JSON pointer.

use heck::ToUpperCamelCase;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A schema construct the generator does not support, or a malformed schema.
#[derive(Debug)]
pub struct IrError {
    pub def: String,
    pub pointer: String,
    pub message: String,
}

impl std::fmt::Display for IrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "$defs/{} at {}: {}", self.def, self.pointer, self.message)
    }
}

type R<T> = Result<T, IrError>;

/// The whole document.
#[derive(Debug, Serialize)]
pub struct Ir {
    pub title: String,
    pub defs: Vec<Def>,
    /// The `x-` annotations of each definition that has any (upstream's `x-state`,
    /// `x-scope`, `x-side`, ...), by definition name: data the generator does not act
    /// on, kept for generators that will (see [`Annotations`]). A union branch's own are
    /// on its [`Variant`].
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub annotations: std::collections::BTreeMap<String, Annotations>,
}

impl Ir {
    /// The annotations of definition `name` (empty when it has none).
    #[must_use]
    #[allow(dead_code, reason = "the state generator of a later issue reads the annotations; the tests do now")]
    pub fn annotations_of(&self, name: &str) -> &Annotations {
        static EMPTY: std::sync::OnceLock<Annotations> = std::sync::OnceLock::new();
        self.annotations.get(name).unwrap_or_else(|| EMPTY.get_or_init(Annotations::default))
    }
}

/// The `x-` annotations of a definition, a union branch or a member that say nothing
/// about what validates and that the generator does not act on, kept as data: upstream's
/// state model (`x-state`: what a message does to the session's state) and scopes
/// (`x-scope`: the ids a message is scoped by), typed, and every other unknown `x-`
/// annotation raw, in schema order. The annotations the generator does act on
/// (`x-method`, `x-patch`, `x-absolute-path`, `x-deserialize-*`) are not repeated here.
/// [`Annotations::to_json`] gives them back as they were in the schema.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Annotations {
    /// `x-state`: for each state owner (`session`, `agent`), the actions in order.
    /// `Some` of an empty list is upstream's `"x-state": {}` (the message changes no
    /// state, said explicitly: `SessionUpdate`'s `notice`); `None`, no `x-state`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<Vec<StateActions>>,
    /// `x-scope`: for each scope (`session`, `toolCall`), the member paths that hold its
    /// id (`Some` of an empty list for `"x-scope": {}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<Vec<ScopeIds>>,
    /// Every other `x-` annotation, raw (`x-side`, `x-docs-ignore`, a vendor's own).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other: Vec<(String, Value)>,
    /// Where the annotated object is, a JSON pointer inside its definition (`/anyOf/9`;
    /// empty for the definition itself), for the messages of later checks.
    #[serde(skip)]
    pub at: String,
}

/// The state actions `x-state` gives one state owner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateActions {
    /// Whose state (`session`).
    pub owner: String,
    pub actions: Vec<StateAction>,
}

/// One `x-state` action: `{"action":"append","target":"terminal","id":"terminalId","field":"output.data","value":"data"}`
/// appends the message's `data` to the `output.data` of the `terminal` whose id is the
/// message's `terminalId`. Member paths are dotted, relative to the message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateAction {
    /// `upsert`, `append`, `replace` or `remove` (another word is kept as it is).
    pub action: String,
    /// The kind of state object acted on (`terminal`, `toolCall`, `userMessage`).
    pub target: String,
    /// The member path of the target's id, for targets kept by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The target's member path the action changes (the whole target when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The member path of the value the action uses (the whole message when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// One `x-scope` entry: a scope and the member paths that hold its id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScopeIds {
    pub scope: String,
    pub ids: Vec<String>,
}

impl Annotations {
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.state.is_none() && self.scope.is_none() && self.other.is_empty()
    }

    /// The annotations as the schema wrote them (`x-state`, `x-scope`, then the others).
    #[must_use]
    #[allow(dead_code, reason = "the state generator of a later issue reads the annotations; the tests do now")]
    pub fn to_json(&self) -> Map<String, Value> {
        let mut out = Map::new();
        if let Some(state) = &self.state {
            let state: Map<String, Value> = state
                .iter()
                .map(|s| {
                    let actions = s
                        .actions
                        .iter()
                        .map(|a| {
                            let mut o = Map::new();
                            o.insert("action".into(), Value::from(a.action.clone()));
                            o.insert("target".into(), Value::from(a.target.clone()));
                            for (k, v) in [("id", &a.id), ("field", &a.field), ("value", &a.value)] {
                                if let Some(v) = v {
                                    o.insert(k.into(), Value::from(v.clone()));
                                }
                            }
                            Value::Object(o)
                        })
                        .collect();
                    (s.owner.clone(), Value::Array(actions))
                })
                .collect();
            out.insert("x-state".into(), Value::Object(state));
        }
        if let Some(scope) = &self.scope {
            let scope: Map<String, Value> = scope.iter().map(|s| (s.scope.clone(), Value::from(s.ids.clone()))).collect();
            out.insert("x-scope".into(), Value::Object(scope));
        }
        for (k, v) in &self.other {
            out.insert(k.clone(), v.clone());
        }
        out
    }
}

/// The `x-` annotations the generator acts on (they shape the code, so they are not
/// repeated in [`Annotations`]).
const ACTED_ON: &[&str] = &["x-method", "x-patch", "x-absolute-path", "x-deserialize-default-on-error", "x-deserialize-skip-invalid-items", "x-deserialize-default-on-null"];

/// The [`Annotations`] of the schema object `o` at `ptr` of `def`.
pub fn annotations(def: &str, ptr: &str, o: &Map<String, Value>) -> R<Annotations> {
    let mut out = Annotations { at: ptr.to_owned(), ..Annotations::default() };
    let strings = |at: &str, v: &Value| -> R<Vec<String>> {
        match v.as_array() {
            Some(a) if a.iter().all(Value::is_string) => Ok(a.iter().filter_map(Value::as_str).map(str::to_owned).collect()),
            _ => err(def, at, "expected an array of member paths (strings)"),
        }
    };
    for (k, v) in o {
        if !k.starts_with("x-") || ACTED_ON.contains(&k.as_str()) {
            continue;
        }
        let at = format!("{ptr}/{k}");
        match k.as_str() {
            "x-state" => {
                let Some(owners) = v.as_object() else { return err(def, &at, "`x-state` must be an object: for each state owner, a list of actions") };
                out.state = Some(Vec::new());
                for (owner, actions) in owners {
                    let oat = format!("{at}/{}", escape(owner));
                    let Some(list) = actions.as_array() else { return err(def, &oat, "expected a list of actions") };
                    let mut parsed = Vec::new();
                    for (i, a) in list.iter().enumerate() {
                        let aat = format!("{oat}/{i}");
                        let Some(ao) = a.as_object() else { return err(def, &aat, "an action must be an object") };
                        let text = |key: &str| -> R<Option<String>> {
                            match ao.get(key) {
                                None => Ok(None),
                                Some(Value::String(s)) => Ok(Some(s.clone())),
                                Some(_) => err(def, &format!("{aat}/{key}"), format!("`{key}` must be a string")),
                            }
                        };
                        if let Some(extra) = ao.keys().find(|k| !["action", "target", "id", "field", "value"].contains(&k.as_str())) {
                            return err(def, &format!("{aat}/{}", escape(extra)), format!("unknown member `{extra}` of an `x-state` action (known: action, target, id, field, value)"));
                        }
                        let (Some(action), Some(target)) = (text("action")?, text("target")?) else {
                            return err(def, &aat, "an `x-state` action needs `action` and `target`");
                        };
                        parsed.push(StateAction { action, target, id: text("id")?, field: text("field")?, value: text("value")? });
                    }
                    out.state.get_or_insert_with(Vec::new).push(StateActions { owner: owner.clone(), actions: parsed });
                }
            }
            "x-scope" => {
                let Some(scopes) = v.as_object() else { return err(def, &at, "`x-scope` must be an object: for each scope, the member paths of its id") };
                out.scope = Some(Vec::new());
                for (scope, ids) in scopes {
                    out.scope.get_or_insert_with(Vec::new).push(ScopeIds { scope: scope.clone(), ids: strings(&format!("{at}/{}", escape(scope)), ids)? });
                }
            }
            _ => out.other.push((k.clone(), v.clone())),
        }
    }
    Ok(out)
}

/// A member name as a JSON pointer token.
fn escape(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// One `$defs` entry.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Def {
    /// An object with known properties. `forbidden`: member names the object must not
    /// have (`propertyNames: {not: {const | enum}}`, upstream's `ElicitationSessionScope`
    /// forbids `requestId`); one present is `forbidden_member`.
    Struct {
        name: String,
        doc: String,
        fields: Vec<Field>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        forbidden: Vec<String>,
    },
    /// A named string (`TerminalId`), or a checked one (`"x-absolute-path": true`:
    /// absolute in POSIX or Windows form), optionally with a length in code points
    /// (`minLength`/`maxLength`: upstream's `IdempotencyKey`, 1 to 255).
    StringAlias {
        name: String,
        doc: String,
        absolute_path: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        length: Option<Length>,
    },
    /// String constants, open (catch-all string branch) or closed.
    StringEnum { name: String, doc: String, values: Vec<EnumValue>, other: Option<Other> },
    /// Objects tagged by one member, each variant's payload a `$ref` (or none). A payload
    /// is an object definition, or (one level deep) a tagged union with another tag
    /// member, read from the same object.
    TaggedUnion {
        name: String,
        doc: String,
        tag: String,
        variants: Vec<Variant>,
        other: Option<Other>,
        /// The branch without a tag (upstream v1 `AuthMethod`'s `agent`): an object
        /// without the tag member is this variant, and is written without it. With no
        /// catch-all, an unknown tag is this variant too, the tag member kept as one of
        /// its unknown members (the schema's `anyOf` accepts it there).
        #[serde(skip_serializing_if = "Option::is_none")]
        tagless: Option<Tagless>,
    },
    /// A tagged union whose objects also share common properties.
    TaggedStruct {
        name: String,
        doc: String,
        tag: String,
        /// The tag is optional (upstream v2 `IdleStateUpdate`'s `stopReason`: a branch
        /// whose tag is `{type: null}`, the variant without a tag): `null` is the same as
        /// omitted, and (with `lenient`, the tag's own `x-deserialize-default-on-error`)
        /// a tag that is not a string is dropped with a warning. `None`: the tag is a
        /// plain required string when present.
        #[serde(skip_serializing_if = "Option::is_none")]
        optional_tag: Option<OptionalTag>,
        variants: Vec<Variant>,
        other: Option<Other>,
        common: Vec<Field>,
        /// The branch without a tag (upstream v1 `SetSessionConfigOptionRequest`'s
        /// `value_id`), as in [`Def::TaggedUnion`]: an object without the tag is this
        /// variant (with the common members); with no catch-all an unknown tag is too,
        /// the tag kept among its unknown members.
        #[serde(skip_serializing_if = "Option::is_none")]
        tagless: Option<Tagless>,
    },
    /// `anyOf` of object `$ref`s told apart by a member only one of them requires.
    /// `fallback`: an unconstrained branch (`true` or `{}`: upstream's `ErrorData`),
    /// which takes any other value, and a value its alternative rejects, as raw JSON.
    ShapeUnion {
        name: String,
        doc: String,
        alternatives: Vec<Alternative>,
        #[serde(skip_serializing_if = "Option::is_none")]
        fallback: Option<Other>,
    },
    /// A named value of another type: a whole number in its format's range
    /// (`ProtocolVersion`), a number, a boolean, or any JSON (a definition with no
    /// `type`, like `ExtRequest`).
    Alias { name: String, doc: String, ty: Ty },
    /// An untagged `anyOf` whose branches are told apart by the JSON kind of the value
    /// (`RequestId`: `null`, a whole number or a string). A whole number goes to the
    /// integer branch when it is in that branch's range, else to the number branch if
    /// there is one.
    KindUnion {
        name: String,
        doc: String,
        branches: Vec<KindBranch>,
        /// What the union expects, for `wrong_type` messages (`null, a whole number or a string`).
        expected: String,
        /// The integer branch's range, which decides between it and the number branch.
        integer_range: Option<(f64, f64)>,
    },
    /// Whole-number constants of one integer format (`ErrorCode`), open (a catch-all
    /// branch without `const`: any other number in range is kept) or closed.
    IntEnum { name: String, doc: String, ty: Ty, values: Vec<IntValue>, open: bool },
    /// A JSON-RPC request or notification (upstream's `AgentRequest`,
    /// `ClientNotification`): an object with a `method` string and a `params` member
    /// whose type the method selects (`params: anyOf: [{anyOf: [one `$ref` per
    /// method]}, {type: null}]`, each referenced definition naming its method with
    /// `x-method`). A method not in the table keeps `params` as raw JSON (the
    /// fallback). `params` absent and `null` are the same; the other members (a
    /// request's `id`) are ordinary ones.
    Envelope {
        name: String,
        doc: String,
        method_doc: String,
        params_doc: String,
        /// The members besides `method` and `params`, in schema order.
        fields: Vec<Field>,
        methods: Vec<Method>,
        /// The branch without `x-method` (any JSON), named by its `title`; `None`: the
        /// schema has none, and an unknown method's params are still kept raw.
        fallback: Option<Other>,
    },
    /// The method table of a JSON-RPC response (`AgentResponse`, itself a
    /// [`Def::ShapeUnion`] of its synthesized `Result` and `Error` objects, whose
    /// `result` is raw JSON): the type of the result of each method, to decode a
    /// result once the method of the request it answers is known.
    Results {
        name: String,
        doc: String,
        /// The response definition this table belongs to.
        response: String,
        methods: Vec<Method>,
        fallback: Option<Other>,
    },
}

/// One method of a [`Def::Envelope`] or [`Def::Results`] table.
#[derive(Debug, Serialize)]
pub struct Method {
    /// The referenced definition's `x-method` (`session/prompt`).
    pub method: String,
    /// The branch's `title` (else the definition's name), for the variant name.
    pub title: String,
    pub doc: String,
    /// The definition of that method's params (or result).
    pub payload: String,
}

/// One constant of a [`Def::IntEnum`].
#[derive(Debug, Serialize)]
pub struct IntValue {
    pub value: i64,
    /// The branch's `title`, for the constant's name.
    pub title: String,
    pub doc: String,
}

/// One branch of a [`Def::KindUnion`].
#[derive(Debug, Serialize)]
pub struct KindBranch {
    /// The branch's `title` (or its kind; an untitled array of `$ref` items: the item
    /// type's name), for the variant name.
    pub title: String,
    pub doc: String,
    /// `null`, `boolean`, `integer`, `number`, `string`, `array`, or `any`: an
    /// unconstrained branch (`{}` or `true`: upstream's `ElicitationContentValue`'s
    /// last), which takes a value of any other kind, and one its kind's branch rejects,
    /// as raw JSON.
    pub kind: String,
    /// The value's type (`Json` for the `null` branch).
    pub ty: Ty,
    /// For one of several array branches (each of `$ref` items): the member only this
    /// branch's items require. An array goes to the first branch whose key its first
    /// item has (an empty array, or a first item with none of the keys, to the first
    /// array branch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item_key: Option<String>,
    /// An array branch's `minItems` (fewer items: `out_of_range`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
}

/// A string's length bounds (`minLength`, `maxLength`), in Unicode code points as JSON
/// Schema counts them; a string outside them is `out_of_range`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Length {
    pub min: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

/// How a tagged object's optional tag reads (see [`Def::TaggedStruct`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OptionalTag {
    /// A tag that is not a string is dropped with a warning (the object is then the
    /// variant without a tag), instead of failing with `wrong_type`.
    pub lenient: bool,
}

impl Def {
    pub fn name(&self) -> &str {
        match self {
            Self::Struct { name, .. }
            | Self::StringAlias { name, .. }
            | Self::StringEnum { name, .. }
            | Self::TaggedUnion { name, .. }
            | Self::TaggedStruct { name, .. }
            | Self::ShapeUnion { name, .. }
            | Self::Alias { name, .. }
            | Self::KindUnion { name, .. }
            | Self::IntEnum { name, .. }
            | Self::Envelope { name, .. }
            | Self::Results { name, .. } => name,
        }
    }
}

/// The catch-all branch of an open enum or union.
#[derive(Debug, Serialize)]
pub struct Other {
    pub title: String,
    pub doc: String,
}

/// What a tagged union or tagged object does with a tag it does not know, decided once
/// from its branches for every language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownTag {
    /// A catch-all branch: the object is kept whole.
    Keep,
    /// No catch-all but a branch without a tag: that variant takes it, the tag kept
    /// among its unknown members.
    Tagless,
    /// Neither: the schema lists every tag, so it is `unknown_variant`.
    Reject,
}

impl UnknownTag {
    #[must_use]
    pub fn of(other: Option<&Other>, tagless: Option<&Tagless>) -> Self {
        match (other, tagless) {
            (Some(_), _) => Self::Keep,
            (None, Some(_)) => Self::Tagless,
            (None, None) => Self::Reject,
        }
    }

    /// The name the templates test: `keep`, `tagless` or `reject`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Keep => "keep",
            Self::Tagless => "tagless",
            Self::Reject => "reject",
        }
    }
}

#[derive(Debug, Serialize)]
pub struct EnumValue {
    pub wire: String,
    pub doc: String,
}

#[derive(Debug, Serialize)]
pub struct Variant {
    pub wire: String,
    pub doc: String,
    /// The payload definition, or `None` for a tag-only variant.
    pub payload: Option<String>,
    /// The branch's own `x-` annotations (upstream's `x-state` on each `SessionUpdate`).
    #[serde(skip_serializing_if = "Annotations::is_empty")]
    pub annotations: Annotations,
}

/// The variant of a tagged union that has no tag (see [`Def::TaggedUnion`]).
#[derive(Debug, Serialize)]
pub struct Tagless {
    /// The branch's `title`, for the variant name.
    pub title: String,
    pub doc: String,
    /// The payload definition (an object without the tag member).
    pub payload: String,
    /// The branch's own `x-` annotations.
    #[serde(skip_serializing_if = "Annotations::is_empty")]
    pub annotations: Annotations,
}

#[derive(Debug, Serialize)]
pub struct Alternative {
    pub name: String,
    /// The member whose presence selects this alternative.
    pub key: String,
}

/// How a property may be present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Required and not nullable.
    Req,
    /// Optional and nullable: `null` is the same as omitted.
    Opt,
    /// Optional, not nullable.
    Maybe,
    /// Three-state patch (`x-patch`): omitted, `null`, value.
    Patch,
}

#[derive(Debug, Serialize)]
pub struct Field {
    pub wire: String,
    pub doc: String,
    pub presence: Presence,
    pub ty: Ty,
    pub lenient: bool,
    pub skip_invalid_items: bool,
    pub min_items: Option<u64>,
    pub format: Option<String>,
    /// The schema's `default`: what an omitted member means. The value model keeps the
    /// member omitted (so it is written back only if it was present); `with_defaults`
    /// in each binding applies it.
    pub default: Option<Value>,
    /// The schema's `pattern` on a string member, compiled to the subset every binding
    /// checks the same way (`pattern_mismatch`).
    pub pattern: Option<crate::pattern::Pattern>,
    /// A string member's `minLength`/`maxLength`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<Length>,
    /// A required array member that reads `null` as an empty array
    /// (`x-deserialize-default-on-null`, upstream's `DefaultOnNull`); written back as `[]`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub null_as_empty: bool,
    /// The member's own unknown `x-` annotations.
    #[serde(skip_serializing_if = "Annotations::is_empty")]
    pub annotations: Annotations,
}

/// A property's type.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ty {
    Ref {
        name: String,
    },
    String,
    Bool,
    /// A whole number, with the bounds every binding enforces.
    Integer {
        format: String,
        min: f64,
        max: f64,
    },
    /// Any number, optionally bounded.
    Number {
        min: Option<f64>,
        max: Option<f64>,
    },
    /// Base64 bytes (`format: byte`).
    Bytes,
    /// A free-form object (`additionalProperties: true`), order kept.
    Object,
    /// An object whose member values all have one type (`additionalProperties` with a
    /// schema), order kept.
    Map {
        values: Box<Ty>,
    },
    /// Any JSON value.
    Json,
    Array {
        items: Box<Ty>,
    },
}

impl Ty {
    /// An integer's `minimum`/`maximum` when they narrow its format's own range (for
    /// example `uint16` from 1): checked like a number's bounds, before the type.
    #[must_use]
    pub fn integer_bounds(&self) -> Option<(f64, f64)> {
        let Self::Integer { format, min, max } = self else { return None };
        let (lo, hi) = match format.as_str() {
            "uint32" => (0.0, 4_294_967_295.0),
            "int32" => (-2_147_483_648.0, 2_147_483_647.0),
            "uint64" | "uint" => (0.0, SAFE),
            "uint16" => (0.0, 65_535.0),
            "uint8" => (0.0, 255.0),
            _ => (-SAFE, SAFE),
        };
        (*min > lo || *max < hi).then_some((*min, *max))
    }
}

const SAFE: f64 = 9_007_199_254_740_991.0;

fn err<T>(def: &str, pointer: &str, message: impl Into<String>) -> R<T> {
    Err(IrError { def: def.to_owned(), pointer: pointer.to_owned(), message: message.into() })
}

fn doc(v: &Value) -> String {
    v.get("description").and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// Keys that only annotate and never change the wire shape.
const ANNOTATIONS: &[&str] = &["description", "title", "x-side", "x-method", "x-patch", "x-deserialize-default-on-error", "x-deserialize-skip-invalid-items"];

fn check_keys(def: &str, ptr: &str, o: &Map<String, Value>, allowed: &[&str]) -> R<()> {
    for k in o.keys() {
        // `x-` keywords are extension annotations: they never change what validates.
        if !allowed.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()) && !k.starts_with("x-") {
            return err(def, &format!("{ptr}/{}", k.replace('~', "~0").replace('/', "~1")), format!("unsupported keyword `{k}`"));
        }
    }
    Ok(())
}

/// `{"$ref"}` or `{"allOf":[{"$ref"}]}` -> the name.
fn as_ref(v: &Value) -> Option<&str> {
    if let Some(r) = v.get("$ref") {
        return r.as_str().and_then(|s| s.strip_prefix("#/$defs/"));
    }
    match v.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        Some([one]) => one.get("$ref").and_then(Value::as_str).and_then(|s| s.strip_prefix("#/$defs/")),
        _ => None,
    }
}

fn types(v: &Value) -> (Vec<String>, bool) {
    match v.get("type") {
        Some(Value::String(t)) => (vec![t.clone()], false),
        Some(Value::Array(a)) => {
            let all: Vec<String> = a.iter().filter_map(Value::as_str).map(str::to_owned).collect();
            let nullable = all.iter().any(|t| t == "null");
            (all.into_iter().filter(|t| t != "null").collect(), nullable)
        }
        _ => (vec![], false),
    }
}

/// A property's type and nullability.
fn prop_type(def: &str, ptr: &str, v: &Value) -> R<(Ty, bool)> {
    let o = match v {
        Value::Bool(true) => return Ok((Ty::Json, true)),
        Value::Object(o) => o,
        _ => return err(def, ptr, "a property schema must be an object"),
    };
    if let Some(name) = as_ref(v) {
        check_keys(def, ptr, o, &["$ref", "allOf"])?;
        return Ok((Ty::Ref { name: name.to_owned() }, false));
    }
    if let Some(any) = o.get("anyOf").and_then(Value::as_array) {
        check_keys(def, ptr, o, &["anyOf"])?;
        if let [a, b] = any.as_slice()
            && b.get("type") == Some(&Value::from("null"))
            && let Some(name) = as_ref(a)
        {
            return Ok((Ty::Ref { name: name.to_owned() }, true));
        }
        return err(def, &format!("{ptr}/anyOf"), "only `anyOf: [{$ref}, {type: null}]` is supported in a property");
    }
    let (ts, nullable) = types(v);
    let ty = match ts.as_slice() {
        [] => {
            check_keys(def, ptr, o, &[])?;
            return Ok((Ty::Json, true));
        }
        [t] if t == "string" => {
            check_keys(def, ptr, o, &["type", "format", "contentEncoding"])?;
            if o.contains_key("x-absolute-path") {
                return err(def, &format!("{ptr}/x-absolute-path"), "`x-absolute-path` is supported on a string definition in `$defs`: define the path type there and refer to it with `$ref`");
            }
            match (o.get("format").and_then(Value::as_str), o.get("contentEncoding").and_then(Value::as_str)) {
                (Some("byte"), _) | (None, Some("base64")) => Ty::Bytes,
                (_, Some(enc)) => return err(def, &format!("{ptr}/contentEncoding"), format!("unsupported encoding `{enc}`")),
                _ => Ty::String,
            }
        }
        [t] if t == "boolean" => {
            check_keys(def, ptr, o, &["type"])?;
            Ty::Bool
        }
        [t] if t == "integer" => {
            check_keys(def, ptr, o, &["type", "format", "minimum", "maximum"])?;
            let format = o.get("format").and_then(Value::as_str).unwrap_or("int64").to_owned();
            let (lo, hi) = match format.as_str() {
                "uint32" => (0.0, 4_294_967_295.0),
                "int32" => (-2_147_483_648.0, 2_147_483_647.0),
                "uint64" | "uint" => (0.0, SAFE),
                "int64" | "int" => (-SAFE, SAFE),
                "uint16" => (0.0, 65_535.0),
                "uint8" => (0.0, 255.0),
                f => return err(def, &format!("{ptr}/format"), format!("unsupported integer format `{f}`")),
            };
            let min = o.get("minimum").and_then(Value::as_f64).map_or(lo, |m| m.max(lo));
            let max = o.get("maximum").and_then(Value::as_f64).map_or(hi, |m| m.min(hi));
            Ty::Integer { format, min, max }
        }
        [t] if t == "number" => {
            check_keys(def, ptr, o, &["type", "format", "minimum", "maximum"])?;
            Ty::Number { min: o.get("minimum").and_then(Value::as_f64), max: o.get("maximum").and_then(Value::as_f64) }
        }
        [t] if t == "object" => {
            check_keys(def, ptr, o, &["type", "additionalProperties"])?;
            match o.get("additionalProperties") {
                None | Some(Value::Bool(true)) => Ty::Object,
                Some(values @ Value::Object(_)) => {
                    let at = format!("{ptr}/additionalProperties");
                    let (values, nullable) = prop_type(def, &at, values)?;
                    if nullable && !matches!(values, Ty::Json) {
                        return err(def, &at, "nullable member values of a typed map are not supported");
                    }
                    Ty::Map { values: Box::new(values) }
                }
                Some(_) => return err(def, &format!("{ptr}/additionalProperties"), "`additionalProperties` must be `true` or a schema for every member's value (a closed object needs `properties`)"),
            }
        }
        [t] if t == "array" => {
            // `minItems` is read where it is supported (a member, a kind union's branch).
            check_keys(def, ptr, o, &["type", "items"])?;
            let items = o.get("items").ok_or_else(|| IrError { def: def.into(), pointer: ptr.into(), message: "an array needs `items`".into() })?;
            let (item, item_nullable) = prop_type(def, &format!("{ptr}/items"), items)?;
            if item_nullable && !matches!(item, Ty::Json) {
                return err(def, &format!("{ptr}/items"), "nullable array items are not supported");
            }
            Ty::Array { items: Box::new(item) }
        }
        other => return err(def, &format!("{ptr}/type"), format!("unsupported type {other:?}")),
    };
    Ok((ty, nullable))
}

/// A string's `minLength`/`maxLength` (`None` without them).
fn length(def: &str, ptr: &str, v: &Value) -> R<Option<Length>> {
    let bound = |k: &str| -> R<Option<u64>> {
        match v.get(k) {
            None => Ok(None),
            Some(n) => n.as_u64().map(Some).ok_or_else(|| IrError { def: def.into(), pointer: format!("{ptr}/{k}"), message: format!("`{k}` must be a whole number of at least 0") }),
        }
    };
    match (bound("minLength")?, bound("maxLength")?) {
        (None, None) => Ok(None),
        (min, Some(max)) if min.unwrap_or(0) > max => err(def, &format!("{ptr}/maxLength"), "`maxLength` is below `minLength`: no string fits"),
        (min, max) => Ok(Some(Length { min: min.unwrap_or(0), max })),
    }
}

fn field(def: &str, ptr: &str, wire: &str, v: &Value, required: bool) -> R<Field> {
    let default = v.get("default").cloned();
    let pattern = v.get("pattern").cloned();
    let length = length(def, ptr, v)?;
    let mut without_default = v.clone();
    if let Some(o) = without_default.as_object_mut() {
        for k in ["default", "pattern", "minItems", "minLength", "maxLength"] {
            o.shift_remove(k);
        }
    }
    let (ty, nullable) = prop_type(def, ptr, &without_default)?;
    if length.is_some() && !matches!(ty, Ty::String) {
        return err(def, &format!("{ptr}/minLength"), "`minLength`/`maxLength` are supported on a plain string member (not on bytes, a `$ref` or another type)");
    }
    if v.get("minItems").is_some() && !matches!(ty, Ty::Array { .. }) {
        return err(def, &format!("{ptr}/minItems"), "`minItems` is supported on an array member");
    }
    // `x-deserialize-default-on-null` (upstream's `DefaultOnNull`): `null` reads as the
    // member's default, which for an optional member is its omission.
    let default_on_null = v.get("x-deserialize-default-on-null") == Some(&Value::Bool(true));
    if default_on_null && required && (nullable || !matches!(ty, Ty::Array { .. })) {
        return err(def, ptr, "`x-deserialize-default-on-null` on a required member is supported on a (not nullable) array: `null` then reads as `[]`");
    }
    // On an optional member, `null` means omitted; on a required array, `[]`.
    let null_as_empty = default_on_null && required;
    let nullable = nullable || (default_on_null && !required);
    let pattern = match pattern {
        None => None,
        Some(Value::String(p)) if matches!(ty, Ty::String) => Some(crate::pattern::compile(&p).or_else(|e| err(def, &format!("{ptr}/pattern"), format!("pattern `{p}`: {e}")))?),
        Some(Value::String(_)) => return err(def, &format!("{ptr}/pattern"), "`pattern` is supported on a plain string member (not on bytes, a `$ref` or another type)"),
        Some(_) => return err(def, &format!("{ptr}/pattern"), "`pattern` must be a string"),
    };
    if pattern.is_some() && default.is_some() {
        return err(def, &format!("{ptr}/default"), "a `default` on a member with a `pattern` is not supported");
    }
    if default.is_some() && (required || v.get("x-patch") == Some(&Value::Bool(true))) {
        return err(
            def,
            &format!("{ptr}/default"),
            "a `default` is supported on an optional member that is not a patch (a required member is never omitted; a patch member's omission means unchanged)",
        );
    }
    let flag = |k: &str| v.get(k) == Some(&Value::Bool(true));
    let patch = flag("x-patch");
    let presence = match (required, nullable, patch) {
        (true, _, true) => return err(def, ptr, "a patch member cannot be required"),
        (_, false, true) => return err(def, ptr, "a patch member must be nullable"),
        (false, true, true) => Presence::Patch,
        (true, false, false) => Presence::Req,
        (true, true, false) if matches!(ty, Ty::Json) => Presence::Req,
        (true, true, false) => return err(def, ptr, "required nullable members are not supported"),
        (false, true, false) => Presence::Opt,
        (false, false, false) => Presence::Maybe,
    };
    Ok(Field {
        wire: wire.to_owned(),
        doc: doc(v),
        presence,
        ty,
        lenient: flag("x-deserialize-default-on-error"),
        skip_invalid_items: flag("x-deserialize-skip-invalid-items"),
        min_items: v.get("minItems").and_then(Value::as_u64),
        format: v.get("format").and_then(Value::as_str).filter(|f| *f != "byte" && !f.contains("int") && *f != "double").map(str::to_owned),
        default,
        pattern,
        length,
        null_as_empty,
        annotations: match v.as_object() {
            Some(o) => annotations(def, ptr, o)?,
            None => Annotations::default(),
        },
    })
}

fn fields(def: &str, ptr: &str, o: &Map<String, Value>) -> R<Vec<Field>> {
    let required: BTreeSet<&str> = o.get("required").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let props = match o.get("properties") {
        None => return Ok(vec![]),
        Some(Value::Object(p)) => p,
        Some(_) => return err(def, &format!("{ptr}/properties"), "`properties` must be an object"),
    };
    for r in &required {
        if !props.contains_key(*r) {
            return err(def, &format!("{ptr}/required"), format!("required member `{r}` has no property schema"));
        }
    }
    props.iter().map(|(k, v)| field(def, &format!("{ptr}/properties/{}", k.replace('~', "~0").replace('/', "~1")), k, v, required.contains(k.as_str()))).collect()
}

/// `{type: object, properties: {TAG: {type: string, const}}, required: [TAG]}` -> (tag, value).
fn tag_branch(b: &Value) -> Option<(String, String)> {
    let props = b.get("properties")?.as_object()?;
    // The tag is the one member with a string `const` (other members are an inline payload).
    let mut tags = props.iter().filter_map(|(k, s)| Some((k.clone(), s.get("const")?.as_str()?.to_owned())));
    let first = tags.next()?;
    if tags.next().is_some() {
        return None;
    }
    Some(first)
}

/// The payload of a variant that lists its members inline (beside the tag): a
/// definition of its own, named `Owner` + tag + `Payload`.
fn inline_payload(owner: &str, bp: &str, b: &Value, tag: &str, value: &str, extra: &mut Vec<Def>) -> R<String> {
    let o = b.as_object().ok_or_else(|| IrError { def: owner.into(), pointer: bp.into(), message: "a branch must be an object".into() })?;
    check_keys(owner, bp, o, &["type", "properties", "required"])?;
    let mut inner = o.clone();
    if let Some(Value::Object(p)) = inner.get_mut("properties") {
        p.shift_remove(tag);
    }
    if let Some(Value::Array(r)) = inner.get_mut("required") {
        r.retain(|x| x.as_str() != Some(tag));
    }
    let name = format!("{owner}{}Payload", value.to_upper_camel_case());
    let fields = fields(owner, bp, &inner)?;
    let doc =
        if tag.is_empty() { format!("The members of the `{value}` variant of `{owner}`, which has no tag.") } else { format!("The members of the `{value}` variant of `{owner}`, beside its tag.") };
    extra.push(Def::Struct { name: name.clone(), doc, fields, forbidden: vec![] });
    Ok(name)
}

fn catch_all(b: &Value) -> Option<Other> {
    let title = b.get("title")?.as_str()?;
    Some(Other { title: title.to_owned(), doc: doc(b) })
}

/// What [`union`] reads from the branches: the tag, the tagged variants, the catch-all,
/// the tagless variant, and whether a branch made the tag optional (its tag is
/// `{type: null}`: see [`Def::TaggedStruct`]).
struct UnionParts {
    tag: String,
    variants: Vec<Variant>,
    other: Option<Other>,
    tagless: Option<Tagless>,
    null_tag: bool,
}

/// The name of a variant without a tag whose branch has no `title`: its payload's name
/// without the owner's (`TitledMultiSelectItems` in `MultiSelectItems`: `Titled`;
/// `McpServerStdio` in `McpServer`: `Stdio`), else without the words both names begin
/// with (`ElicitationSessionScope` beside `ElicitationFormMode`: `SessionScope`), else the
/// payload's name.
fn title_from_ref(owner: &str, payload: &str) -> String {
    if let Some(rest) = payload.strip_suffix(owner).filter(|r| !r.is_empty()) {
        return rest.to_owned();
    }
    if let Some(rest) = payload.strip_prefix(owner).filter(|r| !r.is_empty()) {
        return rest.to_owned();
    }
    // The longest common prefix that ends where a word of both names ends.
    let (a, b): (Vec<char>, Vec<char>) = (owner.chars().collect(), payload.chars().collect());
    let mut cut = 0;
    for i in 1..a.len().min(b.len()) {
        if a[..i] != b[..i] {
            break;
        }
        if a[i].is_uppercase() && b[i].is_uppercase() {
            cut = i;
        }
    }
    payload.chars().skip(cut).collect()
}

/// A branch that says the tag is absent or `null` (`{properties: {TAG: {type: null}}}`,
/// the tag not required): the tag member's name.
fn null_tag_branch(b: &Value) -> Option<String> {
    let props = b.get("properties")?.as_object()?;
    let [(k, v)] = props.iter().collect::<Vec<_>>()[..] else { return None };
    let only_null = v.get("type") == Some(&Value::from("null")) && v.as_object().is_some_and(|o| o.keys().all(|k| k == "type" || ANNOTATIONS.contains(&k.as_str())));
    let required = b.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|x| x.as_str() == Some(k)));
    (only_null && !required).then(|| k.clone())
}

fn union(name: &str, ptr: &str, branches: &[Value], open_expected: bool, extra: &mut Vec<Def>) -> R<UnionParts> {
    let mut tag_name: Option<String> = None;
    let mut variants = Vec::new();
    let mut other = None;
    let mut tagless: Option<(String, Tagless)> = None;
    // The catch-all, the tagless branch and a branch of an absent tag are checked
    // against the tag once every tagged branch has named it: they may come anywhere
    // (dispatch is by tag, so the order of the branches does not matter).
    let mut catch_all_at: Option<(String, Option<String>)> = None;
    let mut null_tag_at: Option<(String, String)> = None;
    let branch_annotations = |bp: &str, b: &Value| -> R<Annotations> {
        match b.as_object() {
            Some(o) => annotations(name, bp, o),
            None => Ok(Annotations::default()),
        }
    };
    for (i, b) in branches.iter().enumerate() {
        let bp = format!("{ptr}/{i}");
        if b.get("not").is_some() {
            if catch_all_at.is_some() {
                return err(name, &bp, "a union can have only one catch-all branch");
            }
            let tag = b.get("properties").and_then(Value::as_object).and_then(|p| p.keys().next().cloned());
            catch_all_at = Some((bp, tag));
            other = Some(catch_all(b).unwrap_or(Other { title: "other".into(), doc: doc(b) }));
            continue;
        }
        if b.get("properties").is_none()
            && let Some(payload) = as_ref(b)
        {
            // A branch that is only a `$ref`: the variant without a tag.
            if tagless.is_some() {
                return err(name, &bp, "a tagged union can have only one branch without a tag (a plain `$ref`); the others need a const-valued tag property");
            }
            let title = b.get("title").and_then(Value::as_str).map_or_else(|| title_from_ref(name, payload), str::to_owned);
            let t = Tagless { title, doc: doc(b), payload: payload.to_owned(), annotations: branch_annotations(&bp, b)? };
            tagless = Some((bp, t));
            continue;
        }
        if let Some(tag) = null_tag_branch(b) {
            // No tag, or `null` (upstream v2 `IdleStateUpdate`'s `none`): the variant
            // without a tag, with no members of its own.
            if tagless.is_some() {
                return err(name, &bp, "a tagged union can have only one branch without a tag; the others need a const-valued tag property");
            }
            let title = b.get("title").and_then(Value::as_str).unwrap_or("none").to_owned();
            let mut empty = b.clone();
            if let Some(o) = empty.as_object_mut() {
                o.shift_remove("properties");
            }
            let payload = inline_payload(name, &bp, &empty, "", &title, extra)?;
            tagless = Some((bp.clone(), Tagless { title, doc: doc(b), payload, annotations: branch_annotations(&bp, b)? }));
            null_tag_at = Some((bp, tag));
            continue;
        }
        let Some((tag, value)) = tag_branch(b) else {
            // Members listed inline with no tag (upstream v1 `SetSessionConfigOptionRequest`'s
            // `value_id`): the variant without a tag, its payload a definition of its own
            // (`Owner` + title + `Payload`; `untagged` without a `title`).
            if let (Some(_), None, None) = (b.get("properties"), b.get("allOf"), b.get("$ref")) {
                if tagless.is_some() {
                    return err(name, &bp, "a tagged union can have only one branch without a tag; the others need a const-valued tag property");
                }
                let title = b.get("title").and_then(Value::as_str).unwrap_or("untagged").to_owned();
                let payload = inline_payload(name, &bp, b, "", &title, extra)?;
                tagless = Some((bp.clone(), Tagless { title, doc: doc(b), payload, annotations: branch_annotations(&bp, b)? }));
                continue;
            }
            return err(name, &bp, "a union branch must be an object with one const-valued tag property (or, for the one variant without a tag, a `$ref` or members without a tag)");
        };
        if tag_name.as_ref().is_some_and(|t| *t != tag) {
            return err(name, &bp, format!("branches disagree on the tag member (`{}` vs `{tag}`)", tag_name.unwrap_or_default()));
        }
        let inline = b.get("properties").and_then(Value::as_object).is_some_and(|p| p.len() > 1);
        // The payload: `allOf: [{$ref}]` (schemars 0.8) or a `$ref` beside the tag (schemars 1).
        let has_ref = b.get("allOf").is_some() || b.get("$ref").is_some();
        let payload = match has_ref {
            false if inline => Some(inline_payload(name, &bp, b, &tag, &value, extra)?),
            true if inline => return err(name, &bp, "a variant lists members inline and a `$ref` payload; use one of them"),
            false => None,
            true => Some(as_ref(b).map(str::to_owned).ok_or_else(|| IrError {
                def: name.into(),
                pointer: bp.clone(),
                message: "a variant payload must be one `$ref` (or `allOf` of one `$ref`)".into(),
            })?),
        };
        tag_name = Some(tag);
        variants.push(Variant { wire: value, doc: doc(b), payload, annotations: branch_annotations(&bp, b)? });
    }
    if let Some((bp, tag)) = catch_all_at
        && (tag.is_none() || tag != tag_name)
    {
        return err(name, &bp, "the catch-all branch must be keyed by the same tag");
    }
    if let Some((bp, tag)) = &null_tag_at
        && Some(tag) != tag_name.as_ref()
    {
        return err(name, bp, "the branch of an absent tag must name the union's tag member");
    }
    if open_expected && other.is_none() && tagless.is_none() {
        return err(name, ptr, "an `anyOf` tagged union needs a catch-all branch with `not` (or a branch without a tag, which then takes unknown tags)");
    }
    let tag = tag_name.ok_or_else(|| IrError { def: name.into(), pointer: ptr.into(), message: "a union needs at least one variant".into() })?;
    Ok(UnionParts { tag, variants, other, tagless: tagless.map(|(_, t)| t), null_tag: null_tag_at.is_some() })
}

/// Whether a branch is unconstrained (`true`, or `{}` with only annotations): any value.
fn is_unconstrained(b: &Value) -> bool {
    b == &Value::Bool(true) || b.as_object().is_some_and(|o| o.keys().all(|k| ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-")))
}

/// `propertyNames: {not: {const: NAME}}` or `{not: {enum: [NAMES]}}`: the member names
/// the object must not have.
fn forbidden_members(def: &str, ptr: &str, o: &Map<String, Value>) -> R<Vec<String>> {
    let Some(p) = o.get("propertyNames") else { return Ok(vec![]) };
    let at = format!("{ptr}/propertyNames");
    let shape = "only `propertyNames: {not: {const: NAME}}` or `{not: {enum: [NAMES]}}` (members the object must not have) is supported";
    let Some(not) = p.as_object().filter(|p| p.len() == 1).and_then(|p| p.get("not")).and_then(Value::as_object) else { return err(def, &at, shape) };
    let names: Vec<String> = match (not.get("const"), not.get("enum"), not.len()) {
        (Some(Value::String(c)), None, 1) => vec![c.clone()],
        (None, Some(Value::Array(e)), 1) if !e.is_empty() && e.iter().all(Value::is_string) => e.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => return err(def, &at, shape),
    };
    let props = o.get("properties").and_then(Value::as_object);
    if let Some(n) = names.iter().find(|n| props.is_some_and(|p| p.contains_key(*n))) {
        return err(def, &at, format!("`{n}` is both a property and a forbidden member name"));
    }
    Ok(names)
}

/// An object definition's `additionalProperties`: absent or `true` (unknown members are
/// kept, as for every object); anything else is not supported.
fn open_object(def: &str, ptr: &str, o: &Map<String, Value>) -> R<()> {
    match o.get("additionalProperties") {
        None | Some(Value::Bool(true)) => Ok(()),
        Some(_) => err(def, &format!("{ptr}/additionalProperties"), "an object with `properties` keeps unknown members: only `additionalProperties: true` (or none) is supported"),
    }
}

fn definition(name: &str, v: &Value, all: &Map<String, Value>, extra: &mut Vec<Def>) -> R<Def> {
    let ptr = "";
    let o = v.as_object().ok_or_else(|| IrError { def: name.into(), pointer: ptr.into(), message: "a definition must be an object".into() })?;
    let doc = doc(v);
    let branches_key = if o.contains_key("anyOf") {
        Some("anyOf")
    } else if o.contains_key("oneOf") {
        Some("oneOf")
    } else {
        None
    };
    if let Some(key) = branches_key {
        let branches = o[key].as_array().cloned().unwrap_or_default();
        let bptr = format!("/{key}");
        // String enum: const strings plus an optional plain-string catch-all.
        if branches.iter().all(|b| b.get("type") == Some(&Value::from("string"))) {
            check_keys(name, ptr, o, &[key])?;
            let mut values = Vec::new();
            let mut other = None;
            for (i, b) in branches.iter().enumerate() {
                match b.get("const").and_then(Value::as_str) {
                    Some(c) => values.push(EnumValue { wire: c.to_owned(), doc: doc_of(b) }),
                    None if i + 1 == branches.len() && key == "anyOf" => other = catch_all(b).or(Some(Other { title: "other".into(), doc: doc_of(b) })),
                    None => return err(name, &format!("{bptr}/{i}"), "a string enum branch needs `const` (only the last `anyOf` branch may be the catch-all)"),
                }
            }
            return Ok(Def::StringEnum { name: name.into(), doc, values, other });
        }
        // Shape union: `$ref` alternatives (`{title, allOf: [$ref]}` or `{$ref}`), and at
        // most one unconstrained branch, the fallback.
        let refs = branches.iter().filter(|b| b.get("properties").is_none() && as_ref(b).is_some()).count();
        let unconstrained: Vec<usize> = (0..branches.len()).filter(|&i| is_unconstrained(&branches[i])).collect();
        if refs > 0 && refs + unconstrained.len() == branches.len() {
            let flattened = o.contains_key("properties");
            if flattened {
                check_keys(name, ptr, o, &["type", "properties", "required", key])?;
            } else {
                check_keys(name, ptr, o, &[key])?;
            }
            let fallback = match unconstrained.as_slice() {
                [] => None,
                [i] if !flattened => Some(Other { title: branches[*i].get("title").and_then(Value::as_str).unwrap_or("other").to_owned(), doc: doc_of(&branches[*i]) }),
                [i] => return err(name, &format!("{bptr}/{i}"), "an unconstrained alternative beside members is not supported"),
                [_, i, ..] => return err(name, &format!("{bptr}/{i}"), "a shape union can have only one unconstrained branch (any JSON)"),
            };
            let alt_branches: Vec<&Value> = branches.iter().filter(|b| !is_unconstrained(b)).collect();
            let alt_index: Vec<usize> = (0..branches.len()).filter(|i| !unconstrained.contains(i)).collect();
            let names: Vec<String> = alt_branches.iter().filter_map(|b| as_ref(b)).map(str::to_owned).collect();
            let required_of = |n: &str| -> BTreeSet<String> {
                all.get(n).and_then(|d| d.get("required")).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default()
            };
            let mut alternatives = Vec::new();
            for (i, n) in names.iter().enumerate() {
                let mine = required_of(n);
                let others: BTreeSet<String> = names.iter().filter(|m| *m != n).flat_map(|m| required_of(m)).collect();
                let props: Vec<String> = all.get(n).and_then(|d| d.get("properties")).and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
                let key = props.into_iter().find(|p| mine.contains(p) && !others.contains(p));
                match key {
                    Some(key) => alternatives.push(Alternative { name: n.clone(), key }),
                    None => return err(name, &format!("{bptr}/{}", alt_index[i]), format!("alternative `{n}` has no required member the others lack, so it cannot be told apart")),
                }
            }
            if flattened {
                // Members beside the `anyOf` (upstream `ElicitationFormMode`): each
                // alternative becomes one object with those members and its own, named
                // `Owner` + the branch's title (without one: the alternative's name
                // without the words it shares with the owner's), and the definition a
                // shape union of them.
                for (i, (b, a)) in alt_branches.iter().zip(alternatives.iter_mut()).enumerate() {
                    let bp = format!("{bptr}/{}", alt_index[i]);
                    let title = b.get("title").and_then(Value::as_str).map_or_else(|| title_from_ref(name, &a.name), str::to_owned);
                    let Some(Value::Object(alt)) = all.get(&a.name) else {
                        return err(name, &format!("{bp}/$ref"), format!("reference to `{}`, which is not in `$defs`", a.name));
                    };
                    if alt.get("type") != Some(&Value::from("object"))
                        || alt.keys().any(|k| !["type", "properties", "required", "description", "title", "propertyNames", "additionalProperties"].contains(&k.as_str()) && !k.starts_with("x-"))
                    {
                        return err(name, &bp, format!("alternative `{}` beside members must be a plain object definition (`type: object`, `properties`, `required`)", a.name));
                    }
                    open_object(&a.name, "", alt)?;
                    let mut merged = Map::new();
                    merged.insert("type".into(), Value::from("object"));
                    let mut props = o.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
                    for (k, v) in alt.get("properties").and_then(Value::as_object).cloned().unwrap_or_default() {
                        if props.contains_key(&k) {
                            return err(name, &bp, format!("alternative `{}` has a member `{k}` that the object lists too", a.name));
                        }
                        props.insert(k, v);
                    }
                    merged.insert("properties".into(), Value::Object(props));
                    let mut required: Vec<Value> = o.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
                    required.extend(alt.get("required").and_then(Value::as_array).cloned().unwrap_or_default());
                    merged.insert("required".into(), Value::Array(required));
                    let forbidden = forbidden_members(&a.name, "", alt)?;
                    let struct_name = format!("{name}{}", title.to_upper_camel_case());
                    let text = format!("`{name}` with the members of `{}` (its `{title}` alternative).", a.name);
                    let fields = fields(name, ptr, &merged)?;
                    extra.push(Def::Struct { name: struct_name.clone(), doc: text, fields, forbidden });
                    a.name = struct_name;
                }
            }
            return Ok(Def::ShapeUnion { name: name.into(), doc, alternatives, fallback });
        }
        if branches.iter().all(|b| b.get("type") == Some(&Value::from("integer"))) {
            check_keys(name, ptr, o, &[key])?;
            return int_enum(name, &bptr, &branches, doc, key == "anyOf");
        }
        if let Some(d) = kind_union(name, &bptr, &branches, &doc, all)? {
            check_keys(name, ptr, o, &[key])?;
            return Ok(d);
        }
        if let Some(d) = response(name, &bptr, &branches, &doc, all, extra)? {
            check_keys(name, ptr, o, &[key])?;
            return Ok(d);
        }
        if let Some(d) = inline_shapes(name, &bptr, &branches, &doc, all, extra)? {
            check_keys(name, ptr, o, &[key])?;
            return Ok(d);
        }
        let UnionParts { tag, variants, other, tagless, null_tag } = union(name, &bptr, &branches, key == "anyOf", extra)?;
        if o.get("type") == Some(&Value::from("object")) && o.contains_key("properties") {
            check_keys(name, ptr, o, &["type", "properties", "required", key, "discriminator"])?;
            // The tag may also be listed among the common members (upstream v2
            // `IdleStateUpdate`: `stopReason`, a nullable lenient string): it says how the
            // tag reads, and is not a common member.
            let mut common_o = o.clone();
            let listed = common_o.get_mut("properties").and_then(Value::as_object_mut).and_then(|p| p.shift_remove(&tag));
            let mut optional_tag = null_tag.then_some(OptionalTag { lenient: false });
            if let Some(t) = listed {
                let at = format!("/properties/{}", escape(&tag));
                let (ts, nullable) = types(&t);
                let plain = t.as_object().is_some_and(|to| to.keys().all(|k| ["type"].contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-")));
                if ts != ["string"] || !plain {
                    return err(name, &at, "the tag listed among the members must be a plain string (`type: string`, or `[string, null]` for an optional tag)");
                }
                if common_o.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|x| x.as_str() == Some(&tag))) {
                    return err(name, "/required", "the tag of a tagged object is required by its branches, not among the common members");
                }
                let lenient = t.get("x-deserialize-default-on-error") == Some(&Value::Bool(true));
                match (nullable, optional_tag.is_some(), tagless.is_some()) {
                    (true, _, true) => optional_tag = Some(OptionalTag { lenient }),
                    (true, _, false) => return err(name, &at, "an optional tag (`null` allowed) needs the variant it selects: a branch without a tag"),
                    (false, true, _) => return err(name, &at, "the tag listed among the members must allow `null`, as the branch of an absent tag says"),
                    (false, false, _) if lenient => return err(name, &at, "a lenient tag must be optional (`[string, null]`): a dropped tag selects the variant without a tag"),
                    (false, false, _) => {}
                }
            }
            let common = fields(name, ptr, &common_o)?;
            return Ok(Def::TaggedStruct { name: name.into(), doc, tag, optional_tag, variants, other, common, tagless });
        }
        if null_tag {
            return err(name, &bptr, "a branch of an absent tag is supported in a tagged object (a union with common `properties`), not yet in a plain tagged union");
        }
        check_keys(name, ptr, o, &[key, "discriminator"])?;
        return Ok(Def::TaggedUnion { name: name.into(), doc, tag, variants, other, tagless });
    }
    let (ts, _) = types(v);
    match ts.as_slice() {
        [t] if t == "string" => {
            check_keys(name, ptr, o, &["type", "minLength", "maxLength"])?;
            let absolute_path = match o.get("x-absolute-path") {
                None | Some(Value::Bool(false)) => false,
                Some(Value::Bool(true)) => true,
                Some(_) => return err(name, "/x-absolute-path", "`x-absolute-path` must be `true` or `false`"),
            };
            let length = length(name, ptr, v)?;
            if absolute_path && length.is_some() {
                return err(name, "/minLength", "a checked path with a length bound is not supported");
            }
            Ok(Def::StringAlias { name: name.into(), doc, absolute_path, length })
        }
        [t] if t == "object" && is_envelope(o) => envelope(name, o, doc, all),
        [t] if t == "object" => {
            check_keys(name, ptr, o, &["type", "properties", "required", "additionalProperties", "propertyNames"])?;
            open_object(name, ptr, o)?;
            let forbidden = forbidden_members(name, ptr, o)?;
            Ok(Def::Struct { name: name.into(), doc, fields: fields(name, ptr, o)?, forbidden })
        }
        _ => alias(name, v, doc),
    }
}

/// `anyOf` of inline objects without a tag, told apart by a member only one of them
/// requires (upstream's unstable `MessageMcpResponse`: `result` or `error`): each becomes
/// an object definition of its own, named `Owner` + its `title` (else + that member), and
/// the definition a shape union of them. `None` when the branches are not all inline
/// objects without a const-valued member.
fn inline_shapes(name: &str, ptr: &str, branches: &[Value], doc: &str, all: &Map<String, Value>, extra: &mut Vec<Def>) -> R<Option<Def>> {
    let _ = all;
    let inline = |b: &Value| b.get("properties").is_some() && as_ref(b).is_none() && b.get("allOf").is_none() && tag_branch(b).is_none() && b.get("not").is_none();
    if branches.len() < 2 || !branches.iter().all(inline) {
        return Ok(None);
    }
    let required_of = |b: &Value| -> BTreeSet<String> { b.get("required").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default() };
    let mut alternatives = Vec::new();
    let mut made = Vec::new();
    for (i, b) in branches.iter().enumerate() {
        let bp = format!("{ptr}/{i}");
        let bo = b.as_object().ok_or_else(|| IrError { def: name.into(), pointer: bp.clone(), message: "a branch must be an object".into() })?;
        check_keys(name, &bp, bo, &["type", "properties", "required", "additionalProperties", "propertyNames"])?;
        open_object(name, &bp, bo)?;
        let others: BTreeSet<String> = branches.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, o)| required_of(o)).collect();
        let props: Vec<String> = bo.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
        let Some(key) = props.into_iter().find(|p| required_of(b).contains(p) && !others.contains(p)) else {
            return err(name, &bp, "an inline alternative needs a required member the others lack, so it can be told apart");
        };
        let title = bo.get("title").and_then(Value::as_str).unwrap_or(&key).to_upper_camel_case();
        let struct_name = format!("{name}{title}");
        if all.contains_key(&struct_name) || made.contains(&struct_name) {
            return err(name, &bp, format!("the object made for this alternative would be named `{struct_name}`, which is already taken (give the branches titles)"));
        }
        let text = if doc_of(b).is_empty() { format!("The `{key}` alternative of `{name}`.") } else { doc_of(b) };
        let fields = fields(name, &bp, bo)?;
        let forbidden = forbidden_members(name, &bp, bo)?;
        extra.push(Def::Struct { name: struct_name.clone(), doc: text, fields, forbidden });
        made.push(struct_name.clone());
        alternatives.push(Alternative { name: struct_name, key });
    }
    Ok(Some(Def::ShapeUnion { name: name.into(), doc: doc.to_owned(), alternatives, fallback: None }))
}

/// `anyOf` branches that each are one JSON kind (no `properties`, `const` or `$ref`):
/// a union decided by the kind of the value. `None` when the branches are not of that
/// form (another union construct may fit them).
fn kind_union(name: &str, ptr: &str, branches: &[Value], doc: &str, all: &Map<String, Value>) -> R<Option<Def>> {
    let plain = |b: &Value| b.get("type").and_then(Value::as_str).is_some() && b.get("properties").is_none() && b.get("const").is_none() && as_ref(b).is_none();
    // At most one unconstrained branch (`{}`, `true`): the `any` branch.
    let typed = branches.iter().filter(|b| plain(b)).count();
    if branches.len() < 2 || typed == 0 || branches.len() - typed > 1 || !branches.iter().all(|b| plain(b) || is_unconstrained(b)) {
        return Ok(None);
    }
    let mut out: Vec<KindBranch> = Vec::new();
    for (i, b) in branches.iter().enumerate() {
        let bp = format!("{ptr}/{i}");
        if is_unconstrained(b) {
            let title = b.get("title").and_then(Value::as_str).unwrap_or("other").to_owned();
            out.push(KindBranch { title, doc: self::doc(b), kind: "any".into(), ty: Ty::Json, item_key: None, min_items: None });
            continue;
        }
        let kind = b.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
        let min_items = match b.get("minItems") {
            None => None,
            Some(n) if kind == "array" => Some(n.as_u64().ok_or_else(|| IrError { def: name.into(), pointer: format!("{bp}/minItems"), message: "`minItems` must be a whole number".into() })?),
            Some(_) => return err(name, &format!("{bp}/minItems"), "`minItems` is supported on an array branch"),
        };
        let mut b_without = b.clone();
        if let Some(o) = b_without.as_object_mut() {
            o.shift_remove("minItems");
        }
        let b = &b_without;
        let ty = if kind == "null" {
            check_keys(name, &bp, b.as_object().ok_or_else(|| IrError { def: name.into(), pointer: bp.clone(), message: "a branch must be an object".into() })?, &["type"])?;
            Ty::Json
        } else {
            let (ty, nullable) = prop_type(name, &bp, b)?;
            if nullable {
                return err(name, &bp, "a branch of a union decided by JSON kind cannot be nullable; add a `null` branch");
            }
            ty
        };
        match (&kind[..], &ty) {
            ("integer", t) if t.integer_bounds().is_some() => return err(name, &bp, "an integer branch with `minimum`/`maximum` narrower than its format is not supported yet"),
            ("number", Ty::Number { min: Some(_), .. } | Ty::Number { max: Some(_), .. }) => return err(name, &bp, "a number branch with `minimum`/`maximum` is not supported yet"),
            ("null" | "boolean" | "integer" | "number" | "string", _) => {}
            ("array", _) => {}
            (k, _) => return err(name, &format!("{bp}/type"), format!("a `{k}` branch is not supported in a union decided by JSON kind")),
        }
        if kind != "array" && out.iter().any(|o| o.kind == kind) {
            return err(name, &bp, format!("two `{kind}` branches cannot be told apart by the JSON kind of the value"));
        }
        // Without a title: the kind, or for an array of `$ref` items the item type's name
        // (two such arrays are told apart by their items, and so are their names).
        let untitled = match &ty {
            Ty::Array { items } if matches!(items.as_ref(), Ty::Ref { .. }) => match items.as_ref() {
                Ty::Ref { name } => name.clone(),
                _ => kind.clone(),
            },
            _ => kind.clone(),
        };
        let title = b.get("title").and_then(Value::as_str).map_or(untitled, str::to_owned);
        out.push(KindBranch { title, doc: self::doc(b), kind, ty, item_key: None, min_items });
    }
    // Several array branches: told apart by a member only one branch's items require.
    let arrays: Vec<usize> = (0..out.len()).filter(|&i| out[i].kind == "array").collect();
    if arrays.len() > 1 {
        let item_of = |i: usize| match &out[i].ty {
            Ty::Array { items } => match items.as_ref() {
                Ty::Ref { name } => Some(name.clone()),
                _ => None,
            },
            _ => None,
        };
        let required_of = |n: &str| -> Vec<String> {
            all.get(n).and_then(|d| d.get("required")).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default()
        };
        let mut keys = Vec::new();
        for &i in &arrays {
            let bp = format!("{ptr}/{i}");
            let Some(item) = item_of(i) else {
                return err(name, &format!("{bp}/items"), "several array branches are told apart by their items, so each needs `items` that is one `$ref` to an object definition");
            };
            let others: BTreeSet<String> = arrays.iter().filter(|&&j| j != i).filter_map(|&j| item_of(j)).flat_map(|n| required_of(&n)).collect();
            let Some(key) = required_of(&item).into_iter().find(|k| !others.contains(k)) else {
                return err(name, &format!("{bp}/items"), format!("the items `{item}` have no required member that the other array branches' items lack, so the arrays cannot be told apart"));
            };
            keys.push((i, key));
        }
        for (i, key) in keys {
            out[i].item_key = Some(key);
        }
    }
    // With an unconstrained branch, a value is written back as plain JSON whichever branch
    // took it, so the typed branches must be plain JSON themselves.
    if out.iter().any(|b| b.kind == "any") {
        fn plain(t: &Ty) -> bool {
            match t {
                Ty::Bool | Ty::Integer { .. } | Ty::Number { .. } | Ty::String | Ty::Json => true,
                Ty::Array { items } => plain(items),
                _ => false,
            }
        }
        if let Some(i) = out.iter().position(|b| !plain(&b.ty)) {
            return err(name, &format!("{ptr}/{i}"), "beside an unconstrained branch, a union decided by JSON kind supports plain branches (booleans, numbers, strings and arrays of them) only");
        }
    }
    let mut words: Vec<&str> = out
        .iter()
        .map(|b| match b.kind.as_str() {
            "null" => "null",
            "boolean" => "a boolean",
            "integer" => "a whole number",
            "number" => "a number",
            "string" => "a string",
            "any" => "",
            _ => "an array",
        })
        .filter(|w| !w.is_empty())
        .collect();
    words.dedup();
    let expected = match words.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => words.join(""),
    };
    let integer_range = out.iter().find_map(|b| match &b.ty {
        Ty::Integer { min, max, .. } => Some((*min, *max)),
        _ => None,
    });
    Ok(Some(Def::KindUnion { name: name.into(), doc: doc.to_owned(), branches: out, expected, integer_range }))
}

/// Integer constants of one format, plus an optional catch-all branch (last, `anyOf` only).
fn int_enum(name: &str, ptr: &str, branches: &[Value], doc: String, any_of: bool) -> R<Def> {
    let mut ty: Option<Ty> = None;
    let mut values: Vec<IntValue> = Vec::new();
    let mut open = false;
    for (i, b) in branches.iter().enumerate() {
        let bp = format!("{ptr}/{i}");
        let mut without_const = b.clone();
        let c = without_const.as_object_mut().and_then(|o| o.shift_remove("const"));
        let (t, nullable) = prop_type(name, &bp, &without_const)?;
        if nullable {
            return err(name, &bp, "a nullable integer constant is not supported");
        }
        if ty.as_ref().is_some_and(|first| format!("{first:?}") != format!("{t:?}")) {
            return err(name, &bp, "every branch of an integer enum must have the same `format` and bounds");
        }
        ty = Some(t.clone());
        match c {
            None if any_of && i + 1 == branches.len() => open = true,
            None => return err(name, &bp, "an integer enum branch needs `const` (only the last `anyOf` branch may be the catch-all)"),
            Some(c) => {
                let Some(n) = c.as_f64().filter(|n| n.fract() == 0.0) else { return err(name, &format!("{bp}/const"), "`const` must be a whole number") };
                let Ty::Integer { min, max, .. } = &t else { return err(name, &bp, "expected an integer type") };
                if n < *min || n > *max {
                    return err(name, &format!("{bp}/const"), "`const` is outside the branch's range");
                }
                if values.iter().any(|v| v.value as f64 == n) {
                    return err(name, &format!("{bp}/const"), "the constant is repeated");
                }
                #[allow(clippy::cast_possible_truncation)]
                let value = n as i64;
                let title = b.get("title").and_then(Value::as_str).map_or_else(|| format!("value {value}"), str::to_owned);
                values.push(IntValue { value, title, doc: self::doc(b) });
            }
        }
    }
    let ty = ty.ok_or_else(|| IrError { def: name.into(), pointer: ptr.into(), message: "an integer enum needs at least one constant".into() })?;
    if values.is_empty() {
        return err(name, ptr, "an integer enum needs at least one constant");
    }
    Ok(Def::IntEnum { name: name.into(), doc, ty, values, open })
}

/// A definition that is neither an object, a string nor a union.
fn alias(name: &str, v: &Value, doc: String) -> R<Def> {
    const WHAT: &str = "unsupported definition: expected an object, a string, a string enum, a union, a whole number, a number, a boolean or any JSON";
    if v.get("properties").is_some() || v.get("type").and_then(Value::as_str) == Some("array") {
        return err(name, "", WHAT);
    }
    let (ty, nullable) = prop_type(name, "", v)?;
    match ty {
        Ty::Json => Ok(Def::Alias { name: name.into(), doc, ty }),
        _ if nullable => err(name, "/type", "a nullable definition other than any JSON is not supported; make the members that use it nullable instead"),
        Ty::Integer { .. } if ty.integer_bounds().is_some() => {
            err(name, "", "a whole-number definition with `minimum`/`maximum` narrower than its format's range is not supported yet; put the bounds on the members that use it")
        }
        Ty::Number { min: Some(_), .. } | Ty::Number { max: Some(_), .. } => {
            err(name, "", "a number definition with `minimum`/`maximum` is not supported yet; put the bounds on the members that use it")
        }
        Ty::Integer { .. } | Ty::Number { .. } | Ty::Bool => Ok(Def::Alias { name: name.into(), doc, ty }),
        _ => err(name, "", WHAT),
    }
}

fn doc_of(b: &Value) -> String {
    doc(b)
}

/// Builds the IR of a schema document: one error naming every definition outside the
/// supported subset (see [`build_all`] for each problem on its own).
pub fn build(schema: &Value) -> Result<Ir, IrError> {
    let (ir, errors) = build_all(schema);
    let Some(first) = errors.first() else { return Ok(ir) };
    let mut message = first.message.clone();
    if errors.len() > 1 {
        message.push_str(&format!(" (and {} more definitions outside the supported subset: {})", errors.len() - 1, errors[1..].iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
    }
    Err(IrError { def: first.def.clone(), pointer: first.pointer.clone(), message })
}

/// The IR of every definition that is inside the supported subset, and one error per
/// definition that is not (or that refers to a name `$defs` lacks). A reference to a
/// definition that failed is not a second error: that definition's own error says it.
pub fn build_all(schema: &Value) -> (Ir, Vec<IrError>) {
    let Some(defs) = schema.get("$defs").and_then(Value::as_object) else {
        let e = IrError { def: String::new(), pointer: "/$defs".into(), message: "the document has no `$defs` object".into() };
        return (Ir { title: String::new(), defs: vec![], annotations: std::collections::BTreeMap::new() }, vec![e]);
    };
    let defs = &lift_inline_unions(defs);
    let title = schema.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut all_annotations = std::collections::BTreeMap::new();
    for (name, v) in defs {
        let mut extra = Vec::new();
        match v.as_object().map(|o| annotations(name, "", o)) {
            Some(Ok(a)) if !a.is_empty() => {
                all_annotations.insert(name.clone(), a);
            }
            Some(Err(e)) => {
                errors.push(e);
                continue;
            }
            _ => {}
        }
        match definition(name, v, defs, &mut extra) {
            Ok(d) => {
                // Inline variant payloads and flattened alternatives go right after their
                // definition (and fail with it).
                out.push(d);
                for x in extra {
                    if defs.contains_key(x.name()) {
                        errors.push(IrError {
                            def: name.clone(),
                            pointer: String::new(),
                            message: format!("the object made for an inline variant payload or a flattened alternative would be named `{}`, which is already a definition", x.name()),
                        });
                    } else {
                        out.push(x);
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    let by_name: std::collections::BTreeMap<&str, &Def> = out.iter().map(|d| (d.name(), d)).collect();
    for d in &out {
        let fields = match d {
            Def::Struct { fields, .. } => fields.as_slice(),
            Def::TaggedStruct { common, .. } => common.as_slice(),
            _ => &[],
        };
        for f in fields {
            if let Some(v) = &f.default
                && let Err(message) = check_default(&f.ty, v, &by_name, 0)
            {
                let pointer = format!("/properties/{}/default", f.wire.replace('~', "~0").replace('/', "~1"));
                errors.push(IrError { def: d.name().to_owned(), pointer, message: format!("the default {v} is not a valid value: {message}") });
            }
        }
    }
    for d in &out {
        if let Def::TaggedUnion { tag, tagless: Some(t), .. } | Def::TaggedStruct { tag, tagless: Some(t), .. } = d {
            match by_name.get(t.payload.as_str()) {
                Some(Def::Struct { fields, .. }) if fields.iter().any(|f| f.wire == *tag) => errors.push(IrError {
                    def: d.name().to_owned(),
                    pointer: String::new(),
                    message: format!("the variant without a tag, `{}`, has a member `{tag}`, the tag's name, so an object without the tag could not be told from it", t.title),
                }),
                Some(Def::Struct { .. }) | None => {}
                Some(_) => errors.push(IrError {
                    def: d.name().to_owned(),
                    pointer: String::new(),
                    message: format!("the payload of the variant without a tag, `{}`, is `{}`, which is not an object with properties", t.title, t.payload),
                }),
            }
        }
        let variants = match d {
            Def::TaggedUnion { variants, .. } | Def::TaggedStruct { variants, .. } => variants.as_slice(),
            _ => &[],
        };
        // A tagged object whose variants are objects (or tag-only): it can sit in a
        // union's variant, read from the same object.
        let plain_tagged_object = |name: &str| match by_name.get(name) {
            Some(Def::TaggedStruct { variants, .. }) => variants.iter().filter_map(|iv| iv.payload.as_deref()).all(|ip| matches!(by_name.get(ip), None | Some(Def::Struct { .. }))),
            _ => false,
        };
        for v in variants {
            let Some(p) = &v.payload else { continue };
            let problem = match (d, by_name.get(p.as_str())) {
                (_, None | Some(Def::Struct { .. })) => None,
                // A tagged union as the payload of a tagged union's variant (upstream v2
                // `SessionUpdate`'s `state_update`): its tag is read from the same object;
                // its own variants may carry a tagged object (`StateUpdate`'s `idle`).
                (Def::TaggedUnion { tag: outer, .. }, Some(Def::TaggedUnion { tag: inner, variants: inner_variants, tagless, .. })) => {
                    let inner_tags = |ip: &str| match by_name.get(ip) {
                        Some(Def::TaggedStruct { tag, .. }) => Some(tag.clone()),
                        _ => None,
                    };
                    if inner == outer {
                        Some(format!("the payload of variant `{}` is the union `{p}`, tagged by the same member `{inner}`", v.wire))
                    } else if tagless.is_some() {
                        Some(format!("the payload of variant `{}` is the union `{p}`, which has a variant without a tag; that is not supported in a variant yet", v.wire))
                    } else if inner_variants.iter().filter_map(|iv| iv.payload.as_deref()).any(|ip| !matches!(by_name.get(ip), None | Some(Def::Struct { .. })) && !plain_tagged_object(ip)) {
                        Some(format!(
                            "the payload of variant `{}` is the union `{p}`, whose own variants are unions; a tagged object whose variants are objects is supported there, nothing deeper",
                            v.wire
                        ))
                    } else if inner_variants.iter().filter_map(|iv| iv.payload.as_deref()).filter_map(inner_tags).any(|t| t == *outer || t == *inner) {
                        Some(format!("the payload of variant `{}` is the union `{p}`, one of whose variants carries a tagged object tagged by `{outer}` or `{inner}` again", v.wire))
                    } else {
                        None
                    }
                }
                // A tagged object as the payload of a tagged union's variant (upstream v2
                // `StateUpdate`'s `idle`, an `IdleStateUpdate`): its tag, variant and common
                // members are read from the same object.
                (Def::TaggedUnion { tag: outer, .. }, Some(Def::TaggedStruct { tag: inner, .. })) => {
                    if inner == outer {
                        Some(format!("the payload of variant `{}` is the tagged object `{p}`, tagged by the same member `{inner}`", v.wire))
                    } else if !plain_tagged_object(p) {
                        Some(format!("the payload of variant `{}` is the tagged object `{p}`, whose variants carry unions; that is not supported in a variant yet", v.wire))
                    } else {
                        None
                    }
                }
                (Def::TaggedUnion { .. }, Some(_)) => Some(format!("the payload of variant `{}` is `{p}`, which is neither an object with properties, a tagged union nor a tagged object", v.wire)),
                // A shape union as a tagged object's payload (upstream `CreateElicitationRequest`'s
                // `form`, an `ElicitationFormMode`): its alternative is picked in the same object.
                (Def::TaggedStruct { .. }, Some(Def::ShapeUnion { fallback: None, .. })) => None,
                (_, Some(_)) => {
                    Some(format!("the payload of variant `{}` is `{p}`, which is not an object with properties (a union as the payload of a tagged object's variant is not supported yet)", v.wire))
                }
            };
            if let Some(message) = problem {
                errors.push(IrError { def: d.name().to_owned(), pointer: String::new(), message });
            }
        }
    }
    for d in &out {
        let mut refs = Vec::new();
        collect_refs(d, &mut refs);
        if let Some((pointer, r)) = refs.into_iter().find(|(_, r)| !defs.contains_key(r.as_str()) && !by_name.contains_key(r.as_str())) {
            errors.push(IrError { def: d.name().to_owned(), pointer, message: format!("reference to `{r}`, which is not in `$defs`") });
        }
    }
    (Ir { title, defs: out, annotations: all_annotations }, errors)
}

/// Inline unions of JSON kinds in members (upstream's error response `id`: a number, a
/// string or `null`, spelled out rather than a `$ref`) become definitions of their own,
/// named after the definition and the member (`AgentResponseId`), so the rest of the IR
/// meets a `$ref` there; the member keeps its other keywords. Looks in a definition's
/// `properties` and in those of its inline branches. A name already taken leaves the
/// member as it is (and its error stands).
fn lift_inline_unions(defs: &Map<String, Value>) -> Map<String, Value> {
    let kind_branch = |b: &Value| is_unconstrained(b) || (b.get("type").and_then(Value::as_str).is_some() && b.get("properties").is_none() && b.get("const").is_none() && as_ref(b).is_none());
    let liftable = |p: &Value| -> Option<&'static str> {
        let key = if p.get("anyOf").is_some() {
            "anyOf"
        } else if p.get("oneOf").is_some() {
            "oneOf"
        } else {
            return None;
        };
        let branches = p.get(key)?.as_array()?;
        (branches.len() >= 2 && branches.iter().all(kind_branch) && branches.iter().any(|b| !is_unconstrained(b))).then_some(key)
    };
    let mut out = defs.clone();
    let mut lifted: Vec<(String, Value)> = Vec::new();
    for (name, def) in defs {
        let mut def = def.clone();
        let mut objects: Vec<&mut Map<String, Value>> = Vec::new();
        let Some(o) = def.as_object_mut() else { continue };
        let mut branch_objects: Vec<&mut Map<String, Value>> = Vec::new();
        let (own, branches): (Option<&mut Value>, Option<&mut Value>) = {
            let mut own = None;
            let mut br = None;
            for (k, v) in o.iter_mut() {
                match k.as_str() {
                    "properties" => own = Some(v),
                    "anyOf" | "oneOf" => br = Some(v),
                    _ => {}
                }
            }
            (own, br)
        };
        if let Some(Value::Object(p)) = own {
            objects.push(p);
        }
        if let Some(Value::Array(bs)) = branches {
            for b in bs.iter_mut() {
                if let Some(Value::Object(p)) = b.get_mut("properties") {
                    branch_objects.push(p);
                }
            }
        }
        let mut changed = false;
        for props in objects.into_iter().chain(branch_objects) {
            for (member, schema) in props.iter_mut() {
                let Some(key) = liftable(schema) else { continue };
                let lifted_name = format!("{name}{}", member.to_upper_camel_case());
                if defs.contains_key(&lifted_name) || lifted.iter().any(|(n, _)| *n == lifted_name) {
                    continue;
                }
                let Some(m) = schema.as_object_mut() else { continue };
                let mut union = Map::new();
                if let Some(d) = m.get("description") {
                    union.insert("description".into(), d.clone());
                }
                union.insert(key.into(), m.shift_remove(key).unwrap_or(Value::Null));
                m.insert("$ref".into(), Value::from(format!("#/$defs/{lifted_name}")));
                lifted.push((lifted_name, Value::Object(union)));
                changed = true;
            }
        }
        if changed {
            out.insert(name.clone(), def);
        }
    }
    out.extend(lifted);
    out
}

/// Whether `v` is a value of `t`, checked from the schema alone (so a default can never
/// fail to decode in a binding). Defaults of union types and of checked paths and bytes
/// are not supported yet.
fn check_default(t: &Ty, v: &Value, defs: &std::collections::BTreeMap<&str, &Def>, depth: usize) -> Result<(), String> {
    let kind = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("expected {what}")) };
    if depth > 32 {
        return Err("it nests too deeply".into());
    }
    match t {
        Ty::Json => Ok(()),
        Ty::Bool => kind(v.is_boolean(), "a boolean"),
        Ty::String => kind(v.is_string(), "a string"),
        Ty::Integer { min, max, .. } => match v.as_f64() {
            Some(n) if n.fract() == 0.0 && n >= *min && n <= *max => Ok(()),
            _ => Err(format!("expected a whole number from {min} to {max}")),
        },
        Ty::Number { min, max } => match v.as_f64() {
            Some(n) if min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m) => Ok(()),
            _ => Err("expected a number in range".into()),
        },
        Ty::Bytes => Err("a default for bytes is not supported yet".into()),
        Ty::Object => kind(v.is_object(), "an object"),
        Ty::Array { items } => match v.as_array() {
            Some(a) => a.iter().try_for_each(|x| check_default(items, x, defs, depth + 1)),
            None => Err("expected an array".into()),
        },
        Ty::Map { values } => match v.as_object() {
            Some(o) => o.values().try_for_each(|x| check_default(values, x, defs, depth + 1)),
            None => Err("expected an object".into()),
        },
        Ty::Ref { name } => match defs.get(name.as_str()) {
            None => Err(format!("`{name}` cannot be generated")),
            Some(Def::Struct { fields, .. }) => {
                let Some(o) = v.as_object() else { return Err(format!("expected a `{name}` object")) };
                for f in fields {
                    match o.get(&f.wire) {
                        None if f.presence == Presence::Req => return Err(format!("`{name}` needs `{}`", f.wire)),
                        None => {}
                        Some(Value::Null) if matches!(f.presence, Presence::Opt | Presence::Patch) || matches!(f.ty, Ty::Json) => {}
                        Some(x) => check_default(&f.ty, x, defs, depth + 1).map_err(|e| format!("`{}`: {e}", f.wire))?,
                    }
                }
                Ok(())
            }
            Some(Def::StringAlias { absolute_path: false, .. }) => kind(v.is_string(), "a string"),
            Some(Def::StringEnum { values, other, .. }) => match v.as_str() {
                Some(s) if other.is_some() || values.iter().any(|e| e.wire == s) => Ok(()),
                _ => Err(format!("expected a `{name}` value")),
            },
            Some(Def::Alias { ty, .. }) => check_default(ty, v, defs, depth + 1),
            Some(_) => Err(format!("a default of `{name}` is not supported yet")),
        },
    }
}

fn ty_refs(t: &Ty, pointer: String, out: &mut Vec<(String, String)>) {
    match t {
        Ty::Ref { name } => out.push((pointer, name.clone())),
        Ty::Array { items } => ty_refs(items, format!("{pointer}/items"), out),
        Ty::Map { values } => ty_refs(values, format!("{pointer}/additionalProperties"), out),
        _ => {}
    }
}

fn field_refs(fields: &[Field], out: &mut Vec<(String, String)>) {
    for f in fields {
        ty_refs(&f.ty, format!("/properties/{}", f.wire.replace('~', "~0").replace('/', "~1")), out);
    }
}

/// The names a definition refers to.
pub fn refs_of(d: &Def) -> Vec<String> {
    let mut out = Vec::new();
    collect_refs(d, &mut out);
    out.into_iter().map(|(_, r)| r).collect()
}

/// Every `$ref` of a definition, with the pointer of the branch or property it is in.
fn collect_refs(d: &Def, out: &mut Vec<(String, String)>) {
    let variant_refs = |variants: &[Variant], out: &mut Vec<(String, String)>| {
        for (i, v) in variants.iter().enumerate() {
            if let Some(p) = &v.payload {
                out.push((format!("/anyOf/{i}/allOf/0/$ref"), p.clone()));
            }
        }
    };
    match d {
        Def::Struct { fields, .. } => field_refs(fields, out),
        Def::TaggedUnion { variants, tagless, .. } => {
            variant_refs(variants, out);
            if let Some(t) = tagless {
                out.push(("/anyOf".to_owned(), t.payload.clone()));
            }
        }
        Def::TaggedStruct { variants, common, tagless, .. } => {
            variant_refs(variants, out);
            field_refs(common, out);
            if let Some(t) = tagless {
                out.push(("/anyOf".to_owned(), t.payload.clone()));
            }
        }
        Def::ShapeUnion { alternatives, .. } => {
            out.extend(alternatives.iter().enumerate().map(|(i, a)| (format!("/anyOf/{i}/allOf/0/$ref"), a.name.clone())));
        }
        Def::KindUnion { branches, .. } => {
            for (i, b) in branches.iter().enumerate() {
                ty_refs(&b.ty, format!("/anyOf/{i}"), out);
            }
        }
        Def::Envelope { fields, methods, .. } => {
            field_refs(fields, out);
            out.extend(methods.iter().enumerate().map(|(i, m)| (format!("/properties/params/anyOf/0/anyOf/{i}/allOf/0/$ref"), m.payload.clone())));
        }
        Def::Results { methods, response, .. } => {
            out.extend(methods.iter().map(|m| ("/anyOf/0/properties/result/anyOf".to_owned(), m.payload.clone())));
            out.push((String::new(), response.clone()));
        }
        Def::StringAlias { .. } | Def::StringEnum { .. } | Def::Alias { .. } | Def::IntEnum { .. } => {}
    }
}

// --- JSON-RPC envelopes: requests, notifications and responses ---

/// An object whose `params` is a union of method types (`anyOf: [{anyOf: [...]},
/// {type: null}]`) beside a `method` member: a request or notification. A `params`
/// that is one `$ref` is an ordinary member.
fn is_envelope(o: &Map<String, Value>) -> bool {
    let Some(props) = o.get("properties").and_then(Value::as_object) else { return false };
    let nested = props.get("params").and_then(|p| p.get("anyOf")).and_then(Value::as_array).and_then(|a| a.first()).is_some_and(|b| b.get("anyOf").is_some());
    props.contains_key("method") && nested
}

/// Whether a definition is any JSON (no `type` and nothing that constrains it).
fn is_any_json(v: &Value) -> bool {
    v.as_object().is_some_and(|o| o.keys().all(|k| ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-")))
}

/// The branches of a params (or result) union: each `{title, allOf: [{$ref}]}` to a
/// definition that names its method with `x-method`, except at most one without (any
/// JSON: the fallback for the methods not in the table). `what` names the member.
fn methods(def: &str, ptr: &str, branches: Option<&Value>, all: &Map<String, Value>, what: &str) -> R<(Vec<Method>, Option<Other>)> {
    let Some(branches) = branches.and_then(Value::as_array) else {
        return err(def, ptr, format!("`{what}` must be an `anyOf` of one `$ref` per method"));
    };
    let mut methods: Vec<Method> = Vec::new();
    let mut fallback: Option<(String, Other)> = None;
    for (i, b) in branches.iter().enumerate() {
        let bp = format!("{ptr}/{i}");
        let Some(target) = as_ref(b) else {
            return err(def, &bp, format!("each branch of `{what}` must be one `$ref` (`{{\"allOf\": [{{\"$ref\": ...}}]}}`) to the definition of one method's `{what}`"));
        };
        check_keys(def, &bp, b.as_object().ok_or_else(|| IrError { def: def.into(), pointer: bp.clone(), message: "a branch must be an object".into() })?, &["allOf", "$ref"])?;
        let Some(t) = all.get(target) else { return err(def, &bp, format!("reference to `{target}`, which is not in `$defs`")) };
        let title = b.get("title").and_then(Value::as_str).unwrap_or(target).to_owned();
        let doc = doc(b);
        match t.get("x-method") {
            Some(Value::String(m)) => {
                if let Some(prev) = methods.iter().find(|x| x.method == *m) {
                    return err(def, &bp, format!("`{target}` and `{}` both have `x-method` `{m}`, so `{what}` of `{m}` would have two types; give each definition its own method", prev.payload));
                }
                methods.push(Method { method: m.clone(), title, doc, payload: target.to_owned() });
            }
            Some(_) => return err(def, &bp, format!("`x-method` of `{target}` must be a string: the method whose `{what}` it is")),
            None => {
                if let Some((prev, _)) = &fallback {
                    return err(
                        def,
                        &bp,
                        format!("`{target}` and `{prev}` have no `x-method`: only one branch may be the fallback for the methods not in the table; give the others their `x-method`"),
                    );
                }
                if !is_any_json(t) {
                    return err(
                        def,
                        &bp,
                        format!(
                            "`{target}` has no `x-method`, so it is the fallback for other methods, whose `{what}` is kept as raw JSON: it must be any JSON (a definition without `type`); give it an `x-method` if it is one method's"
                        ),
                    );
                }
                fallback = Some((target.to_owned(), Other { title, doc }));
            }
        }
    }
    if methods.is_empty() {
        return err(def, ptr, format!("`{what}` needs at least one branch whose definition has `x-method`"));
    }
    Ok((methods, fallback.map(|(_, o)| o)))
}

/// A request or notification (see [`Def::Envelope`]).
fn envelope(name: &str, o: &Map<String, Value>, doc: String, all: &Map<String, Value>) -> R<Def> {
    check_keys(name, "", o, &["type", "properties", "required"])?;
    let props = o.get("properties").and_then(Value::as_object).ok_or_else(|| IrError { def: name.into(), pointer: "/properties".into(), message: "`properties` must be an object".into() })?;
    let required: BTreeSet<&str> = o.get("required").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let method = &props["method"];
    let mp = "/properties/method";
    let Some(mo) = method.as_object().filter(|m| m.get("type") == Some(&Value::from("string"))) else {
        return err(name, mp, "the `method` of a request or notification must be a string (`\"type\": \"string\"`): it selects the type of `params`");
    };
    check_keys(name, mp, mo, &["type"])?;
    if !required.contains("method") {
        return err(name, "/required", "the `method` of a request or notification must be required: it selects the type of `params`");
    }
    if required.contains("params") {
        return err(name, "/required", "the `params` of a request or notification must be optional (absent and `null` are the same)");
    }
    let pp = "/properties/params";
    let params = props["params"].as_object().ok_or_else(|| IrError { def: name.into(), pointer: pp.into(), message: "a property schema must be an object".into() })?;
    check_keys(name, pp, params, &["anyOf"])?;
    let shape = "`params` of a request or notification must be `anyOf: [{anyOf: [one {allOf: [{$ref}]} per method]}, {type: null}]`";
    let inner = match params.get("anyOf").and_then(Value::as_array).map(Vec::as_slice) {
        Some([inner, null]) if null.as_object().is_some_and(|n| n.len() == 1 && n.get("type") == Some(&Value::from("null"))) => inner,
        _ => return err(name, &format!("{pp}/anyOf"), shape),
    };
    let ip = format!("{pp}/anyOf/0");
    check_keys(name, &ip, inner.as_object().ok_or_else(|| IrError { def: name.into(), pointer: ip.clone(), message: shape.into() })?, &["anyOf"])?;
    let (methods, fallback) = self::methods(name, &format!("{ip}/anyOf"), inner.get("anyOf"), all, "params")?;
    let mut rest = o.clone();
    if let Some(Value::Object(p)) = rest.get_mut("properties") {
        p.shift_remove("method");
        p.shift_remove("params");
    }
    if let Some(Value::Array(r)) = rest.get_mut("required") {
        r.retain(|x| x.as_str() != Some("method"));
    }
    let fields = fields(name, "", &rest)?;
    Ok(Def::Envelope { name: name.into(), doc, method_doc: self::doc(method), params_doc: self::doc(&props["params"]), fields, methods, fallback })
}

/// A response: `anyOf` of an inline object with `result` and one with `error`. It
/// becomes a [`Def::ShapeUnion`] of two synthesized objects (`Owner` + each branch's
/// title; `result` is raw JSON) and a [`Def::Results`] method table. `None` when the
/// branches are not inline objects with `result` or `error` (another union construct
/// may fit them).
fn response(name: &str, ptr: &str, branches: &[Value], doc: &str, all: &Map<String, Value>, extra: &mut Vec<Def>) -> R<Option<Def>> {
    let inline = |b: &Value| b.get("properties").is_some() && as_ref(b).is_none() && b.get("allOf").is_none() && tag_branch(b).is_none();
    let has = |b: &Value, k: &str| b.get("properties").and_then(Value::as_object).is_some_and(|p| p.contains_key(k));
    if branches.is_empty() || !branches.iter().all(inline) || !branches.iter().any(|b| has(b, "result") || has(b, "error")) {
        return Ok(None);
    }
    // A JSON-RPC response answers a request: its branches have the request's `id`. Without
    // one (upstream's unstable `MessageMcpResponse`: `result` or `error` and `_meta`) the
    // branches make an ordinary union of objects.
    if !branches.iter().any(|b| has(b, "id")) {
        return Ok(None);
    }
    let shape = "a response must be `anyOf` of two objects: one that requires `result` (and has no `error`) and one that requires `error` (and has no `result`)";
    let requires = |b: &Value, k: &str| b.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|x| x.as_str() == Some(k)));
    let [a, b] = branches else { return err(name, ptr, shape) };
    let (ri, ei) = match (requires(a, "result") && !has(a, "error"), requires(b, "error") && !has(b, "result"), requires(b, "result") && !has(b, "error"), requires(a, "error") && !has(a, "result")) {
        (true, true, _, _) => (0, 1),
        (_, _, true, true) => (1, 0),
        _ => return err(name, ptr, shape),
    };
    let mut out_names = Vec::new();
    for (i, default_title) in [(ri, "Result"), (ei, "Error")] {
        let bp = format!("{ptr}/{i}");
        let bo = branches[i].as_object().ok_or_else(|| IrError { def: name.into(), pointer: bp.clone(), message: shape.into() })?;
        check_keys(name, &bp, bo, &["type", "properties", "required"])?;
        if bo.get("type") != Some(&Value::from("object")) {
            return err(name, &format!("{bp}/type"), "each branch of a response must be `\"type\": \"object\"`");
        }
        let title = bo.get("title").and_then(Value::as_str).unwrap_or(default_title).to_upper_camel_case();
        out_names.push((i, format!("{name}{title}"), doc_of(&branches[i])));
    }
    let results_name = match name.strip_suffix("Response") {
        Some(stem) if !stem.is_empty() => format!("{stem}Result"),
        _ => format!("{name}Result"),
    };
    let mut taken = BTreeSet::new();
    for n in out_names.iter().map(|(_, n, _)| n).chain([&results_name]) {
        if all.contains_key(n) || n == name || !taken.insert(n.clone()) {
            return err(name, ptr, format!("the response's synthesized definition would be named `{n}`, which is already taken (give the branches other titles)"));
        }
    }
    // The result branch: `result` is kept as raw JSON; its type comes from the method.
    let rp = format!("{ptr}/{ri}/properties/result");
    let result = &branches[ri]["properties"]["result"];
    let ro = result.as_object().ok_or_else(|| IrError { def: name.into(), pointer: rp.clone(), message: "a property schema must be an object".into() })?;
    check_keys(name, &rp, ro, &["anyOf"])?;
    let (methods, fallback) = self::methods(name, &format!("{rp}/anyOf"), ro.get("anyOf"), all, "result")?;
    let mut rb = branches[ri].as_object().cloned().unwrap_or_default();
    if let Some(Value::Object(p)) = rb.get_mut("properties") {
        let mut raw = Map::new();
        if let Some(d) = ro.get("description") {
            raw.insert("description".into(), d.clone());
        }
        p.insert("result".into(), Value::Object(raw));
    }
    let (ref_name, err_name) = (out_names[0].1.clone(), out_names[1].1.clone());
    extra.push(Def::Struct { name: ref_name.clone(), doc: out_names[0].2.clone(), fields: fields(name, &format!("{ptr}/{ri}"), &rb)?, forbidden: vec![] });
    let eb = branches[ei].as_object().cloned().unwrap_or_default();
    extra.push(Def::Struct { name: err_name.clone(), doc: out_names[1].2.clone(), fields: fields(name, &format!("{ptr}/{ei}"), &eb)?, forbidden: vec![] });
    extra.push(Def::Results {
        name: results_name,
        doc: format!("What `result` holds in `{name}`, by the method of the request it answers: decode it with that method."),
        response: name.to_owned(),
        methods,
        fallback,
    });
    let mut alternatives = vec![Alternative { name: ref_name, key: "result".into() }, Alternative { name: err_name, key: "error".into() }];
    if ri > ei {
        alternatives.reverse();
    }
    Ok(Some(Def::ShapeUnion { name: name.into(), doc: doc.to_owned(), alternatives, fallback: None }))
}
