//! `acp-terminal-schema`: the source-of-truth Rust types for the ACP v2 display-only
//! terminal output surface, and the v1 definitions it must stay apart from.
//!
//! The wire rules live in the types: patch members are [`wire::Patch`] (omitted,
//! `null` and a value round-trip exactly), base64 members hold decoded
//! [`wire::Bytes`] (strict canonical base64), paths are [`wire::AbsolutePath`], open
//! unions and enums keep what they do not know, unknown members are kept in order,
//! and lenient members report what they drop as [`wire::Warning`]s.
//!
//! ```
//! use acp_terminal_schema::{v2, wire};
//! let text = r#"{"sessionUpdate":"terminal_output_chunk","terminalId":"term_001","data":"cGFzc2VkDQo="}"#;
//! let parsed = wire::from_str::<v2::SessionUpdate>(text).unwrap();
//! let v2::SessionUpdate::TerminalOutputChunk(chunk) = &parsed.value else { panic!() };
//! assert_eq!(&chunk.data[..], b"passed\r\n");
//! assert_eq!(wire::to_string(&parsed.value), text);
//! ```
#![deny(missing_docs)]

/// The examples of the crate's README, run as doctests (`cargo test --doc`).
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The wire runtime: the crate `acp-terminal-wire` (`templates/rust/runtime/`), which
/// every generated Rust crate vendors as its own module `wire`.
pub use acp_terminal_wire::wire;
// The runtime's declaration macros, which the schema's own macros wrap (`$crate::acp_struct!`).
#[doc(hidden)]
pub use acp_terminal_wire::{acp_shape_union, acp_string_enum, acp_string_newtype, acp_struct, acp_tagged_struct, acp_tagged_union, acp_tagless_union};

pub mod emit;
pub mod json_schema;
mod macros;
pub mod registry;
pub mod v1;
pub mod v2;
