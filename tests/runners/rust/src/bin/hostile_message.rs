//! `hostile_message parse|store FILE`: decodes one `SessionUpdate` message, the way a
//! Client would, for `cargo xtask fuzz --only message` (which runs it under
//! `/usr/bin/time -v` to read its peak memory and time). Prints what it kept and counted
//! as one JSON line.

use acp_terminal::store::TerminalStore;
use acp_terminal::v2::SessionUpdate;
use acp_terminal::wire;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [route, file] = args.as_slice() else {
        eprintln!("usage: hostile_message parse|store FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    let (warnings, dropped) = match route.as_str() {
        "parse" => match wire::from_str::<SessionUpdate>(&text) {
            Ok(p) => (p.warnings.len(), p.warnings_dropped),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
        "store" => {
            let mut store = TerminalStore::new();
            match store.apply_text(&text) {
                Ok(w) => (w.len(), store.counters().warnings_dropped),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        other => {
            eprintln!("unknown route {other:?}: parse or store");
            return ExitCode::from(2);
        }
    };
    println!(r#"{{"warnings":{warnings},"warningsDropped":{dropped}}}"#);
    ExitCode::SUCCESS
}
