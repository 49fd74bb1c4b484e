//! typify's types for the emitted schemas (an independent consumer: typify reads the
//! JSON, not our Rust types).

#![allow(clippy::all, missing_docs, dead_code)]

/// v2, as typify sees `schema/json/v2/schema.json`.
pub mod v2 {
    typify_macro::import_types!(schema = "../../schema/json/v2/schema.json");
}

/// v1, as typify sees `schema/json/v1/schema.json`.
pub mod v1 {
    typify_macro::import_types!(schema = "../../schema/json/v1/schema.json");
}
