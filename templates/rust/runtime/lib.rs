//! `acp-terminal-wire`: the wire runtime of acp-terminal as a crate of its own, for the
//! source-of-truth crate `acp-terminal-schema`. Every generated crate vendors the same
//! files as its module `wire`, so paths are the same in both: `acp_terminal_wire::wire`
//! here, `acp_terminal::wire` there, and `$crate::wire` inside the macros.
#![deny(missing_docs)]

#[path = "mod.rs"]
pub mod wire;

#[cfg(feature = "schemars")]
mod schemars_impl;
