//! Seed inputs for every target, made from the project's own data (`data/`), the built-in rule
//! sets and a tiny self-play run of each built-in variant (records, PGN and a book from them).
//! `cargo xtask fuzz --seed` writes them to `fuzz/corpus/<target>/`.

use crate::input::encode_choice;
use crate::records::scratch_dir;
use stackchess_book::BookBuilder;
use stackchess_core::Rules as _;
use stackchess_core::{coord, san, Position, SplitMix64};
use stackchess_search::{EvalParams, Limits, SearchConfig};
use stackchess_selfplay::{run, Adjudication, EngineSpec, NoProgress, Openings, RunConfig, Shard, Timing};
use stackchess_variants::{Variant, WithPosition};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Seeds by target name.
pub type Seeds = BTreeMap<&'static str, Vec<Vec<u8>>>;

/// The seeds of every target. `root` is the workspace (for `data/`).
///
/// # Panics
/// When the project's data cannot be read or the tiny runs fail.
#[must_use]
pub fn seeds(root: &Path) -> Seeds {
    let mut s = Seeds::new();
    let data = root.join("data");
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let files = |dir: &str, ext: &str| -> Vec<Vec<u8>> {
        let mut paths: Vec<_> = std::fs::read_dir(data.join(dir))
            .unwrap_or_else(|e| panic!("data/{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        paths.sort();
        paths.iter().map(|p| read(p)).collect()
    };
    let mut rules: Vec<Vec<u8>> = files("rules", "toml");
    rules.extend(Variant::ALL.iter().filter_map(|v| Variant::builtin_rules(v.name())).map(|t| t.as_bytes().to_vec()));
    s.insert("rule_file", rules);
    let mut params = files("tuned", "params");
    params.extend(Variant::ALL.iter().filter_map(|v| v.eval_params()).map(|t| t.as_bytes().to_vec()));
    params.push(EvalParams::default().to_file().into_bytes());
    s.insert("params", params);
    s.insert(
        "param_pair",
        EvalParams::KEYS
            .iter()
            .take(12)
            .map(|k| format!("{k}={}", EvalParams::default().get(k).unwrap_or(0)).into_bytes())
            .collect(),
    );
    let wac = String::from_utf8(read(&data.join("tactics/wac.epd"))).unwrap_or_default();
    s.insert("epd", vec![wac.lines().take(12).collect::<Vec<_>>().join("\n").into_bytes()]);
    s.insert(
        "time_control",
        ["40/60+0.6", "60+0.6", "10", "0.5+0.05", "1/0.001"].map(|t| t.as_bytes().to_vec()).to_vec(),
    );
    s.insert("shard", ["0/1", "3/16", "0/4"].map(|t| t.as_bytes().to_vec()).to_vec());
    s.insert(
        "engine_spec",
        [
            "name=a",
            "name=b,nodes=200,param=value.queen=950,plain,hash=8",
            "name=c,params=p.params,net=n.nnue,depth=6,movetime=50,tc=40/60+0.6",
            "name=sf,cmd=/usr/games/stockfish,arg=--x,option.Hash=64,option.Move Overhead=100,proto=uci,tc=10+0.1",
        ]
        .map(|t| t.as_bytes().to_vec())
        .to_vec(),
    );
    s.insert(
        "uci",
        [
            "uci\nisready\nsetoption name Variant value fide\nsetoption name Clear Params\nucinewgame\nquit\n",
            "position startpos moves e2e4 e7e5\ngo wtime 1000 btime -20 winc 10 binc 10 movestogo 3\nstop\n",
            "position lfen 8/8/8/8/8/8/8/8 w - - 0 1 moves 0000\ngo depth 3 searchmoves e2e4 d2d4 nodes 500\n",
            "go infinite ponder\nponderhit\nd\neval\ngo mate 2 movetime 50\nfoo bar\n",
        ]
        .map(|t| t.as_bytes().to_vec())
        .to_vec(),
    );
    let mut rng = SplitMix64(0x5eed);
    s.insert("rule_set", (0..16).map(|_| (0..48).map(|_| rng.next_u64() as u8).collect()).collect());
    for (i, v) in Variant::ALL.iter().enumerate() {
        let made = v.with(FromPlay { index: i as u8 });
        for (name, mut inputs) in made {
            s.entry(name).or_default().append(&mut inputs);
        }
    }
    s
}

/// The seeds a variant's play gives: positions and move texts, records, PGN and a book.
struct FromPlay {
    index: u8,
}

impl WithPosition for FromPlay {
    type Output = Vec<(&'static str, Vec<Vec<u8>>)>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        let tag = |text: &[u8]| [&[self.index][..], text].concat();
        let mut lfens = Vec::new();
        let mut moves = Vec::new();
        let mut rng = SplitMix64(u64::from(self.index) + 1);
        let mut pos = rules.startpos();
        // The `moves` target's input: the variant, the plies to play, one choice per ply, the text.
        let mut choices = Vec::new();
        let mut played = Vec::new();
        for ply in 0..40u8 {
            let list = pos.moves();
            if list.is_empty() {
                break;
            }
            if ply % 5 == 0 {
                lfens.push(tag(pos.to_lfen().as_bytes()));
                played.push(pos.clone());
                let m = list[rng.below(list.len())];
                let prefix = [&[self.index, ply][..], &choices].concat();
                moves.push([&prefix[..], coord::<P>(m).as_bytes()].concat());
                moves.push([&prefix[..], san(&pos, m).as_bytes()].concat());
            }
            let i = rng.below(list.len());
            choices.extend(encode_choice(i, list.len()));
            pos.play_unchecked(list[i]);
        }
        let dir = scratch_dir().join(format!("seed-run-{}", rules.name()));
        let _ = std::fs::remove_dir_all(&dir);
        let cfg = RunConfig {
            seed: 7,
            games: 3,
            threads: 1,
            openings: Openings::Random { plies: 2 },
            opening_filter: None,
            paired: false,
            adjudication: Adjudication { max_plies: Some(24), resign: None, draw: None },
            engines: vec![EngineSpec::builtin(
                "default",
                SearchConfig { hash_mb: 1, ..SearchConfig::full(EvalParams::default()) },
                Limits::nodes(64),
            )],
            event: "seed".into(),
            shard: Shard::WHOLE,
            timing: Timing::default(),
        };
        run::<P>(rules, &dir, &cfg, false, &AtomicBool::new(false), &mut NoProgress)
            .unwrap_or_else(|e| panic!("the seed run of {}: {e}", rules.name()));
        let file = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let games = file("games.csv");
        let plies = file("plies.csv");
        let pgn = file("games.pgn");
        let book = book_of::<P>(rules, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        vec![
            ("lfen", lfens),
            ("moves", moves),
            ("games_csv", vec![games]),
            ("plies_csv", vec![[&[0u8][..], &plies].concat()]),
            ("pgn", vec![[&[self.index, 0][..], &pgn].concat(), [&[self.index, 6][..], &pgn].concat()]),
            ("book", vec![tag(&book)]),
            ("net", vec![net_of::<P>(rules)]),
            ("data", vec![data_of::<P>(rules, &played)]),
        ]
    }
}

/// A book of the run's games, as file bytes.
fn book_of<P: Position>(rules: P::Rules, dir: &Path) -> Vec<u8> {
    let games = stackchess_records::read_games(&dir.join("games.csv")).unwrap_or_else(|e| panic!("{e}"));
    let mut builder = BookBuilder::<P>::new(rules, 12).any_start(true);
    for g in &games.records {
        builder.add(g).unwrap_or_else(|e| panic!("{e}"));
    }
    builder.finish(1).to_bytes()
}

/// A small random net for the rule set, as file bytes.
fn net_of<P: Position>(rules: P::Rules) -> Vec<u8> {
    let inputs = stackchess_nnue::Features::of::<P>(rules).inputs();
    stackchess_nnue::FloatNet::random(inputs, 4, 11).quantise(rules.id(), P::LEVELS, "a fuzz seed").to_bytes()
}

/// A data file of `positions`, as file bytes.
fn data_of<P: Position>(rules: P::Rules, positions: &[P]) -> Vec<u8> {
    use stackchess_datagen::{DataWriter, Header, Packed, Record, WhiteResult};
    let path = scratch_dir().join(format!("seed-{}.data", rules.name()));
    let _ = std::fs::remove_file(&path);
    let header = Header {
        levels: P::LEVELS,
        rules_id: rules.id().to_owned(),
        variant: rules.name().to_owned(),
        seed: 1,
        settings: "nodes=64".into(),
        command: "the fuzz seeds".into(),
    };
    let results = [WhiteResult::Win, WhiteResult::Draw, WhiteResult::Loss, WhiteResult::None];
    let records: Vec<Record> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| Record {
            hash: p.hash(),
            game: 7,
            ply: u16::try_from(i * 5).unwrap_or(u16::MAX),
            score: i16::try_from(i * 13).unwrap_or(0) - 20,
            result: results[i % 4],
            position: Packed::of(p),
        })
        .collect();
    let mut w = DataWriter::create(&path, &header).unwrap_or_else(|e| panic!("{e}"));
    w.commit(&records, 1).unwrap_or_else(|e| panic!("{e}"));
    drop(w);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let _ = std::fs::remove_file(&path);
    bytes
}
