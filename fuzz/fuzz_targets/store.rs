//! Feed the store what a hostile Agent could send: never a panic, and reading every
//! terminal afterwards never fails. The first byte chooses the mode: lines of raw text,
//! or a compact program of updates (so the fuzzer reaches deep store states quickly).
#![no_main]

use acp_terminal::store::TerminalStore;
use acp_terminal::wire::encode_base64;
use libfuzzer_sys::fuzz_target;

fn program(data: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 <= data.len() {
        let (op, arg) = (data[i], data[i + 1]);
        i += 2;
        let term = format!("t{}", arg % 4);
        let call = format!("c{}", (arg >> 2) % 4);
        let len = usize::from(arg >> 4).min(data.len() - i);
        let bytes = &data[i..i + len];
        let text: String = String::from_utf8_lossy(bytes).into_owned();
        let text = serde_escape(&text);
        let line = match op % 9 {
            0 => format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"{term}","data":"{}"}}"#, encode_base64(bytes)),
            1 => format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{term}","output":{{"data":"{}"}}}}"#, encode_base64(bytes)),
            2 => format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{term}","command":"{text}","cwd":"/w"}}"#),
            3 => format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{term}","exitStatus":{{"exitCode":{arg}}}}}"#),
            4 => format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{term}","exitStatus":null,"output":null,"command":null}}"#),
            5 => format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"{call}","content":[{{"type":"terminal","terminalId":"{term}"}}]}}"#),
            6 => format!(r#"{{"sessionUpdate":"tool_call_content_chunk","toolCallId":"{call}","content":{{"type":"terminal","terminalId":"{term}"}}}}"#),
            7 => format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"{call}","content":null}}"#),
            _ => text,
        };
        out.push(line);
        i += len;
    }
    out
}

fn serde_escape(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let lines: Vec<String> = if mode % 2 == 0 { String::from_utf8_lossy(rest).lines().map(str::to_owned).collect() } else { program(rest) };
    let mut store = TerminalStore::new();
    for l in &lines {
        let _ = store.apply_text(l);
    }
    for (_, t) in store.terminals() {
        let text = t.transcript();
        assert!(!text.contains('\u{1b}'), "ESC in a transcript");
        let _ = t.output().to_vec();
    }
});
