//! Any bytes, cut anywhere: the transcript never panics, any chunking gives the same
//! text as one push, and no control other than LF and TAB, and no bidi control, is left.
#![no_main]

use acp_terminal::Transcript;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&step, bytes)) = data.split_first() else { return };
    let mut whole = Transcript::new();
    whole.push(bytes);
    let mut cut = Transcript::new();
    let step = usize::from(step % 17) + 1;
    for c in bytes.chunks(step) {
        cut.push(c);
    }
    let text = whole.text();
    assert_eq!(cut.text(), text, "chunking by {step} changed the transcript");
    for c in text.chars() {
        let u = c as u32;
        assert!(c == '\n' || c == '\t' || (u >= 0x20 && u != 0x7f && !(0x80..=0x9f).contains(&u)), "control {u:#x} survived");
        assert!(!(0x202a..=0x202e).contains(&u) && !(0x2066..=0x2069).contains(&u), "bidi control {u:#x} survived");
    }
});
