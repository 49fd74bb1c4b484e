//! Properties of the terminal store: any split of the same bytes into a snapshot and
//! chunks, in any chunk sizes, leaves the same retained bytes and the same transcript as
//! one snapshot of all of them; and a later snapshot always replaces what came before.

use acp_terminal::store::TerminalStore;
use acp_terminal::wire;

/// A small deterministic PRNG (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }
}

const PIECES: &[&[u8]] = &[
    b"running 12 tests\r\n",
    b"test a ... \x1b[32mok\x1b[0m\r\n",
    b"\x1b[38;5;208mwarn\x1b[39m",
    b"\x1b[38;2;10;20;30mrgb\x1b[0m",
    b"[##    ] 33%\r[####  ] 66%\r[######] 100%\r\n",
    b"\x1b]0;title\x07",
    b"\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\",
    b"\x1b[2K\x1b[1Gredrawn",
    "caf\u{e9} \u{4e2d}\u{6587} \u{1f680} \u{2500}\u{2500}\r\n".as_bytes(),
    b"\xff\xc3(\xe2\x82",
    b"tab\there\x08\x08X",
    b"\xc2\x9b31mC1\xc2\x9b0m",
    b"\x1bP1$r0m\x1b\\",
    b"\n",
];

fn stream(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.below(40) + 1 {
        out.extend_from_slice(PIECES[rng.below(PIECES.len())]);
    }
    out
}

fn snapshot(id: &str, bytes: &[u8]) -> String {
    format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{id}","output":{{"data":"{}"}}}}"#, wire::encode_base64(bytes))
}

fn chunk(id: &str, bytes: &[u8]) -> String {
    format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"{id}","data":"{}"}}"#, wire::encode_base64(bytes))
}

fn state(store: &TerminalStore, id: &str) -> (Vec<u8>, String) {
    let t = store.terminal(id).expect("terminal exists");
    (t.output().to_vec(), t.transcript())
}

#[test]
fn any_split_into_snapshot_and_chunks_matches_one_snapshot() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..300 {
        let bytes = stream(&mut rng);
        let mut one = TerminalStore::new();
        one.apply_text(&snapshot("t", &bytes)).expect("snapshot parses");
        let cut = rng.below(bytes.len() + 1);
        let mut many = TerminalStore::new();
        // Noise first: a chunk and a snapshot the later snapshot must replace entirely.
        many.apply_text(&chunk("t", b"\x1b[31mold \xe2")).expect("chunk parses");
        many.apply_text(&snapshot("t", &bytes[..cut])).expect("snapshot parses");
        let mut at = cut;
        while at < bytes.len() {
            let n = (rng.below(64) + 1).min(bytes.len() - at);
            many.apply_text(&chunk("t", &bytes[at..at + n])).expect("chunk parses");
            at += n;
        }
        assert_eq!(state(&many, "t"), state(&one, "t"), "stream {:?} cut at {cut}", String::from_utf8_lossy(&bytes));
        let mut whole = acp_terminal::Transcript::new();
        whole.push(&bytes);
        assert_eq!(state(&one, "t").1, whole.text());
    }
}

#[test]
fn chunks_for_two_terminals_interleaved_stay_apart() {
    let mut rng = Rng(0x5eed_0000_0000_0002);
    for _ in 0..100 {
        let (a, b) = (stream(&mut rng), stream(&mut rng));
        let mut store = TerminalStore::new();
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if j >= b.len() || (i < a.len() && rng.below(2) == 0) {
                let n = (rng.below(32) + 1).min(a.len() - i);
                store.apply_text(&chunk("a", &a[i..i + n])).expect("parses");
                i += n;
            } else {
                let n = (rng.below(32) + 1).min(b.len() - j);
                store.apply_text(&chunk("b", &b[j..j + n])).expect("parses");
                j += n;
            }
        }
        assert_eq!(state(&store, "a").0, a);
        assert_eq!(state(&store, "b").0, b);
    }
}

#[test]
fn retained_memory_stays_close_to_the_retained_bytes() {
    let limits = acp_terminal::store::Limits { max_retained_bytes: usize::MAX, ..Default::default() };
    let mut store = TerminalStore::with_limits(limits);
    let piece = [b'x'; 4096];
    for _ in 0..1024 {
        store.apply_text(&chunk("t", &piece)).expect("parses");
    }
    let t = store.terminal("t").expect("exists");
    let (len, cap) = (t.output().len(), t.output().capacity());
    assert_eq!(len, 4 * 1024 * 1024);
    assert!(cap * 100 <= len * 105, "capacity {cap} for {len} retained bytes");
}
