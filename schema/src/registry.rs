//! Decoding by definition name, for conformance runners and tools that read the type
//! from data.
//!
//! The registry is filled where the definitions are declared: every definition macro
//! (`wire_struct!`, `string_newtype!`, `string_enum!`, `tagged_union!`, `shape_union!`)
//! registers its type, and a definition whose `JsonSchema` is written by hand registers
//! itself with [`register_definition!`](crate::register_definition). The version is read
//! from the module that declares it (`crate::v2::...` or `crate::v1::...`), so adding a
//! definition is a change to the one file that declares it: [`decode`], [`names`] and the
//! emitted schema ([`crate::emit::schema`]) all find it from there.

use std::sync::OnceLock;

use crate::emit::Version;
use crate::wire::{self, Error, Warning};

/// The canonical text of a parsed value and the warnings collected while parsing.
pub type Decoded = (String, Vec<Warning>);

/// One registered definition: where it is declared, its name, and what the registry and
/// the schema emitter do with it. Built by the definition macros; see
/// [`register_definition!`](crate::register_definition).
#[doc(hidden)]
pub struct Entry {
    module: &'static str,
    name: &'static str,
    decode: fn(&str) -> Result<Decoded, Error>,
    schema: fn(&mut schemars::SchemaGenerator),
}

impl Entry {
    /// An entry for the definition `name` declared in `module` (its `module_path!()`).
    #[doc(hidden)]
    #[must_use]
    pub const fn new(module: &'static str, name: &'static str, decode: fn(&str) -> Result<Decoded, Error>, schema: fn(&mut schemars::SchemaGenerator)) -> Self {
        Self { module, name, decode, schema }
    }

    /// The definition's name, as in the schema's `$defs`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The module that declares it.
    #[must_use]
    pub const fn module(&self) -> &'static str {
        self.module
    }

    /// Adds the definition (and what it references) to `g`'s definitions.
    pub fn add_to(&self, g: &mut schemars::SchemaGenerator) {
        (self.schema)(g);
    }
}

inventory::collect!(Entry);

/// Re-exported for the definition macros, which expand in the declaring module.
#[doc(hidden)]
pub use inventory as __inventory;

/// Parses `text` as `T` and writes it back canonically: the decoder of a registered
/// definition.
#[doc(hidden)]
pub fn run<T: wire::Decode + wire::Encode>(text: &str) -> Result<Decoded, Error> {
    let p = wire::from_str::<T>(text)?;
    Ok((wire::to_string(&p.value), p.warnings))
}

/// Adds `T`'s definition to the generator: the schema hook of a registered definition.
#[doc(hidden)]
pub fn add_schema<T: schemars::JsonSchema>(g: &mut schemars::SchemaGenerator) {
    g.subschema_for::<T>();
}

/// Which version a module of this crate declares definitions for: `None` for a module of
/// another crate (the definition macros are exported, but only this crate's definitions
/// make up its versions).
///
/// # Panics
/// For a module of this crate outside `v1` and `v2`: a definition there would belong to no
/// version, silently.
fn version_of(entry: &Entry) -> Option<Version> {
    let mut segments = entry.module.split("::");
    if segments.next() != Some(env!("CARGO_CRATE_NAME")) {
        return None;
    }
    match segments.next() {
        Some("v2") => Some(Version::V2),
        Some("v1") => Some(Version::V1),
        _ => panic!(
            "the definition `{}` is declared in `{}`, outside `{crate}::v1` and `{crate}::v2`: \
             declare it in the module of its version (for a type declared elsewhere, \
             call `register_definition!` in that module)",
            entry.name,
            entry.module,
            crate = env!("CARGO_CRATE_NAME"),
        ),
    }
}

struct Table {
    names: Vec<&'static str>,
    entries: Vec<&'static Entry>,
}

/// Builds the sorted table of one version from the registered entries.
///
/// # Panics
/// When two definitions of the version have the same name (the schema could hold only
/// one of them), or one is declared outside the version modules.
fn build(version: Version) -> Table {
    let mut entries: Vec<&'static Entry> = inventory::iter::<Entry>.into_iter().filter(|e| version_of(e) == Some(version)).collect();
    entries.sort_by(|a, b| a.name.cmp(b.name).then(a.module.cmp(b.module)));
    if let Some(w) = entries.windows(2).find(|w| w[0].name == w[1].name) {
        panic!("two {} definitions are named `{}`: one in `{}`, one in `{}`", version.as_str(), w[0].name, w[0].module, w[1].module);
    }
    Table { names: entries.iter().map(|e| e.name).collect(), entries }
}

fn table(version: Version) -> &'static Table {
    static V2: OnceLock<Table> = OnceLock::new();
    static V1: OnceLock<Table> = OnceLock::new();
    match version {
        Version::V2 => V2.get_or_init(|| build(Version::V2)),
        Version::V1 => V1.get_or_init(|| build(Version::V1)),
    }
}

/// Every definition name of `version`, sorted.
#[must_use]
pub fn names(version: Version) -> &'static [&'static str] {
    &table(version).names
}

/// Every definition of `version`, sorted by name.
#[must_use]
pub fn entries(version: Version) -> &'static [&'static Entry] {
    &table(version).entries
}

/// Parses `text` as the definition `name` of `version` and writes it back canonically.
/// `None` when the name is not a definition of that version.
#[must_use]
pub fn decode(version: Version, name: &str, text: &str) -> Option<Result<Decoded, Error>> {
    let t = table(version);
    let i = t.names.binary_search(&name).ok()?;
    Some((t.entries[i].decode)(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(module: &'static str) -> Entry {
        Entry::new(module, "Probe", run::<crate::v2::SessionId>, add_schema::<crate::v2::SessionId>)
    }

    #[test]
    fn the_version_comes_from_the_declaring_module() {
        assert_eq!(version_of(&entry("acp_terminal_schema::v2::diff")), Some(Version::V2));
        assert_eq!(version_of(&entry("acp_terminal_schema::v2")), Some(Version::V2));
        assert_eq!(version_of(&entry("acp_terminal_schema::v1")), Some(Version::V1));
        // Another crate's use of the exported macros adds nothing to this crate's versions.
        assert_eq!(version_of(&entry("other_crate::v2")), None);
        assert_eq!(version_of(&entry("acp_terminal_schema_extra::v2")), None);
    }

    #[test]
    #[should_panic(expected = "the definition `Probe` is declared in `acp_terminal_schema::wire::path`, outside")]
    fn a_definition_of_this_crate_outside_the_version_modules_is_refused_by_name() {
        let _ = version_of(&entry("acp_terminal_schema::wire::path"));
    }

    #[test]
    fn names_are_sorted_unique_and_decode_by_name() {
        for version in [Version::V2, Version::V1] {
            let names = names(version);
            assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
            assert_eq!(entries(version).iter().map(|e| e.name()).collect::<Vec<_>>(), names);
            for name in names {
                assert!(decode(version, name, "").is_some(), "{} {name}", version.as_str());
            }
            assert!(decode(version, "NoSuchDefinition", "{}").is_none());
        }
        assert!(names(Version::V2).contains(&"AbsolutePath"), "registered beside its re-export");
        assert!(names(Version::V2).contains(&"DiffChange"), "registered beside its hand-written schema");
        assert!(!names(Version::V1).contains(&"AbsolutePath"));
        let (text, _) = decode(Version::V1, "Role", r#""user""#).expect("v1 Role").expect("valid");
        assert_eq!(text, r#""user""#);
    }
}
