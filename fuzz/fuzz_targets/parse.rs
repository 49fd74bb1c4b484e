//! Parse any text as any definition: never a panic; what parses is written back
//! canonically, and the canonical text parses to itself with no warnings.
#![no_main]

use acp_terminal::registry;
use libfuzzer_sys::fuzz_target;

const NAMES: &[(&str, &str)] = &[
    ("v2", "SessionUpdate"),
    ("v2", "UpdateSessionNotification"),
    ("v2", "TerminalUpdate"),
    ("v2", "TerminalOutputChunk"),
    ("v2", "ToolCallUpdate"),
    ("v2", "ToolCallContent"),
    ("v2", "ContentBlock"),
    ("v2", "RequestPermissionRequest"),
    ("v2", "RequestPermissionResponse"),
    ("v2", "DiffChange"),
    ("v2", "EmbeddedResourceResource"),
    ("v1", "ToolCallContent"),
    ("v1", "CreateTerminalRequest"),
    ("v1", "ContentBlock"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let (version, name) = NAMES[usize::from(which) % NAMES.len()];
    let Some(Ok((canonical, _warnings))) = registry::decode(version, name, text) else { return };
    match registry::decode(version, name, &canonical) {
        Some(Ok((again, warnings))) => {
            assert_eq!(again, canonical, "canonical output is not a fixed point");
            assert!(warnings.is_empty(), "canonical output parses with warnings: {warnings:?}");
        }
        other => panic!("canonical output {canonical} does not parse: {other:?}"),
    }
});
