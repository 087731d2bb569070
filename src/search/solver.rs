//! Exact NoGo solving by negamax with a transposition table.

use std::collections::HashMap;

use crate::board::{Color, GameKind, Point, Position};

/// The proven result of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Who wins with perfect play.
    pub winner: Color,
    /// Positions searched.
    pub nodes: u64,
}

/// Solves a NoGo position exactly (the side to move loses when it has no
/// legal move). Returns `None` for a Go position.
pub fn solve_nogo(position: &Position) -> Option<Solution> {
    if position.kind() != GameKind::NoGo {
        return None;
    }
    let mut search = Negamax {
        table: HashMap::new(),
        nodes: 0,
    };
    let mover = position.to_move();
    let mover_wins = search.wins(position);
    Some(Solution {
        winner: if mover_wins { mover } else { mover.opponent() },
        nodes: search.nodes,
    })
}

struct Negamax {
    /// Side-to-move-keyed hash -> whether the side to move wins.
    table: HashMap<u64, bool>,
    nodes: u64,
}

impl Negamax {
    fn wins(&mut self, position: &Position) -> bool {
        let key = position.hash_with_side();
        if let Some(&known) = self.table.get(&key) {
            return known;
        }
        self.nodes += 1;
        let mover = position.to_move();
        let mut child = position.clone();
        let mut result = false;
        for &p in position.empty_points() {
            let p = Point(p);
            if !position.is_legal(p, mover) {
                continue;
            }
            child.copy_from(position);
            child.play(p, mover);
            if !self.wins(&child) {
                result = true;
                break;
            }
        }
        self.table.insert(key, result);
        result
    }
}
