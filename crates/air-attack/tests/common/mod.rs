//! A slow, literal transcription of the Air Attack rules (docs/rules.md §3) on a mailbox, to check the fast generator.
//!
//! Attack is tested exactly as §2.2 defines it: a cell is attacked if some enemy move, normal
//! or transfer, could capture a piece standing on it.

#![allow(dead_code)]

use stackchess_air_attack::AirAttack;
use stackchess_core::{Castling, Color, Piece, Position, Role};

/// A mailbox: `cells[level][rank][file]`.
#[derive(Clone, Copy, Debug)]
pub struct Mailbox {
    pub cells: [[[Option<Piece>; 8]; 8]; 2],
    pub turn: Color,
    pub castling: Castling,
    /// The en-passant cell as (file, rank, level).
    pub ep: Option<(i32, i32, i32)>,
}

/// A move as (from, to, promotion), cells as (file, rank, level).
pub type SlowMove = ((i32, i32, i32), (i32, i32, i32), Option<Role>);

const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KING: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

fn on(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

impl Mailbox {
    pub fn from(p: &AirAttack) -> Mailbox {
        let mut cells = [[[None; 8]; 8]; 2];
        p.for_each_piece(|c, pc| cells[c.level()][c.rank()][c.file()] = Some(pc));
        let ep = p.ep_cell().map(|c| (c.file() as i32, c.rank() as i32, c.level() as i32));
        Mailbox { cells, turn: p.turn(), castling: p.castling(), ep }
    }

    pub fn at(&self, f: i32, r: i32, l: i32) -> Option<Piece> {
        self.cells[l as usize][r as usize][f as usize]
    }

    fn set(&mut self, (f, r, l): (i32, i32, i32), p: Option<Piece>) {
        self.cells[l as usize][r as usize][f as usize] = p;
    }

    fn rays(role: Role) -> &'static [(i32, i32)] {
        match role {
            Role::Rook => &ROOK,
            Role::Bishop => &BISHOP,
            _ => &KING,
        }
    }

    /// Every move of `color`, ignoring the safety of its own king and castling.
    pub fn pseudo(&self, color: Color) -> Vec<SlowMove> {
        let mut out = Vec::new();
        let fwd = if color == Color::White { 1 } else { -1 };
        let last = if color == Color::White { 7 } else { 0 };
        let home_rank = if color == Color::White { 1 } else { 6 };
        for l in 0..2 {
            for r in 0..8 {
                for f in 0..8 {
                    let Some(p) = self.at(f, r, l) else { continue };
                    if p.color != color {
                        continue;
                    }
                    let from = (f, r, l);
                    let mut add = |to: (i32, i32, i32)| {
                        if p.role == Role::Pawn && to.1 == last {
                            for q in Role::PROMOTIONS {
                                out.push((from, to, Some(q)));
                            }
                        } else {
                            out.push((from, to, None));
                        }
                    };
                    let free = |x: i32, y: i32, z: i32| self.at(x, y, z).is_none_or(|q| q.color != color);
                    let enemy = |x: i32, y: i32, z: i32| self.at(x, y, z).is_some_and(|q| q.color != color);
                    let empty = |x: i32, y: i32, z: i32| self.at(x, y, z).is_none();
                    // (A) Normal moves within level l.
                    match p.role {
                        Role::Knight | Role::King => {
                            let v: &[(i32, i32)] = if p.role == Role::Knight { &KNIGHT } else { &KING };
                            for &(df, dr) in v {
                                if on(f + df, r + dr) && free(f + df, r + dr, l) {
                                    add((f + df, r + dr, l));
                                }
                            }
                        }
                        Role::Pawn => {
                            if on(f, r + fwd) && empty(f, r + fwd, l) {
                                add((f, r + fwd, l));
                                if l == 0 && r == home_rank && empty(f, r + 2 * fwd, l) {
                                    add((f, r + 2 * fwd, l));
                                }
                            }
                            for df in [-1, 1] {
                                let to = (f + df, r + fwd, l);
                                if on(to.0, to.1) && (enemy(to.0, to.1, l) || self.ep == Some(to)) {
                                    add(to);
                                }
                            }
                        }
                        _ => {
                            for &(df, dr) in Self::rays(p.role) {
                                let (mut x, mut y) = (f + df, r + dr);
                                while on(x, y) {
                                    if free(x, y, l) {
                                        add((x, y, l));
                                    }
                                    if !empty(x, y, l) {
                                        break;
                                    }
                                    x += df;
                                    y += dr;
                                }
                            }
                        }
                    }
                    // (B) Transfer moves: T is (f, r, 1 - l).
                    let o = 1 - l;
                    if p.role == Role::Knight {
                        for &(df, dr) in &KNIGHT {
                            if on(f + df, r + dr) && free(f + df, r + dr, o) {
                                add((f + df, r + dr, o));
                            }
                        }
                        continue;
                    }
                    match self.at(f, r, o) {
                        Some(q) if q.color == color => continue,
                        Some(_) => {
                            add((f, r, o));
                            continue;
                        }
                        None => add((f, r, o)),
                    }
                    match p.role {
                        Role::Pawn => {
                            if l == 0 && r == home_rank {
                                if on(f, r + fwd) && empty(f, r + fwd, o) {
                                    add((f, r + fwd, o));
                                }
                                for df in [-1, 1] {
                                    if on(f + df, r + fwd) && enemy(f + df, r + fwd, o) {
                                        add((f + df, r + fwd, o));
                                    }
                                }
                            }
                        }
                        Role::King => {
                            for &(df, dr) in &KING {
                                if on(f + df, r + dr) && free(f + df, r + dr, o) {
                                    add((f + df, r + dr, o));
                                }
                            }
                        }
                        _ => {
                            for &(df, dr) in Self::rays(p.role) {
                                for k in 1..=4 {
                                    let (x, y) = (f + k * df, r + k * dr);
                                    if !on(x, y) {
                                        break;
                                    }
                                    if free(x, y, o) {
                                        add((x, y, o));
                                    }
                                    if !empty(x, y, o) {
                                        break;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether `by` could capture a piece standing on `cell` (a stand-in is put there if empty).
    pub fn attacked(&self, cell: (i32, i32, i32), by: Color) -> bool {
        let mut b = *self;
        if b.at(cell.0, cell.1, cell.2).is_none() {
            b.set(cell, Some(Piece { color: by.other(), role: Role::Pawn }));
        }
        b.ep = None;
        b.pseudo(by).iter().any(|m| m.1 == cell)
    }

    fn king(&self, c: Color) -> (i32, i32, i32) {
        for l in 0..2 {
            for r in 0..8 {
                for f in 0..8 {
                    if self.at(f, r, l) == Some(Piece { color: c, role: Role::King }) {
                        return (f, r, l);
                    }
                }
            }
        }
        panic!("no king")
    }

    /// The board after a pseudo-legal move (en passant and castling included).
    fn after(&self, (from, to, promo): SlowMove) -> Mailbox {
        let mut b = *self;
        let p = b.at(from.0, from.1, from.2).expect("a piece moves");
        if p.role == Role::Pawn && Some(to) == self.ep && from.2 == to.2 && from.0 != to.0 {
            b.set((to.0, from.1, to.2), None);
        }
        if p.role == Role::King && from.2 == to.2 && (from.0 - to.0).abs() == 2 {
            let (rf, rt) = if to.0 == 6 { (7, 5) } else { (0, 3) };
            let rook = b.at(rf, from.1, from.2);
            b.set((rf, from.1, from.2), None);
            b.set((rt, from.1, from.2), rook);
        }
        b.set(from, None);
        b.set(to, Some(Piece { color: p.color, role: promo.unwrap_or(p.role) }));
        b.turn = p.color.other();
        b
    }

    /// The legal moves of the side to move.
    pub fn legal(&self) -> Vec<SlowMove> {
        let us = self.turn;
        let mut out: Vec<SlowMove> = self
            .pseudo(us)
            .into_iter()
            .filter(|&m| {
                let b = self.after(m);
                !b.attacked(b.king(us), us.other())
            })
            .collect();
        // Castling: king and rook on their home cells with the right, the cells between empty,
        // the king not in check, the crossed cell not attacked, the king safe after.
        let rank = if us == Color::White { 0 } else { 7 };
        for (long, rook_file, king_to, cross, between) in
            [(false, 7, 6, 5, &[5, 6][..]), (true, 0, 2, 3, &[1, 2, 3][..])]
        {
            if !self.castling.has(us, long) {
                continue;
            }
            assert_eq!(self.at(4, rank, 0), Some(Piece { color: us, role: Role::King }));
            assert_eq!(self.at(rook_file, rank, 0), Some(Piece { color: us, role: Role::Rook }));
            if between.iter().any(|&f| self.at(f, rank, 0).is_some())
                || self.attacked((4, rank, 0), us.other())
                || self.attacked((cross, rank, 0), us.other())
            {
                continue;
            }
            let m = ((4, rank, 0), (king_to, rank, 0), None);
            let b = self.after(m);
            if !b.attacked(b.king(us), us.other()) {
                out.push(m);
            }
        }
        out
    }
}

/// The fast generator's legal moves, as slow moves.
pub fn fast_moves(p: &AirAttack) -> Vec<SlowMove> {
    let c = |c: stackchess_core::Cell| (c.file() as i32, c.rank() as i32, c.level() as i32);
    p.moves().iter().map(|m| (c(m.from()), c(m.to()), m.promotion())).collect()
}
