//! Exhaustive counts that pin the rules down, each checked against an
//! independent computation.
//!
//! - Go: `go_reachable` from the empty board equals the number of legal
//!   positions (every string has a liberty: all of them are reachable), which
//!   the test counts by brute force over all 3^n colourings, and the
//!   published square counts (OEIS A094777: 1, 57, 12675, 24318165).
//! - NoGo (and Go): `move_sequences` equals the count of the naive board of
//!   `tests/common`, from the empty board and from mid-game positions.

mod common;

use std::time::Instant;

use common::{NaiveBoard, count_legal_positions_by_enumeration};
use kosumi::board::perft::{MAX_REACHABLE_AREA, go_reachable, move_sequences};
use kosumi::board::{BoardError, Color, GameKind, Geometry, Position};
use kosumi::search::FastRng;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

fn geometry(width: usize, height: usize) -> Geometry {
    Geometry::new(width, height).expect("test sizes are valid")
}

/// Asserts that `go_reachable` finds `expected` positions with as many
/// distinct hashes, and that its per-depth counts add up.
fn assert_reachable(width: usize, height: usize, expected: u64) {
    let start = Instant::now();
    let reachable = go_reachable(geometry(width, height), None).expect("small board");
    println!(
        "go {width}x{height}: {} positions, {} distinct hashes, depths {:?} ({:.2} s)",
        reachable.total,
        reachable.distinct_hashes,
        reachable.new_at_depth,
        start.elapsed().as_secs_f64()
    );
    assert_eq!(reachable.total, expected, "{width}x{height} positions");
    assert_eq!(
        reachable.distinct_hashes, expected,
        "{width}x{height} hash collisions"
    );
    assert_eq!(reachable.new_at_depth.iter().sum::<u64>(), reachable.total);
    assert_eq!(reachable.new_at_depth[0], 1, "the empty board");
}

#[test]
fn go_reachable_2x2_is_57_positions() {
    assert_reachable(2, 2, 57);
}

#[test]
fn go_reachable_3x3_is_12675_positions() {
    assert_reachable(3, 3, 12_675);
}

#[test]
#[ignore = "about 15 CPU-minutes in the test profile, where every placement runs check_invariants"]
fn go_reachable_4x4_is_24318165_positions() {
    assert_reachable(4, 4, 24_318_165);
}

#[test]
fn naive_enumeration_agrees_with_the_published_square_counts() {
    assert_eq!(count_legal_positions_by_enumeration(1, 1), 1);
    assert_eq!(count_legal_positions_by_enumeration(2, 2), 57);
    assert_eq!(count_legal_positions_by_enumeration(3, 3), 12_675);
}

#[test]
fn go_reachable_equals_brute_force_legal_count_on_rectangles() {
    // 1xn boards in both orientations, and small rectangles.
    let mut one_by_n = Vec::new();
    for n in 1..=10 {
        let legal = count_legal_positions_by_enumeration(n, 1);
        assert_eq!(count_legal_positions_by_enumeration(1, n), legal);
        assert_reachable(n, 1, legal);
        assert_reachable(1, n, legal);
        one_by_n.push(legal);
    }
    // Legal positions on 1xn (OEIS A102620 starts 1, 5, 15, 41, 113, ...).
    assert_eq!(one_by_n, [1, 5, 15, 41, 113, 313, 867, 2401, 6649, 18413]);
    for (width, height) in [(2, 3), (3, 2), (2, 4), (4, 2), (2, 5)] {
        let legal = count_legal_positions_by_enumeration(width, height);
        assert_reachable(width, height, legal);
    }
}

#[test]
fn go_reachable_by_depth_counts_the_positions_with_that_many_stones() {
    // With at most two stones no capture can happen, so the positions found
    // within two placements are exactly the legal ones with at most two
    // stones: empty, 2n single stones, and the legal pairs.
    for (width, height) in [(3, 3), (2, 5), (4, 3)] {
        let naive = NaiveBoard::new(width, height, GameKind::Go);
        let n = naive.area() as u64;
        let mut legal_pairs = 0;
        for a in 0..naive.area() {
            for b in a + 1..naive.area() {
                for (ca, cb) in [
                    (Color::Black, Color::Black),
                    (Color::Black, Color::White),
                    (Color::White, Color::Black),
                    (Color::White, Color::White),
                ] {
                    let mut pair = naive.clone();
                    pair.grid[a] = Some(ca);
                    pair.grid[b] = Some(cb);
                    legal_pairs += pair.every_string_has_a_liberty() as u64;
                }
            }
        }
        let reachable = go_reachable(geometry(width, height), Some(2)).expect("small");
        assert_eq!(
            reachable.new_at_depth,
            [1, 2 * n, legal_pairs],
            "{width}x{height}"
        );
    }
}

#[test]
fn go_reachable_refuses_boards_over_its_limit() {
    assert_eq!(MAX_REACHABLE_AREA, 32);
    assert_eq!(go_reachable(geometry(5, 7), None), Err(BoardError::BadSize));
    assert!(go_reachable(geometry(4, 8), Some(1)).is_ok());
}

/// `move_sequences` of the engine and of the naive board from the empty
/// board of the given size, for each depth up to `max_depth`.
fn assert_sequences_from_empty(width: usize, height: usize, kind: GameKind, max_depth: usize) {
    let fast = Position::new(geometry(width, height), kind);
    let naive = NaiveBoard::new(width, height, kind);
    let start = Instant::now();
    let mut counts = Vec::new();
    for depth in 1..=max_depth {
        let count = move_sequences(&fast, depth);
        assert_eq!(
            count,
            naive.move_sequences(depth),
            "{kind:?} {width}x{height} depth {depth}"
        );
        counts.push(count);
    }
    println!(
        "{kind:?} {width}x{height} sequences {counts:?} ({:.2} s)",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn nogo_sequences_from_the_empty_board_match_the_naive_board() {
    assert_sequences_from_empty(3, 3, GameKind::NoGo, 9);
    assert_sequences_from_empty(4, 4, GameKind::NoGo, 4);
    assert_sequences_from_empty(5, 5, GameKind::NoGo, 3);
    assert_sequences_from_empty(9, 9, GameKind::NoGo, 2);
    assert_sequences_from_empty(2, 3, GameKind::NoGo, 6);
    assert_sequences_from_empty(1, 7, GameKind::NoGo, 7);
}

#[test]
fn nogo_sequences_on_9x9_lose_only_corner_captures_at_depth_three() {
    // The third move is illegal only when Black takes a white stone that
    // played into a corner next to Black's first stone (B A2, W A1, B B1):
    // two ways in each of four corners.
    let nogo = Position::new(geometry(9, 9), GameKind::NoGo);
    assert_eq!(move_sequences(&nogo, 3), 81 * 80 * 79 - 8);
    assert_eq!(
        move_sequences(&nogo, 3),
        NaiveBoard::new(9, 9, GameKind::NoGo).move_sequences(3)
    );
    // A full board has no liberty anywhere: no sequence fills one.
    let three = Position::new(geometry(3, 3), GameKind::NoGo);
    assert_eq!(move_sequences(&three, 9), 0);
}

#[test]
fn go_sequences_from_the_empty_board_match_the_naive_board() {
    // Captures start at the fourth move (a corner stone needs two).
    assert_sequences_from_empty(3, 3, GameKind::Go, 7);
    assert_sequences_from_empty(4, 4, GameKind::Go, 5);
    assert_sequences_from_empty(2, 2, GameKind::Go, 8);
    assert_sequences_from_empty(1, 5, GameKind::Go, 8);
}

/// A position after `plies` random legal moves (alternating, no passes),
/// played on both boards; `None` if a side ran out of moves first.
fn random_position(
    width: usize,
    height: usize,
    kind: GameKind,
    plies: usize,
    seed: u64,
) -> Option<(Position, NaiveBoard)> {
    let mut rng = FastRng::seed_from_u64(seed);
    let g = geometry(width, height);
    let mut fast = Position::new(g, kind);
    let mut naive = NaiveBoard::new(width, height, kind);
    for _ in 0..plies {
        let mover = naive.to_move;
        let moves = naive.legal_moves(mover);
        if moves.is_empty() {
            return None;
        }
        let index = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let (col, row) = naive.col_row(index);
        fast.play(g.point(col, row).expect("on the board"), mover);
        naive.play(index, mover);
    }
    assert_eq!(fast.to_text(), naive.to_text());
    Some((fast, naive))
}

#[test]
fn sequences_from_mid_game_positions_match_the_naive_board() {
    let mut compared = 0;
    let mut with_illegal_moves = 0;
    for seed in 0..40 {
        for (width, height, kind, plies, depth) in [
            (4, 4, GameKind::NoGo, 6, 4),
            (5, 5, GameKind::NoGo, 12, 3),
            (3, 5, GameKind::NoGo, 5, 5),
            (4, 4, GameKind::Go, 10, 4),
            (5, 5, GameKind::Go, 30, 3),
        ] {
            let Some((fast, naive)) = random_position(width, height, kind, plies, seed) else {
                continue;
            };
            let mover = naive.to_move;
            let empties = naive.grid.iter().filter(|c| c.is_none()).count();
            if naive.legal_moves(mover).len() < empties {
                with_illegal_moves += 1;
            }
            assert_eq!(
                move_sequences(&fast, depth),
                naive.move_sequences(depth),
                "{kind:?} {width}x{height} seed {seed} depth {depth}\n{}",
                naive.to_text()
            );
            compared += 1;
        }
    }
    println!("compared {compared} positions, {with_illegal_moves} with illegal empty points");
    assert!(compared >= 150);
    assert!(with_illegal_moves >= 50);
}
