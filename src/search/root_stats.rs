//! Statistics the root gathers beside its children's counts, for scored
//! games: each root move's mean final margin (the score lead analysis
//! shows) and its criticality (how much owning its point decides the game).

use std::sync::atomic::{AtomicI64, AtomicU32, Ordering::Relaxed};

use crate::board::{Cell, Color, Point, Position};

/// Complete playouts through a root child before its criticality counts
/// (Pachi waits for 2,000 too: below that the correlation is noise).
const CRITICALITY_MIN_PLAYOUTS: u32 = 2000;

/// Criticality (Coulom 2009) of the root's moves, Go only: over the
/// complete playouts through each root child, how often the child's point
/// ended up Black's and the winner's. Where the point's owner is the
/// playout's winner more often than chance would have it, the move is
/// where the game is decided, and its AMAF value rises.
pub struct RootCriticality {
    /// Per root child, in the children's order: complete decided playouts,
    /// Black's wins among them, those where the point ended Black's, and
    /// those where it ended the winner's.
    counts: Vec<[AtomicU32; 4]>,
}

impl RootCriticality {
    /// Empty counts for a root with `children` children.
    pub fn new(children: usize) -> RootCriticality {
        RootCriticality {
            counts: (0..children).map(|_| Default::default()).collect(),
        }
    }

    /// Counts a playout through root child `child`, whose point ended up
    /// `owner`'s, won by `winner`.
    pub(super) fn record(&self, child: usize, owner: Option<Color>, winner: Color) {
        let Some([playouts, black_wins, black_owns, winner_owns]) = self.counts.get(child) else {
            return;
        };
        playouts.fetch_add(1, Relaxed);
        black_wins.fetch_add((winner == Color::Black) as u32, Relaxed);
        black_owns.fetch_add((owner == Some(Color::Black)) as u32, Relaxed);
        winner_owns.fetch_add((owner == Some(winner)) as u32, Relaxed);
    }

    /// Root child `child`'s criticality: how much more often its point's
    /// owner won than if ownership and winning were independent, in
    /// [-1, 1]; `None` before enough playouts.
    pub(super) fn of(&self, child: usize) -> Option<f32> {
        let [playouts, black_wins, black_owns, winner_owns] = self.counts.get(child)?;
        let n = playouts.load(Relaxed);
        if n < CRITICALITY_MIN_PLAYOUTS {
            return None;
        }
        let share = |count: &AtomicU32| count.load(Relaxed) as f32 / n as f32;
        let (win, black, owner_won) = (share(black_wins), share(black_owns), share(winner_owns));
        // A point left to neither side counts as White's here (as in Pachi):
        // such points are rare at the end of a complete playout.
        let white = 1.0 - black;
        Some(owner_won - (black * win + white * (1.0 - win)))
    }
}

/// Per root child, the final margins of this search's Go playouts through
/// it: what the move is worth in points, beside how often it wins.
pub struct RootScores {
    /// Per root child, in the children's order: the sum of Black's margins
    /// at the real komi, in half points.
    half_point_sums: Vec<AtomicI64>,
    /// Per root child: the playouts counted in its sum.
    playouts: Vec<AtomicU32>,
}

impl RootScores {
    /// Empty sums for a root with at most `children` children.
    pub fn new(children: usize) -> RootScores {
        RootScores {
            half_point_sums: (0..children).map(|_| AtomicI64::new(0)).collect(),
            playouts: (0..children).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// How many root children it has room for.
    pub fn children(&self) -> usize {
        self.playouts.len()
    }

    /// Counts a playout through root child `child` that Black ended
    /// `black_margin` points up at the real komi.
    pub(super) fn record(&self, child: usize, black_margin: f32) {
        if let (Some(sum), Some(playouts)) =
            (self.half_point_sums.get(child), self.playouts.get(child))
        {
            sum.fetch_add((2.0 * black_margin).round() as i64, Relaxed);
            playouts.fetch_add(1, Relaxed);
        }
    }

    /// Root child `child`'s mean margin for Black at the real komi (`None`
    /// before any playout).
    pub fn mean(&self, child: usize) -> Option<f64> {
        let playouts = self.playouts.get(child)?.load(Relaxed);
        let sum = self.half_point_sums.get(child)?.load(Relaxed);
        (playouts > 0).then(|| sum as f64 / (2.0 * playouts as f64))
    }
}

/// Who owns `p` at the end of a playout: its stone's colour, or the colour
/// of every stone around an empty point; `None` for a point between both.
pub(super) fn final_owner(position: &Position, p: Point) -> Option<Color> {
    if let Some(color) = position.cell(p).color() {
        return Some(color);
    }
    let mut owner = None;
    for &n in &position.geometry().neighbours(p) {
        match (position.cell(n), owner) {
            (Cell::Border, _) => {}
            (cell, None) => owner = Some(cell.color()?),
            (cell, Some(color)) if cell.color() == Some(color) => {}
            _ => return None,
        }
    }
    owner
}

#[cfg(test)]
mod tests {
    use super::{CRITICALITY_MIN_PLAYOUTS, RootCriticality, final_owner};
    use crate::board::{Color, GameKind, Position};

    #[test]
    fn criticality_measures_how_much_a_points_owner_wins_beyond_chance() {
        let critical = RootCriticality::new(2);
        // Child 0: its point's owner always wins, each side half the time.
        // Child 1: Black owns its point and wins half the time, unrelated.
        for k in 0..CRITICALITY_MIN_PLAYOUTS {
            let winner = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            critical.record(0, Some(winner), winner);
            critical.record(1, Some(Color::Black), winner);
        }
        assert!((critical.of(0).unwrap() - 0.5).abs() < 1e-6);
        assert!(critical.of(1).unwrap().abs() < 1e-6);
        let young = RootCriticality::new(1);
        young.record(0, Some(Color::Black), Color::Black);
        assert_eq!(young.of(0), None, "too few playouts to tell");
    }

    #[test]
    fn a_final_owner_is_the_stone_or_the_colour_around_an_empty_point() {
        let p = Position::from_text(
            ". X O
             X X .
             O . X",
            GameKind::Go,
        )
        .unwrap();
        let at = |col, row| p.geometry().point(col, row).unwrap();
        assert_eq!(final_owner(&p, at(0, 2)), Some(Color::Black));
        assert_eq!(final_owner(&p, at(1, 1)), Some(Color::Black));
        assert_eq!(final_owner(&p, at(2, 1)), None, "between both colours");
        assert_eq!(final_owner(&p, at(0, 0)), Some(Color::White));
    }
}
