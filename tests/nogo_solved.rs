//! The exact NoGo solver against the published and cross-computed results
//! for small boards (the project's shared `nogo-solved.md`; copied here so
//! the test does not depend on a file outside the repository).
//!
//! The table speaks of `rows x cols`; `Geometry::new` takes columns first.
//! "First" means Black, who moves first on the empty board, wins.

use std::time::Instant;

use kosumi::board::{Color, GameKind, Geometry, Position};
use kosumi::nogo::dfpn::{DfpnOptions, solve_dfpn};
use kosumi::nogo::solver::{solve, solve_nogo};

const FIRST: Color = Color::Black;
const SECOND: Color = Color::White;

/// Every board of at most 12 points in the table: (rows, cols, winner).
const SOLVED_UP_TO_12_POINTS: [(usize, usize, Color); 19] = [
    (1, 1, SECOND),
    (1, 2, FIRST),
    (1, 3, FIRST),
    (1, 4, SECOND),
    (1, 5, FIRST),
    (1, 6, FIRST),
    (1, 7, FIRST),
    (1, 8, FIRST),
    (1, 9, FIRST),
    (1, 10, FIRST),
    (1, 11, FIRST),
    (1, 12, FIRST),
    (2, 2, FIRST),
    (2, 3, SECOND),
    (2, 4, SECOND),
    (2, 5, FIRST),
    (2, 6, FIRST),
    (3, 3, FIRST),
    (3, 4, SECOND),
];

/// Solves the empty `rows` x `cols` board, printing the effort.
fn solve_empty(rows: usize, cols: usize) -> Color {
    let geometry = Geometry::new(cols, rows).expect("valid size");
    let start = Instant::now();
    let solution = solve_nogo(&Position::new(geometry, GameKind::NoGo)).expect("a NoGo position");
    println!(
        "{rows}x{cols} ({cols} columns): {:?} wins, {} nodes, {:.3} s",
        solution.winner,
        solution.nodes,
        start.elapsed().as_secs_f64()
    );
    solution.winner
}

#[test]
fn solver_reproduces_every_board_of_at_most_twelve_points() {
    for (rows, cols, winner) in SOLVED_UP_TO_12_POINTS {
        assert!(rows * cols <= 12);
        assert_eq!(solve_empty(rows, cols), winner, "{rows}x{cols}");
    }
}

#[test]
fn the_winner_does_not_depend_on_orientation() {
    for (rows, cols, winner) in SOLVED_UP_TO_12_POINTS {
        if rows != cols && [(1, 4), (1, 7), (2, 3), (2, 5), (3, 4)].contains(&(rows, cols)) {
            assert_eq!(solve_empty(cols, rows), winner, "{cols}x{rows}");
        }
    }
}

#[test]
fn solver_reproduces_2x7_and_2x8() {
    assert_eq!(solve_empty(2, 7), FIRST);
    assert_eq!(solve_empty(2, 8), FIRST);
}

#[test]
fn solver_refuses_go_positions_and_respects_the_side_to_move() {
    let geometry = Geometry::new(4, 1).expect("1x4");
    assert!(solve_nogo(&Position::new(geometry, GameKind::Go)).is_none());
    // 1x4 is a second-player win; with White to move first, Black wins.
    let mut white_first = Position::new(geometry, GameKind::NoGo);
    white_first.set_to_move(Color::White);
    assert_eq!(solve_nogo(&white_first).expect("NoGo").winner, Color::Black);
    // A side with no legal move has lost at once.
    let stuck = Position::from_text("X . O", GameKind::NoGo).expect("1x3");
    let solution = solve_nogo(&stuck).expect("NoGo");
    assert_eq!(solution.winner, Color::White);
    // Settled at the root, without a search.
    assert!(solution.nodes <= 1, "{}", solution.nodes);
}

/// The second solver (df-pn over its own board, sharing no code with the
/// negamax solver) on every board of the table in both orientations, and
/// against the first on 4x4, 5x3 and 3x5.
#[test]
fn the_independent_dfpn_solver_agrees() {
    let options = DfpnOptions {
        table_mb: 32,
        ..DfpnOptions::default()
    };
    let dfpn = |position: &Position| {
        let outcome = solve_dfpn(position, &options).expect("NoGo, small");
        outcome.winner.expect("no time limit")
    };
    let empty = |rows: usize, cols: usize| {
        Position::new(
            Geometry::new(cols, rows).expect("valid size"),
            GameKind::NoGo,
        )
    };
    for (rows, cols, winner) in SOLVED_UP_TO_12_POINTS {
        assert_eq!(dfpn(&empty(rows, cols)), winner, "{rows}x{cols}");
        assert_eq!(dfpn(&empty(cols, rows)), winner, "{cols}x{rows}");
    }
    for (rows, cols) in [(4, 4), (3, 5), (5, 3)] {
        let position = empty(rows, cols);
        let first = solve(&position, None, &mut |_| {});
        assert_eq!(Some(dfpn(&position)), first.winner, "{rows}x{cols}");
        // Every winning move of the first is a win by the second's count,
        // and the second's winning move is one of the first's.
        for &reply in &first.winning_moves {
            let mut after = position.clone();
            after.play(reply, FIRST);
            assert_eq!(dfpn(&after), FIRST, "{rows}x{cols} after {reply:?}");
        }
        let second = solve_dfpn(&position, &options).expect("NoGo");
        assert_eq!(
            second.winning_move.is_some(),
            !first.winning_moves.is_empty(),
            "{rows}x{cols}"
        );
        if let Some(reply) = second.winning_move {
            assert!(first.winning_moves.contains(&reply), "{rows}x{cols}");
        }
    }
}

/// `kosumi solve --method dfpn` prints what the negamax solve prints for
/// one winning move, and refuses the options only the negamax solver has.
#[test]
fn the_solve_command_runs_either_method() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_kosumi"))
            .arg("solve")
            .args(args)
            .output()
            .expect("kosumi runs")
    };
    let dfpn = run(&["--size", "3x2", "--method", "dfpn", "--table-mb", "8"]);
    assert!(dfpn.status.success());
    let text = String::from_utf8_lossy(&dfpn.stdout);
    assert!(
        text.contains("board 3x2 (columns x rows)\nwinner second\n"),
        "{text}"
    );
    let dfpn = run(&["--size", "3", "--method", "dfpn", "--table-mb", "8"]);
    let text = String::from_utf8_lossy(&dfpn.stdout);
    assert!(text.contains("winner first\na winning move "), "{text}");
    let negamax = run(&["--size", "3", "--first-win"]);
    let text = String::from_utf8_lossy(&negamax.stdout);
    assert!(text.contains("winner first\na winning move "), "{text}");
    let refused = run(&["--size", "3", "--method", "dfpn", "--threads", "2"]);
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(error.contains("--method negamax"), "{error}");
}
