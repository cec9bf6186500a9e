//! The board turned over, as the rules see the other side: ranks mirrored, and the levels
//! mirrored between the kings' home levels (both kings on one level: levels unchanged). What a
//! colour-swapped opening and a network's Black perspective are made with.

use crate::{Cell, Position, Role, Rules};

/// The cell each cell goes to when the board is turned over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mirror {
    levels: Vec<usize>,
}

impl Mirror {
    /// The mirror of `rules`' board, from where the kings start; `None` when the kings' home
    /// levels are no mirror of the stack (neither one level nor symmetric about its middle).
    #[must_use]
    pub fn of<P: Position>(rules: P::Rules) -> Option<Mirror> {
        let mut home = [None, None];
        rules.startpos().for_each_piece(|c, p| {
            if p.role == Role::King {
                home[p.color.index()] = Some(c.level());
            }
        });
        let (w, b) = (home[0]?, home[1]?);
        let n = P::LEVELS;
        if w == b {
            return Some(Mirror { levels: (0..n).collect() });
        }
        (w + b == n - 1).then(|| Mirror { levels: (0..n).map(|l| n - 1 - l).collect() })
    }

    /// The ranks mirrored and the levels left as they are (for rules that have no [`Mirror::of`]).
    #[must_use]
    pub fn ranks_only(levels: usize) -> Mirror {
        Mirror { levels: (0..levels).collect() }
    }

    /// Where `cell` goes.
    #[must_use]
    pub fn cell(&self, cell: Cell) -> Cell {
        Cell::from_index(self.levels[cell.level()] * 64 + (7 - cell.rank()) * 8 + cell.file())
    }
}
