//! `schemars::JsonSchema` for the runtime's own types, with the `schemars` feature: the
//! schema crate derives its definitions' schemas through them. This file belongs to the
//! crate only; the generated crates' vendored `wire` module leaves it out, as it does
//! `lib.rs`.

use crate::wire::{AbsolutePath, Bytes, Json, Members, NoPayload, Patch};
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};
use std::borrow::Cow;

impl schemars::JsonSchema for Bytes {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Bytes".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "string", "format": "byte", "contentEncoding": "base64"})
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Patch<T> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("Patch_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut s = generator.subschema_for::<Option<T>>();
        s.insert("x-patch".to_owned(), true.into());
        s
    }
    fn _schemars_private_is_option() -> bool {
        true
    }
}

impl schemars::JsonSchema for AbsolutePath {
    fn schema_name() -> Cow<'static, str> {
        "AbsolutePath".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut s = schemars::json_schema!({
            "description": "A filesystem path that is absolute: POSIX (`/...`) or Windows (`C:\\...`, `C:/...`, `\\\\server\\share...`).",
            "type": "string"
        });
        // The rule travels with the schema, so every consumer of it knows the check.
        s.insert("x-absolute-path".to_owned(), true.into());
        s
    }
}

impl schemars::JsonSchema for NoPayload {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "NoPayload".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

/// Free-form members: the schema of a JSON object with any members.
impl schemars::JsonSchema for Members {
    fn inline_schema() -> bool {
        <Map<String, Value> as schemars::JsonSchema>::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        <Map<String, Value> as schemars::JsonSchema>::schema_name()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        <Map<String, Value> as schemars::JsonSchema>::json_schema(generator)
    }
}

/// Any JSON value.
impl schemars::JsonSchema for Json {
    fn inline_schema() -> bool {
        <Value as schemars::JsonSchema>::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        <Value as schemars::JsonSchema>::schema_name()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        <Value as schemars::JsonSchema>::json_schema(generator)
    }
}
