//! Learned move features for Go priors, after Coulom's "Computing Elo
//! ratings of move patterns" (2007).
//!
//! Every legal move is described by one level in each of [`GROUPS`]
//! feature groups: its 3x3 shape (with the liberties of the strings next
//! to it), the colours of the 12 points within distance 2, what it
//! captures, whether it escapes an atari, whether it gives atari, whether
//! it is a self-atari, its distances to the last two moves, and its line.
//! A level has a strength `gamma`; a move's strength is the
//! product over its levels, and the chance that a strong player chooses it
//! is its strength over the sum of all legal moves' strengths
//! (Bradley–Terry). A table may also rate a move's largest known spatial
//! pattern (see `spatial`). Two tables ship, both fitted by
//! minorization–maximization with `cargo run --release --example
//! train_features` (their headers say on what): `go_gammas.txt`, from 9x9
//! Pachi self-play, for small boards, and `tygem_gammas.txt`, from 9-dan
//! games on Tygem with spatial patterns, from 13x13 up (see `gammas`).

use crate::board::{Cell, Color, LibertyMemo, Point, Position, ring_symmetries};
use crate::search::domain::RecentMoves;

use super::checks::MoveChecks;

/// The feature groups, in the order of a [`Features`] array.
pub const GROUPS: usize = 9;
/// Group names, as the gamma table writes them.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "shape",
    "capture",
    "escape",
    "atari",
    "self_atari",
    "distance",
    "line",
    "distance_before",
    "diamond",
];
/// Index of the shape group; its level is a raw 3x3 code (see [`shape_code`]).
pub const SHAPE: usize = 0;
pub const CAPTURE: usize = 1;
const ESCAPE: usize = 2;
const ATARI: usize = 3;
pub const SELF_ATARI: usize = 4;
const DISTANCE: usize = 5;
const LINE: usize = 6;
const DISTANCE_BEFORE: usize = 7;
/// Index of the diamond group; its level is a raw code (see [`diamond_code`]).
pub const DIAMOND: usize = 8;
/// The groups whose levels are pattern codes, not small numbers.
pub const PATTERN_GROUPS: [usize; 2] = [SHAPE, DIAMOND];
/// Levels of each group other than the patterns (level 0 is always "none").
pub const LEVELS: [usize; GROUPS] = [0, 5, 4, 4, 4, 9, 10, 6, 0];

/// Bits of a 3x3 shape code: 3 for each orthogonal neighbour, 2 for each diagonal.
pub const SHAPE_BITS: u32 = 20;

/// The level of a move in each group.
pub type Features = [u32; GROUPS];

/// Where each of the eight neighbours (N, NE, E, SE, S, SW, W, NW) sits in
/// a shape code: orthogonal ones take 3 bits from bit 0, diagonal ones 2
/// bits from bit 12.
const SHIFT: [u32; 8] = [0, 12, 3, 14, 6, 16, 9, 18];

/// The 3x3 shape around the empty point `p` for `mover`: each orthogonal
/// neighbour as empty (0), off the board (1), a string of the mover with
/// 1, 2 or 3+ liberties (2–4) or of the opponent (5–7); each diagonal as
/// empty, off the board, mover's or opponent's (0–3). Liberties are
/// counted through `liberties`, a memo for `position`.
pub fn shape_code(position: &Position, p: Point, mover: Color, liberties: &LibertyMemo) -> u32 {
    let own = mover.cell();
    let mut code = 0;
    for (k, q) in position.geometry().ring(p).into_iter().enumerate() {
        let cell = position.cell(q);
        let state = match cell {
            Cell::Empty => 0,
            Cell::Border => 1,
            _ if k % 2 == 1 => 2 + u32::from(cell != own),
            _ => {
                let count = liberties.liberties(position, q) as u32;
                2 + 3 * u32::from(cell != own) + count - 1
            }
        };
        code |= state << SHIFT[k];
    }
    code
}

/// The state of neighbour `k` (ring order) in a shape code.
fn state(code: u32, k: usize) -> u32 {
    let width = if k.is_multiple_of(2) { 3 } else { 2 };
    code >> SHIFT[k] & ((1 << width) - 1)
}

/// The eight rotations and reflections of a shape code.
pub fn shape_symmetries(code: u32) -> [u32; 8] {
    let states: [u32; 8] = std::array::from_fn(|k| state(code, k));
    ring_symmetries(states).map(|ring| {
        ring.iter()
            .enumerate()
            .fold(0, |code, (k, &s)| code | s << SHIFT[k])
    })
}

/// The 12 points within distance 2 of the empty point `p` for `mover`,
/// 2 bits each (empty, off the board, mover's, opponent's): the eight
/// neighbours in ring order from bit 0, then the points two steps north,
/// east, south and west from bit 16.
pub fn diamond_code(position: &Position, p: Point, mover: Color) -> u32 {
    match position.geometry().coords(p) {
        Some(coords) => diamond_code_at(position, p, coords, mover),
        None => 0,
    }
}

/// [`diamond_code`] for `p` at the known (column, row) `coords`.
fn diamond_code_at(position: &Position, p: Point, coords: (usize, usize), mover: Color) -> u32 {
    let g = position.geometry();
    let s = g.stride() as i32;
    let own = mover.cell();
    let state = |cell: Cell| match cell {
        Cell::Empty => 0,
        Cell::Border => 1,
        _ => 2 + u32::from(cell != own),
    };
    let mut code = 0;
    for (k, q) in g.ring(p).into_iter().enumerate() {
        code |= state(position.cell(q)) << (2 * k);
    }
    let (col, row) = coords;
    // North, east, south and west, two steps: on the board or not.
    let outer = [
        (row + 2 < g.height(), 2 * s),
        (col + 2 < g.width(), 2),
        (row >= 2, -2 * s),
        (col >= 2, -2),
    ];
    for (j, (on_board, offset)) in outer.into_iter().enumerate() {
        let cell = if on_board {
            position.cell(Point((p.0 as i32 + offset) as u16))
        } else {
            Cell::Border
        };
        code |= state(cell) << (16 + 2 * j);
    }
    code
}

/// The eight rotations and reflections of a diamond code.
pub fn diamond_symmetries(code: u32) -> [u32; 8] {
    // The outer points, two steps N, E, S and W, turn with the ring's
    // orthogonal places: each point's pair of states travels together.
    let pairs: [u32; 8] = std::array::from_fn(|k| {
        let outer = if k % 2 == 0 { code >> (16 + k) & 3 } else { 0 };
        (code >> (2 * k) & 3) | outer << 2
    });
    ring_symmetries(pairs).map(|ring| {
        (0..8).fold(0, |code, k| {
            let outer = if k % 2 == 0 {
                (ring[k] >> 2) << (16 + k)
            } else {
                0
            };
            code | (ring[k] & 3) << (2 * k) | outer
        })
    })
}

/// The representative of a pattern's symmetry class (its smallest code)
/// in the pattern group `group`.
pub fn canonical_pattern(group: usize, code: u32) -> u32 {
    let symmetries = if group == DIAMOND {
        diamond_symmetries(code)
    } else {
        shape_symmetries(code)
    };
    symmetries.into_iter().min().unwrap_or(code)
}

/// CrazyStone's distance between two points: dx + dy + max(dx, dy), so 2
/// for a neighbour and 3 for a diagonal.
fn distance(position: &Position, (col, row): (usize, usize), q: Point) -> Option<usize> {
    let (q_col, q_row) = position.geometry().coords(q)?;
    let (dx, dy) = (col.abs_diff(q_col), row.abs_diff(q_row));
    Some(dx + dy + dx.max(dy))
}

/// The features of the candidate move of `checks` after the `recent`
/// moves, on a board that is `open` ([`Position::is_open`], asked once
/// for all candidates).
pub fn move_features(checks: &MoveChecks<'_>, recent: RecentMoves, open: bool) -> Features {
    let MoveChecks {
        position,
        point: p,
        mover,
        liberties,
        ..
    } = *checks;
    let g = position.geometry();
    let mut features = [0; GROUPS];
    let Some(coords) = g.coords(p) else {
        return features;
    };
    features[SHAPE] = shape_code(position, p, mover, liberties);
    features[DIAMOND] = diamond_code_at(position, p, coords, mover);

    let contacts = Contacts::of(checks, recent.last);
    features[CAPTURE] = contacts.capture_level;
    features[ATARI] = contacts.atari_level;
    let self_atari = contacts.captured == 0 && checks.is_self_atari();
    if contacts.escapes && contacts.captured == 0 {
        features[ESCAPE] = escape_level(checks, self_atari);
    }
    if self_atari && checks.is_bad_self_atari() {
        features[SELF_ATARI] = match position.joined_size(p, mover) {
            1 => 1,
            2 | 3 => 2,
            _ => 3,
        };
    }
    if let Some(d) = recent
        .last
        .and_then(|last| distance(position, coords, last))
    {
        features[DISTANCE] = distance_level(d);
    }
    if let Some(d) = recent
        .before_last
        .and_then(|before| distance(position, coords, before))
    {
        features[DISTANCE_BEFORE] = distance_before_level(d);
    }
    let line = g.line(coords).min(4) as u32;
    features[LINE] = line + if open { 5 } else { 0 };
    features
}

/// What a move does to the strings next to it.
struct Contacts {
    /// Enemy stones it captures.
    captured: usize,
    /// Its CAPTURE level: the best of its captures.
    capture_level: u32,
    /// Its ATARI level: the best of its ataris (capped at 3).
    atari_level: u32,
    /// Whether it plays the last liberty of a friendly string.
    escapes: bool,
}

impl Contacts {
    /// The contacts of the move of `checks`, played after `last`.
    #[inline]
    fn of(checks: &MoveChecks<'_>, last: Option<Point>) -> Contacts {
        let MoveChecks {
            position,
            point: p,
            mover,
            liberties,
            ..
        } = *checks;
        let own = mover.cell();
        let enemy = mover.opponent().cell();
        let last_string = last
            .filter(|&l| position.cell(l) == enemy)
            .and_then(|l| position.string_id(l));
        let mut contacts = Contacts {
            captured: 0,
            capture_level: 0,
            atari_level: 0,
            escapes: false,
        };
        for (k, n) in position.geometry().neighbours(p).into_iter().enumerate() {
            let cell = position.cell(n);
            if cell == enemy {
                let in_last = last_string.is_some() && position.string_id(n) == last_string;
                if position.atari_liberty(n) == Some(p) {
                    let size = position.string_size(n);
                    contacts.captured += size;
                    let level = capture_level(position, n, size, in_last, mover);
                    contacts.capture_level = contacts.capture_level.max(level);
                } else if contacts.atari_level < 3 && liberties.liberties(position, n) == 2 {
                    let level = if checks.atari_starts_ladder(k) {
                        3
                    } else if in_last {
                        2
                    } else {
                        1
                    };
                    contacts.atari_level = contacts.atari_level.max(level);
                }
            } else if cell == own {
                contacts.escapes |= position.atari_liberty(n) == Some(p);
            }
        }
        contacts
    }
}

/// The CAPTURE level of taking the enemy string at `n` (`size` stones,
/// `in_last` if the last move is one of them) for `mover`: saving a string
/// by capturing ranks first, then taking the last move's stones, then any
/// other capture by size.
#[inline]
fn capture_level(position: &Position, n: Point, size: usize, in_last: bool, mover: Color) -> u32 {
    let own = mover.cell();
    let g = position.geometry();
    let own_in_atari_nearby = |q: Point| {
        g.neighbours(q)
            .into_iter()
            .any(|r| position.cell(r) == own && position.in_atari(r))
    };
    if position.string_stones(n).iter().any(own_in_atari_nearby) {
        4
    } else if in_last {
        3
    } else if size >= 2 {
        2
    } else {
        1
    }
}

/// The ESCAPE level of the move of `checks`, which plays the last liberty
/// of a friendly string and captures nothing (`self_atari`: the string
/// stays in atari): hopeless (3), or to three liberties or more (1) or
/// fewer (2).
#[inline]
fn escape_level(checks: &MoveChecks<'_>, self_atari: bool) -> u32 {
    if self_atari || checks.escape_is_hopeless() {
        3
    } else if checks
        .position
        .quiet_move_liberties(checks.point, checks.mover)
        >= 3
    {
        1
    } else {
        2
    }
}

/// The DISTANCE level of a move at [`distance`] `d` from the last move.
#[inline]
fn distance_level(d: usize) -> u32 {
    match d {
        0..=2 => 1,
        3 => 2,
        4 => 3,
        5 => 4,
        6 => 5,
        7 | 8 => 6,
        9..=11 => 7,
        _ => 8,
    }
}

/// The DISTANCE_BEFORE level of a move at [`distance`] `d` from the
/// mover's own move before the last.
#[inline]
fn distance_before_level(d: usize) -> u32 {
    match d {
        0..=2 => 1,
        3 => 2,
        4 => 3,
        5 | 6 => 4,
        _ => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    #[test]
    fn symmetric_shapes_share_a_canonical_code() {
        let p = Position::from_text(
            ".....
             .XO..
             ..X..
             .....
             .....",
            GameKind::Go,
        )
        .unwrap();
        let g = p.geometry();
        let code = shape_code(
            &p,
            g.point(1, 3).unwrap(),
            Color::White,
            &LibertyMemo::new(&p),
        );
        // The same shape mirrored left to right, around D4.
        let mirrored = Position::from_text(
            ".....
             ..OX.
             ..X..
             .....
             .....",
            GameKind::Go,
        )
        .unwrap();
        let mirror_code = shape_code(
            &mirrored,
            g.point(3, 3).unwrap(),
            Color::White,
            &LibertyMemo::new(&mirrored),
        );
        assert_ne!(code, mirror_code);
        assert_eq!(
            canonical_pattern(SHAPE, code),
            canonical_pattern(SHAPE, mirror_code)
        );
        assert!(shape_symmetries(code).contains(&mirror_code));
    }

    #[test]
    fn diamonds_see_two_points_out_and_turn_with_the_board() {
        let p = Position::from_text(
            ".......
             .......
             ...X...
             .......
             .......
             ...O...
             .......",
            GameKind::Go,
        )
        .unwrap();
        let turned = Position::from_text(
            ".......
             .......
             .......
             .O..X..
             .......
             .......
             .......",
            GameKind::Go,
        )
        .unwrap();
        let g = p.geometry();
        let centre = g.point(3, 3).unwrap();
        let code = diamond_code(&p, centre, Color::Black);
        let turned_code = diamond_code(&turned, centre, Color::Black);
        assert_eq!(
            code >> (16 + 2 * 2) & 3,
            3,
            "White two points south is seen"
        );
        assert_ne!(code, turned_code);
        assert!(diamond_symmetries(code).contains(&turned_code));
        assert_eq!(
            canonical_pattern(DIAMOND, code),
            canonical_pattern(DIAMOND, turned_code)
        );
        // Two points from the edge, the outer point is off the board.
        let edge = diamond_code(&p, g.point(1, 3).unwrap(), Color::Black);
        assert_eq!(edge >> (16 + 2 * 3) & 3, 1);
    }

    /// The features of `mover` playing `p`, the board's openness read off it.
    fn features_of(position: &Position, p: Point, mover: Color, recent: RecentMoves) -> Features {
        let memo = LibertyMemo::new(position);
        move_features(
            &MoveChecks::new(position, p, mover, &memo),
            recent,
            position.is_open(),
        )
    }

    #[test]
    fn capture_escape_and_self_atari_levels() {
        // White D3 captures C3; Black D3 extends into atari again.
        let p = Position::from_text(
            ".....
             ..OO.
             .OX..
             ..OO.
             .....",
            GameKind::Go,
        )
        .unwrap();
        let g = p.geometry();
        let d3 = g.point(3, 2).unwrap();
        let white = features_of(&p, d3, Color::White, RecentMoves::default());
        assert_eq!(white[CAPTURE], 1);
        assert_eq!(white[ESCAPE], 0);
        let black = features_of(&p, d3, Color::Black, RecentMoves::default());
        assert_eq!(black[CAPTURE], 0);
        assert_eq!(
            black[ESCAPE], 3,
            "extending at D3 leaves two stones in atari"
        );
        assert_eq!(black[SELF_ATARI], 2);
        let corner = features_of(
            &p,
            g.point(0, 0).unwrap(),
            Color::Black,
            RecentMoves::default(),
        );
        assert_eq!(corner[LINE], 5, "first line on an open board");
        assert_eq!(corner[DISTANCE], 0);
    }

    #[test]
    fn distances_to_the_last_two_moves() {
        let p = Position::new(crate::board::Geometry::square(9).unwrap(), GameKind::Go);
        let g = p.geometry();
        let recent = RecentMoves {
            last: Some(g.point(4, 4).unwrap()),
            before_last: Some(g.point(0, 0).unwrap()),
        };
        let next_to_last = features_of(&p, g.point(4, 5).unwrap(), Color::Black, recent);
        assert_eq!(
            (next_to_last[DISTANCE], next_to_last[DISTANCE_BEFORE]),
            (1, 5)
        );
        let diagonal_to_before = features_of(&p, g.point(1, 1).unwrap(), Color::Black, recent);
        assert_eq!(diagonal_to_before[DISTANCE_BEFORE], 2);
        assert_eq!(diagonal_to_before[DISTANCE], 7, "dx = dy = 3: distance 9");
    }
}
