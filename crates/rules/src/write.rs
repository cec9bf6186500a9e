//! The effective rules as a complete rule file, and the rule set's id.

use crate::{Group, Movement, Promotion, PromotionZone, RuleSet};
use sha2::{Digest, Sha256};
use stackchess_core::StalemateValue;
use stackchess_geometry::Dir;
use std::fmt::Write as _;

/// The rule file, every key given; without `name` and `description` when `names` is false (the
/// canonical form the id hashes).
pub(crate) fn to_toml(r: &RuleSet, names: bool) -> String {
    let mut s = String::new();
    let q = basic_string;
    let list = |v: &[String]| format!("[{}]", v.iter().map(|x| q(x)).collect::<Vec<_>>().join(", "));
    if names {
        let _ = writeln!(s, "name = {}", q(&r.name));
        if !r.description.is_empty() {
            let _ = writeln!(s, "description = {}", q(&r.description));
        }
    }
    let _ = writeln!(s, "castling = {}", r.castling);
    let b = &r.board;
    let _ = writeln!(s, "\n[board]\nlevels = {}", b.levels);
    let _ = writeln!(s, "white-home = {}\nblack-home = {}", b.white_home + 1, b.black_home + 1);
    let _ = writeln!(s, "white = {}\nblack = {}", list(&b.white), list(&b.black));
    s.push_str("\n[pieces]\n");
    let p = &r.pieces;
    for (key, m) in
        [("king", &p.king), ("queen", &p.queen), ("rook", &p.rook), ("bishop", &p.bishop), ("knight", &p.knight)]
    {
        let _ = writeln!(s, "{key} = {}", movement(m));
    }
    let w = &r.pawn;
    let _ = writeln!(s, "\n[pawn]\nsteps = {}\ncaptures = {}", vectors(&w.steps), vectors(&w.captures));
    let _ = writeln!(s, "double-step = {}\nen-passant = {}", w.double_step, w.en_passant);
    let zone = match w.promotion_zone {
        PromotionZone::EnemyHome => "enemy-home",
        PromotionZone::EveryLevel => "every-level",
    };
    let promotion = match w.promotion {
        Promotion::Any => "any",
        Promotion::Lost => "lost",
    };
    let _ = writeln!(s, "promotion-zone = {}\npromotion = {}", q(zone), q(promotion));
    let d = &r.draws;
    let stalemate = match d.stalemate {
        StalemateValue::Draw => "draw",
        StalemateValue::Win => "win",
        StalemateValue::Loss => "loss",
    };
    let _ = writeln!(s, "\n[draws]\nfifty-moves = {}\nrepetition = {}", d.fifty_moves, d.repetition);
    let _ = writeln!(s, "stalemate = {}\ninsufficient-material = {}", q(stalemate), d.insufficient_material);
    let t = &r.transfer;
    let _ = writeln!(s, "\n[transfer]\nenabled = {}\nrange = {}", t.enabled, t.range);
    let _ =
        writeln!(s, "capture-ends-move = {}\nknight-over-occupied = {}", t.capture_ends_move, t.knight_over_occupied);
    s
}

/// `{ planar-orthogonal = "slide", vertical = 2 }`, groups in [`Group::ALL`] order.
fn movement(m: &Movement) -> String {
    let parts: Vec<String> = Group::ALL
        .iter()
        .filter_map(|&g| m.range(g).map(|r| (g, r)))
        .map(|(g, r)| match r.get() {
            1 => format!("{} = \"step\"", g.name()),
            7 => format!("{} = \"slide\"", g.name()),
            n => format!("{} = {n}", g.name()),
        })
        .collect();
    format!("{{ {} }}", parts.join(", "))
}

/// `[[0, 1, 0], [0, 0, 1]]`, in the rule set's (canonical) order.
fn vectors(v: &[Dir]) -> String {
    let parts: Vec<String> = v.iter().map(|d| format!("[{}, {}, {}]", d.df, d.dr, d.dl)).collect();
    format!("[{}]", parts.join(", "))
}

/// The first 16 hex digits of the SHA-256 of the canonical form.
pub(crate) fn id(r: &RuleSet) -> String {
    let digest = Sha256::digest(to_toml(r, false).as_bytes());
    digest.iter().take(8).fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// `t` as a TOML basic string: quotes and backslashes escaped, and every control character
/// (which a basic string may not hold raw) as its escape, so the text reads back as `t`.
fn basic_string(t: &str) -> String {
    let mut out = String::with_capacity(t.len() + 2);
    out.push('"');
    for c in t.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
