//! Where each cell stands, read from the rules' level count and start position alone.

use stackchess_core::{Cell, Color, Position, Role, Rules};

/// Per-cell numbers the evaluation's terms count in.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    /// Steps (file plus rank) nearer the centre of the board than a corner: 0 to 6.
    pub closeness: Vec<i32>,
    /// Level steps nearer the central level: 1 on the middle level of three (and on the two
    /// middle levels of four), else 0.
    pub level: Vec<i32>,
    /// Distance from the centre of the stack in half steps (mop-up): the planar half steps
    /// plus the half level steps from the nearest central level.
    pub edge: Vec<i32>,
    /// Pawns: how near the centre the file is (0 to 3).
    pub file_closeness: Vec<i32>,
    /// Per colour: ranks and levels the cell stands from that side's home rank and king's home level.
    pub from_home: [Vec<i32>; 2],
    /// Per colour: steps a pawn on the cell has done toward promotion (0 to 6).
    pub progress: [Vec<i32>; 2],
}

/// Level of each side's king in the start position: its home level.
fn home_levels<P: Position>(rules: P::Rules) -> [usize; 2] {
    let mut home = [0, P::LEVELS - 1];
    rules.startpos().for_each_piece(|c, p| {
        if p.role == Role::King {
            home[p.color.index()] = c.level();
        }
    });
    home
}

impl Geometry {
    /// A pawn promotes on the last rank of the enemy king's home level, so it needs the ranks and
    /// the levels left, whichever is more (a pawn steps forward, across the levels, or both).
    /// Where both kings start on one level (Air Attack), a pawn on the other level has one level
    /// to go, never more than its ranks left: the rank alone counts, as the rules say.
    pub fn new<P: Position>(rules: P::Rules) -> Geometry {
        let levels = P::LEVELS as i32;
        let cells = 64 * P::LEVELS;
        let home = home_levels::<P>(rules).map(|h| h as i32);
        let mut g = Geometry {
            closeness: vec![0; cells],
            level: vec![0; cells],
            edge: vec![0; cells],
            file_closeness: vec![0; cells],
            from_home: [vec![0; cells], vec![0; cells]],
            progress: [vec![0; cells], vec![0; cells]],
        };
        for i in 0..cells {
            let cell = Cell::from_index(i);
            let (f, r, l) = (cell.file() as i32, cell.rank() as i32, cell.level() as i32);
            let off_centre = (2 * l - (levels - 1)).abs();
            // Both are even: |2f − 7| and |2r − 7| are odd, and (L − 1) − |2l − (L − 1)| is 0 or 2.
            let planar = (2 * f - 7).abs() + (2 * r - 7).abs();
            g.closeness[i] = (14 - planar) / 2;
            g.level[i] = ((levels - 1) - off_centre) / 2;
            g.edge[i] = planar + off_centre - (levels - 1) % 2;
            g.file_closeness[i] = (7 - (2 * f - 7).abs()) / 2;
            for color in Color::ALL {
                let ci = color.index();
                let own_rank = if color == Color::White { r } else { 7 - r };
                let (home_l, promo_l) = (home[ci], home[1 - ci]);
                g.from_home[ci][i] = own_rank + (l - home_l).abs();
                let needed = (7 - own_rank).max((promo_l - l).abs());
                g.progress[ci][i] = (6 - needed).max(0);
            }
        }
        g
    }
}

/// King steps between two cells (of 7: 7 on the same cell, 0 seven steps or more apart).
pub(crate) fn nearness(a: Cell, b: Cell) -> i32 {
    let dist = a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())).max(a.level().abs_diff(b.level()));
    7 - dist.min(7) as i32
}

/// Whether a pawn of `color` on `pawn` shelters its king on `king`: on the king's level or the
/// next, on its file or the next, one or two ranks ahead of it.
pub(crate) fn shelters(color: Color, king: Cell, pawn: Cell) -> bool {
    let ahead = if color == Color::White {
        pawn.rank() as i32 - king.rank() as i32
    } else {
        king.rank() as i32 - pawn.rank() as i32
    };
    (1..=2).contains(&ahead) && pawn.file().abs_diff(king.file()) <= 1 && pawn.level().abs_diff(king.level()) <= 1
}
