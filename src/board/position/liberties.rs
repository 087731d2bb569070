//! Exact liberty questions for tactics and heavy playouts.
//!
//! Pseudo-liberties answer "in atari?" in O(1); these answer "which
//! liberties, up to a few?" and "would this move be self-atari?" by walking
//! the string, stopping as soon as the answer is known.

use super::{Cell, Color, Point, Position};

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

impl Position {
    /// The only liberty of the string through `p`, if it is in atari.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        if !self.in_atari(p) {
            return None;
        }
        let libs = self.liberties[self.string_head[p.idx()] as usize];
        Some(Point((libs.sum() / libs.count()) as u16))
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
    pub fn is_self_atari(&self, p: Point, color: Color) -> bool {
        // Two empty neighbours are two liberties already (the usual case).
        if self.neighbour_counts[p.idx()].empty() >= 2 {
            return false;
        }
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
                    let mut s = n.0;
                    loop {
                        for m in self.geometry.neighbours(Point(s)) {
                            if m != p && self.cells[m.idx()] == Cell::Empty && !libs.insert(m.0) {
                                return false;
                            }
                        }
                        s = self.next_stone[s as usize];
                        if s == n.0 {
                            break;
                        }
                    }
                }
                _ => {
                    // Capturing frees at least the captured neighbour's point.
                    if self.in_atari(n) && !libs.insert(n.0) {
                        return false;
                    }
                }
            }
        }
        libs.len() <= 1
    }

    /// The stone after `p` in its string (circular; `p` itself for a lone stone).
    #[inline]
    pub fn next_in_string(&self, p: Point) -> Point {
        Point(self.next_stone[p.idx()])
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Color, GameKind, Position};

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
}
