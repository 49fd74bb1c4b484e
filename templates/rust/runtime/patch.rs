// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/patch.rs byte for byte as src/wire/patch.rs of every generated crate; edit it here, never a copy.
//! The three-state patch member: omitted, `null`, or a value.

/// A patch member of an upsert (`TerminalUpdate`, `ToolCallUpdate`).
///
/// Omitted leaves the stored value unchanged, `null` clears it, a value replaces it.
/// Each state round-trips exactly: `Keep` is omitted on output, `Clear` is written as
/// `null`, `Set` as the value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Patch<T> {
    /// The member was omitted: leave the stored value as it is.
    #[default]
    Keep,
    /// The member was `null`: clear the stored value.
    Clear,
    /// The member has a value: replace the stored value with it.
    Set(T),
}

impl<T> Patch<T> {
    /// `true` when the member was omitted.
    #[must_use]
    pub const fn is_keep(&self) -> bool {
        matches!(self, Self::Keep)
    }

    /// The new value, if one was set.
    #[must_use]
    pub const fn as_set(&self) -> Option<&T> {
        match self {
            Self::Set(v) => Some(v),
            _ => None,
        }
    }

    /// Applies this patch to a stored optional value.
    pub fn apply_to(self, stored: &mut Option<T>) {
        match self {
            Self::Keep => {}
            Self::Clear => *stored = None,
            Self::Set(v) => *stored = Some(v),
        }
    }

    /// Borrows the value, keeping the state.
    #[must_use]
    pub const fn as_ref(&self) -> Patch<&T> {
        match self {
            Self::Keep => Patch::Keep,
            Self::Clear => Patch::Clear,
            Self::Set(v) => Patch::Set(v),
        }
    }
}
