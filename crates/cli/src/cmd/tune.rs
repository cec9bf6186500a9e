//! `stackchess tune`: learn a rule set's evaluation parameters from its own self-play games
//! (Texel's method; docs/tuning.md), and `--tune` for `balance`, `selfplay` and `match`: tune
//! first, keep the result in a cache keyed by the rule set's id and the settings, reuse it.

use crate::common::{note, Evaluation};
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use stackchess_core::Position;
use stackchess_search::EvalParams;
use stackchess_tune::{Cache, Hook, Round, Settings};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Flags of `tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (a user-defined rule set).
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Self-play games per round (0: fit on the --from records alone).
    #[arg(long, default_value_t = Settings::default().games)]
    pub games: u64,
    /// Search nodes per move in those games.
    #[arg(long, default_value_t = Settings::default().nodes)]
    pub nodes: u64,
    /// Rounds: play with the current parameters, refit on every game so far.
    #[arg(long, default_value_t = Settings::default().rounds)]
    pub rounds: u32,
    /// Base seed: each round's openings, and which games are held out.
    #[arg(long, default_value_t = Settings::default().seed)]
    pub seed: u64,
    /// Self-play directories whose games are fitted too (records of the same rule set).
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub from: Vec<PathBuf>,
    /// The parameter file to write (`--params` reads it).
    #[arg(long)]
    pub out: PathBuf,
    /// Where the rounds' games are played (default: FILE.games next to --out); a second run resumes them.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Start from this parameter file instead of the rule set's preset.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Fit `mobility` too (two move generations per evaluation when it is not 0).
    #[arg(long)]
    pub mobility: bool,
    /// Pull toward the starting parameters (0: none; see docs/tuning.md).
    #[arg(long, default_value_t = Settings::default().ridge)]
    pub ridge: f64,
    /// Terms held at their starting values, comma-separated (e.g. `mopup,mopup_kings`; `none`, the
    /// default: fit every term).
    #[arg(long, value_delimiter = ',', default_value = "none", value_name = "KEY,...")]
    pub keep: Vec<String>,
    /// Share of games held out of the fit to measure it.
    #[arg(long, default_value_t = Settings::default().holdout)]
    pub holdout: f64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--tune` and its settings, for `balance`, `selfplay` and `match`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Tune the rule set's evaluation first (or reuse the cached result of the same rules and
    /// tuning settings) and play with it.
    #[arg(long)]
    pub tune: bool,
    /// Self-play games per tuning round.
    #[arg(long, default_value_t = Settings::default().games, value_name = "N")]
    pub tune_games: u64,
    /// Nodes per move in the tuning games.
    #[arg(long, default_value_t = Settings::default().nodes, value_name = "N")]
    pub tune_nodes: u64,
    /// Tuning rounds.
    #[arg(long, default_value_t = Settings::default().rounds, value_name = "R")]
    pub tune_rounds: u32,
    /// Seed of the tuning games.
    #[arg(long, default_value_t = Settings::default().seed, value_name = "S")]
    pub tune_seed: u64,
    /// Cache of tuned parameters (default: `$XDG_CACHE_HOME/stackchess/tuned` or `~/.cache/stackchess/tuned`).
    #[arg(long, value_name = "DIR")]
    pub tune_cache: Option<PathBuf>,
}

impl TuneArgs {
    fn settings(&self, threads: usize) -> Settings {
        Settings {
            games: self.tune_games,
            nodes: self.tune_nodes,
            rounds: self.tune_rounds,
            seed: self.tune_seed,
            threads,
            ..Settings::default()
        }
    }

    /// The evaluation `variant` plays with: with `--tune`, its tuned parameters (from the cache,
    /// or tuned now and cached); without, its preset (a user-defined rule set's base's, said on
    /// stderr).
    pub fn evaluation(&self, variant: Variant, threads: usize, quiet: bool) -> Result<Evaluation> {
        let preset = Evaluation::preset(variant)?;
        if !self.tune {
            if let Some(text) = preset.borrowed() {
                note(&text);
            }
            return Ok(preset);
        }
        let cache = match &self.tune_cache {
            Some(d) => Cache::new(d),
            None => Cache::new(
                Cache::default_dir().context("no cache directory: set XDG_CACHE_HOME or HOME, or give --tune-cache")?,
            ),
        };
        let settings = self.settings(threads);
        let id = variant.rules_id();
        let key = Cache::key(id, &preset.params, &settings);
        let path = cache.path(&key);
        let source = format!("tuned {key} (rules {id})");
        if let Some(params) = cache.get(&key)? {
            note(&format!("{variant}: reusing its tuned parameters {}", path.display()));
            return Ok(Evaluation { params, source, borrowed_from: None, variant });
        }
        note(&format!(
            "{variant}: tuning its evaluation first ({}; from {}), cached as {}",
            settings.describe(),
            preset.source,
            path.display()
        ));
        let games = cache.games_dir(&key);
        let rounds = variant.with(Tune {
            start: &preset.params,
            settings: &settings,
            dir: &games,
            from: &[],
            quiet,
            stdout: false,
        })?;
        let command = format!("--tune of {variant} ({})", settings.describe());
        let params = rounds.last().map_or_else(|| preset.params.clone(), |r| r.params.clone());
        cache.put(&key, &file_text(variant, &preset.source, &settings, &rounds, &command, &params))?;
        Ok(Evaluation { params, source, borrowed_from: None, variant })
    }
}

/// Progress of tuning on stderr: a bar per round's games, a line per round's fit.
struct Bar {
    line: ProgressBar,
    quiet: bool,
    /// Round lines go to stdout (`tune`) rather than stderr (`--tune`).
    stdout: bool,
}

impl Bar {
    fn new(quiet: bool, stdout: bool) -> Bar {
        let hidden = quiet || !std::io::stderr().is_terminal();
        Bar { line: if hidden { ProgressBar::hidden() } else { ProgressBar::new(0) }, quiet, stdout }
    }
}

impl Hook for Bar {
    fn games(&mut self, round: u32, total: u64, done: u64) {
        let template =
            format!("round {round} [{{elapsed_precise}}] {{bar:30.cyan/blue}} {{pos}}/{{len}} games (ETA {{eta}})");
        self.line.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        self.line.set_length(total);
        self.line.set_position(done);
        self.line.enable_steady_tick(Duration::from_millis(500));
    }
    fn game(&mut self) {
        self.line.inc(1);
    }
    fn fitting(&mut self, round: u32, positions: usize) {
        self.line.set_style(
            ProgressStyle::with_template("{spinner} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        self.line.set_message(format!("round {round}: fitting {positions} positions"));
    }
    fn round(&mut self, r: &Round) {
        self.line.suspend(|| {
            let line = format!("{} in {:.1} s", round_line(r), r.fit_seconds);
            if self.stdout {
                // A closed pipe ends the listing, not the tuning.
                let _ = writeln!(std::io::stdout(), "{line}");
            } else if !self.quiet {
                eprintln!("{line}");
            }
        });
    }
}

/// One round on one line (the fit's time left out: the file written is a function of the settings).
fn round_line(r: &Round) -> String {
    format!(
        "round {}: {} games ({} held out), {} positions fitted, {} held out; K {:.3} -> {:.3}; \
         training loss {:.5} -> {:.5}; held-out loss {:.5} -> {:.5}; {} iterations",
        r.round,
        r.games,
        r.held_out_games,
        r.train_positions,
        r.holdout_positions,
        r.start_k,
        r.k,
        r.start_train,
        r.train,
        r.start_holdout,
        r.holdout,
        r.iterations
    )
}

/// Runs the rounds for the variant's position type.
struct Tune<'a> {
    start: &'a EvalParams,
    settings: &'a Settings,
    dir: &'a Path,
    from: &'a [PathBuf],
    quiet: bool,
    stdout: bool,
}

impl WithPosition for Tune<'_> {
    type Output = Result<Vec<Round>>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<Vec<Round>> {
        // SIGINT, SIGTERM and SIGHUP stop the rounds cleanly; later they end the command at once.
        let _run = crate::interrupt::run()?;
        let mut bar = Bar::new(self.quiet, self.stdout);
        let rounds = stackchess_tune::tune::<P>(
            rules,
            self.start,
            self.settings,
            self.dir,
            self.from,
            &crate::interrupt::STOP,
            &mut bar,
        );
        bar.line.finish_and_clear();
        Ok(rounds?)
    }
}

/// The parameter file: what produced it, each round's losses, then the parameters.
fn file_text(
    variant: Variant,
    start: &str,
    settings: &Settings,
    rounds: &[Round],
    command: &str,
    params: &EvalParams,
) -> String {
    let mut s =
        format!("# Evaluation parameters of {variant} (rules {}), tuned by stackchess tune\n", variant.rules_id());
    let _ = writeln!(s, "# command: {command}");
    let _ = writeln!(s, "# settings: {}; started from {start}", settings.describe());
    for r in rounds {
        let _ = writeln!(s, "# {}", round_line(r));
    }
    s + &params.to_file()
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    if !(0.0..1.0).contains(&a.holdout) {
        bail!("--holdout {}: give a share from 0 to below 1", a.holdout);
    }
    if !(a.ridge >= 0.0 && a.ridge.is_finite()) {
        bail!("--ridge {}: give a weight of 0 or more", a.ridge);
    }
    let keep: Vec<String> = a.keep.iter().filter(|k| k.as_str() != "none").cloned().collect();
    if let Some(k) = keep.iter().find(|k| !EvalParams::KEYS.contains(&k.as_str())) {
        bail!("--keep {k}: not a term of the evaluation (one of {})", EvalParams::KEYS.join(", "));
    }
    if a.games == 0 && a.from.is_empty() {
        bail!("nothing to fit: give --games N or --from DIR");
    }
    let variant = a.variant.load()?;
    let start = match &a.params {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading --params {}", path.display()))?;
            let params = EvalParams::parse(&text).with_context(|| format!("in --params {}", path.display()))?;
            Evaluation { params, source: format!("file {}", path.display()), borrowed_from: None, variant }
        }
        None => Evaluation::preset(variant)?,
    };
    if let Some(text) = start.borrowed() {
        note(&format!("{text}; tuning starts from it"));
    }
    let settings = Settings {
        games: a.games,
        nodes: a.nodes,
        rounds: a.rounds,
        seed: a.seed,
        holdout: a.holdout,
        mobility: a.mobility,
        ridge: a.ridge,
        keep,
        threads: a.threads,
        ..Settings::default()
    };
    let dir = a.dir.clone().unwrap_or_else(|| {
        let mut d = a.out.clone().into_os_string();
        d.push(".games");
        PathBuf::from(d)
    });
    let rounds = variant.with(Tune {
        start: &start.params,
        settings: &settings,
        dir: &dir,
        from: &a.from,
        quiet: a.quiet,
        stdout: true,
    })?;
    let Some(last) = rounds.last() else { bail!("--rounds 0: nothing was fitted") };
    let command: Vec<String> = std::env::args().collect();
    let text = file_text(variant, &start.source, &settings, &rounds, &command.join(" "), &last.params);
    let tmp = a.out.with_extension("tmp");
    std::fs::write(&tmp, &text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &a.out).with_context(|| format!("writing {}", a.out.display()))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{:<22} {:>8} {:>8}", "parameter", "start", "tuned")?;
    for ((k, s), t) in EvalParams::KEYS.iter().zip(start.params.values()).zip(last.params.values()) {
        writeln!(out, "{k:<22} {s:>8} {t:>8}{}", if s == t { "" } else { " *" })?;
    }
    writeln!(out, "wrote {} (games in {})", a.out.display(), dir.display())?;
    Ok(())
}
