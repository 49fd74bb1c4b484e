// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/path.rs byte for byte as src/wire/path.rs of every generated crate; edit it here, never a copy.
//! Absolute paths in POSIX or Windows form.

/// Says whether `p` is absolute: POSIX (`/...`), a Windows drive path (`C:\...`,
/// `C:/...`) or a UNC path (`\\server\share...`).
#[must_use]
pub fn is_absolute_path(p: &str) -> bool {
    let b = p.as_bytes();
    if b.first() == Some(&b'/') {
        return true;
    }
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/') {
        return true;
    }
    if let Some(rest) = p.strip_prefix("\\\\") {
        let mut parts = rest.splitn(2, '\\');
        let server = parts.next().unwrap_or("");
        let share = parts.next().unwrap_or("");
        let share = share.split('\\').next().unwrap_or("");
        return !server.is_empty() && !share.is_empty();
    }
    false
}

/// Explains why `p` is not absolute, for an error message.
#[must_use]
pub fn why_not_absolute(p: &str) -> String {
    let b = p.as_bytes();
    if p.is_empty() {
        "the path is empty; give an absolute path such as `/workspace/project`".to_owned()
    } else if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        format!("`{p}` is relative to the current directory of drive {}:; write `{}:\\...`", b[0] as char, b[0] as char)
    } else if b[0] == b'\\' {
        format!("`{p}` has no drive or server; write `C:\\...` or `\\\\server\\share\\...`")
    } else {
        format!("`{p}` is relative; paths here must be absolute (`/...`, `C:\\...` or `\\\\server\\share\\...`)")
    }
}
