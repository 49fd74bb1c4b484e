//! Emits the JSON Schema documents (draft 2020-12) from the Rust types.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

/// Which protocol version's document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// ACP v2 (the display-only terminal surface).
    V2,
    /// ACP v1 (tool-call content and the Client terminal methods), unchanged.
    V1,
}

impl Version {
    /// `"v1"` or `"v2"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V1 => "v1",
            Self::V2 => "v2",
        }
    }
}

/// `true` when this build's `serde_json` keeps object member order (its
/// `preserve_order` feature), which emitting needs: member order is schema order.
#[must_use]
pub fn keeps_member_order() -> bool {
    let mut m = Map::new();
    m.insert("b".into(), Value::Null);
    m.insert("a".into(), Value::Null);
    m.keys().next().is_some_and(|k| k == "b")
}

/// The schema document for `version`, with `$defs` sorted by name.
///
/// # Panics
/// When this build's `serde_json` does not keep member order (enable its
/// `preserve_order` feature in the emitting crate): the document would silently list
/// members in the wrong order.
#[must_use]
pub fn schema(version: Version) -> Value {
    assert!(keeps_member_order(), "emitting the schema needs serde_json's `preserve_order` feature in this build");
    let mut g = SchemaSettings::draft2020_12().into_generator();
    // Every registered definition of the version is a root: a definition is emitted
    // because it is declared, not because something listed here reaches it.
    for entry in crate::registry::entries(version) {
        entry.add_to(&mut g);
    }
    let title = match version {
        Version::V2 => "ACP v2 display-only terminal output surface",
        Version::V1 => "ACP v1 tool-call content and Client terminal methods",
    };
    let mut defs: Vec<(String, Value)> = g.definitions().clone().into_iter().collect();
    defs.sort_by(|a, b| a.0.cmp(&b.0));
    let defs: Map<String, Value> = defs.into_iter().collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("https://acp-terminal.invalid/schema/{}/schema.json", version.as_str()),
        "title": title,
        "$defs": defs,
    })
}

/// The schema document as committed: pretty JSON with a trailing newline.
#[must_use]
pub fn schema_text(version: Version) -> String {
    let mut s = serde_json::to_string_pretty(&schema(version)).unwrap_or_default();
    s.push('\n');
    s
}
