// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/error.rs byte for byte as src/wire/error.rs of every generated crate; edit it here, never a copy.
//! Errors and warnings: a kind, an RFC 6901 JSON pointer and a sentence a user can act on.

use std::fmt;

pub use super::error_kind::ErrorKind;

/// A parse failure: the first problem found, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What kind of problem.
    pub kind: ErrorKind,
    /// RFC 6901 pointer into the input: the offending value, or where a missing member
    /// should be, or the repeated member.
    pub path: String,
    /// A sentence saying what was expected and what to change.
    pub message: String,
}

impl Error {
    /// Builds an error.
    #[must_use]
    pub fn new(kind: ErrorKind, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { kind, path: path.into(), message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() { "the document root" } else { &self.path };
        write!(f, "{} at {}: {}", self.kind, at, self.message)
    }
}

impl std::error::Error for Error {}

/// A problem that a lenient member absorbed: the member (or array item) was dropped.
/// Same kind and pointer as the error it would have been without leniency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// What kind of problem was absorbed.
    pub kind: ErrorKind,
    /// RFC 6901 pointer to the problem.
    pub path: String,
    /// What was dropped and why.
    pub message: String,
}

impl From<Error> for Warning {
    fn from(e: Error) -> Self {
        Self { kind: e.kind, path: e.path, message: e.message }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {} (dropped): {}", self.kind, self.path, self.message)
    }
}
