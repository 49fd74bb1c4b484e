//! Errors and warnings: a kind, an RFC 6901 JSON pointer and a sentence a user can act on.

use std::fmt;

/// What went wrong. The names are the conformance vectors' `error.kind` strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The text is not JSON (or a `\u` escape is a lone surrogate).
    InvalidJson,
    /// A value has the wrong JSON type (or a whole number was expected).
    WrongType,
    /// A required member is missing.
    MissingField,
    /// A bytes member is not strict canonical base64.
    InvalidBase64,
    /// A path member is not absolute.
    RelativePath,
    /// A closed union or enum got a tag or value it does not know.
    UnknownVariant,
    /// A number or array length is outside its allowed range.
    OutOfRange,
    /// A string does not match its `pattern`.
    PatternMismatch,
    /// An object has a member its schema forbids there (`propertyNames`).
    ForbiddenMember,
    /// An object repeats a member name.
    DuplicateKey,
    /// A value cannot be represented in the other protocol version.
    NotRepresentable,
    /// A `session/update` notification of another session than the store's.
    SessionMismatch,
}

impl ErrorKind {
    /// The kind as written in conformance vectors (`wrong_type` ...).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidJson => "invalid_json",
            Self::WrongType => "wrong_type",
            Self::MissingField => "missing_field",
            Self::InvalidBase64 => "invalid_base64",
            Self::RelativePath => "relative_path",
            Self::UnknownVariant => "unknown_variant",
            Self::OutOfRange => "out_of_range",
            Self::PatternMismatch => "pattern_mismatch",
            Self::ForbiddenMember => "forbidden_member",
            Self::DuplicateKey => "duplicate_key",
            Self::NotRepresentable => "not_representable",
            Self::SessionMismatch => "session_mismatch",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
