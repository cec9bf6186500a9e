//! `--engine` specs, in cutechess-cli's style: comma-separated `key=value` pairs.
//!
//! An external engine has a `cmd`:
//! `name=sf,cmd=/usr/bin/stockfish[,arg=X]...[,option.Hash=64]...[,tc=40/60+0.6][,nodes=N]...`;
//! the built-in engine has none:
//! `name=B[,param=key=value]...[,params=FILE][,plain][,hash=MB][,nodes=N][,depth=N][,movetime=MS][,tc=TC]`.
//!
//! | key | for | meaning |
//! |---|---|---|
//! | `name` | both (required) | the engine's name in records, PGN and tables |
//! | `cmd` | external | the program to start (makes the engine external) |
//! | `arg` | external, repeatable | one command-line argument, in order |
//! | `option.<Name>` | external, repeatable | `setoption name <Name> value <v>` after `uci` |
//! | `proto` | external | `uci` (the only protocol spoken) |
//! | `param` | built-in, repeatable | a parameter override `key=value` (as `--param`) |
//! | `params` | built-in | a parameter file (as `--params`) |
//! | `plain` | built-in | plain alpha-beta (`plain`, `plain=true`, `plain=false`) |
//! | `hash` | built-in | table size in MiB (an external engine takes `option.Hash`) |
//! | `nodes`, `depth`, `movetime` | both | per-move limits (ms for `movetime`) |
//! | `tc` | both | a time control, `40/60+0.6`, `60+0.6`, `10` |
//!
//! Limits given in a spec replace the shared ones (`--nodes`, `--tc`, ...) for that engine.
//! Values cannot hold commas. [`parse`] gives an [`EngineDef`], whose `Display` writes it back as a spec that reads as the
//! same engine; errors name the spec and the key.

use crate::{ExternalSpec, TimeControl};
use stackchess_search::Limits;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// One engine, as an `--engine` spec describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDef {
    /// Its name (the label in records).
    pub name: String,
    /// The built-in engine or a program.
    pub kind: EngineKind,
    /// Its own search limits (nodes, depth, movetime), if the spec gives any: with `tc`, they
    /// replace the shared ones.
    pub limits: Limits,
    /// Its own time control.
    pub tc: Option<TimeControl>,
}

/// What plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The built-in engine with these settings (as the flags `--param`, `--params`, `--plain`,
    /// `--hash` give them).
    Builtin {
        /// `key=value` overrides, in order.
        params: Vec<String>,
        /// A parameter file.
        params_file: Option<PathBuf>,
        /// Plain alpha-beta.
        plain: bool,
        /// Table size in MiB.
        hash: Option<usize>,
        /// A net to evaluate with (`--eval net:FILE`).
        net: Option<PathBuf>,
    },
    /// A program that speaks UCI.
    External {
        /// The program.
        cmd: PathBuf,
        /// Its arguments.
        args: Vec<String>,
        /// UCI options `(name, value)`, in order.
        options: Vec<(String, String)>,
    },
}

/// A spec that cannot be read: the spec, the key concerned (if one is), and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The whole spec as given.
    pub spec: String,
    /// The key at fault.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(f, "--engine {}: key '{k}': {}", self.spec, self.message),
            None => write!(f, "--engine {}: {}", self.spec, self.message),
        }
    }
}

impl std::error::Error for SpecError {}

/// Keys of the built-in engine only.
const BUILTIN_KEYS: [&str; 5] = ["param", "params", "plain", "hash", "net"];

/// Reads one `--engine` spec.
///
/// # Errors
/// An unknown key, a key given twice that may be given once, a missing or empty `name`, a
/// built-in key with `cmd` (or `arg`/`option.` without it), a value that is not a number or
/// time control: the error names the spec and the key.
// One arm per key of the table above, each a few lines: the table is the function's outline.
#[allow(clippy::too_many_lines)]
pub fn parse(text: &str) -> Result<EngineDef, SpecError> {
    let err =
        |key: Option<&str>, message: String| SpecError { spec: text.to_owned(), key: key.map(str::to_owned), message };
    let (mut name, mut cmd, mut proto) = (None, None, None);
    let (mut args, mut options, mut params) = (Vec::new(), Vec::new(), Vec::new());
    let (mut params_file, mut plain, mut hash, mut net) = (None, None, None, None);
    let (mut limits, mut tc) = (Limits::default(), None);
    let mut builtin_key = None;
    for part in text.split(',') {
        let part = part.trim();
        if part.is_empty() {
            return Err(err(None, "an empty item (two commas in a row, or a comma at an end)".into()));
        }
        let (key, value) = match part.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (part, None),
        };
        let need = |v: Option<&str>| -> Result<String, SpecError> {
            match v {
                Some(v) if !v.is_empty() => Ok(v.to_owned()),
                _ => Err(err(Some(key), format!("needs a value ({key}=...)"))),
            }
        };
        let once = |slot: bool| if slot { Err(err(Some(key), "is given twice".into())) } else { Ok(()) };
        let number = |v: &str| -> Result<u64, SpecError> {
            v.parse::<u64>().map_err(|_| err(Some(key), format!("'{v}' is not a whole number")))
        };
        if BUILTIN_KEYS.contains(&key) {
            builtin_key.get_or_insert(key.to_owned());
        }
        match key {
            "name" => {
                once(name.is_some())?;
                name = Some(need(value)?);
            }
            "cmd" => {
                once(cmd.is_some())?;
                cmd = Some(PathBuf::from(need(value)?));
            }
            "arg" => args.push(value.map(str::to_owned).ok_or_else(|| err(Some(key), "needs a value (arg=...)".into()))?),
            "proto" => {
                once(proto.is_some())?;
                let v = need(value)?;
                if v != "uci" {
                    return Err(err(Some(key), format!("'{v}': only uci is spoken")));
                }
                proto = Some(v);
            }
            "param" => params.push(need(value)?),
            "params" => {
                once(params_file.is_some())?;
                params_file = Some(PathBuf::from(need(value)?));
            }
            "plain" => {
                once(plain.is_some())?;
                plain = Some(match value {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(v) => return Err(err(Some(key), format!("'{v}' is not true or false"))),
                });
            }
            "net" => {
                once(net.is_some())?;
                net = Some(PathBuf::from(need(value)?));
            }
            "hash" => {
                once(hash.is_some())?;
                let v = number(&need(value)?)?;
                hash = Some(usize::try_from(v).map_err(|_| err(Some(key), format!("{v} is too large")))?);
            }
            "nodes" => {
                once(limits.nodes.is_some())?;
                limits.nodes = Some(number(&need(value)?)?);
            }
            "depth" => {
                once(limits.depth.is_some())?;
                let v = number(&need(value)?)?;
                limits.depth = Some(u32::try_from(v).map_err(|_| err(Some(key), format!("{v} is too large")))?);
            }
            "movetime" | "st" => {
                once(limits.movetime.is_some())?;
                limits.movetime = Some(Duration::from_millis(number(&need(value)?)?));
            }
            "tc" => {
                once(tc.is_some())?;
                tc = Some(need(value)?.parse().map_err(|e| err(Some(key), e))?);
            }
            _ => match key.strip_prefix("option.") {
                Some(opt) if !opt.trim().is_empty() => {
                    options.push((opt.trim().to_owned(), value.unwrap_or_default().to_owned()));
                }
                _ => {
                    return Err(err(
                        Some(key),
                        "unknown key (name, cmd, arg, option.<Name>, proto, param, params, plain, hash, net, nodes, depth, movetime, tc)"
                            .into(),
                    ))
                }
            },
        }
    }
    let name = name.ok_or_else(|| err(Some("name"), "is missing: every engine needs a name".into()))?;
    // Names become directory names and record fields.
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-')) {
        return Err(err(Some("name"), format!("'{name}': use letters, digits, '.', '_', '+' and '-'")));
    }
    let kind = if let Some(cmd) = cmd {
        if let Some(k) = builtin_key {
            let hint = if k == "hash" { "; give an external engine option.Hash=MB" } else { "" };
            return Err(err(Some(&k), format!("is for the built-in engine, not one with cmd{hint}")));
        }
        EngineKind::External { cmd, args, options }
    } else {
        let stray = if !args.is_empty() {
            Some("arg")
        } else if !options.is_empty() {
            Some("option.")
        } else if proto.is_some() {
            Some("proto")
        } else {
            None
        };
        if let Some(k) = stray {
            return Err(err(Some(k), "is for an external engine: give its cmd=PATH".into()));
        }
        EngineKind::Builtin { params, params_file, plain: plain.unwrap_or(false), hash, net }
    };
    Ok(EngineDef { name, kind, limits, tc })
}

impl EngineDef {
    /// The external engine's spec, its `Variant` option set to `variant` when it offers one (and
    /// the spec does not set it); `None` for the built-in engine.
    #[must_use]
    pub fn external(&self, variant: &str) -> Option<ExternalSpec> {
        match &self.kind {
            EngineKind::External { cmd, args, options } => Some(ExternalSpec {
                cmd: cmd.clone(),
                args: args.clone(),
                options: options.clone(),
                variant: Some(variant.to_owned()),
            }),
            EngineKind::Builtin { .. } => None,
        }
    }
}

/// The spec, keys in a fixed order (`name`, the kind's keys, the limits, `tc`).
impl fmt::Display for EngineDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name={}", self.name)?;
        match &self.kind {
            EngineKind::External { cmd, args, options } => {
                write!(f, ",cmd={}", cmd.display())?;
                for a in args {
                    write!(f, ",arg={a}")?;
                }
                for (k, v) in options {
                    write!(f, ",option.{k}={v}")?;
                }
            }
            EngineKind::Builtin { params, params_file, plain, hash, net } => {
                for p in params {
                    write!(f, ",param={p}")?;
                }
                if let Some(p) = params_file {
                    write!(f, ",params={}", p.display())?;
                }
                if *plain {
                    f.write_str(",plain")?;
                }
                if let Some(h) = hash {
                    write!(f, ",hash={h}")?;
                }
                if let Some(n) = net {
                    write!(f, ",net={}", n.display())?;
                }
            }
        }
        let Limits { nodes, depth, movetime, .. } = self.limits;
        if let Some(n) = nodes {
            write!(f, ",nodes={n}")?;
        }
        if let Some(d) = depth {
            write!(f, ",depth={d}")?;
        }
        if let Some(t) = movetime {
            write!(f, ",movetime={}", t.as_millis())?;
        }
        if let Some(tc) = &self.tc {
            write!(f, ",tc={tc}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_specs() {
        let d = parse(
            "name=sf,cmd=/usr/bin/stockfish,arg=--x,arg=y=z,option.Hash=64,option.Move Overhead=100,tc=40/60+0.6",
        )
        .unwrap();
        assert_eq!(d.name, "sf");
        assert_eq!(
            d.kind,
            EngineKind::External {
                cmd: "/usr/bin/stockfish".into(),
                args: vec!["--x".into(), "y=z".into()],
                options: vec![("Hash".into(), "64".into()), ("Move Overhead".into(), "100".into())],
            }
        );
        assert_eq!(d.tc, Some("40/60+0.6".parse().unwrap()));
        assert_eq!(d.external("fide").unwrap().variant.as_deref(), Some("fide"));
    }

    #[test]
    fn builtin_specs() {
        let d =
            parse("name=B,param=value.queen=950,param=search.lmr=false,params=p.txt,plain,nodes=2000,hash=8").unwrap();
        assert_eq!(
            d.kind,
            EngineKind::Builtin {
                params: vec!["value.queen=950".into(), "search.lmr=false".into()],
                params_file: Some("p.txt".into()),
                plain: true,
                hash: Some(8),
                net: None,
            }
        );
        assert_eq!(d.limits, Limits::nodes(2000));
        let d = parse("name=A").unwrap();
        assert_eq!((d.limits, d.tc), (Limits::default(), None));
        assert_eq!(parse("name=A,depth=3,movetime=50,plain=false").unwrap().limits.depth, Some(3));
    }

    #[test]
    fn specs_write_back_as_the_same_engine() {
        for text in [
            "name=sf,cmd=/usr/bin/stockfish,arg=--x,arg=,option.Hash=64,option.Move Overhead=,tc=40/60+0.6,nodes=7",
            " name = B , plain=false, param=value.queen=950 ,params=p.txt,hash=8,net=n.nnue,depth=3,movetime=50,tc=10",
            "name=A,plain,st=20",
        ] {
            let d = parse(text).unwrap();
            assert_eq!(parse(&d.to_string()).unwrap(), d, "{text} -> {d}");
        }
        assert_eq!(parse("name=A,st=20,plain").unwrap().to_string(), "name=A,plain,movetime=20");
    }

    #[test]
    fn errors_name_the_spec_and_the_key() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(e("name=A,foo=1"), "--engine name=A,foo=1: key 'foo': unknown key (name, cmd, arg, option.<Name>, proto, param, params, plain, hash, net, nodes, depth, movetime, tc)");
        assert!(e("cmd=x").contains("key 'name': is missing"));
        assert!(e("name=a/b").contains("key 'name': 'a/b': use letters"));
        assert!(e("name=A,name=B").contains("key 'name': is given twice"));
        assert!(e("name=A,nodes=many").contains("key 'nodes': 'many' is not a whole number"));
        assert!(e("name=A,cmd=x,hash=64").contains("key 'hash': is for the built-in engine"));
        assert!(e("name=A,cmd=x,plain").contains("key 'plain'"));
        assert!(e("name=A,option.Hash=64").contains("key 'option.': is for an external engine"));
        assert!(e("name=A,arg=x").contains("key 'arg'"));
        assert!(e("name=A,tc=fast").contains("key 'tc': time control 'fast'"));
        assert!(e("name=A,,nodes=3").contains("an empty item"));
        assert!(e("name=").contains("key 'name': needs a value"));
        assert!(e("name=A,cmd=x,proto=xboard").contains("only uci"));
        assert!(e("name=A,plain=maybe").contains("'maybe' is not true or false"));
    }
}
