//! The report of a played study: the tables on stdout (with the calibration, when asked for), the
//! table files, the HTML report and the viewer page of the games it links to.

use crate::batch::Played;
use crate::{calibrate, Hooks, Setup, Study};
use anyhow::{Context, Result};
use stackchess_analysis::ladder::insert_section;
use stackchess_analysis::{
    analyse, compare_sets, comparisons_table, load, render, write_all, GameLink, Options, Table,
};
use stackchess_view::{telling_games, GameSummary};
use std::path::{Path, PathBuf};

/// The tables, the calibration, the files and the report of a played study.
pub fn report(s: &Study, p: &Played, setup: &impl Setup, hooks: &mut impl Hooks) -> Result<()> {
    let dirs = p.plan.dirs();
    let all = load(&dirs)?;
    let mut analysis = analyse(&all, &s.analysis)?;
    for line in analysis.warnings() {
        hooks.say(&line);
    }
    let mut shown: Vec<Table> = vec![analysis.tables[0].clone()];
    let mut comparisons = Vec::new();
    let mut ladder = if s.ladder {
        let ladder = p.plan.ladder()?;
        let tables = ladder.tables()?;
        shown.extend(tables.iter().cloned());
        analysis.tables.extend(tables);
        Some(ladder)
    } else {
        let first = load(std::slice::from_ref(&dirs[0]))?;
        let no_extras = Options { pieces: None, opening_plies: vec![], plies: None };
        for other in dirs.iter().skip(1) {
            let (c, _) = compare_sets(&first, &load(std::slice::from_ref(other))?, &no_extras)?;
            shown.push(c.metrics_table()?);
            comparisons.push(c);
        }
        if !comparisons.is_empty() {
            analysis.tables.push(comparisons_table(&comparisons)?);
        }
        None
    };
    shown.extend(analysis.tables.iter().filter(|t| matches!(t.name, "pieces" | "comebacks")).cloned());
    hooks.print(&render(&shown, s.format)?);
    if s.calibrate > 0 {
        let c = calibrate::run(s, setup, hooks)?;
        hooks.print(&format!("\n{}\n", c.lines.join("\n")));
        ladder = ladder.map(|l| l.with_strength(c.strength, &c.scale));
    }
    if let Some(path) = &s.out {
        let files = write_all(&analysis.tables, path)?;
        hooks.say(&format!("wrote {}", files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")));
    }
    let report = s.report.clone().unwrap_or_else(|| s.dir.join("report.html"));
    let mut n = all.notes(&dirs);
    n.splice(0..0, header(s, p));
    for (variant, text) in &p.suites {
        hooks.say(&format!("openings of {variant}: {text}"));
    }
    let links = games_page(&dirs, &report, hooks).unwrap_or_else(|e| {
        hooks.say(&format!("warning: no games page: {e:#}"));
        Vec::new()
    });
    let title = "stackchess balance: how balanced is each rule set?";
    let mut html = analysis.report_with_games(title, n, comparisons.first(), &links)?;
    if let Some(l) = &ladder {
        html = insert_section(&html, &l.html());
    }
    std::fs::write(&report, html).with_context(|| format!("writing the report {}", report.display()))?;
    hooks.say(&format!("wrote {} ({:.0}s in all)", report.display(), p.started.elapsed().as_secs_f64()));
    Ok(())
}

/// The report's first lines: what was played, each rule set's evaluation and openings.
fn header(s: &Study, p: &Played) -> Vec<String> {
    let games = match s.precision {
        Some(x) => format!("games in batches of {} up to {} until White's score is within ±{x}", s.games, s.max_games),
        None => format!("{} games", s.games),
    };
    let nodes = s.rungs.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let pairing = if s.paired { "paired (each opening twice, colours swapped)" } else { "unpaired" };
    let mut n = vec![format!(
        "{games} per variant and strength, {nodes} nodes a move, openings {} {pairing}, draw after {} plies, seed {}; self-play took {:.0}s",
        s.openings,
        s.max_plies,
        s.seed,
        p.took.as_secs_f64()
    )];
    for (v, source) in s.variants.iter().zip(&s.evaluations) {
        n.push(format!("Evaluation of {v}: {source}"));
    }
    for (variant, text) in &p.suites {
        n.push(format!("Openings of {variant}: {text}"));
    }
    n
}

/// Writes the viewer page of every game (`games.html` beside the report) and returns the links
/// to the games worth a look in each rule set.
fn games_page(dirs: &[String], report: &Path, hooks: &mut impl Hooks) -> Result<Vec<GameLink>> {
    let inputs: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
    let (records, _) = stackchess_view::read_all(&inputs)?;
    let (mut games, mut skipped) = (Vec::new(), Vec::new());
    for g in stackchess_view::replay_all(&records)? {
        match g {
            Ok(g) => games.push(g),
            Err(e) => skipped.push(e),
        }
    }
    if let Some(first) = skipped.first() {
        hooks.say(&format!(
            "warning: {} game(s) could not be replayed and are not in the games page (first: {first})",
            skipped.len()
        ));
    }
    let page = report.with_file_name("games.html");
    let notes = [format!("{} games of {}", games.len(), dirs.join(", "))];
    let html = stackchess_view::page("stackchess balance: the games", &notes, &games)?;
    std::fs::write(&page, html).with_context(|| format!("writing {}", page.display()))?;
    hooks.say(&format!("wrote {}", page.display()));
    let name = page.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let summaries: Vec<GameSummary> = games
        .iter()
        .map(|g| GameSummary {
            id: &g.id,
            variant: &g.variant,
            result: &g.result,
            termination: &g.termination,
            plies: g.searched_plies() as u64,
        })
        .collect();
    Ok(telling_games(&summaries)
        .into_iter()
        .map(|p| GameLink {
            href: format!("{name}{}", stackchess_view::fragment(&p.id, 0)),
            detail: format!("{} plies, {} ({}), {}", p.plies, p.result, p.termination, p.id),
            label: p.reason.to_owned(),
            variant: p.variant,
        })
        .collect())
}
