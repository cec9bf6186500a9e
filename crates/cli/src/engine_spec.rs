//! From an `--engine` spec ([`stackchess_selfplay::spec`], which reads them) to the run's engine:
//! the built-in engine's settings as the engine flags give them.

use crate::common::{EngineArgs, Evaluation};
use stackchess_search::Limits;
use stackchess_selfplay::spec::{EngineDef, EngineKind};
use stackchess_selfplay::{EngineSpec, TimeControl};

/// The built-in engine's settings as the engine flags give them; `None` for an external one.
#[must_use]
pub fn engine_args(def: &EngineDef) -> Option<EngineArgs> {
    match &def.kind {
        EngineKind::Builtin { params, params_file, plain, hash, net } => Some(EngineArgs {
            hash: *hash,
            param: params.clone(),
            params: params_file.clone(),
            plain: *plain,
            // `net=linear` is `--eval linear`; any other value is a net file.
            eval: match net.as_ref().map(|p| (p, p.to_str())) {
                None => "default".to_owned(),
                Some((_, Some("linear"))) => "linear".to_owned(),
                Some((p, _)) => format!("net:{}", p.display()),
            },
        }),
        EngineKind::External { .. } => None,
    }
}

/// The run's engine: the spec's own limits, or `shared` (limits and time control) when it gives
/// none; the built-in engine's settings over `eval` for the variant `rules_name`; `variant` is
/// what an external engine's `Variant` option is set to.
///
/// # Errors
/// A parameter file that cannot be read, a bad `param`.
pub fn engine_spec(
    def: &EngineDef,
    rules_name: &str,
    variant: &str,
    shared: (Limits, Option<TimeControl>),
    eval: &Evaluation,
) -> anyhow::Result<EngineSpec> {
    use anyhow::Context;
    let own = def.limits != Limits::default() || def.tc.is_some();
    let (limits, tc) = if own { (def.limits, def.tc) } else { shared };
    let (config, external) = match engine_args(def) {
        Some(args) => (args.config_from(rules_name, Some(eval)).with_context(|| format!("engine {}", def.name))?, None),
        None => (stackchess_search::SearchConfig::default(), def.external(variant)),
    };
    Ok(EngineSpec { label: def.name.clone(), config, limits, tc, external })
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_selfplay::spec::parse;

    #[test]
    fn builtin_specs_give_the_engine_flags() {
        let d =
            parse("name=B,param=value.queen=950,param=search.lmr=false,params=p.txt,plain,nodes=2000,hash=8").unwrap();
        let args = engine_args(&d).unwrap();
        assert_eq!((args.plain, args.hash, args.param.len()), (true, Some(8), 2));
        assert_eq!(engine_args(&parse("name=A,net=x.nnue").unwrap()).unwrap().eval, "net:x.nnue");
        assert_eq!(engine_args(&parse("name=A,net=linear").unwrap()).unwrap().eval, "linear");
        assert_eq!(engine_args(&parse("name=A").unwrap()).unwrap().eval, "default");
        assert!(engine_args(&parse("name=sf,cmd=/usr/bin/stockfish").unwrap()).is_none());
    }
}
