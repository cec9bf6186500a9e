//! The incremental accumulator equals a full refresh after every ply (random games of every
//! built-in, and an Air Attack game full of transfers); the quantised net matches the float model;
//! net files round-trip, and foreign or damaged files are refused without a panic.

use stackchess_core::{Color, Position, Rules, SplitMix64};
use stackchess_nnue::{Features, FloatNet, Net, NetError, Pieces};
use stackchess_variants::{Variant, WithPosition};

fn net_for(inputs: usize, levels: usize, seed: u64) -> (FloatNet, Net) {
    let mut f = FloatNet::random(inputs, 32, seed);
    // Biases away from zero so every neuron's clipping is exercised.
    for (i, b) in f.b1.iter_mut().enumerate() {
        *b = (i as f32 - 16.0) / 40.0;
    }
    f.b2 = 0.05;
    let q = f.quantise("test-rules", levels, "test");
    (f, q)
}

/// Plays random games, `prefer` picking among the legal moves (transfers first, say).
struct Games {
    seed: u64,
    count: u64,
    plies: usize,
    prefer_transfers: bool,
}

impl WithPosition for Games {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let features = Features::of::<P>(rules);
        let (float, net) = net_for(features.inputs(), P::LEVELS, self.seed);
        let mut checked = 0;
        let mut worst = 0.0f32;
        for g in 0..self.count {
            let mut rng = SplitMix64::for_item(self.seed, g);
            let mut pos = rules.startpos();
            let mut acc = net.refresh(&features, &pos);
            for _ in 0..self.plies {
                let moves = pos.moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let transfers: Vec<_> = moves.iter().copied().filter(|m| m.from().level() != m.to().level()).collect();
                let m = if self.prefer_transfers && !transfers.is_empty() && rng.below(4) != 0 {
                    transfers[rng.below(transfers.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                let before = Pieces::of(&pos);
                pos.play_unchecked(m);
                acc.update(&net, &features, &before, &Pieces::of(&pos));
                assert_eq!(acc, net.refresh(&features, &pos), "after {}", pos.to_lfen());
                // The quantised evaluation against the float model.
                let (mut us, mut them) = (Vec::new(), Vec::new());
                features.active(&pos, |w, b| {
                    let (u, t) = if pos.turn() == Color::White { (w, b) } else { (b, w) };
                    us.push(u);
                    them.push(t);
                });
                let exact = float.centipawns(&us, &them);
                let q = net.evaluate(&acc, pos.turn() == Color::White);
                worst = worst.max((exact - q as f32).abs());
                checked += 1;
            }
        }
        assert!(worst <= 8.0, "quantised and float evaluations differ by up to {worst} cp");
        checked
    }
}

#[test]
fn the_accumulator_follows_every_move_and_quantised_matches_float() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let n = v.with(Games { seed: 11 + i as u64, count: 12, plies: 150, prefer_transfers: false });
        assert!(n > 600, "{v}: {n} plies");
    }
    // Air Attack with transfers three times in four: captures on the transfer cell, promotions
    // and castling come up in 40 such games.
    let n = Variant::AirAttack.with(Games { seed: 5, count: 40, plies: 200, prefer_transfers: true });
    assert!(n > 2000, "{n}");
}

#[test]
fn net_files_round_trip_and_refuse_what_they_must() {
    let (_, net) = net_for(12 * 64 * 3, 3, 1);
    let bytes = net.to_bytes();
    assert_eq!(Net::from_bytes(&bytes, "n").unwrap(), net);
    let dir = std::env::temp_dir().join(format!("stackchess-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.nnue");
    net.write(&path).unwrap();
    assert_eq!(Net::read(&path, "test-rules", 3, 64).unwrap(), net);
    // Another rule set: refused, both ids named.
    let e = Net::read(&path, "0123abcd", 3, 64).unwrap_err();
    assert!(matches!(e, NetError::OtherRules { .. }));
    let text = e.to_string();
    assert!(text.contains("test-rules") && text.contains("0123abcd"), "{text}");
    // Cut at many lengths, or one byte changed: refused, never a panic.
    for len in (0..bytes.len()).step_by(997).chain([bytes.len() - 1]) {
        let e = Net::from_bytes(&bytes[..len], "cut").unwrap_err().to_string();
        assert!(e.starts_with("cut: "), "{e}");
    }
    let mut changed = bytes.clone();
    changed[100] ^= 1;
    assert!(Net::from_bytes(&changed, "x").unwrap_err().to_string().contains("checksum"));
    assert!(Net::from_bytes(b"games.csv", "x").unwrap_err().to_string().contains("not a stackchess net"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// FNV-1a, as the net file's checksum.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[test]
fn a_residual_net_keeps_its_base_and_version_1_files_still_read() {
    let (_, mut net) = net_for(12 * 64, 1, 2);
    "format = 2\nvalue.pawn.mg = 100\n".clone_into(&mut net.base);
    let bytes = net.to_bytes();
    assert_eq!(Net::from_bytes(&bytes, "r").unwrap().base, net.base);
    // Cut inside the base: refused, naming it.
    let at = bytes.windows(10).position(|w| w == b"format = 2").unwrap();
    let e = Net::from_bytes(&bytes[..at + 3], "cut").unwrap_err().to_string();
    assert!(e.contains("the base"), "{e}");
    // A version-1 file (no base field) of a plain net reads as the same net.
    net.base.clear();
    let v2 = net.to_bytes();
    let about_end = v2.len() - 8 - 4 - 2 * (net.inputs() * net.hidden + 3 * net.hidden) - 4;
    let mut v1 = v2[..about_end].to_vec();
    assert_eq!(&v2[about_end..about_end + 4], &[0, 0, 0, 0], "the empty base's length");
    v1.extend_from_slice(&v2[about_end + 4..v2.len() - 8]);
    v1[8..10].copy_from_slice(&1u16.to_le_bytes());
    let sum = fnv(&v1);
    v1.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(Net::from_bytes(&v1, "v1").unwrap(), net);
    // An unknown version is refused, naming the versions read.
    let mut v3 = v2.clone();
    v3[8..10].copy_from_slice(&3u16.to_le_bytes());
    let e = Net::from_bytes(&v3, "v3").unwrap_err().to_string();
    assert!(e.contains("version 3") && e.contains("1 and 2"), "{e}");
}
