//! Reading whether stones enclosed by the opponent can be killed.
//!
//! An invader's stones inside a region of the opponent (points without
//! the opponent's stones, bounded only by them and the edge) are dead when
//! the opponent captures them even though the invader moves first and the
//! opponent's surrounding wall is taken as safe. The reader searches the
//! region's empty points (and passing) by iterative deepening with a
//! transposition table and a node budget: the killer wins once no invader
//! stone is left in the region, the invader once its stones there live
//! unconditionally (Benson), once it captures a wall stone (it broke out),
//! or when both pass. Out of budget the stones are not called dead.
//!
//! The region holds the opponent's strings lying wholly inside it too
//! (stones played into an eye space), so a group around a nakade is read
//! as an invader of the opponent's. Regions too big to read whole are read
//! around a few invader stones (`dies_nearby`). The same search, with
//! either side moving first, gives the move that decides a small region
//! (`key_move`), for the search's priors.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::board::{Bitboard, Cell, Color, Point, Position, zobrist};
use crate::go::gammas::CodeHasher;

use super::benson::pass_alive_within;

/// Moves the side proving its goal tries at each of its turns.
const PROVING_MOVES: usize = 4;

/// Regions with more empty points than this are not read.
pub const MAX_READ_EMPTIES: u32 = 12;

/// The region of the opponent of `invader` holding `stone`: the points
/// without the opponent's stones connected to it, plus the opponent's
/// strings lying wholly inside them (stones played into the invader's eye
/// space, as in a nakade), so that only the opponent's outer wall and the
/// edge enclose it.
pub fn enclosing_region(position: &Position, stone: Point, invader: Color) -> Bitboard {
    let geometry = position.geometry();
    let board = position.board_mask();
    let killer_stones = position.stones(invader.opponent());
    let mut seed = Bitboard::EMPTY;
    seed.set(stone);
    let open = seed.flood(&board.and_not(&killer_stones), geometry, board);
    let mut region = open;
    let mut candidates = open.dilate(geometry, board).and(&killer_stones);
    while let Some(q) = candidates.first() {
        let string = position.string_stones(q);
        candidates = candidates.and_not(&string);
        let around = string.dilate(geometry, board).and_not(&string);
        if around.and_not(&open).is_empty() {
            region = region.or(&string);
        }
    }
    region
}

/// The regions (see [`enclosing_region`]) holding the `invader` stones of
/// `stones`, one for each set of them the opponent encloses apart.
pub fn enclosing_regions(position: &Position, stones: &Bitboard, invader: Color) -> Vec<Bitboard> {
    let mut regions = Vec::new();
    let mut unread = *stones;
    while let Some(stone) = unread.first() {
        let region = enclosing_region(position, stone, invader);
        unread = unread.and_not(&region);
        regions.push(region);
    }
    regions
}

/// Whether the opponent captures the `invader` stones in `region` (a
/// region of the opponent, its walls taken as safe) even with the invader
/// moving first, proven within `budget` nodes. Regions of more than
/// [`MAX_READ_EMPTIES`] empty points are read around the invader only
/// (see [`dies_nearby`]), those of more than [`MAX_LOCAL_EMPTIES`] not at
/// all.
pub fn dies_enclosed(position: &Position, region: &Bitboard, invader: Color, budget: u32) -> bool {
    let empties = region.and(&position.empty_mask()).count();
    if empties > MAX_READ_EMPTIES {
        return empties <= MAX_LOCAL_EMPTIES && dies_nearby(position, region, invader, budget);
    }
    read_region(position, region, invader, invader, true, budget).is_some()
}

/// The move that decides the `invader` stones in `region` (read whole, of
/// at most [`MAX_READ_EMPTIES`] empty points, the walls taken as safe)
/// for the side moving first: the killer's move that captures them when
/// `killer_first`, else the invader's move that makes them live; `None`
/// where no such move is proven within `budget` nodes.
pub fn key_move(
    position: &Position,
    region: &Bitboard,
    invader: Color,
    killer_first: bool,
    budget: u32,
) -> Option<Point> {
    if region.and(&position.empty_mask()).count() > MAX_READ_EMPTIES {
        return None;
    }
    let first = if killer_first {
        invader.opponent()
    } else {
        invader
    };
    read_region(position, region, invader, first, killer_first, budget).flatten()
}

/// Reads `region` with `first` to move for the killer's goal (capture
/// every invader stone) or the invader's (live): `Some` once the goal is
/// proven, holding the proving first move when the goal's side moves
/// first.
fn read_region(
    position: &Position,
    region: &Bitboard,
    invader: Color,
    first: Color,
    killer_goal: bool,
    budget: u32,
) -> Option<Option<Point>> {
    let walls = region
        .dilate(position.geometry(), position.board_mask())
        .and_not(region)
        .and(&position.stones(invader.opponent()));
    // Inner stones of the killer may be captured and their points played
    // again, so they count towards the moves a line can take.
    let open_points = region.and_not(&position.stones(invader)).count();
    // A wall string with a liberty outside cannot be captured by play
    // inside, where the reader plays.
    let mut unchecked = walls;
    let mut walls_hold = true;
    while walls_hold && let Some(q) = unchecked.first() {
        unchecked = unchecked.and_not(&position.string_stones(q));
        walls_hold = !position.string_liberties(q).and_not(region).is_empty();
    }
    let mut reader = Reader {
        region: *region,
        walls,
        walls_hold,
        invader,
        nodes: 0,
        budget,
        proven: TableMap::default(),
        failed: TableMap::default(),
        spare: Vec::new(),
        shapes: TableMap::default(),
    };
    let mut start = position.clone();
    start.set_to_move(first);
    let goal_side_first = (first != invader) == killer_goal;
    for depth in (2..=2 * open_points + 4).step_by(2) {
        if goal_side_first {
            if let Some(p) = reader.proving_move(&start, depth, killer_goal) {
                return Some(Some(p));
            }
        } else if reader.proves(&start, depth, 0, killer_goal) {
            return Some(None);
        }
        if reader.nodes >= budget {
            break;
        }
    }
    None
}

/// Regions with more empty points than this are not read even around the
/// invader: room enough for a real invasion to live.
pub const MAX_LOCAL_EMPTIES: u32 = 40;

/// Most invader stones a region too big to read whole may hold.
const MAX_LOCAL_INVADERS: u32 = 3;

/// The local read's node budget, in multiples of the caller's: its lines
/// run longer before the killer's last reply.
const LOCAL_BUDGET_FACTOR: u32 = 4;

/// The kill search for a few invader stones in a region too big to read
/// whole: the killer is taken to hold already every point farther from
/// them than the widest ring of neighbours that keeps the read within
/// [`MAX_READ_EMPTIES`], and the invader must still die there. This is
/// the end-of-game judgement that the killer answers each move locally;
/// it is not a proof, so it is kept to a few stones in a region of
/// moderate size and needs at least one full ring of room around them.
fn dies_nearby(position: &Position, region: &Bitboard, invader: Color, budget: u32) -> bool {
    let geometry = position.geometry();
    let board = position.board_mask();
    let empty = position.empty_mask();
    let invaders = region.and(&position.stones(invader));
    if invaders.is_empty() || invaders.count() > MAX_LOCAL_INVADERS {
        return false;
    }
    let mut near = invaders;
    let mut rings = 0;
    loop {
        let wider = near.dilate(geometry, board).and(region);
        if wider == near || wider.and(&empty).count() > MAX_READ_EMPTIES {
            break;
        }
        near = wider;
        rings += 1;
    }
    if rings == 0 {
        return false;
    }
    let killer = invader.opponent();
    let mut reduced = position.clone();
    // The far points next to the ring are filled; the rest stay empty,
    // outside the read, as the wall's liberties (filled, the wall could be
    // short of liberties the invader never had the moves to take). A
    // filled point cut off from the killer's stones (a corner point behind
    // the ring) is a weak string the reader lets the invader capture: a
    // capture counts as breaking out, so it can only cost proofs.
    let ring = near
        .dilate(geometry, board)
        .and(region)
        .and_not(&near)
        .and(&empty);
    for q in ring.iter() {
        if reduced.place_setup_stone(q, killer).is_err() {
            return false;
        }
    }
    if !invaders.and_not(&reduced.stones(invader)).is_empty() {
        return false;
    }
    // Invaders far apart are read apart, each in its own pocket; all must
    // die.
    let budget = budget.saturating_mul(LOCAL_BUDGET_FACTOR);
    enclosing_regions(&reduced, &invaders, invader)
        .iter()
        .all(|local| {
            local.and(&reduced.empty_mask()).count() <= MAX_READ_EMPTIES
                && dies_enclosed(&reduced, local, invader, budget)
        })
}

/// The fewest stones that can be alive unconditionally.
const MIN_PASS_ALIVE_STONES: u32 = 6;

/// The reader's tables, keyed by Zobrist hashes: spread already, so a
/// multiplicative hash does (SipHash cost a share of every node).
type TableMap<K, V> = HashMap<K, V, BuildHasherDefault<CodeHasher>>;

/// One reading question's state.
struct Reader {
    region: Bitboard,
    /// The killer's stones around the region: losing one frees the invader.
    walls: Bitboard,
    /// Whether every wall string has a liberty outside the region.
    walls_hold: bool,
    invader: Color,
    nodes: u32,
    budget: u32,
    /// Proven results (whether the killer wins) by position and passes in
    /// a row.
    proven: TableMap<(u64, u8), bool>,
    /// The deepest search that failed to prove a goal, by position, passes
    /// and goal.
    failed: TableMap<(u64, u8, bool), u32>,
    /// Boards the finished nodes played on, to play later ones on: copying
    /// the part of a board in use costs less than cloning a whole one.
    spare: Vec<Box<Position>>,
    /// The verdicts of [`Reader::decided_by_shape`] by table key:
    /// iterative deepening visits a position again at every depth.
    shapes: TableMap<u64, Option<bool>>,
}

impl Reader {
    /// Whether the killer's win (`killer_goal`) or the invader's is proven
    /// from `position` within `depth` plies, the side to move being the
    /// position's. A side proves its goal with one move that does; the
    /// other side's every move must then be answered, so its first
    /// unproven move ends the node.
    fn proves(&mut self, position: &Position, depth: u32, passes: u8, killer_goal: bool) -> bool {
        let hash = self.key(position);
        if let Some(killer_wins) = self.settled(position, hash, passes) {
            return killer_wins == killer_goal;
        }
        let key = (hash, passes);
        if let Some(&killer_wins) = self.proven.get(&key) {
            return killer_wins == killer_goal;
        }
        let failed_key = (key.0, key.1, killer_goal);
        if depth == 0
            || self.nodes >= self.budget
            || self.failed.get(&failed_key).is_some_and(|&d| d >= depth)
        {
            return false;
        }
        self.nodes += 1;
        let mover = position.to_move();
        let goal_side_moves = (mover != self.invader) == killer_goal;
        let mut child = self.board_like(position);
        // Whether a move decided the node: the goal's side proving it,
        // or the other side's move it could not answer.
        let mut decided = None;
        for mv in self.moves(position, mover, goal_side_moves) {
            child.copy_from(position);
            let child_passes = match mv {
                Some(p) => {
                    child.play_in_search(p, mover);
                    0
                }
                None => {
                    child.pass();
                    passes + 1
                }
            };
            let proved = self.proves(&child, depth - 1, child_passes, killer_goal);
            if proved == goal_side_moves {
                decided = Some(proved);
                break;
            }
        }
        self.spare.push(child);
        // Undecided, the node goes to the side that did not move.
        if decided.unwrap_or(!goal_side_moves) {
            self.proven.insert(key, killer_goal);
            true
        } else {
            self.failed.insert(failed_key, depth);
            false
        }
    }

    /// A board to play a child of `position` on: a spare one, or a copy.
    fn board_like(&mut self, position: &Position) -> Box<Position> {
        self.spare
            .pop()
            .unwrap_or_else(|| Box::new(position.clone()))
    }

    /// The first move of the goal's side, to move in `start`, that proves
    /// the goal within `depth` plies; every legal move of the region is
    /// tried here, not only the most urgent.
    fn proving_move(&mut self, start: &Position, depth: u32, killer_goal: bool) -> Option<Point> {
        if self.settled(start, self.key(start), 0).is_some() {
            return None;
        }
        let mover = start.to_move();
        let mut child = self.board_like(start);
        let found = self
            .moves(start, mover, false)
            .into_iter()
            .flatten()
            .find(|&p| {
                child.copy_from(start);
                child.play_in_search(p, mover);
                self.proves(&child, depth - 1, 0, killer_goal)
            });
        self.spare.push(child);
        found
    }

    /// The points of the region holding `cell`. Only the region's cells
    /// (and its walls') change in a read, so looking at them alone is
    /// looking at the whole board's difference from the start.
    fn in_region(&self, position: &Position, cell: Cell) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for q in self.region.iter() {
            if position.cell(q) == cell {
                set.set(q);
            }
        }
        set
    }

    /// Whether the invader can no longer make two eyes, nor a seki, nor
    /// take a wall: the walls cannot be captured from inside, every
    /// killer stone in the region is joined to them, and the points that
    /// touch none of those stones (only they can be eyes) hold no two
    /// apart. The invader's stones are dead then, though not yet taken;
    /// waiting for the capture costs the reader its deepest lines.
    fn no_two_eyes(&self, position: &Position) -> bool {
        if !self.walls_hold {
            return false;
        }
        let geometry = position.geometry();
        let board = position.board_mask();
        let killer_inside = self.in_region(position, self.invader.opponent().cell());
        let held = self
            .walls
            .flood(&self.walls.or(&killer_inside), geometry, board);
        if !killer_inside.and_not(&held).is_empty() {
            return false;
        }
        let eye_room = self.region.and_not(&held.dilate(geometry, board));
        // No two apart: every point of it touches all the others.
        let room = eye_room.count();
        eye_room.iter().all(|p| {
            let near = geometry.neighbours(p);
            room <= 1 + near.iter().filter(|&&q| eye_room.contains(q)).count() as u32
        })
    }

    /// Whether the `invaders` enclose at least two points of the region
    /// apart from its walls: unconditional life needs two such regions
    /// (Benson's vital regions), and asking costs less than Benson.
    fn two_enclosures(&self, position: &Position, invaders: &Bitboard) -> bool {
        let geometry = position.geometry();
        let board = position.board_mask();
        let inside = self.region.and_not(invaders);
        let open = self.walls.dilate(geometry, board).and(&inside);
        let reached = open.flood(&inside, geometry, board);
        inside.and_not(&reached).count() >= 2
    }

    /// The table key of `position`: its region's stones and the side to
    /// move (a lost wall ends the read before the table is asked).
    fn key(&self, position: &Position) -> u64 {
        let mut key = match position.to_move() {
            Color::Black => 0,
            Color::White => zobrist::WHITE_TO_MOVE,
        };
        for q in self.region.iter() {
            if let Some(color) = position.cell(q).color() {
                key ^= zobrist::stone_key(color, q);
            }
        }
        key
    }

    /// The result where the position itself decides it; `hash` is its
    /// table key.
    fn settled(&mut self, position: &Position, hash: u64, passes: u8) -> Option<bool> {
        let invaders = self.in_region(position, self.invader.cell());
        if invaders.is_empty() {
            return Some(true);
        }
        let killer = self.invader.opponent().cell();
        let wall_lost = self.walls.iter().any(|q| position.cell(q) != killer);
        if wall_lost || passes >= 2 {
            return Some(false);
        }
        // The rest depends on the region's stones and the side to move
        // alone, which the key holds.
        if let Some(&shape) = self.shapes.get(&hash) {
            return shape;
        }
        let shape = self.decided_by_shape(position, &invaders);
        self.shapes.insert(hash, shape);
        shape
    }

    /// Whether the invader's stones in the region (`invaders`, at least
    /// one) are dead for want of room for two eyes (`Some(true)`: the
    /// killer wins) or alive unconditionally (`Some(false)`).
    fn decided_by_shape(&self, position: &Position, invaders: &Bitboard) -> Option<bool> {
        // The room for eyes changes with the killer's stones only: asked
        // after its moves, it is asked where it can have shrunk.
        if position.to_move() == self.invader && self.no_two_eyes(position) {
            return Some(true);
        }
        // Two eyes take at least six stones (two one-point eyes in a corner):
        // fewer are never alive unconditionally, so Benson is skipped.
        if invaders.count() >= MIN_PASS_ALIVE_STONES
            && self.two_enclosures(position, invaders)
            && pass_alive_within(position, self.invader, &self.region)
                .stones
                .intersects(invaders)
        {
            return Some(false);
        }
        None
    }

    /// The mover's legal moves in the region, the most urgent first, then
    /// the pass. The side proving its goal tries only its most urgent
    /// moves and never passes: fewer options can only lose proofs, never
    /// make a wrong one, while the side answering must have every move
    /// refuted.
    fn moves(&self, position: &Position, mover: Color, proving: bool) -> Vec<Option<Point>> {
        let geometry = position.geometry();
        let invader = self.invader.cell();
        let mut scored: Vec<(u32, Point)> = self
            .in_region(position, Cell::Empty)
            .iter()
            .filter(|&p| position.is_legal(p, mover))
            .map(|p| {
                let around = geometry.neighbours(p).map(|q| position.cell(q));
                let touching = around.iter().filter(|&&cell| cell == invader).count() as u32;
                // The region's neighbours outside it are walls, never empty.
                let room = around.iter().filter(|&&cell| cell == Cell::Empty).count() as u32;
                let urgency = 4 * touching + room + 8 * u32::from(touching > 0);
                (urgency, p)
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.0.cmp(&b.1.0)));
        if proving {
            scored.truncate(PROVING_MOVES);
        }
        let mut moves: Vec<Option<Point>> = scored.into_iter().map(|(_, p)| Some(p)).collect();
        if !proving {
            moves.push(None);
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;
    use crate::go::life::tests::BULKY_NAKADE;

    /// Nodes a test's read may cost unless it says otherwise.
    const READ_NODES: u32 = 10_000;

    /// Whether the `invader` string through (col, row) dies, read with
    /// `budget` nodes.
    fn dies_within(text: &str, stone: (usize, usize), invader: Color, budget: u32) -> bool {
        let position = Position::from_text(text, GameKind::Go).expect("a board");
        let p = position.geometry().point_unchecked(stone.0, stone.1);
        let region = enclosing_region(&position, p, invader);
        dies_enclosed(&position, &region, invader, budget)
    }

    fn dies(text: &str, stone: (usize, usize), invader: Color) -> bool {
        dies_within(text, stone, invader, READ_NODES)
    }

    #[test]
    fn a_lone_stone_in_a_small_corner_dies() {
        let board = "...X.O.
                     .O.X.O.
                     ...X.O.
                     XXXX.O.
                     .....O.
                     OOOOOO.
                     .......";
        assert!(dies(board, (1, 5), Color::White));
    }

    /// A White stone in Black's four-by-three corner, Black's wall with
    /// liberties outside.
    const FOUR_BY_THREE_CORNER: &str = "....X.O
                                        .O..X.O
                                        ....X.O
                                        XXXXX.O
                                        ......O
                                        OOOOOOO
                                        .......";

    #[test]
    fn a_lone_stone_in_a_four_by_three_corner_dies_given_the_nodes() {
        assert!(dies_within(
            FOUR_BY_THREE_CORNER,
            (1, 5),
            Color::White,
            100_000
        ));
    }

    #[test]
    fn stones_left_no_room_for_two_eyes_die_before_they_are_taken() {
        // The four-by-three corner again: once Black's stones joined to
        // its wall leave no two points apart that could be eyes, White is
        // dead without the lines that take every stone it throws in
        // (20,000 nodes did not prove it when only a capture did).
        assert!(dies_within(
            FOUR_BY_THREE_CORNER,
            (1, 5),
            Color::White,
            15_000
        ));
    }

    #[test]
    fn a_group_with_two_eyes_does_not_die() {
        let board = "X.X.XO.
                     XXXXXO.
                     OOOOOO.
                     .......
                     .......
                     .......
                     .......";
        assert!(!dies(board, (0, 6), Color::Black));
    }

    #[test]
    fn a_group_that_makes_two_eyes_first_does_not_die() {
        // Black to move plays B6 or the like and lives in the 2x5 corner
        // with its four stones already there.
        let board = "X.X.X.O
                     .....XO
                     XXXXXXO
                     OOOOOOO
                     .......
                     .......
                     .......";
        assert!(!dies(board, (0, 6), Color::Black));
    }

    #[test]
    fn a_group_around_a_nakade_dies() {
        assert!(dies(BULKY_NAKADE, (0, 0), Color::White));
    }

    #[test]
    fn the_region_of_a_group_holds_the_killer_stones_inside_its_eye() {
        let position = Position::from_text(BULKY_NAKADE, GameKind::Go).expect("a board");
        let at = |col, row| position.geometry().point_unchecked(col, row);
        let region = enclosing_region(&position, at(0, 0), Color::White);
        // The nine White stones, the two empty points and the three Black
        // stones inside; not the Black wall around.
        assert_eq!(region.count(), 14);
        assert!(region.contains(at(2, 0)) && region.contains(at(1, 1)));
        assert!(!region.contains(at(5, 0)) && !region.contains(at(4, 2)));
    }

    #[test]
    fn a_pair_in_a_three_row_band_dies_read_around_it() {
        // White's top band (27 points, a White stone H7 inside) holds the
        // Black pair D8 E8: too big to read whole, read around the pair.
        let board = ".........
                     ...XX....
                     .......O.
                     OOOOOOOOO
                     XXXXXXXXX
                     .........
                     .........
                     .........
                     .........";
        assert!(dies(board, (3, 7), Color::Black));
    }

    #[test]
    fn a_stone_read_around_dies_where_the_wall_has_no_liberty_outside() {
        // Black's wall (rows 4 and 5, C3 and the D column) has its
        // liberties only in its bottom-right area (20 empty points). Had
        // the whole area beyond the read around White H2 been filled, the
        // wall would be short of liberties and H2 would live by taking it.
        let board = ".........
                     .....X...
                     .........
                     OOOOOOOOO
                     XXXXXXXXX
                     XXX......
                     OOXX.....
                     .OOX...O.
                     X.OX.....";
        assert!(dies(board, (7, 1), Color::White));
    }

    #[test]
    fn invaders_far_apart_in_a_wide_area_are_read_apart() {
        // Black's four bottom rows hold White B3 and the pair G2 G3.
        let board = ".........
                     .........
                     .........
                     OOOOOOOOO
                     XXXXXXXXX
                     .........
                     .O....O..
                     ....X.O..
                     .........";
        assert!(dies(board, (1, 2), Color::White));
    }

    #[test]
    fn a_stone_in_more_room_than_the_local_read_allows_is_not_judged() {
        // Black's five bottom rows: 44 empty points around White E3.
        let board = ".........
                     .........
                     OOOOOOOOO
                     XXXXXXXXX
                     .........
                     .........
                     ....O....
                     .........
                     .........";
        assert!(!dies(board, (4, 2), Color::White));
    }

    #[test]
    fn a_lone_stone_near_the_side_dies_though_a_filled_point_is_cut_off() {
        // The ring filled beyond two rings of C8 leaves A9 a White stone of
        // its own, which the reader lets Black capture as a way out.
        let board = ".........
                     ..X......
                     .........
                     OOOOOOOOO
                     XXXXXXXXX
                     .........
                     .........
                     .........
                     .........";
        assert!(dies(board, (2, 7), Color::Black));
    }

    #[test]
    fn the_middle_of_a_straight_three_decides_for_whoever_moves_first() {
        let board = ".........
                     .........
                     .........
                     .........
                     .........
                     .........
                     XXXXX....
                     OOOOX....
                     ...OX....";
        let position = Position::from_text(board, GameKind::Go).expect("a board");
        let at = |col, row| position.geometry().point_unchecked(col, row);
        let region = enclosing_region(&position, at(0, 1), Color::White);
        let budget = READ_NODES;
        assert_eq!(
            key_move(&position, &region, Color::White, true, budget),
            Some(at(1, 0))
        );
        assert_eq!(
            key_move(&position, &region, Color::White, false, budget),
            Some(at(1, 0))
        );
        // With Black already on B1 White has nothing left to play for.
        let mut killed = position.clone();
        killed.play(at(1, 0), Color::Black);
        assert_eq!(
            key_move(&killed, &region, Color::White, false, budget),
            None
        );
    }
}
