// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/bytes.rs byte for byte as src/wire/bytes.rs of every generated crate; edit it here, never a copy.
//! Strict canonical base64 (RFC 4648, standard alphabet, padding required).
//!
//! Decoding and encoding run on `base64-simd` (SIMD where the CPU has it). Its
//! standard padded mode is strict too: only the standard alphabet, padding required
//! and only at the end, no whitespace, non-zero trailing bits rejected. The scalar
//! `base64` decoder configured the same way only runs on rejected text, to say exactly
//! what is wrong and where (a differential test keeps the two in agreement).

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use std::ops::Deref;

/// Standard alphabet; canonical padding required; non-zero trailing bits rejected.
/// The `base64` crate also rejects whitespace and any byte outside the alphabet, so
/// every accepted text re-encodes to itself.
const STRICT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_encode_padding(true).with_decode_padding_mode(DecodePaddingMode::RequireCanonical).with_decode_allow_trailing_bits(false),
);

/// Decodes strict canonical base64, or says why the text is not.
///
/// # Errors
/// A sentence describing the first problem (bad character, length, padding, trailing bits).
pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    match base64_simd::STANDARD.decode_to_vec(text) {
        Ok(bytes) => Ok(bytes),
        Err(_) => Err(explain(text)),
    }
}

/// Why `text` is not strict canonical base64, from the scalar decoder's error.
fn explain(text: &str) -> String {
    let Err(e) = STRICT.decode(text) else {
        return "the text is not canonical padded standard base64".to_owned();
    };
    {
        use base64::DecodeError as D;
        match e {
            D::InvalidByte(i, b'=') => {
                format!("padding `=` at offset {i} is not at the end of the text")
            }
            D::InvalidByte(i, b) if b.is_ascii_whitespace() => format!("whitespace at offset {i}; base64 here must be one unbroken line"),
            D::InvalidByte(i, b) if b == b'-' || b == b'_' => format!("`{}` at offset {i} belongs to the URL-safe alphabet; use the standard one (`+`, `/`)", b as char),
            D::InvalidByte(i, b) => format!("byte 0x{b:02x} at offset {i} is not in the standard base64 alphabet"),
            D::InvalidLength(n) => format!("length {n} is not a multiple of 4 after padding; pad the last group with `=`"),
            D::InvalidLastSymbol { offset: i, .. } => format!("the symbol at offset {i} has non-zero unused bits; the canonical encoding of these bytes differs"),
            D::InvalidPadding => "padding is missing, or there is more than the last group needs".to_owned(),
        }
    }
}

/// Encodes bytes as canonical padded standard base64.
#[must_use]
pub fn encode_base64(bytes: &[u8]) -> String {
    base64_simd::STANDARD.encode_to_string(bytes)
}

/// The scalar strict decoder, for tests that compare it with the SIMD one.
#[doc(hidden)]
#[must_use]
pub fn decode_base64_scalar(text: &str) -> Option<Vec<u8>> {
    STRICT.decode(text).ok()
}

/// Decoded bytes of a base64 member (`format: byte`). On the wire: canonical base64.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bytes(pub Vec<u8>);

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Self(v)
    }
}

impl From<&[u8]> for Bytes {
    fn from(v: &[u8]) -> Self {
        Self(v.to_vec())
    }
}
