//! What the browser tests share (`viewer_browser.rs`, `serve_browser.rs`): the CLI, headless
//! Chromium over the `DevTools` protocol, evaluating and waiting in the page, and an LFEN's pieces
//! by cell as the pages name cells.

use anyhow::{bail, ensure, Context, Result};
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stackchess"))
}

/// Runs the CLI, failing with its stderr.
pub fn cli(args: &[&str]) -> Result<String> {
    let out = bin().args(args).output()?;
    ensure!(out.status.success(), "stackchess {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    Ok(String::from_utf8(out.stdout)?)
}

/// Chromium: `$CHROMIUM` (a path, or a name looked up on the PATH), else `chromium` on the PATH.
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("chromium"), PathBuf::from);
    if path.components().count() > 1 {
        return path.is_file().then_some(path);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(&path)).find(|p| p.is_file())
}

/// Headless Chromium with the profile `profile` and a window of `size` pixels.
pub fn launch(profile: &Path, size: (u32, u32)) -> Result<Browser> {
    let path = chromium().context("chromium is not on the PATH (or $CHROMIUM names no file)")?;
    let args: Vec<&OsStr> = [
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .user_data_dir(Some(profile.to_owned()))
        .window_size(Some(size))
        .idle_browser_timeout(Duration::from_mins(5))
        .args(args)
        .build()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Browser::new(options)
}

/// Evaluates `js` in the page and returns its value (JSON).
pub fn eval(tab: &Tab, js: &str) -> Result<serde_json::Value> {
    let r = tab.evaluate(js, false).with_context(|| format!("evaluating {js}"))?;
    Ok(r.value.unwrap_or(serde_json::Value::Null))
}

/// [`eval`] of a string (empty when it is not one).
pub fn eval_str(tab: &Tab, js: &str) -> Result<String> {
    Ok(eval(tab, js)?.as_str().map(str::to_owned).unwrap_or_default())
}

/// Waits until `js` is true, at most `secs` seconds.
pub fn wait_for(tab: &Tab, js: &str, secs: u64) -> Result<()> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if eval(tab, js)? == serde_json::Value::Bool(true) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    bail!("timed out after {secs} s waiting for {js}")
}

/// The pieces of an LFEN's placement, by cell name (`2e4`; `e4` on one level).
pub fn lfen_pieces(lfen: &str) -> BTreeMap<String, char> {
    let placement = lfen.split(' ').next().unwrap_or("");
    let levels: Vec<&str> = placement.split('|').collect();
    let mut out = BTreeMap::new();
    for (l, level) in levels.iter().enumerate() {
        for (r, rank) in level.split('/').enumerate() {
            let mut file = 0u8;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as u8;
                } else {
                    let prefix = if levels.len() > 1 { (l + 1).to_string() } else { String::new() };
                    out.insert(format!("{prefix}{}{}", char::from(b'a' + file), 8 - r), c);
                    file += 1;
                }
            }
        }
    }
    out
}
