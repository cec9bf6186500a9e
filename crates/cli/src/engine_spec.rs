//! The `--engine` grammar of the built-in engines, in the style of cutechess-cli:
//! `name=A[,param=key=value]...[,params=FILE][,plain][,nodes=N][,depth=N][,movetime=MS][,hash=MB]`.
//!
//! Each item is `key=value` (split at the first `=`, so `param=value.queen=450` works) or the bare
//! flag `plain`. Errors name the whole spec and the item at fault.

use crate::cmd::selfplay::LimitArgs;
use crate::common::EngineArgs;
use anyhow::{bail, Result};
use std::path::PathBuf;

/// The keys an engine spec knows.
const KEYS: &str = "name, param, params, plain, nodes, depth, movetime, hash";

/// One built-in engine: its name in records and tables, its settings and its limits.
#[derive(Clone, Debug)]
pub struct EngineDef {
    /// The name (letters, digits, `.`, `_`, `+`, `-`): records' `white`/`black`, directory names.
    pub name: String,
    /// Search and evaluation settings, as the flags of `analyse`.
    pub engine: EngineArgs,
    /// Limits per move; none given: the command's shared limits.
    pub limits: LimitArgs,
}

/// Reads one `--engine` spec.
///
/// # Errors
/// An unknown or repeated key, a missing or malformed name, a value that is not a positive number.
pub fn parse(text: &str) -> Result<EngineDef> {
    let fail = |why: String| anyhow::anyhow!("--engine {text}: {why}");
    let (mut name, mut engine, mut limits) = (None, EngineArgs::default(), LimitArgs::default());
    let mut seen: Vec<&str> = Vec::new();
    for item in text.split(',') {
        let (key, value) = match item.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (item.trim(), None),
        };
        if key.is_empty() {
            return Err(fail(format!("empty item '{item}' (items are key=value, separated by commas)")));
        }
        if key != "param" && seen.contains(&key) {
            return Err(fail(format!("'{key}' is given twice")));
        }
        seen.push(key);
        if key == "plain" {
            if value.is_some() {
                return Err(fail("'plain' takes no value".into()));
            }
            engine.plain = true;
            continue;
        }
        if !KEYS.split(", ").any(|k| k == key) {
            return Err(fail(format!("unknown key '{key}' (known: {KEYS})")));
        }
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Err(fail(format!("'{key}' needs a value: {key}=...")));
        };
        let number = || -> Result<u64> {
            match value.parse::<u64>() {
                Ok(n) if n > 0 || key == "hash" => Ok(n),
                Ok(_) => Err(fail(format!("'{key}={value}': must be at least 1"))),
                Err(_) => Err(fail(format!("'{key}={value}': not a whole number"))),
            }
        };
        match key {
            "name" => {
                if !value.chars().all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c)) || value.starts_with('.') {
                    return Err(fail(format!(
                        "name '{value}': use letters, digits, '.', '_', '+' and '-' (it names a directory)"
                    )));
                }
                name = Some(value.to_owned());
            }
            "param" => {
                if !value.contains('=') {
                    return Err(fail(format!("'param={value}': expected param=key=value")));
                }
                engine.param.push(value.to_owned());
            }
            "params" => engine.params = Some(PathBuf::from(value)),
            "nodes" => limits.nodes = Some(number()?),
            "depth" => {
                let d = number()?;
                limits.depth = Some(u32::try_from(d).map_err(|_| fail(format!("'depth={value}': too deep")))?);
            }
            "movetime" => limits.movetime = Some(number()?),
            "hash" => {
                let mb = number()?;
                engine.hash = Some(usize::try_from(mb).map_err(|_| fail(format!("'hash={value}': too large")))?);
            }
            _ => bail!("--engine {text}: key '{key}' is known but not read (a bug)"),
        }
    }
    let Some(name) = name else {
        return Err(fail("no name=... (every engine needs a name)".into()));
    };
    Ok(EngineDef { name, engine, limits })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read() {
        let d = parse("name=fast-1,param=value.queen=450,param=search.lmr=false,params=p.txt,plain,nodes=300,depth=4,movetime=50,hash=0")
            .unwrap();
        assert_eq!(d.name, "fast-1");
        assert_eq!(d.engine.param, ["value.queen=450", "search.lmr=false"]);
        assert_eq!(d.engine.params, Some(PathBuf::from("p.txt")));
        assert!(d.engine.plain);
        assert_eq!(d.engine.hash, Some(0));
        assert_eq!((d.limits.nodes, d.limits.depth, d.limits.movetime), (Some(300), Some(4), Some(50)));
        let d = parse("name=B").unwrap();
        assert!(!d.engine.plain && d.limits.given().is_none() && d.engine.param.is_empty());
    }

    #[test]
    fn errors_name_the_spec_and_the_item() {
        let err = |t: &str| parse(t).unwrap_err().to_string();
        assert!(
            err("name=A,nodse=5").starts_with("--engine name=A,nodse=5: unknown key 'nodse'"),
            "{}",
            err("name=A,nodse=5")
        );
        assert!(err("nodes=5").contains("no name="));
        assert!(err("name=A,nodes=x").contains("'nodes=x': not a whole number"));
        assert!(err("name=A,depth=0").contains("'depth=0': must be at least 1"));
        assert!(err("name=A,nodes=5,nodes=6").contains("'nodes' is given twice"));
        assert!(err("name=A,plain=yes").contains("'plain' takes no value"));
        assert!(err("name=A,,plain").contains("empty item"));
        assert!(err("name=a/b").contains("name 'a/b'"));
        assert!(err("name=A,param=tempo").contains("expected param=key=value"));
        assert!(err("name=A,hash").contains("'hash' needs a value"));
    }
}
