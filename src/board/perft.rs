//! Exhaustive counts that pin the rules down.
//!
//! - Go: the number of board positions reachable from the empty board when
//!   either colour may move (captures resolved, suicide illegal, ko moot
//!   because any position can be reached by another order). On square boards
//!   these are the legal-position counts of OEIS A094777.
//! - NoGo: the number of legal move sequences of a given length (the chess
//!   engines' perft).

use std::collections::HashSet;

use super::{BoardError, Cell, Color, GameKind, Geometry, MAX_SIZE, Point, Position};

/// Largest board the reachable-position count handles (2 bits a point in a u64).
pub const MAX_REACHABLE_AREA: usize = 32;

/// Positions reachable from the empty board, counted by distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reachable {
    /// `new_at_depth[d]`: positions first reached after `d` stones were played.
    pub new_at_depth: Vec<u64>,
    /// All positions found.
    pub total: u64,
    /// Distinct Zobrist hashes among them (equal to `total` if no key collides).
    pub distinct_hashes: u64,
}

/// Breadth-first count of Go positions reachable in at most `max_depth`
/// placements (`None`: all of them).
pub fn go_reachable(geometry: Geometry, max_depth: Option<usize>) -> Result<Reachable, BoardError> {
    if geometry.area() > MAX_REACHABLE_AREA {
        return Err(BoardError::BadSize);
    }
    let points: Vec<Point> = geometry.points().collect();
    let empty = Position::new(geometry, GameKind::Go);
    let mut seen = HashSet::from([encode(&empty, &points)]);
    let mut hashes = HashSet::from([empty.hash()]);
    let mut frontier = vec![encode(&empty, &points)];
    let mut new_at_depth = vec![1];
    let (mut parent, mut child) = (empty.clone(), empty.clone());
    while !frontier.is_empty() && max_depth.is_none_or(|d| new_at_depth.len() <= d) {
        let mut next = Vec::new();
        for &code in &frontier {
            decode(code, &points, &mut parent);
            for &p in &points {
                if parent.cell(p) != Cell::Empty {
                    continue;
                }
                for color in [Color::Black, Color::White] {
                    if !parent.is_legal(p, color) {
                        continue;
                    }
                    child.copy_from(&parent);
                    child.play(p, color);
                    let child_code = encode(&child, &points);
                    if seen.insert(child_code) {
                        hashes.insert(child.hash());
                        next.push(child_code);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        new_at_depth.push(next.len() as u64);
        frontier = next;
    }
    Ok(Reachable {
        new_at_depth,
        total: seen.len() as u64,
        distinct_hashes: hashes.len() as u64,
    })
}

/// Two bits a point: 0 empty, 1 black, 2 white.
fn encode(position: &Position, points: &[Point]) -> u64 {
    points.iter().enumerate().fold(0, |code, (k, &p)| {
        code | match position.cell(p) {
            Cell::Black => 1 << (2 * k),
            Cell::White => 2 << (2 * k),
            _ => 0,
        }
    })
}

fn decode(code: u64, points: &[Point], into: &mut Position) {
    *into = Position::new(into.geometry(), GameKind::Go);
    for (k, &p) in points.iter().enumerate() {
        let color = match code >> (2 * k) & 3 {
            1 => Color::Black,
            2 => Color::White,
            _ => continue,
        };
        // Every encoded position is legal, so no placement captures.
        let placed = into.place_setup_stone(p, color);
        debug_assert!(placed.is_ok());
    }
}

/// Number of legal move sequences of length `depth` from `position`, the
/// side to move alternating. In NoGo a side with no legal move ends the
/// sequence early (it is not counted at the full depth).
pub fn move_sequences(position: &Position, depth: usize) -> u64 {
    let mut stack: Vec<Position> = (0..=depth).map(|_| position.clone()).collect();
    count_sequences(&mut stack, 0, depth)
}

fn count_sequences(stack: &mut [Position], ply: usize, depth: usize) -> u64 {
    if ply == depth {
        return 1;
    }
    let mover = stack[ply].to_move();
    let mut moves = [0u16; MAX_SIZE * MAX_SIZE];
    let count = {
        let empties = stack[ply].empty_points();
        moves[..empties.len()].copy_from_slice(empties);
        empties.len()
    };
    let mut total = 0;
    for &p in &moves[..count] {
        let p = Point(p);
        if !stack[ply].is_legal(p, mover) {
            continue;
        }
        let (done, rest) = stack.split_at_mut(ply + 1);
        rest[0].copy_from(&done[ply]);
        rest[0].play(p, mover);
        total += count_sequences(stack, ply + 1, depth);
    }
    total
}
