use super::*;
use stackchess_selfplay::GameRecord;
use std::sync::atomic::AtomicBool;

/// Each rule set's preset, and `random:2` openings.
struct Presets;

impl Setup for Presets {
    fn engine(&self, _variant: usize, rules_name: &str) -> Result<SearchConfig> {
        let v: Variant = rules_name.parse()?;
        Ok(SearchConfig::preset(v.eval_params().expect("a preset"))?)
    }
    fn anchor(&self, _: usize, def: &EngineDef, _: &str, _: (Limits, Option<TimeControl>)) -> Result<EngineSpec> {
        bail!("no anchor here ({def})")
    }
    fn openings<P: Position>(&self, rules: P::Rules, _count: u64) -> Result<(Openings, Option<String>)> {
        Ok((Openings::parse::<P>(rules, "random:2")?, None))
    }
}

/// What the study showed: its runs (label, games in all, games found), stdout, stderr.
#[derive(Default)]
struct Seen {
    runs: std::rc::Rc<std::cell::RefCell<Vec<(String, u64, u64)>>>,
    printed: String,
    said: Vec<String>,
    stop: AtomicBool,
}

struct Counted(String, std::rc::Rc<std::cell::RefCell<Vec<(String, u64, u64)>>>);

impl Progress for Counted {
    fn begin(&mut self, total: u64, done: u64) {
        self.1.borrow_mut().push((self.0.clone(), total, done));
    }
    fn finished(&mut self, _: &GameRecord) -> bool {
        true
    }
}

impl Hooks for Seen {
    fn run(&mut self, label: &str, _first: Option<&str>) -> Result<Box<dyn Progress>> {
        Ok(Box::new(Counted(label.to_owned(), self.runs.clone())))
    }
    fn print(&mut self, text: &str) {
        self.printed.push_str(text);
    }
    fn say(&mut self, line: &str) {
        self.said.push(line.to_owned());
    }
    fn stop(&self) -> &AtomicBool {
        &self.stop
    }
}

fn study(dir: &std::path::Path) -> Study {
    Study {
        variants: vec!["fide".parse().unwrap(), "malka".parse().unwrap()],
        evaluations: vec!["preset fide".into(), "preset malka".into()],
        games: 4,
        rungs: vec![20],
        ladder: false,
        tc: None,
        time_margin_ms: 50,
        precision: None,
        max_games: 100,
        paired: true,
        dir: dir.to_owned(),
        seed: 3,
        openings: "random:2".into(),
        max_plies: 30,
        resign_score: 1000,
        threads: 1,
        shard: Shard::WHOLE,
        calibrate: 0,
        anchor: None,
        pilot: None,
        analysis: Options { pieces: None, opening_plies: vec![], plies: None },
        format: Format::Table,
        out: None,
        report: None,
    }
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stackchess-study-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_study_plays_each_batch_reports_and_on_a_second_run_plays_nothing() {
    let dir = tmp("plays");
    let mut seen = Seen::default();
    run(&study(&dir), &Presets, &mut seen).unwrap();
    assert_eq!(
        *seen.runs.borrow(),
        [("fide games".to_owned(), 4, 0), ("malka games".to_owned(), 4, 0)],
        "one batch a rule set, from nothing"
    );
    let games = std::fs::read_to_string(dir.join("fide/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 5, "a header and 4 games:\n{games}");
    assert!(seen.printed.contains("fide") && seen.printed.contains("malka"), "{}", seen.printed);
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(report.contains("4 games per variant and strength, 20 nodes a move, openings random:2 paired"));
    assert!(report.contains("Evaluation of malka: preset malka"));
    assert!(dir.join("games.html").exists());
    assert!(seen.said.iter().any(|l| l.starts_with("wrote ") && l.contains("report.html")), "{:?}", seen.said);

    let mut again = Seen::default();
    run(&study(&dir), &Presets, &mut again).unwrap();
    assert_eq!(
        *again.runs.borrow(),
        [("fide games".to_owned(), 4, 4), ("malka games".to_owned(), 4, 4)],
        "the finished games are found, none played"
    );
    assert_eq!(again.printed, seen.printed, "the same games, the same tables");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_precision_grows_the_batches_until_the_intervals_are_within_it_or_the_cap() {
    let dir = tmp("precision");
    let mut s = study(&dir);
    s.variants.truncate(1);
    s.evaluations.truncate(1);
    (s.games, s.precision, s.max_games) = (2, Some(0.01), 6);
    let mut seen = Seen::default();
    run(&s, &Presets, &mut seen).unwrap();
    let totals: Vec<u64> = seen.runs.borrow().iter().map(|r| r.1).collect();
    assert_eq!(totals, [2, 4, 6], "batches of 2 up to the cap of 6");
    assert!(seen.said.iter().any(|l| l.contains("not yet within (--max-games reached) ±0.01")), "{:?}", seen.said);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_plays_its_part_and_leaves_the_report_to_the_merged_run() {
    let dir = tmp("shard");
    let mut s = study(&dir);
    s.shard = Shard { index: 1, count: 2 };
    let mut seen = Seen::default();
    run(&s, &Presets, &mut seen).unwrap();
    assert!(dir.join("fide.shard-1/games.csv").exists() && dir.join("malka.shard-1/games.csv").exists());
    assert!(!dir.join("report.html").exists(), "no report from one shard");
    assert!(seen.said.last().unwrap().contains("merge each batch's shards"), "{:?}", seen.said);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A change to a study's settings.
type Change = fn(&mut Study);

#[test]
fn settings_that_cannot_go_together_are_refused_naming_the_flag() {
    let dir = tmp("refused");
    let cases: [(&str, Change); 6] = [
        ("--variants names no variant", |s| s.variants.clear()),
        ("--games 3: paired openings need an even number", |s| s.games = 3),
        ("--precision 0.7: give a half-width", |s| s.precision = Some(0.7)),
        ("--precision needs every game of a batch", |s| {
            (s.precision, s.shard) = (Some(0.02), Shard { index: 0, count: 2 });
        }),
        ("--calibrate 10: give an even number of games, with a --ladder of two or more rungs", |s| s.calibrate = 10),
        ("--pilot-games 3: give at least 4", |s| {
            s.pilot = Some(PilotPlan { games: 3, slurm: None, k8s: None, shards: 1, flags: vec![] });
        }),
    ];
    for (message, change) in cases {
        let mut s = study(&dir);
        change(&mut s);
        let e = run(&s, &Presets, &mut Seen::default()).unwrap_err().to_string();
        assert!(e.starts_with(message), "{e}");
    }
    assert!(!dir.exists(), "nothing played");
}
