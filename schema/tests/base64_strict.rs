//! The SIMD base64 decoder accepts exactly what the scalar strict decoder accepts
//! (standard alphabet, canonical padding, no whitespace, zero trailing bits), with the
//! same bytes, over every short text of a hostile alphabet and many longer ones.

use acp_terminal_schema::wire::{decode_base64, decode_base64_scalar, encode_base64};

fn agree(text: &str) {
    let simd = decode_base64(text).ok();
    let scalar = decode_base64_scalar(text);
    assert_eq!(simd, scalar, "the decoders disagree on {text:?}");
    if let Some(bytes) = simd {
        assert_eq!(encode_base64(&bytes), text, "accepted text must be canonical: {text:?}");
    }
}

#[test]
fn every_short_text_over_a_hostile_alphabet() {
    // Letters whose low bits differ (A, B, Q, g, w), the two specials, padding,
    // whitespace, the URL-safe pair, and a non-ASCII letter.
    let alphabet = ["A", "B", "Q", "g", "w", "+", "/", "=", " ", "\n", "-", "_", "é"];
    let mut texts = vec![String::new()];
    for _ in 0..5 {
        let mut next = Vec::new();
        for t in &texts {
            for a in alphabet {
                next.push(format!("{t}{a}"));
            }
        }
        for t in &next {
            agree(t);
        }
        texts = next;
    }
    assert!(texts.len() > 300_000);
}

#[test]
fn long_texts_with_one_defect_at_every_position() {
    // Long enough for the SIMD loops (several 32- and 64-byte blocks) to run.
    let bytes: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    for len in [0, 1, 2, 3, 47, 48, 49, 95, 96, 97, 190, 191, 192, 299, 300] {
        let good = encode_base64(&bytes[..len]);
        agree(&good);
        assert_eq!(decode_base64(&good).as_deref(), Ok(&bytes[..len]));
        for i in 0..good.len() {
            for bad in [b'=', b' ', b'\n', b'-', b'_', b'*', 0u8] {
                let mut t = good.clone().into_bytes();
                t[i] = bad;
                agree(&String::from_utf8(t).expect("ascii"));
            }
        }
        // Missing padding, extra padding, and trailing-bit variants of the last group.
        agree(good.trim_end_matches('='));
        agree(&format!("{good}="));
        agree(&format!("{good}===="));
        if let Some(last) = good.trim_end_matches('=').chars().last() {
            let stem = &good[..good.trim_end_matches('=').len() - 1];
            let pad = &good[good.trim_end_matches('=').len()..];
            for c in ['A', 'B', 'C', 'D', 'E', 'P', 'Q', 'R'] {
                if c != last {
                    agree(&format!("{stem}{c}{pad}"));
                }
            }
        }
    }
}
