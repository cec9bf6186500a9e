//! The variation tree of one board: every position reached, each move once per position, the
//! first child the main line (as lichess keeps one), with a cap on its size.

use serde::Serialize;
use stackchess_core::{san, Move, Position};

/// One position of the tree and the move that reached it.
#[derive(Clone, Debug)]
pub struct Node<P> {
    /// The node before (none for the root).
    pub parent: Option<usize>,
    /// The move from the parent (none for the root).
    pub mv: Option<Move>,
    /// That move in SAN (empty for the root).
    pub san: String,
    /// The position after the move.
    pub pos: P,
    /// The moves played from here, main line first.
    pub children: Vec<usize>,
    /// The child last stepped into, where "forward" goes.
    pub last: Option<usize>,
}

/// A tree of positions from one root.
#[derive(Clone, Debug)]
pub struct Tree<P> {
    nodes: Vec<Node<P>>,
    cap: usize,
}

/// What the page draws of a node: parent, SAN, children.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct NodeView {
    /// Parent id (`null` for the root).
    pub p: Option<usize>,
    /// SAN of the move that reached it.
    pub s: String,
    /// Children, main line first.
    pub c: Vec<usize>,
}

impl<P: Position> Tree<P> {
    /// A tree holding `root` alone, at most `cap` nodes.
    pub fn new(root: P, cap: usize) -> Tree<P> {
        let node = Node { parent: None, mv: None, san: String::new(), pos: root, children: Vec::new(), last: None };
        Tree { nodes: vec![node], cap: cap.max(1) }
    }

    /// The node `id`, if there is one.
    #[must_use]
    pub fn get(&self, id: usize) -> Option<&Node<P>> {
        self.nodes.get(id)
    }

    /// The number of nodes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The most nodes the tree holds.
    #[must_use]
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Plays the legal move `mv` at node `at`: the child it reaches (an existing one when the move
    /// was played here before).
    ///
    /// # Errors
    /// When the tree is full.
    pub fn add(&mut self, at: usize, mv: Move) -> Result<usize, String> {
        if let Some(&c) = self.nodes[at].children.iter().find(|&&c| self.nodes[c].mv == Some(mv)) {
            return Ok(c);
        }
        if self.nodes.len() >= self.cap {
            return Err(format!(
                "the move tree is full ({} positions): delete a variation or start a new game",
                self.cap
            ));
        }
        let parent = &self.nodes[at].pos;
        let text = san(parent, mv);
        let mut pos = parent.clone();
        pos.play_unchecked(mv);
        let id = self.nodes.len();
        self.nodes.push(Node { parent: Some(at), mv: Some(mv), san: text, pos, children: Vec::new(), last: None });
        self.nodes[at].children.push(id);
        Ok(id)
    }

    /// The ids from the root to `id`, both included.
    #[must_use]
    pub fn path(&self, id: usize) -> Vec<usize> {
        let mut out = vec![id];
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            out.push(p);
            at = p;
        }
        out.reverse();
        out
    }

    /// Marks the path to `id` as the one "forward" follows.
    pub fn visit(&mut self, id: usize) {
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            self.nodes[p].last = Some(at);
            at = p;
        }
    }

    /// Where "forward" goes from `id`: the child last visited, else the main line.
    #[must_use]
    pub fn forward(&self, id: usize) -> Option<usize> {
        let n = &self.nodes[id];
        n.last.or_else(|| n.children.first().copied())
    }

    /// The end of the line through `id`: forward from it until there is no move.
    #[must_use]
    pub fn line_end(&self, id: usize) -> usize {
        let mut at = id;
        while let Some(next) = self.forward(at) {
            at = next;
        }
        at
    }

    /// Makes the line through `id` the main line at every branch above it.
    pub fn promote(&mut self, id: usize) {
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            let kids = &mut self.nodes[p].children;
            if let Some(i) = kids.iter().position(|&c| c == at) {
                let c = kids.remove(i);
                kids.insert(0, c);
            }
            at = p;
        }
    }

    /// Removes `id` and everything after it (not the root); the ids are renumbered in order, and
    /// the new id of each node kept is returned by the map (`None` for those removed).
    pub fn delete(&mut self, id: usize) -> Vec<Option<usize>> {
        let mut removed = vec![false; self.nodes.len()];
        if id == 0 || id >= self.nodes.len() {
            return (0..self.nodes.len()).map(Some).collect();
        }
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            removed[n] = true;
            stack.extend(&self.nodes[n].children);
        }
        let mut map = vec![None; self.nodes.len()];
        let mut next = 0;
        for (i, r) in removed.iter().enumerate() {
            if !r {
                map[i] = Some(next);
                next += 1;
            }
        }
        let old = std::mem::take(&mut self.nodes);
        for (i, mut n) in old.into_iter().enumerate() {
            if removed[i] {
                continue;
            }
            n.parent = n.parent.and_then(|p| map[p]);
            n.children = n.children.iter().filter_map(|&c| map[c]).collect();
            n.last = n.last.and_then(|c| map[c]);
            self.nodes.push(n);
        }
        map
    }

    /// The tree as the page draws it, in id order.
    #[must_use]
    pub fn view(&self) -> Vec<NodeView> {
        self.nodes.iter().map(|n| NodeView { p: n.parent, s: n.san.clone(), c: n.children.clone() }).collect()
    }
}
