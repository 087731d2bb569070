//! The solver's tests: its rules against `Position`'s, the two words
//! against each other, symmetries, kept tables, and tiny boards.

use super::board::{BitBoard, PointSet, stones_word};
use super::symmetry::symmetries;
use super::table::max_area;
use super::*;
use crate::board::Geometry;

/// The solver's legality of every empty point against the position's,
/// for both sides, on a word of type `S`.
fn check_legality<S: PointSet>(position: &Position) {
    let g = position.geometry();
    let board = BitBoard::<S>::new(g.width(), g.height());
    let analysis = board.analyse(
        stones_word::<S>(position, Color::Black),
        stones_word::<S>(position, Color::White),
    );
    for p in g.points() {
        let (c, r) = g.coords(p).unwrap();
        let bit = (r * g.width() + c) as u32;
        if position.cell(p) != crate::board::Cell::Empty {
            continue;
        }
        assert_eq!(
            analysis.legal_own.contains(bit),
            position.is_legal(p, Color::Black),
            "black at {c},{r}"
        );
        assert_eq!(
            analysis.legal_other.contains(bit),
            position.is_legal(p, Color::White),
            "white at {c},{r}"
        );
    }
}

#[test]
fn legality_matches_the_position() {
    let small = Position::from_text(
        "X.O.
         XO..
         .XO.
         O.X.",
        GameKind::NoGo,
    )
    .unwrap();
    check_legality::<u64>(&small);
    check_legality::<u128>(&small);
    // Strings crossing the 64-bit boundary of the wide word, and
    // captures and suicides on its last rows.
    let large = Position::from_text(
        "X.XOO.O.X
         XXOO.OOXX
         .O.XXO.X.
         OO.X.OXOO
         .XXOXX.X.
         OX.OO.OXO
         X.XXOXXO.
         OOX.O.OX.
         .XO.XOO.X",
        GameKind::NoGo,
    )
    .unwrap();
    check_legality::<u128>(&large);
}

/// A NoGo position after up to `stones` random legal moves on a
/// `cols` x `rows` board, either side to move; `state` is a fixed LCG.
fn random_play(cols: usize, rows: usize, stones: usize, state: &mut u64) -> Position {
    let mut position = Position::new(Geometry::new(cols, rows).unwrap(), GameKind::NoGo);
    for _ in 0..stones {
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
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        position.play(legal[(*state >> 33) as usize % legal.len()], mover);
    }
    position
}

/// Every root move classified through both words agrees.
fn assert_words_agree(position: &Position) {
    let options = SolveOptions {
        table_mb: Some(16),
        ..SolveOptions::default()
    };
    let mut kept = KeptTable::default();
    let narrow = solve_on::<u64>(position, &options, &mut |_| {}, Instant::now(), &mut kept);
    let mut kept = KeptTable::default();
    let wide = solve_on::<u128>(position, &options, &mut |_| {}, Instant::now(), &mut kept);
    let text = position.to_text();
    assert_eq!(narrow.status, SolveStatus::Complete, "{text}");
    assert_eq!(wide.status, SolveStatus::Complete, "{text}");
    assert_eq!(wide.winner, narrow.winner, "{text}");
    assert_eq!(wide.winning_moves, narrow.winning_moves, "{text}");
    assert_eq!(wide.losing_moves, narrow.losing_moves, "{text}");
}

#[test]
fn the_wide_word_agrees_with_the_narrow_one() {
    for (cols, rows) in [(4, 4), (5, 3), (3, 5), (7, 2), (4, 3)] {
        assert_words_agree(&Position::new(
            Geometry::new(cols, rows).unwrap(),
            GameKind::NoGo,
        ));
    }
    // Positions of random play, either side to move (a fixed LCG).
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for (cols, rows, stones) in [
        (4, 4, 5),
        (5, 4, 9),
        (6, 3, 6),
        (4, 5, 8),
        (6, 6, 22),
        (7, 7, 38),
    ] {
        for _ in 0..6 {
            assert_words_agree(&random_play(cols, rows, stones, &mut state));
        }
    }
}

/// The look-ahead's analysis after each legal move, built from the
/// strings before it, is the full analysis of the position after it.
fn check_analysis_after<S: PointSet>(position: &Position) {
    let g = position.geometry();
    let board = BitBoard::<S>::new(g.width(), g.height());
    let mover = position.to_move();
    let (own, other) = (
        stones_word::<S>(position, mover),
        stones_word::<S>(position, mover.opponent()),
    );
    let empty = board.all & !(own | other);
    let (mut own_strings, mut other_strings) = (Vec::new(), Vec::new());
    board.strings_with_liberties(own, empty, &mut own_strings);
    board.strings_with_liberties(other, empty, &mut other_strings);
    let mut legal = board.analyse(own, other).legal_own;
    while legal != S::EMPTY {
        let stone = legal.first_alone();
        legal = legal.without_first();
        let full = board.analyse(other, own | stone);
        let after = board.analyse_after(&own_strings, &other_strings, empty, stone);
        assert_eq!(after.legal_own, full.legal_own, "{}", position.to_text());
        assert_eq!(
            after.legal_other,
            full.legal_other,
            "{}",
            position.to_text()
        );
    }
}

#[test]
fn the_look_ahead_analysis_matches_a_full_one() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for (cols, rows, stones) in [(5, 5, 10), (7, 7, 30), (9, 9, 40), (9, 9, 60), (11, 11, 90)] {
        for _ in 0..8 {
            let position = random_play(cols, rows, stones, &mut state);
            if cols * rows <= max_area::<u64>() {
                check_analysis_after::<u64>(&position);
            }
            check_analysis_after::<u128>(&position);
        }
    }
}

#[test]
fn symmetries_are_counted_per_shape() {
    assert_eq!(symmetries::<u64>(4, 4).len(), 8);
    assert_eq!(symmetries::<u64>(5, 4).len(), 4);
    assert_eq!(symmetries::<u64>(7, 1).len(), 2);
    assert_eq!(symmetries::<u64>(1, 1).len(), 1);
    assert_eq!(symmetries::<u128>(9, 9).len(), 8);
    assert_eq!(symmetries::<u128>(11, 10).len(), 4);
}

/// Every symmetry of the wide word is a permutation of the points
/// that keeps neighbours neighbours.
#[test]
fn wide_symmetries_preserve_adjacency() {
    for (width, height) in [(9, 9), (11, 11), (10, 7)] {
        let board = BitBoard::<u128>::new(width, height);
        let area = (width * height) as u32;
        for symmetry in symmetries::<u128>(width, height) {
            assert_eq!(symmetry.apply(board.all), board.all);
            for bit in 0..area {
                let image = symmetry.apply(u128::point(bit));
                assert_eq!(image.count(), 1);
                assert_eq!(
                    board.neighbours(image),
                    symmetry.apply(board.neighbours(u128::point(bit))),
                    "{width}x{height} point {bit}"
                );
            }
        }
    }
}

/// A kept table answers a second solve from what the first proved, on
/// the same position and on one a move further on; a board of another
/// shape starts a fresh table and still gets the right answer.
#[test]
fn a_kept_table_carries_proofs_to_later_solves() {
    let options = SolveOptions {
        all_moves: false,
        ..SolveOptions::default()
    };
    let board = Position::new(Geometry::new(4, 3).unwrap(), GameKind::NoGo);
    let mut kept = KeptTable::default();
    let fresh = solve_with(&board, &options, &mut |_| {});
    let first = solve_kept(&board, &options, &mut |_| {}, &mut kept);
    let again = solve_kept(&board, &options, &mut |_| {}, &mut kept);
    assert_eq!(first.winner, fresh.winner);
    assert_eq!(again.winner, fresh.winner);
    assert!(
        again.nodes < first.nodes,
        "{} then {}",
        first.nodes,
        again.nodes
    );

    let mut later = board.clone();
    let reply = [&first.winning_moves, &first.losing_moves]
        .into_iter()
        .find_map(|moves| moves.first())
        .unwrap();
    later.play(*reply, Color::Black);
    let later_fresh = solve_with(&later, &options, &mut |_| {});
    let later_kept = solve_kept(&later, &options, &mut |_| {}, &mut kept);
    assert_eq!(later_kept.winner, later_fresh.winner);
    assert!(later_kept.nodes < later_fresh.nodes);

    let square = Position::new(Geometry::square(3).unwrap(), GameKind::NoGo);
    let other_shape = solve_kept(&square, &options, &mut |_| {}, &mut kept);
    assert_eq!(other_shape.winner, Some(Color::Black));
}

#[test]
fn tiny_boards() {
    let solve_size = |w, h| {
        solve_nogo(&Position::new(Geometry::new(w, h).unwrap(), GameKind::NoGo))
            .unwrap()
            .winner
    };
    assert_eq!(solve_size(1, 1), Color::White);
    assert_eq!(solve_size(2, 1), Color::Black);
    assert_eq!(solve_size(4, 1), Color::White);
    assert_eq!(solve_size(2, 2), Color::Black);
    assert_eq!(solve_size(3, 2), Color::White);
    assert_eq!(solve_size(3, 3), Color::Black);
}

/// Every root move classified by two threads sharing a table agrees with
/// one thread, and a first-win solve by two threads names a winning move.
fn assert_threads_agree(position: &Position) {
    let text = position.to_text();
    let one = solve_with(position, &SolveOptions::default(), &mut |_| {});
    let two = solve_with(
        position,
        &SolveOptions {
            threads: 2,
            ..SolveOptions::default()
        },
        &mut |_| {},
    );
    assert_eq!(one.status, SolveStatus::Complete, "{text}");
    assert_eq!(two.status, SolveStatus::Complete, "{text}");
    assert_eq!(two.winner, one.winner, "{text}");
    assert_eq!(two.winning_moves, one.winning_moves, "{text}");
    assert_eq!(two.losing_moves, one.losing_moves, "{text}");
    let first = solve_with(
        position,
        &SolveOptions {
            threads: 2,
            all_moves: false,
            ..SolveOptions::default()
        },
        &mut |_| {},
    );
    assert_eq!(first.status, SolveStatus::Complete, "{text}");
    assert_eq!(first.winner, one.winner, "{text}");
    assert!(
        first
            .winning_moves
            .iter()
            .all(|m| one.winning_moves.contains(m)),
        "{text}"
    );
}

#[test]
fn two_threads_agree_with_one() {
    for (cols, rows) in [(4, 4), (5, 3), (4, 5), (7, 2)] {
        assert_threads_agree(&Position::new(
            Geometry::new(cols, rows).unwrap(),
            GameKind::NoGo,
        ));
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for (cols, rows, stones) in [(5, 4, 6), (6, 3, 4), (5, 5, 10), (7, 7, 36)] {
        for _ in 0..4 {
            assert_threads_agree(&random_play(cols, rows, stones, &mut state));
        }
    }
}

/// A solve that starts from the checkpoint another solve wrote finds the
/// same answer with fewer nodes; a checkpoint of another board shape, or
/// a file that is not one, stops the solve before it searches.
#[test]
fn a_checkpoint_carries_proofs_to_a_later_solve() {
    let folder = std::env::temp_dir().join(format!("kosumi-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("4x5.ckpt");
    let options = SolveOptions {
        table_mb: Some(16),
        checkpoint: Some(Checkpoint {
            path: path.clone(),
            every: Duration::from_secs(3600),
        }),
        ..SolveOptions::default()
    };
    let board = Position::new(Geometry::new(4, 5).unwrap(), GameKind::NoGo);
    let first = solve_with(&board, &options, &mut |_| {});
    assert_eq!(first.status, SolveStatus::Complete);
    assert!(path.exists());
    let again = solve_with(&board, &options, &mut |_| {});
    assert_eq!(again.status, SolveStatus::Complete);
    assert_eq!(again.winning_moves, first.winning_moves);
    assert_eq!(again.losing_moves, first.losing_moves);
    assert!(
        again.nodes * 10 < first.nodes,
        "{} nodes after loading, {} before",
        again.nodes,
        first.nodes
    );
    let other_shape = Position::new(Geometry::new(5, 4).unwrap(), GameKind::NoGo);
    let refused = solve_with(&other_shape, &options, &mut |_| {});
    assert_eq!(refused.status, SolveStatus::BadCheckpoint);
    assert_eq!(refused.nodes, 0);
    std::fs::write(&path, b"not a checkpoint").unwrap();
    let refused = solve_with(&board, &options, &mut |_| {});
    assert_eq!(refused.status, SolveStatus::BadCheckpoint);
    std::fs::remove_dir_all(&folder).unwrap();
}
