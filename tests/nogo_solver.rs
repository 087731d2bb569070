//! The exact NoGo solver against published results, the gogui-regress
//! positions of the NoGo suite, and a brute-force negamax on small boards.

use std::collections::HashMap;
use std::time::Duration;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use kosumi::board::{Color, GameKind, Geometry, Point, Position};
use kosumi::nogo::solver::{SolveStatus, solve, solve_nogo};

/// Whether the side to move wins, by plain negamax over `Position` with a
/// memo keyed by the Zobrist hash: slow, but shares no code with the solver.
fn brute_force_wins(position: &Position, memo: &mut HashMap<u64, bool>) -> bool {
    let key = position.hash_with_side();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mover = position.to_move();
    let mut result = false;
    for &p in position.empty_points() {
        let p = Point(p);
        if position.is_legal(p, mover) {
            let mut child = position.clone();
            child.play(p, mover);
            if !brute_force_wins(&child, memo) {
                result = true;
                break;
            }
        }
    }
    memo.insert(key, result);
    result
}

/// Every winning move of the side to move, by brute force, sorted.
fn brute_force_winning_moves(position: &Position) -> Vec<Point> {
    let mut memo = HashMap::new();
    let mover = position.to_move();
    let mut winning: Vec<Point> = position
        .empty_points()
        .iter()
        .map(|&p| Point(p))
        .filter(|&p| position.is_legal(p, mover))
        .filter(|&p| {
            let mut child = position.clone();
            child.play(p, mover);
            !brute_force_wins(&child, &mut memo)
        })
        .collect();
    winning.sort_unstable();
    winning
}

fn empty_board(cols: usize, rows: usize) -> Position {
    Position::new(
        Geometry::new(cols, rows).expect("test sizes are valid"),
        GameKind::NoGo,
    )
}

fn solved(position: &Position) -> (Color, Vec<Point>) {
    let outcome = solve(position, None, &mut |_| {});
    assert_eq!(outcome.status, SolveStatus::Complete);
    let winner = outcome.winner.expect("a complete solve has a winner");
    (winner, outcome.winning_moves)
}

/// Boards up to 3x6 from nogo-solved.md (rows x cols; `true`: first player
/// wins). The solver is symmetric in rows and columns, so both
/// orientations are checked.
#[test]
fn reproduces_the_solved_boards() {
    let mut boards: Vec<(usize, usize, bool)> =
        vec![(1, 1, false), (1, 2, true), (1, 3, true), (1, 4, false)];
    boards.extend((5..=12).map(|n| (1, n, true)));
    boards.extend([
        (2, 2, true),
        (2, 3, false),
        (2, 4, false),
        (2, 5, true),
        (2, 6, true),
        (2, 7, true),
        (2, 8, true),
        (3, 3, true),
        (3, 4, false),
        (3, 5, true),
        (3, 6, true),
        (4, 4, false),
    ]);
    for (rows, cols, first_wins) in boards {
        let expected = if first_wins {
            Color::Black
        } else {
            Color::White
        };
        for (c, r) in [(cols, rows), (rows, cols)] {
            let solution = solve_nogo(&empty_board(c, r)).expect("NoGo boards are solvable");
            assert_eq!(solution.winner, expected, "{c}x{r}");
        }
    }
}

/// 1x13 to 1x15 are not in nogo-solved.md; check them against brute force.
#[test]
fn long_strips_agree_with_brute_force() {
    for n in 13..=15 {
        let board = empty_board(n, 1);
        let mut memo = HashMap::new();
        let expected = if brute_force_wins(&board, &mut memo) {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(solved(&board).0, expected, "1x{n}");
    }
}

#[test]
fn winning_moves_match_brute_force_on_empty_small_boards() {
    for (cols, rows) in [
        (1, 1),
        (2, 1),
        (5, 1),
        (9, 1),
        (2, 2),
        (3, 2),
        (4, 2),
        (5, 2),
        (3, 3),
    ] {
        let board = empty_board(cols, rows);
        let (winner, moves) = solved(&board);
        let expected = brute_force_winning_moves(&board);
        assert_eq!(moves, expected, "{cols}x{rows}");
        let first_wins = !expected.is_empty();
        assert_eq!(winner == Color::Black, first_wins, "{cols}x{rows}");
    }
}

/// Random positions reached by random play, either side to move.
#[test]
fn winning_moves_match_brute_force_in_random_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20240601);
    for (cols, rows, stones) in [(4, 3, 3), (4, 4, 7), (5, 3, 5), (6, 2, 3), (5, 4, 11)] {
        for _ in 0..12 {
            let mut position = empty_board(cols, rows);
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
                let pick = legal[(rng.next_u32() as usize) % legal.len()];
                position.play(pick, mover);
            }
            let (winner, moves) = solved(&position);
            let expected = brute_force_winning_moves(&position);
            let text = position.to_text();
            assert_eq!(moves, expected, "{text}");
            let mover_wins = !expected.is_empty();
            assert_eq!(winner == position.to_move(), mover_wins, "{text}");
        }
    }
}

/// The 33 solved 4x4 positions of the NoGo regression suite
/// (suites/nogo/nogo_solved.tst): id, stones played, side to move, every
/// winning move.
const SUITE: &[(&str, &str, &str, &str)] = &[
    ("10", "wD2 bA1 bB1", "b", "A3 C3"),
    ("20", "wD2 bA1 bB1", "w", "C4 A3 B3 C3 C2 C1"),
    ("30", "bC2 wD2", "b", "A4 D4 B3 C3 D3 B2 A1 C1 D1"),
    ("40", "bC2 wD2", "w", "B4 C4 C3 A2 B2 A1 C1"),
    ("50", "wB2 wB1 bC1", "b", "C3"),
    ("60", "wB2 wB1 bC1", "w", "A4 B4 C4 D4 A3 B3 C3 D3 A2 D2"),
    ("70", "wB2 wC2 bD1", "w", "A4 C4 D4 A3 B3 C3 D3 A2 A1"),
    ("80", "bD3 wC2", "b", "B4 C4 A3 C3 B2 B1 D1"),
    ("90", "bD3 wC2", "w", "A4 B4 C4 D4 B3 C3 B2 A1 B1 D1"),
    ("100", "wA3 bA1", "b", "A4 B4 C4 B3 C3 B2 C2"),
    ("110", "wA3 bA1", "w", "B4 C4 B3 C3 D3 B2 C2 C1 D1"),
    (
        "120",
        "bA3 wA2 wC2",
        "w",
        "A4 B4 C4 D4 B3 C3 D3 B2 D2 B1 C1 D1",
    ),
    ("130", "bD4 wA3 bA1", "b", "A4 B4 B3 C3 B2 C2 D2 C1"),
    ("140", "bD4 wA3 bA1", "w", "B4 C2 D2 C1"),
    ("150", "bD4 bA3 wA1", "b", "B4 B3 C3 D3 B2 C2 D2 C1 D1"),
    ("160", "bD4 bA3 wA1", "w", "D2"),
    ("170", "wC4 bB2", "b", "A4 B4 D4 B3 C3 D3 A2 C2 D2 A1 D1"),
    ("180", "wC4 bB2", "w", "A3 B3 D3 A2 C2 C1"),
    ("190", "wC4 bA2 wB2", "b", "B1"),
    ("200", "wC4 bA2 wB2", "w", "A4 A3 B3 C3 D3 C2 D2 A1 B1 C1"),
    (
        "210",
        "wC4 bA3 bC2",
        "b",
        "B4 D4 B3 C3 D3 A2 B2 D2 A1 B1 C1 D1",
    ),
    ("220", "wC4 bA3 bC2", "w", "D3 D2"),
    ("230", "bC4 wB2 bA1 wB1", "b", "A3 B3 D3 A2 C1"),
    ("240", "bC4 wB2 bA1 wB1", "w", "B4 A3 B3"),
    ("250", "bC4 bD4 wD2 wB1", "w", "A4 A3 B3 C3 D3 A2 B2 C2 C1"),
    ("260", "bB4 wD4 wD3", "b", "A3 B3 A2 D2 A1 B1 C1"),
    ("270", "bB4 wD4 wD3", "w", "A4 C2"),
    ("280", "wA4 bC3", "b", "B4 C4 D4 B3 D3 A2 B2 C2 D2 A1 B1 C1"),
    ("290", "wA4 bC3", "w", "B3 D3 C2 C1"),
    (
        "300",
        "wA4 wB3 bB1",
        "w",
        "C4 D4 C3 D3 A2 B2 C2 D2 A1 C1 D1",
    ),
    ("310", "bA4 wA2", "b", "B3 C3 B2 C2 A1 B1 C1"),
    ("320", "bA4 wA2", "w", "C4 D4 B3 C3 B2 C2 D2 B1 C1"),
    (
        "330",
        "bA4 wC4 wB3",
        "w",
        "D4 A3 D3 A2 B2 C2 D2 A1 B1 C1 D1",
    ),
];

/// A 4x4 point from GTP text (`A1` bottom left; these columns skip no letter).
fn vertex(g: Geometry, text: &str) -> Point {
    let mut chars = text.chars();
    let col = chars.next().map(|c| c as usize - 'A' as usize);
    let row = chars.as_str().parse::<usize>().ok();
    match (col, row) {
        (Some(col), Some(row)) => g
            .point(col, row - 1)
            .expect("suite vertices are on the board"),
        _ => panic!("bad vertex {text}"),
    }
}

fn color(text: &str) -> Color {
    if text.starts_with('b') {
        Color::Black
    } else {
        Color::White
    }
}

#[test]
fn reproduces_the_regression_suite() {
    let g = Geometry::square(4).expect("4x4");
    for &(id, stones, to_move, answer) in SUITE {
        let mut position = Position::new(g, GameKind::NoGo);
        for stone in stones.split_whitespace() {
            let (c, v) = stone.split_at(1);
            let p = vertex(g, v);
            position
                .check_move(p, color(c))
                .expect("suite moves are legal");
            position.play(p, color(c));
        }
        position.set_to_move(color(to_move));
        let mut expected: Vec<Point> = answer.split_whitespace().map(|v| vertex(g, v)).collect();
        expected.sort_unstable();
        let (winner, moves) = solved(&position);
        assert_eq!(moves, expected, "case {id}");
        assert_eq!(winner, color(to_move), "case {id}");
    }
}

/// A 9x9 endgame of self-play (15 points legal for either side), solved
/// through the wide word with either side to move, against brute force.
#[test]
fn a_nine_by_nine_endgame_agrees_with_brute_force() {
    let mut position = Position::from_text(
        "OXXO.OXOO
         .X.XOOX.O
         XOXO..OXX
         OO..OXX.X
         XOXOX.OX.
         .XO.OXX.O
         OO.X.XOOX
         .O...XXOX
         OXXOX.OX.",
        GameKind::NoGo,
    )
    .expect("a 9x9 diagram");
    for (to_move, winners) in [(Color::White, 10), (Color::Black, 0)] {
        position.set_to_move(to_move);
        let expected = brute_force_winning_moves(&position);
        let (winner, moves) = solved(&position);
        assert_eq!(moves, expected, "{to_move:?} to move");
        assert_eq!(moves.len(), winners, "{to_move:?} to move");
        assert_eq!(winner, Color::White, "{to_move:?} to move");
    }
}

#[test]
fn four_by_four_is_a_second_player_win_with_every_move_losing() {
    let (winner, moves) = solved(&empty_board(4, 4));
    assert_eq!(winner, Color::White);
    assert!(moves.is_empty());
}

#[test]
fn a_time_limit_stops_the_solver() {
    let outcome = solve(
        &empty_board(6, 6),
        Some(Duration::from_millis(200)),
        &mut |_| {},
    );
    assert_eq!(outcome.status, SolveStatus::OutOfTime);
    assert_eq!(outcome.winner, None);
    assert!(outcome.elapsed < Duration::from_secs(2));
    // A Go position is not the solver's business.
    let go = Position::new(Geometry::square(3).expect("3x3"), GameKind::Go);
    assert_eq!(solve_nogo(&go), None);
}

/// A self-play match between two parameter sets, for measuring NoGo
/// knowledge (scripts/nogo_match.sh runs it). Settings from the
/// environment: `NOGO_MATCH_A`, `NOGO_MATCH_B` (comma-separated
/// `name=value` parameters), `NOGO_MATCH_GAMES`, `NOGO_MATCH_SIZE`, and
/// either `NOGO_MATCH_MS` (time per move) or `NOGO_MATCH_PLAYOUTS`.
#[test]
#[ignore = "a measurement, minutes long"]
fn knowledge_match() {
    use kosumi::board::{Game, Move};
    use kosumi::player::decision::{Decision, search_decision};
    use kosumi::search::{SearchLimits, SearchParams, Searcher};
    use std::sync::atomic::AtomicBool;

    let setting = |name: &str| std::env::var(name).unwrap_or_default();
    let number = |name: &str, default: u64| setting(name).parse::<u64>().unwrap_or(default);
    let params_from = |text: &str, seed: u64| {
        let mut params = SearchParams {
            threads: 1,
            seed,
            ..SearchParams::default()
        };
        for pair in text.split(',').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').expect("name=value");
            params.set(name, value).expect("a known parameter");
        }
        params
    };
    let games = number("NOGO_MATCH_GAMES", 20);
    let size = number("NOGO_MATCH_SIZE", 9) as usize;
    let limits = match number("NOGO_MATCH_MS", 0) {
        0 => SearchLimits {
            playouts: Some(number("NOGO_MATCH_PLAYOUTS", 2000)),
            time: None,
            dynamic_komi: false,
            stop_when_decided: false,
            may_pass: true,
        },
        ms => SearchLimits {
            playouts: None,
            time: Some(Duration::from_millis(ms)),
            dynamic_komi: false,
            stop_when_decided: false,
            may_pass: true,
        },
    };
    let (a_text, b_text) = (setting("NOGO_MATCH_A"), setting("NOGO_MATCH_B"));
    let mut a_wins = 0;
    let mut playouts = [0u64; 2];
    let mut seconds = [0f64; 2];
    for game_index in 0..games {
        let mut players = [
            Searcher::new(params_from(&a_text, 1000 + game_index)),
            Searcher::new(params_from(&b_text, 2000 + game_index)),
        ];
        // A plays Black in even games.
        let a_color = if game_index % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut game = Game::new(Geometry::square(size).expect("size"), GameKind::NoGo, 0.0);
        let winner = loop {
            let mover = game.to_move();
            let who = usize::from(mover != a_color);
            let report =
                players[who].search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
            playouts[who] += report.playouts;
            seconds[who] += report.elapsed.as_secs_f64();
            match search_decision(players[who].params(), &game, &report) {
                Decision::Play(Move::Play(p)) => game.play(mover, Move::Play(p)).expect("legal"),
                _ => break mover.opponent(),
            }
        };
        a_wins += u64::from(winner == a_color);
        eprintln!(
            "game {}: {} wins; A {a_wins}/{}",
            game_index + 1,
            if winner == a_color { "A" } else { "B" },
            game_index + 1
        );
    }
    println!(
        "A [{a_text}] vs B [{b_text}]: A won {a_wins}/{games} ({:.1}%); playouts/s A {:.0} B {:.0}",
        100.0 * a_wins as f64 / games as f64,
        playouts[0] as f64 / seconds[0].max(1e-9),
        playouts[1] as f64 / seconds[1].max(1e-9)
    );
}

/// Cost of the NoGo prior and evaluation per call on 9x9 positions from
/// random play (run with --ignored --nocapture).
#[test]
#[ignore = "a measurement"]
fn prior_cost() {
    use kosumi::nogo::policy::{evaluate, prior};
    use std::time::Instant;

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut positions = Vec::new();
    for stones in (0..50).step_by(5) {
        let mut position = empty_board(9, 9);
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
            position.play(legal[(rng.next_u32() as usize) % legal.len()], mover);
        }
        positions.push(position);
    }
    let (mut calls, mut checksum) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..200 {
        for position in &positions {
            let mover = position.to_move();
            for &p in position.empty_points() {
                let (visits, wins) = prior(position, Point(p), mover, 10);
                checksum += u64::from(visits) + u64::from(wins);
                calls += 1;
            }
        }
    }
    let per_prior = start.elapsed().as_secs_f64() / calls as f64;
    let start = Instant::now();
    let rounds = 2000;
    for _ in 0..rounds {
        for position in &positions {
            checksum += evaluate(position, position.to_move()).unsigned_abs() as u64;
        }
    }
    let per_evaluate = start.elapsed().as_secs_f64() / (rounds * positions.len()) as f64;
    println!(
        "prior {:.0} ns/call, evaluate {:.0} ns/call (checksum {checksum})",
        per_prior * 1e9,
        per_evaluate * 1e9
    );
}

/// Solve times of the positions near the end of real games, for choosing
/// when genmove calls the solver. `SOLVER_SGF_DIR`: a folder of NoGo SGF
/// games; `SOLVER_LIMIT_MS` (default 5000): time a solve; `SOLVER_TABLE_MB`
/// (default 32, as in genmove). Each game is walked back from its end,
/// solving for the first win as genmove does, until two solves in a row run
/// out of time. One line a position: legal points of the mover, of the
/// other side and of either, then the result.
#[test]
#[ignore = "a measurement, minutes long"]
fn endgame_solve_times() {
    use kosumi::nogo::solver::{SolveOptions, solve_with};
    use kosumi::record::sgf;

    let Ok(dir) = std::env::var("SOLVER_SGF_DIR") else {
        eprintln!("set SOLVER_SGF_DIR to a folder of NoGo games");
        return;
    };
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let options = SolveOptions {
        limit: Some(Duration::from_millis(number("SOLVER_LIMIT_MS", 5000))),
        table_mb: Some(number("SOLVER_TABLE_MB", 32) as usize),
        all_moves: false,
        ..SolveOptions::default()
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("a readable folder")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    println!("game move mover_legal other_legal either_legal empty status winner nodes ms");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable game");
        let collection = sgf::parse(&text).expect("an SGF game");
        let tree = &collection.games[0];
        let root = tree.root().expect("a root node");
        let (width, height) = sgf::board_size(root).expect("a board size");
        let g = Geometry::new(width, height).expect("a board");
        let mut positions = vec![Position::new(g, GameKind::NoGo)];
        for node in tree.main_line() {
            for (id, color) in [("B", Color::Black), ("W", Color::White)] {
                let Some(value) = node.first(id) else {
                    continue;
                };
                let Some((x, y)) = sgf::decode_point(value, width, height).expect("a point") else {
                    continue;
                };
                let mut next = positions.last().expect("a position").clone();
                next.play(g.point_unchecked(x, height - 1 - y), color);
                positions.push(next);
            }
        }
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut timeouts_in_a_row = 0;
        for (index, position) in positions.iter().enumerate().rev() {
            let legal = |color: Color| -> Vec<u16> {
                position
                    .empty_points()
                    .iter()
                    .copied()
                    .filter(|&p| position.is_legal(Point(p), color))
                    .collect()
            };
            let mover = legal(position.to_move());
            let other = legal(position.to_move().opponent());
            if mover.is_empty() {
                continue;
            }
            let either = mover
                .iter()
                .chain(&other)
                .collect::<std::collections::BTreeSet<_>>();
            let outcome = solve_with(position, &options, &mut |_| {});
            println!(
                "{} {index} {} {} {} {} {:?} {} {} {}",
                name.as_deref().unwrap_or("?"),
                mover.len(),
                other.len(),
                either.len(),
                position.empty_points().len(),
                outcome.status,
                match outcome.winner {
                    Some(c) if c == position.to_move() => "mover",
                    Some(_) => "other",
                    None => "-",
                },
                outcome.nodes,
                outcome.elapsed.as_millis()
            );
            timeouts_in_a_row = if outcome.winner.is_none() {
                timeouts_in_a_row + 1
            } else {
                0
            };
            if timeouts_in_a_row == 2 {
                break;
            }
        }
    }
}
