//! The page: one self-contained HTML file (inline CSS, script and data; nothing fetched).

use crate::GameData;
use serde::Serialize;

const TEMPLATE: &str = include_str!("../assets/viewer.html");
const CSS: &str = include_str!("../assets/viewer.css");
const SCRIPT: &str = include_str!("../assets/viewer.js");

#[derive(Serialize)]
struct PageData<'a> {
    title: &'a str,
    notes: &'a [String],
    games: &'a [GameData],
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The viewer page for `games`, titled `title`, with `notes` (lines shown under the title).
///
/// The games are embedded as JSON in a `<script type="application/json">` element, with `<`
/// written as `\u003c` so no text in a game can close it.
///
/// # Errors
/// Never in practice: serialising the data cannot fail (kept for a template that could).
pub fn page(title: &str, notes: &[String], games: &[GameData]) -> Result<String, serde_json::Error> {
    let data = serde_json::to_string(&PageData { title, notes, games })?.replace('<', "\\u003c");
    let mut out = String::with_capacity(TEMPLATE.len() + CSS.len() + SCRIPT.len() + data.len());
    let mut rest = TEMPLATE;
    // One pass over the template: a marker inside substituted text is never substituted again.
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[at..]);
            rest = "";
            break;
        };
        match &after[..end] {
            "TITLE" => out.push_str(&esc(title)),
            "CSS" => out.push_str(CSS),
            "SCRIPT" => out.push_str(SCRIPT),
            "DATA" => out.push_str(&data),
            other => {
                out.push_str("{{");
                out.push_str(other);
                out.push_str("}}");
            }
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}
