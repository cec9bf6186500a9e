//! The page: one HTML document with its CSS and script inline (compiled in, nothing fetched).

const TEMPLATE: &str = include_str!("../assets/serve.html");
const CSS: &str = include_str!("../assets/serve.css");
const SCRIPT: &str = include_str!("../assets/serve.js");

/// The page served at `/`.
#[must_use]
pub fn page() -> String {
    TEMPLATE.replacen("{{CSS}}", CSS, 1).replacen("{{SCRIPT}}", SCRIPT, 1)
}
