//! The region decision's tests: how positions split, and the decision
//! against the whole-board solver on late positions of random play.

use std::time::Instant;

use rand_xoshiro::rand_core::SeedableRng;

use super::*;
use crate::board::{Color, GameKind, Geometry, Point, Position};
use crate::nogo::solver::{SolveOptions, solve_with};
use crate::search::FastRng;
use crate::search::playout::below;

/// A budget that values most parts of up to about 12 points (some 1.5 us
/// a position): larger ones give up within about 30 ms.
const TEST_BUDGET: RegionBudget = RegionBudget {
    positions: 20_000,
    work: 400_000,
    deadline: None,
};

fn parts(text: &str) -> Split {
    let position = Position::from_text(text, GameKind::NoGo).unwrap();
    split_position(&position).expect("a NoGo board of at most 128 points")
}

#[test]
fn walls_of_two_strings_make_two_parts() {
    let split = parts(
        "..XO.
         ..XO.
         ..XO.
         ..XO.
         ..XO.",
    );
    assert_eq!(split.components.len(), 2);
    assert_eq!(split.dead, 0);
    assert_eq!(split.largest(), 10);
    assert_eq!(split.contested(), 2);
}

#[test]
fn a_string_with_liberties_on_both_sides_joins_them() {
    // The black string touches the left area and, at its bend, the right
    // column: the two areas are not adjacent, yet one part.
    let split = parts(
        "..XO.
         ..XO.
         ..XX.
         ..XO.
         ..XO.",
    );
    assert_eq!(split.components.len(), 1);
    assert_eq!(split.largest(), 15);
}

#[test]
fn a_point_legal_for_neither_side_is_dead() {
    // The corner is the white group's last liberty (Black may not
    // capture) and White's suicide.
    let position = Position::from_text(
        ".OX..
         OOX..
         XXX..
         .....
         .....",
        GameKind::NoGo,
    )
    .unwrap();
    let split = split_position(&position).unwrap();
    let corner = 1u128 << 20;
    assert_eq!(split.dead, corner);
    assert_eq!(split.components.len(), 1);
}

/// The points of `set` (bits of a `cols`-wide board) as board points.
fn points_of(position: &Position, set: u128) -> Vec<Point> {
    let width = position.geometry().width();
    (0..128)
        .filter(|bit| set >> bit & 1 == 1)
        .map(|bit| {
            position
                .geometry()
                .point_unchecked(bit % width, bit / width)
        })
        .collect()
}

/// What the split promises, checked move by move: a move in one part
/// changes no point's legality in any other part, and dead points stay
/// illegal for both sides.
#[test]
fn a_move_in_one_part_leaves_the_others_alone() {
    let mut rng = FastRng::seed_from_u64(65);
    let (mut moves, mut split_ones) = (0, 0);
    for k in 0..80 {
        let (cols, rows) = if k % 2 == 0 { (9, 9) } else { (7, 7) };
        let position = late_position(cols, rows, 10 + k % 20, &mut rng);
        let parts = split_position(&position).unwrap();
        split_ones += usize::from(parts.components.len() >= 2);
        let dead = points_of(&position, parts.dead);
        for (i, part) in parts.components.iter().enumerate() {
            for (color, legal) in [
                (Color::Black, part.black_legal),
                (Color::White, part.white_legal),
            ] {
                for p in points_of(&position, legal) {
                    let mut after = position.clone();
                    after.play(p, color);
                    moves += 1;
                    let others = parts.components.iter().enumerate().filter(|&(j, _)| j != i);
                    for (_, other) in others {
                        for q in points_of(&position, other.points) {
                            for side in [Color::Black, Color::White] {
                                assert_eq!(
                                    after.is_legal(q, side),
                                    position.is_legal(q, side),
                                    "{p:?} by {color:?} changes {q:?}:\n{}",
                                    position.to_text()
                                );
                            }
                        }
                    }
                    for &q in &dead {
                        assert!(
                            !after.is_legal(q, Color::Black) && !after.is_legal(q, Color::White)
                        );
                    }
                }
            }
        }
    }
    assert!(split_ones >= 20, "only {split_ones} positions split");
    eprintln!("{moves} moves in {split_ones} split positions checked");
    assert!(moves >= 1000, "only {moves} moves tried");
}

/// A NoGo position of random legal play on `cols` x `rows` until at most
/// `empty` points are empty or the side to move has no move.
fn late_position(cols: usize, rows: usize, empty: usize, rng: &mut FastRng) -> Position {
    let mut position = Position::new(Geometry::new(cols, rows).unwrap(), GameKind::NoGo);
    while position.empty_points().len() > empty {
        let mover = position.to_move();
        let legal: Vec<Point> = position
            .empty_points()
            .iter()
            .map(|&p| Point(p))
            .filter(|&p| position.is_legal(p, mover))
            .collect();
        if legal.is_empty() {
            break;
        }
        position.play(legal[below(rng, legal.len())], mover);
    }
    position
}

/// The solver's winner of `position`, on a small table (a fresh default
/// one per call would cost more than the solve).
fn solver_winner(position: &Position) -> Color {
    let options = SolveOptions {
        table_mb: Some(2),
        all_moves: false,
        ..SolveOptions::default()
    };
    solve_with(position, &options, &mut |_| {})
        .winner
        .expect("a solvable board")
}

/// The region decision and the solver agree on `position`'s winner, and a
/// winning move the decision gives really wins. False if the decision ran
/// out of budget.
fn agrees_with_the_solver(position: &Position) -> bool {
    let report = decide(position, &TEST_BUDGET);
    if report.decision == RegionDecision::Unknown {
        return false;
    }
    let mover = position.to_move();
    let text = position.to_text();
    let winner = solver_winner(position);
    match report.decision {
        RegionDecision::Unknown => unreachable!(),
        RegionDecision::Won(p) => {
            assert_eq!(winner, mover, "claimed won:\n{text}");
            let mut after = position.clone();
            after.play(p, mover);
            let reply = solver_winner(&after);
            assert_eq!(reply, mover, "{p:?} does not win:\n{text}");
        }
        RegionDecision::Lost(moves) => {
            assert_eq!(winner, mover.opponent(), "claimed lost:\n{text}");
            let legal = position
                .empty_points()
                .iter()
                .filter(|&&p| position.is_legal(Point(p), mover))
                .count();
            assert_eq!(moves.len(), legal, "every move is lost:\n{text}");
        }
    }
    true
}

#[test]
fn the_decision_agrees_with_the_solver_on_late_positions() {
    let start = Instant::now();
    let mut rng = FastRng::seed_from_u64(64);
    let (mut checked, mut split_ones, mut tried) = (0, 0, 0);
    for (cols, rows, count) in [(4, 4, 20), (5, 5, 30), (6, 6, 40), (7, 7, 50), (9, 9, 80)] {
        for k in 0..count {
            // 10 to 18 empty points, at most half the board on small ones.
            let empty = (10 + k % 9).min(cols * rows / 2);
            let mut position = late_position(cols, rows, empty, &mut rng);
            // Either side to move.
            if k % 2 == 1 {
                position.set_to_move(position.to_move().opponent());
            }
            tried += 1;
            if agrees_with_the_solver(&position) {
                checked += 1;
                let parts = split_position(&position).unwrap();
                split_ones += usize::from(parts.components.len() >= 2);
            }
        }
    }
    eprintln!(
        "{checked} of {tried} positions decided ({split_ones} in two or more parts) in {:?}",
        start.elapsed()
    );
    assert!(checked >= 120, "only {checked} of {tried} decided");
    assert!(split_ones >= 50, "only {split_ones} split");
}

#[test]
fn a_board_decided_by_regions_and_the_move_it_plays() {
    // Two walled areas: Black to move; the decision must agree with the
    // solver (the winner) and play a move that wins.
    let mut position = Position::from_text(
        "..XO.
         ..XO.
         ..XO.
         ..XO.",
        GameKind::NoGo,
    )
    .unwrap();
    for mover in [Color::Black, Color::White] {
        position.set_to_move(mover);
        assert!(agrees_with_the_solver(&position));
    }
}

/// What the in-game budgets were set from (`endgame.rs`): the cost of
/// deciding 80 late positions of random play on 9x9 and 7x7, printed
/// (`cargo test --release measure_late_positions -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure_late_positions() {
    let mut rng = FastRng::seed_from_u64(7);
    let budget = RegionBudget {
        positions: 200_000,
        work: 50_000_000,
        deadline: None,
    };
    for (cols, rows) in [(9, 9), (7, 7)] {
        for k in 0..40 {
            let position = late_position(cols, rows, 12 + k % 12, &mut rng);
            let report = decide(&position, &budget);
            let parts = split_position(&position).unwrap();
            let sizes: Vec<u32> = parts.components.iter().map(Component::size).collect();
            eprintln!(
                "{cols}x{rows}, {} empty, parts {sizes:?}: {} positions, work {}, {:?}, {:?}",
                position.empty_points().len(),
                report.positions,
                report.work,
                report.elapsed,
                report.decision
            );
        }
    }
}
