//! Warnings cost nothing past the limit (issue 22): a parse keeps at most
//! `max_warnings` warnings (64 by default, the store's), only counts the others in
//! `warnings_dropped`, and builds no pointer or message for them. Checked by counting
//! the problems the decoder built (`from_str_counted`), not by a clock.

use acp_terminal::store::{Limits, TerminalStore};
use acp_terminal::v2::SessionUpdate;
use acp_terminal::wire::{self, DEFAULT_MAX_WARNINGS, ParseOptions};

fn update_with_items(item: &str, n: usize) -> String {
    let items = vec![item; n].join(",");
    format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{items}]}}"#)
}

/// Items each a lenient skip of another kind: a wrong type, a missing tag, a missing
/// member, a bad base64 inside a lenient member, a tag-first object whose member is wrong.
const BAD_ITEMS: &[&str] = &["1", "{}", r#"{"type":"terminal"}"#, r#"{"type":"content","content":{"type":"image","data":"!","mimeType":"image/png"}}"#, r#"{"terminalId":5,"type":"terminal"}"#];

#[test]
fn the_default_keeps_64_and_counts_the_rest_building_nothing_for_them() {
    assert_eq!(DEFAULT_MAX_WARNINGS, 64);
    assert_eq!(Limits::DEFAULT.max_warnings, DEFAULT_MAX_WARNINGS);
    for item in BAD_ITEMS {
        for n in [10, 64, 65, 1000, 8000] {
            let text = update_with_items(item, n);
            let (parsed, built) = wire::from_str_counted::<SessionUpdate>(&text, ParseOptions::DEFAULT);
            let p = parsed.expect("lenient items never fail the message");
            let kept = n.min(64);
            assert_eq!((p.warnings.len(), p.warnings_dropped), (kept, (n - kept) as u64), "{item} x {n}");
            // Work: one problem built per kept warning, none for the dropped ones.
            assert_eq!(built, kept as u64, "{item} x {n}: problems built");
            let at = if item.contains("image") {
                "/content/data"
            } else if item.contains("terminal") {
                "/terminalId"
            } else if *item == "{}" {
                "/type"
            } else {
                ""
            };
            assert_eq!(p.warnings[0].path, format!("/content/0{at}"), "{item}");
        }
    }
}

#[test]
fn the_limit_is_an_option_and_all_stays_possible() {
    let text = update_with_items("1", 500);
    let all = wire::from_str_with::<SessionUpdate>(&text, ParseOptions::ALL_WARNINGS).expect("lenient");
    assert_eq!((all.warnings.len(), all.warnings_dropped), (500, 0));
    assert_eq!(all.warnings[499].path, "/content/499");
    let none = wire::from_str_counted::<SessionUpdate>(&text, ParseOptions::DEFAULT.max_warnings(0));
    let p = none.0.expect("lenient");
    assert_eq!((p.warnings.len(), p.warnings_dropped, none.1), (0, 500, 0));
    let three = wire::from_str_with::<SessionUpdate>(&text, ParseOptions::DEFAULT.max_warnings(3)).expect("lenient");
    let paths: Vec<&str> = three.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!((paths, three.warnings_dropped), (vec!["/content/0", "/content/1", "/content/2"], 497));
}

#[test]
fn valid_items_among_dropped_ones_are_kept_in_order() {
    let items: Vec<String> = (0..300).map(|i| if i % 3 == 0 { format!(r#"{{"type":"terminal","terminalId":"t{i}"}}"#) } else { "1".into() }).collect();
    let text = format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{}]}}"#, items.join(","));
    let p = wire::from_str::<SessionUpdate>(&text).expect("lenient");
    assert_eq!((p.warnings.len(), p.warnings_dropped), (64, 200 - 64));
    let out = wire::to_string(&p.value);
    assert_eq!(out.matches("terminalId").count(), 100, "{out}");
    assert!(out.contains(r#""t0""#) && out.contains(r#""t297""#));
}

#[test]
fn an_error_after_the_limit_is_still_the_error_with_its_pointer() {
    // Past the limit a problem inside an item is only counted; a problem outside any
    // lenient member is the error, with its full pointer and message.
    let text = format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":5,"content":[{}]}}"#, vec!["1"; 200].join(","));
    let e = wire::from_str::<SessionUpdate>(&text).expect_err("toolCallId is a string");
    assert_eq!((e.kind.as_str(), e.path.as_str()), ("wrong_type", "/toolCallId"));
    let text = format!(r#"{{"sessionUpdate":"tool_call_update","content":[{}],"toolCallId":5}}"#, vec!["1"; 200].join(","));
    let e = wire::from_str::<SessionUpdate>(&text).expect_err("toolCallId is a string");
    assert_eq!((e.kind.as_str(), e.path.as_str()), ("wrong_type", "/toolCallId"));
    assert!(e.message.contains("expected a string"), "{}", e.message);
}

#[test]
fn a_repeated_name_inside_a_dropped_item_is_still_the_error() {
    let mut items = vec!["1"; 100];
    items.push(r#"{"type":"terminal","terminalId":"a","terminalId":"b"}"#);
    let text = format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{}]}}"#, items.join(","));
    let e = wire::from_str::<SessionUpdate>(&text).expect_err("duplicate key");
    assert_eq!((e.kind.as_str(), e.path.as_str()), ("duplicate_key", "/content/100/terminalId"));
}

#[test]
fn the_store_applies_its_limit_while_decoding() {
    let text = update_with_items("1", 100_000);
    let mut store = TerminalStore::new();
    let kept = store.apply_text(&text).expect("lenient");
    assert_eq!(kept.len(), 64);
    assert_eq!(store.counters().warnings_dropped, 100_000 - 64);
    let mut small = TerminalStore::with_limits(Limits { max_warnings: 2, ..Limits::DEFAULT });
    assert_eq!(small.apply_text(&text).expect("lenient").len(), 2);
    let params = format!(r#"{{"sessionId":"s","update":{text}}}"#);
    assert_eq!(small.apply_notification_text(&params).expect("lenient").len(), 2);
    assert_eq!(small.counters().warnings_dropped, 2 * (100_000 - 2));
}
