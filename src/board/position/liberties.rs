//! Exact liberty questions for tactics and heavy playouts.
//!
//! Pseudo-liberties answer "in atari?" in O(1); these answer "which
//! liberties, up to a few?" by walking the string, stopping as soon as the
//! answer is known, and "would this move be self-atari?" from the
//! neighbouring strings' pseudo-liberties (walking only captured strings).

use std::cell::Cell as Memo;

use super::{Cell, Color, MAX_POINTS, Point, Position, PseudoLiberties};

/// A small set of distinct points, filled up to a limit.
#[derive(Clone, Copy, Debug)]
pub struct FewPoints {
    points: [u16; 4],
    len: u8,
    limit: u8,
}

impl FewPoints {
    /// An empty set that stops growing at `limit` (at most 4) members.
    pub fn with_limit(limit: usize) -> FewPoints {
        FewPoints {
            points: [0; 4],
            len: 0,
            limit: limit.min(4) as u8,
        }
    }

    /// Adds `p` if new; returns false once the set is full.
    #[inline]
    pub fn insert(&mut self, p: u16) -> bool {
        if self.points[..self.len as usize].contains(&p) {
            return self.len < self.limit;
        }
        if self.len < self.limit {
            self.points[self.len as usize] = p;
            self.len += 1;
        }
        self.len < self.limit
    }

    /// The members.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.points[..self.len as usize].iter().map(|&p| Point(p))
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the set reached its limit.
    pub fn is_full(&self) -> bool {
        self.len == self.limit
    }
}

/// Liberty counts of strings, each counted once, for many questions about
/// one position that does not change meanwhile (a tree expansion asks
/// about the same neighbouring strings for every candidate move).
pub struct LibertyMemo {
    /// By string head: its liberties, 1, 2 or 3 (for 3 or more); 0 until counted.
    counts: [Memo<u8>; MAX_POINTS],
    /// The position's stone counts, to catch a memo kept past a move
    /// (debug builds; every move adds a stone of its colour).
    #[cfg(debug_assertions)]
    stone_counts: [u16; 2],
}

impl LibertyMemo {
    /// An empty memo for `position`.
    pub fn new(position: &Position) -> LibertyMemo {
        #[cfg(not(debug_assertions))]
        let _ = position;
        LibertyMemo {
            counts: [const { Memo::new(0) }; MAX_POINTS],
            #[cfg(debug_assertions)]
            stone_counts: position.stone_counts,
        }
    }

    /// The liberties, up to 3, of the string through the stone at `p`:
    /// `position.liberties_up_to(p, 3).len()`, walking each string once.
    #[inline]
    pub fn liberties(&self, position: &Position, p: Point) -> usize {
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            self.stone_counts, position.stone_counts,
            "a memo outlived its position"
        );
        if position.cells[p.idx()].color().is_none() {
            return 0;
        }
        if position.in_atari(p) {
            return 1;
        }
        let memo = &self.counts[position.string_head[p.idx()] as usize];
        if memo.get() == 0 {
            memo.set(position.liberties_up_to(p, 3).len() as u8);
        }
        memo.get() as usize
    }
}

impl Position {
    /// Liberties (up to 3) of the string `color` would make by playing the
    /// empty point `p`, for a move that captures nothing: the empty
    /// neighbours of `p` and its friends' liberties other than `p`.
    pub fn quiet_move_liberties(&self, p: Point, color: Color) -> usize {
        let own = color.cell();
        let mut found = FewPoints::with_limit(3);
        for n in self.geometry.neighbours(p) {
            let cell = self.cells[n.idx()];
            let full = if cell == Cell::Empty {
                !found.insert(n.0)
            } else if cell == own {
                self.liberties_up_to(n, 4)
                    .points()
                    .any(|q| q != p && !found.insert(q.0))
            } else {
                false
            };
            if full {
                return 3;
            }
        }
        found.len()
    }

    /// The only liberty of the string through `p`, if it is in atari.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        if !self.in_atari(p) {
            return None;
        }
        let libs = self.liberties[self.string_head[p.idx()] as usize];
        Some(Point(libs.sole_point()))
    }

    /// Up to `limit` (at most 4) distinct liberties of the string through `p`.
    pub fn liberties_up_to(&self, p: Point, limit: usize) -> FewPoints {
        let mut found = FewPoints::with_limit(limit);
        if self.cells[p.idx()].color().is_none() {
            return found;
        }
        let mut s = p.0;
        loop {
            for n in self.geometry.neighbours(Point(s)) {
                if self.cells[n.idx()] == Cell::Empty && !found.insert(n.0) {
                    return found;
                }
            }
            s = self.next_stone[s as usize];
            if s == p.0 {
                return found;
            }
        }
    }

    /// Whether `color` playing the empty point `p` leaves its new string
    /// with exactly one liberty (captures counted).
    #[inline]
    pub fn is_self_atari(&self, p: Point, color: Color) -> bool {
        // Two empty neighbours are two liberties already: the usual case,
        // answered inline; the rest is out of line.
        self.neighbour_counts[p.idx()].empty() < 2 && self.is_self_atari_crowded(p, color)
    }

    /// [`Position::is_self_atari`] for a point with at most one empty neighbour.
    #[inline(never)]
    fn is_self_atari_crowded(&self, p: Point, color: Color) -> bool {
        let own = color.cell();
        let mut libs = FewPoints::with_limit(2);
        for n in self.geometry.neighbours(p) {
            match self.cells[n.idx()] {
                Cell::Empty => {
                    if !libs.insert(n.0) {
                        return false;
                    }
                }
                Cell::Border => {}
                cell if cell == own => {
                    // The friend's liberties besides `p`, read from its
                    // pseudo-liberties without walking it: take away its
                    // pairs with `p`, one per stone of it next to `p`.
                    // (A stone's head is never 0, the border's.)
                    let head = self.string_head[n.idx()];
                    let mut pairs_with_p = 0;
                    for m in self.geometry.neighbours(p) {
                        pairs_with_p += (self.string_head[m.idx()] == head) as u64;
                    }
                    let others = PseudoLiberties(
                        self.liberties[head as usize].0
                            - pairs_with_p * PseudoLiberties::pair(p.idx()),
                    );
                    if others.is_none() {
                        continue;
                    }
                    if !others.in_atari() {
                        return false;
                    }
                    if !libs.insert(others.sole_point()) {
                        return false;
                    }
                }
                _ => {
                    // Capturing frees the captured neighbour's point. A
                    // bigger capture may free more (below); a single stone
                    // frees only this one.
                    if self.in_atari(n) {
                        if !libs.insert(n.0) {
                            return false;
                        }
                        if self.string_size(n) > 1
                            && !self.add_freed_liberties(n, p, own, &mut libs)
                        {
                            return false;
                        }
                    }
                }
            }
        }
        libs.len() <= 1
    }

    /// For a move on `p` by `own` that captures the string through `n`
    /// (a neighbour of `p`): adds to `libs` every captured stone next to
    /// the new string, i.e. next to `p` or to a friendly string next to
    /// `p`. Returns false once `libs` is full (two liberties or more).
    fn add_freed_liberties(&self, n: Point, p: Point, own: Cell, libs: &mut FewPoints) -> bool {
        let friend_heads = self.geometry.neighbours(p).map(|m| {
            if self.cells[m.idx()] == own {
                self.string_head[m.idx()]
            } else {
                0
            }
        });
        let mut c = n;
        loop {
            let touches_new_string = self.geometry.neighbours(c).into_iter().any(|m| {
                m == p
                    || (self.cells[m.idx()] == own
                        && friend_heads.contains(&self.string_head[m.idx()]))
            });
            if touches_new_string && !libs.insert(c.0) {
                return false;
            }
            c = self.next_in_string(c);
            if c == n {
                return true;
            }
        }
    }

    /// The stone after `p` in its string (circular; `p` itself for a lone stone).
    #[inline]
    pub fn next_in_string(&self, p: Point) -> Point {
        Point(self.next_stone[p.idx()])
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Color, GameKind, Geometry, Point, Position};
    use crate::search::{FastRng, light_playout};
    use rand_xoshiro::rand_core::SeedableRng;

    fn at(position: &Position, col: usize, row: usize) -> crate::board::Point {
        position.geometry().point(col, row).unwrap()
    }

    #[test]
    fn atari_liberty_and_few_liberties() {
        let p = Position::from_text(
            ".....
             .XO..
             .XXO.
             ..O..
             .....",
            GameKind::Go,
        )
        .unwrap();
        // White O at C4 (col 2,row 3) has liberties C5 and D4.
        let white = at(&p, 2, 3);
        assert_eq!(p.liberties_up_to(white, 4).len(), 2);
        assert_eq!(p.atari_liberty(white), None);
        let black = at(&p, 1, 2);
        assert_eq!(p.liberties_up_to(black, 4).len(), 4);
        assert!(p.liberties_up_to(black, 2).is_full());
    }

    #[test]
    fn joined_size_counts_each_friendly_string_once() {
        let p = Position::from_text(
            "...X.
             .X...
             .X.X.
             .XXX.
             .....",
            GameKind::Go,
        )
        .unwrap();
        // C3 touches the six-stone string three times: counted once.
        assert_eq!(p.joined_size(at(&p, 2, 2), Color::Black), 7);
        // D4 joins that string and the lone D5.
        assert_eq!(p.joined_size(at(&p, 3, 3), Color::Black), 8);
        assert_eq!(p.joined_size(at(&p, 0, 0), Color::Black), 1);
        assert_eq!(p.joined_size(at(&p, 2, 2), Color::White), 1);
    }

    #[test]
    fn self_atari_detection() {
        let p = Position::from_text(
            "O.O..
             XOX..
             .X...
             .....
             .....",
            GameKind::Go,
        )
        .unwrap();
        assert_eq!(p.atari_liberty(at(&p, 1, 3)), Some(at(&p, 1, 4)));
        assert_eq!(p.atari_liberty(at(&p, 2, 4)), None);
        // Black B5 captures B4 and A5: plenty of liberties.
        assert!(!p.is_self_atari(at(&p, 1, 4), Color::Black));
        // White A3 captures A4 (its last liberty): not self-atari either.
        assert!(!p.is_self_atari(at(&p, 0, 2), Color::White));
        assert!(!p.is_self_atari(at(&p, 0, 1), Color::White));
        let q = Position::from_text(
            "X..
             .X.
             ...",
            GameKind::Go,
        )
        .unwrap();
        // White B3 keeps only C3.
        assert!(q.is_self_atari(at(&q, 1, 2), Color::White));
        assert!(!q.is_self_atari(at(&q, 2, 2), Color::White));
        // Black B3 joins A3 and B2 with plenty of liberties.
        assert!(!q.is_self_atari(at(&q, 1, 2), Color::Black));
    }

    /// `is_self_atari`, which reads friends' liberties from their
    /// pseudo-liberties, agrees with playing the move and counting, on
    /// positions cut from random playouts.
    #[test]
    fn self_atari_matches_playing_the_move() {
        let mut rng = FastRng::seed_from_u64(11);
        let mut checked = 0;
        for size in [5, 9, 13] {
            let root = Position::new(Geometry::square(size).unwrap(), GameKind::Go);
            for k in 0..300u32 {
                let mut position = root.clone();
                light_playout(&mut position, 7.0, k % (2 * size * size) as u32, &mut rng);
                for &q in position.empty_points() {
                    let q = Point(q);
                    for color in [Color::Black, Color::White] {
                        if !position.is_legal(q, color) {
                            continue;
                        }
                        let mut after = position.clone();
                        after.play(q, color);
                        let one_liberty = after.liberties_up_to(q, 2).len() == 1;
                        assert_eq!(
                            position.is_self_atari(q, color),
                            one_liberty,
                            "{size}x{size} {q:?} {color:?}\n{}",
                            position.to_text()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 50_000, "only {checked} moves checked");
    }
}
