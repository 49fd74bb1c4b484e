// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/path_type.rs byte for byte as src/wire/path_type.rs of every generated crate; edit it here, never a copy.
//! The `AbsolutePath` definition: a string checked on parse.

use super::{Cx, Decode, Encode, Error, ErrorKind, SerializeWire, Writer, is_absolute_path, why_not_absolute};

/// A filesystem path that is absolute, in POSIX form (`/workspace`) or Windows form
/// (`C:\work`, `C:/work`, `\\server\share\work`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsolutePath(String);

impl AbsolutePath {
    /// Checks `p`.
    ///
    /// # Errors
    /// `relative_path` (at the document root) when `p` is not absolute.
    pub fn new(p: impl Into<String>) -> Result<Self, Error> {
        let p = p.into();
        if is_absolute_path(&p) { Ok(Self(p)) } else { Err(Error::new(ErrorKind::RelativePath, "", why_not_absolute(&p))) }
    }

    /// The path text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for AbsolutePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Decode for AbsolutePath {
    const EXPECTED: &'static str = "an absolute path string";
    fn from_str(s: &str, cx: &mut Cx) -> Option<Self> {
        if is_absolute_path(s) { Some(Self(s.to_owned())) } else { cx.fail_with(ErrorKind::RelativePath, || why_not_absolute(s)) }
    }
}

impl Encode for AbsolutePath {
    fn encode(&self, w: &mut Writer) {
        w.string(&self.0);
    }
}

impl SerializeWire for AbsolutePath {
    fn ser<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

crate::__wire_serde!(AbsolutePath);
