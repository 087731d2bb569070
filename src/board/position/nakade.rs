//! Killing sacrifices: a self-atari inside the opponent's only eye space
//! whose string, once captured, leaves a space the opponent cannot make
//! two eyes in (the classic nakade shapes).
//!
//! Playouts and priors shun self-atari of more than a stone or two, so
//! without this they treat a group whose eye space is, say, a square of
//! four as alive in seki: the attacker never throws in the fourth stone
//! that kills it.

use super::{Cell, Color, Point, Position};

/// Eye spaces of three to six points that die when the attacker moves
/// first, one drawing each on a 3x3 grid (rows separated by spaces, `#` a
/// point of the space): straight and bent three, square and pyramid four,
/// bulky and crossed five, rabbity six. Every other space of up to six
/// points lets its owner make two eyes; one or two points are always a
/// single eye.
const DEAD_EYE_SPACES: [&str; 7] = [
    "### ... ...",
    "##. #.. ...",
    "##. ##. ...",
    "### .#. ...",
    "### ##. ...",
    ".#. ### .#.",
    "##. ### .#.",
];

/// Largest string a killing sacrifice can be (rabbity six).
const MAX_SACRIFICE_STONES: usize = 6;

/// Every orientation of every dead eye space, as [`oriented_mask`] draws
/// it, as a set of 9-bit masks (bit `m` of the 512): an eye space is dead
/// when its plain mask is in it, so a test needs no symmetry loop.
const DEAD_MASKS: [u64; 8] = {
    let mut set = [0u64; 8];
    let mut k = 0;
    while k < DEAD_EYE_SPACES.len() {
        let drawing = DEAD_EYE_SPACES[k].as_bytes();
        let mut points = [(0, 0); 9];
        let mut count = 0;
        let mut i = 0;
        while i < drawing.len() {
            if drawing[i] == b'#' {
                // Four characters a row: three points and a space.
                points[count] = ((i % 4) as u8, (i / 4) as u8);
                count += 1;
            }
            i += 1;
        }
        let mut symmetry = 0;
        while symmetry < 8 {
            let mask = oriented_mask(&points, count, symmetry) as usize;
            set[mask / 64] |= 1 << (mask % 64);
            symmetry += 1;
        }
        k += 1;
    }
    set
};

/// Whether a mask drawn by [`oriented_mask`] is one of [`DEAD_MASKS`].
fn is_dead_mask(mask: u16) -> bool {
    let mask = mask as usize;
    DEAD_MASKS[mask / 64] >> (mask % 64) & 1 != 0
}

/// The shape of `points[..count]` (coordinates in 0..3) turned by
/// `symmetry` (bit 2 swaps columns and rows, bits 0 and 1 mirror them),
/// as a 3x3 bit mask, bit `3 row + col`, translated to the grid's corner.
/// Symmetry 0 leaves the shape as it is.
const fn oriented_mask(points: &[(u8, u8); 9], count: usize, symmetry: usize) -> u16 {
    let mut moved = [(0u8, 0u8); 9];
    let (mut min_col, mut min_row) = (2, 2);
    let mut i = 0;
    while i < count {
        let (col, row) = points[i];
        let (col, row) = if symmetry & 4 != 0 {
            (row, col)
        } else {
            (col, row)
        };
        let col = if symmetry & 1 != 0 { 2 - col } else { col };
        let row = if symmetry & 2 != 0 { 2 - row } else { row };
        moved[i] = (col, row);
        min_col = if col < min_col { col } else { min_col };
        min_row = if row < min_row { row } else { min_row };
        i += 1;
    }
    let mut mask = 0u16;
    let mut i = 0;
    while i < count {
        let (col, row) = moved[i];
        mask |= 1 << (3 * (row - min_row) + (col - min_col));
        i += 1;
    }
    mask
}

impl Position {
    /// Whether `color` playing the empty point `p` is a killing sacrifice:
    /// it captures nothing, leaves its new string of at most six stones
    /// with one liberty, every enemy string touching that string has that
    /// liberty as its last one too (the opponent has no room outside), and
    /// the string's points form an eye space that dies when the attacker
    /// moves first. The opponent's capture then leaves it no second eye.
    pub fn is_nakade_sacrifice(&self, p: Point, color: Color) -> bool {
        let own = color.cell();
        let enemy = color.opponent().cell();
        let mut stones = [p; MAX_SACRIFICE_STONES];
        let mut count = 1;
        for n in self.geometry.neighbours(p) {
            if self.cells[n.idx()] != own || stones[..count].contains(&n) {
                continue;
            }
            let mut s = n;
            loop {
                if count == MAX_SACRIFICE_STONES {
                    return false;
                }
                stones[count] = s;
                count += 1;
                s = self.next_in_string(s);
                if s == n {
                    break;
                }
            }
        }
        let stones = &stones[..count];
        // The string's one liberty, and the enemy strings around it.
        let mut liberty = None;
        let mut enemies = [p; 4 * MAX_SACRIFICE_STONES];
        let mut enemy_count = 0;
        for &s in stones {
            for n in self.geometry.neighbours(s) {
                match self.cells[n.idx()] {
                    Cell::Empty if n != p => match liberty {
                        None => liberty = Some(n),
                        Some(l) if l != n => return false,
                        Some(_) => {}
                    },
                    cell if cell == enemy => {
                        enemies[enemy_count] = n;
                        enemy_count += 1;
                    }
                    _ => {}
                }
            }
        }
        let Some(liberty) = liberty else {
            return false;
        };
        for &n in &enemies[..enemy_count] {
            let liberties = self.liberties_up_to(n, 3);
            // In atari now, `n` would be captured by the move.
            if liberties.len() < 2 || liberties.points().any(|l| l != p && l != liberty) {
                return false;
            }
        }
        if count <= 2 {
            return true;
        }
        self.is_dead_eye_space(stones)
    }

    /// After `last` captured `captured` stones: the vital point of the
    /// space they leave when it is a dead eye space (see
    /// [`DEAD_EYE_SPACES`]) walled by the capturer alone, the point with
    /// most neighbours inside the space. The owner of the captured stones
    /// plays it to finish the kill their sacrifice began.
    pub fn nakade_vital_point(&self, last: Point, captured: usize) -> Option<Point> {
        if !(3..=MAX_SACRIFICE_STONES).contains(&captured) {
            return None;
        }
        let capturer = self.cells[last.idx()];
        let mut space = [last; MAX_SACRIFICE_STONES];
        for start in self.geometry.neighbours(last) {
            if self.cells[start.idx()] != Cell::Empty {
                continue;
            }
            // Flood the empty region from `start`; it must be exactly the
            // captured points, walled by the capturer.
            space[0] = start;
            let mut count = 1;
            let mut next = 0;
            let mut walled = true;
            while next < count && walled {
                for n in self.geometry.neighbours(space[next]) {
                    match self.cells[n.idx()] {
                        Cell::Empty if !space[..count].contains(&n) => {
                            if count == captured {
                                walled = false;
                                break;
                            }
                            space[count] = n;
                            count += 1;
                        }
                        Cell::Empty | Cell::Border => {}
                        cell => walled &= cell == capturer,
                    }
                }
                next += 1;
            }
            if !walled || count != captured || !self.is_dead_eye_space(&space[..count]) {
                continue;
            }
            let inside = |p: Point| {
                self.geometry
                    .neighbours(p)
                    .into_iter()
                    .filter(|n| space[..count].contains(n))
                    .count()
            };
            return space[..count].iter().copied().max_by_key(|&p| inside(p));
        }
        None
    }

    /// Whether `points` (three to six of them) form one of the dead eye
    /// spaces.
    fn is_dead_eye_space(&self, points: &[Point]) -> bool {
        let mut coords = [(0, 0); MAX_SACRIFICE_STONES];
        for (slot, &p) in coords.iter_mut().zip(points) {
            match self.geometry.coords(p) {
                Some(c) => *slot = c,
                None => return false,
            }
        }
        let coords = &coords[..points.len()];
        let min_col = coords.iter().map(|c| c.0).min().unwrap_or(0);
        let min_row = coords.iter().map(|c| c.1).min().unwrap_or(0);
        let mut grid = [(0u8, 0u8); 9];
        for (slot, &(col, row)) in grid.iter_mut().zip(coords) {
            let (col, row) = (col - min_col, row - min_row);
            if col > 2 || row > 2 {
                return false;
            }
            *slot = (col as u8, row as u8);
        }
        is_dead_mask(oriented_mask(&grid, points.len(), 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    fn position(text: &str) -> Position {
        Position::from_text(text, GameKind::Go).unwrap()
    }

    /// The point at column `col` (0 = A) and row `row` counted from the top
    /// line of the drawing.
    fn at(position: &Position, col: usize, row_from_top: usize) -> Point {
        let height = position.geometry().height();
        position
            .geometry()
            .point(col, height - 1 - row_from_top)
            .unwrap()
    }

    #[test]
    fn the_dead_shapes_are_seven_distinct_ones() {
        // A shape's smallest mask over its orientations names it.
        let shapes: std::collections::BTreeSet<u16> = (0..512u16)
            .filter(|&m| is_dead_mask(m))
            .map(|m| {
                let mut points = [(0, 0); 9];
                let mut count = 0;
                for bit in 0..9u8 {
                    if m >> bit & 1 != 0 {
                        points[count] = (bit % 3, bit / 3);
                        count += 1;
                    }
                }
                (0..8)
                    .map(|s| oriented_mask(&points, count, s))
                    .min()
                    .unwrap()
            })
            .collect();
        assert_eq!(shapes.len(), DEAD_EYE_SPACES.len());
    }

    #[test]
    fn every_orientation_of_a_dead_shape_is_dead_and_no_live_one_is() {
        let pad = |points: &[(u8, u8)]| {
            let mut grid = [(0, 0); 9];
            grid[..points.len()].copy_from_slice(points);
            grid
        };
        // Bulky five turned over, and rabbity six turned a quarter.
        let bulky = pad(&[(0, 2), (0, 1), (0, 0), (1, 2), (1, 1)]);
        let rabbity = pad(&[(2, 0), (2, 1), (1, 0), (1, 1), (1, 2), (0, 1)]);
        assert!(is_dead_mask(oriented_mask(&bulky, 5, 0)));
        assert!(is_dead_mask(oriented_mask(&rabbity, 6, 0)));
        // An L-shaped four makes two eyes; three in a column do not.
        let bent_four = pad(&[(0, 0), (1, 0), (2, 0), (0, 1)]);
        let straight_three = pad(&[(0, 0), (0, 1), (0, 2)]);
        assert!(!is_dead_mask(oriented_mask(&bent_four, 4, 0)));
        assert!(is_dead_mask(oriented_mask(&straight_three, 3, 0)));
    }

    #[test]
    fn filling_a_square_four_inside_a_group_without_room_kills() {
        // White's corner group has only A1 and A3 left; Black's three
        // stones inside share them. Black A3 throws in a fourth stone:
        // captured, the four make a square, a dead eye space. Black A1
        // instead would leave a zigzag four, two eyes for White.
        let p = position(
            "X X X X X .
             O O O X . .
             . X O X . .
             X X O X . .
             . O O X . .",
        );
        assert!(p.is_nakade_sacrifice(at(&p, 0, 2), Color::Black));
        assert!(!p.is_nakade_sacrifice(at(&p, 0, 4), Color::Black));
    }

    #[test]
    fn a_bent_three_in_a_square_eye_space_kills() {
        // White's only room is the square C1 D1 C2 D2; Black holds C2 and
        // D2. Black C1 makes a bent three, which dies once captured.
        let p = position(
            "X X X X X .
             X O O O O X
             X O X X O X
             X O . . O X",
        );
        let c1 = at(&p, 2, 3);
        assert!(p.is_self_atari(c1, Color::Black));
        assert!(p.is_nakade_sacrifice(c1, Color::Black));
        // With room at F2 besides, White is not short of eyes: no sacrifice.
        let q = position(
            "X X X X X X .
             X O O O O O X
             X O X X O . X
             X O . . O O X",
        );
        let c1 = at(&q, 2, 3);
        assert!(q.is_self_atari(c1, Color::Black));
        assert!(!q.is_nakade_sacrifice(c1, Color::Black));
    }

    #[test]
    fn a_group_with_outside_liberties_is_a_semeai_not_a_nakade() {
        // The same three black stones, but White's wall has a liberty at
        // E3 outside: filling one's own liberty only loses the race.
        let p = position(
            "X X X X X .
             O O O X . .
             . X O O . .
             X X O X . .
             . O O X . .",
        );
        assert!(p.is_self_atari(at(&p, 0, 2), Color::Black));
        assert!(!p.is_nakade_sacrifice(at(&p, 0, 2), Color::Black));
    }

    #[test]
    fn the_vital_point_of_a_captured_bent_three_is_its_corner() {
        // White C1 has just captured Black's A1 A2 B1 sacrifice: the bent
        // three left behind dies once Black takes its corner, A1.
        let p = position(
            "X X X X X
             O O X . .
             . O O X .
             . . O X .",
        );
        let (a1, c1) = (at(&p, 0, 3), at(&p, 2, 3));
        assert_eq!(p.nakade_vital_point(c1, 3), Some(a1));
        // Only the space of the stones just captured counts.
        assert_eq!(p.nakade_vital_point(c1, 4), None);
        assert_eq!(p.nakade_vital_point(c1, 2), None);
    }

    #[test]
    fn a_captured_straight_four_has_no_vital_point() {
        // Four points in a row make two eyes whoever moves first.
        let p = position(
            "O O O O O .
             . . . . O .",
        );
        assert_eq!(p.nakade_vital_point(at(&p, 4, 1), 4), None);
        // A crossed five's vital point is its centre.
        let q = position(
            ". O O O . .
             O O . O O .
             O . . . O .
             O O . O O .
             . O O O . .
             . . . . . .",
        );
        assert_eq!(q.nakade_vital_point(at(&q, 1, 1), 5), Some(at(&q, 2, 2)));
    }
}
