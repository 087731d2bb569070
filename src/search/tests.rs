//! The search's tests: reproducibility, dynamic komi, tree reuse, the
//! NoGo solver inside a search, threads.

use super::run::{CHECK_EVERY, ROOT_VISIT_CEILING, decided_early};
use super::tree::PROVEN_WIN;
use super::*;
use crate::board::Geometry;
use crate::nogo::NogoDomain;
use crate::nogo::endgame::tests::nogo_5x4_with_17_points;
use crate::nogo::endgame::{points_legal_for_either, verify_candidates};
use crate::nogo::solver::{self, KeptTable};
use crate::player::decision::{Decision, search_decision};

fn searcher(playouts_seed: u64) -> Searcher {
    searcher_with(SearchParams {
        seed: playouts_seed,
        ..SearchParams::default()
    })
}

/// A one-thread searcher with these tunables.
fn searcher_with(params: SearchParams) -> Searcher {
    Searcher::new(SearchParams {
        threads: 1,
        ..params
    })
}

fn run(searcher: &mut Searcher, game: &Game, playouts: u64) -> SearchReport {
    let limits = SearchLimits {
        playouts: Some(playouts),
        time: None,
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    searcher.search(game, &limits, &AtomicBool::new(false), None, &mut |_| {})
}

fn game_from(text: &str, kind: GameKind, to_move: Color) -> Game {
    let position = Position::from_text(text, kind).unwrap();
    let g = position.geometry();
    let mut game = Game::new(g, kind, if kind == GameKind::Go { 7.0 } else { 0.0 });
    let stones: Vec<(Point, Color)> = [Color::Black, Color::White]
        .into_iter()
        .flat_map(|c| {
            position
                .stones(c)
                .iter()
                .map(move |p| (p, c))
                .collect::<Vec<_>>()
        })
        .collect();
    game.add_setup(&stones).unwrap();
    game.set_first_to_move(to_move);
    game
}

#[test]
fn one_thread_with_a_seed_is_reproducible() {
    let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
    let a = run(&mut searcher(7), &game, 2000);
    let b = run(&mut searcher(7), &game, 2000);
    assert_eq!(a.candidates, b.candidates);
    assert_eq!(a.playouts, 2000);
}

fn run_for_move(searcher: &mut Searcher, game: &Game, playouts: u64) -> SearchReport {
    let limits = SearchLimits {
        playouts: Some(playouts),
        time: None,
        dynamic_komi: true,
        stop_when_decided: true,
        may_pass: true,
    };
    searcher.search(game, &limits, &AtomicBool::new(false), None, &mut |_| {})
}

/// White owns seven columns to Black's one: a won game, White to move.
fn won_for_white() -> Game {
    game_from(
        "X.O......
         X.O......
         X.O......
         X.O......
         X.O......
         X.O......
         X.O......
         X.O......
         X.O......",
        GameKind::Go,
        Color::White,
    )
}

/// A won game is searched for a move demanding more than komi, within
/// the same playouts.
#[test]
fn a_won_position_is_searched_with_a_dynamic_komi() {
    let game = won_for_white();
    let plain = run(&mut searcher(3), &game, 4000);
    let report = run_for_move(&mut searcher(3), &game, 4000);
    assert_eq!(plain.extra_margin, 0);
    assert!(plain.winrate() > 0.9, "{}", plain.winrate());
    assert!(report.extra_margin >= 5, "{}", report.extra_margin);
    assert!(report.winrate() < plain.winrate());
    assert_eq!(report.playouts, 4000);
}

/// A one-thread searcher whose probe takes `probe_share` of the budget,
/// under a floor of 1 that no margin asked can reach.
fn unreachable_floor(probe_share: f64) -> Searcher {
    searcher_with(SearchParams {
        seed: 3,
        dyn_komi_probe: probe_share,
        dyn_komi_floor: 1.0,
        ..SearchParams::default()
    })
}

/// A margin the search under it wins less often than the floor is
/// dropped at the second checkpoint (a floor of 1: always), and the
/// search ends on the probe's tree at the real komi.
#[test]
fn a_margin_out_of_reach_is_dropped() {
    let game = won_for_white();
    let mut strict = unreachable_floor(SearchParams::default().dyn_komi_probe);
    let report = run_for_move(&mut strict, &game, 4000);
    assert_eq!(report.extra_margin, 0);
    assert!(report.winrate() > 0.9, "{}", report.winrate());
    assert_eq!(report.playouts, 4000);
    assert_eq!(
        strict.kept.as_ref().map(|kept| kept.komi),
        Some(game.komi())
    );
}

/// Black owns four columns to White's four with komi 7 and the middle
/// one open: lost by a few points, Black to move.
#[test]
fn a_lost_position_is_searched_given_points() {
    let game = game_from(
        "...X.O...
         ...X.O...
         ...X.O...
         ...X.O...
         ...X.O...
         ...X.O...
         ...X.O...
         ...X.O...
         ...X.O...",
        GameKind::Go,
        Color::Black,
    );
    let plain = run(&mut searcher(3), &game, 4000);
    let report = run_for_move(&mut searcher(3), &game, 4000);
    assert!(plain.winrate() < 0.2, "{}", plain.winrate());
    assert!(report.extra_margin < 0, "{}", report.extra_margin);
    let probe = report.probe_winrate.unwrap();
    assert!(probe < 0.2, "{probe}");
    assert!(report.winrate() > probe + 0.2, "{}", report.winrate());
    assert_eq!(report.playouts, 4000);
}

/// A search that ends before its second checkpoint (here the probe's
/// share is so large that the checkpoint lies past the budget) still
/// holds the margin asked to the floor.
#[test]
fn a_search_ending_under_a_margin_checks_it_against_the_floor() {
    let game = won_for_white();
    let mut late = unreachable_floor(0.6);
    let report = run_for_move(&mut late, &game, 4000);
    assert_eq!(report.extra_margin, 0);
    assert_eq!(report.playouts, 4000);
    assert!(report.winrate() > 0.9, "{}", report.winrate());
}

/// Fuego's nakade-4pts.1 (life and death, 9x9): White, far ahead, must
/// play B1 to live in the corner. Asked some 34 points more, the search
/// prefers gambling on an invasion at A5, which the probe's tree rates
/// well below B1 at the real komi.
fn corner_nakade() -> Game {
    game_from(
        "....XO...
         ....XO...
         ....XO...
         .XX.XOO..
         ....XO...
         XOOOXO...
         .OOOXO...
         OOXOXO...
         ..XOXO...",
        GameKind::Go,
        Color::White,
    )
}

/// The gamble for a margin asked is caught: the search goes back to the
/// real komi and plays the vital point, which it misses without the check.
#[test]
fn a_margin_that_leads_to_a_gamble_is_dropped() {
    let game = corner_nakade();
    let vital = Move::Play(game.geometry().point(1, 0).unwrap());
    let checked = run_for_move(&mut searcher(1), &game, 10_000);
    assert_eq!(checked.extra_margin, 0);
    assert_eq!(checked.best().map(|c| c.mv), Some(vital));
    let mut unchecked = searcher_with(SearchParams {
        seed: 1,
        dyn_komi_tolerance: 1.0,
        ..SearchParams::default()
    });
    let gambled = run_for_move(&mut unchecked, &game, 10_000);
    assert!(gambled.extra_margin > 0, "{}", gambled.extra_margin);
    assert_ne!(gambled.best().map(|c| c.mv), Some(vital));
}

/// Black owns three columns to White's six: lost by more than a
/// quarter of the board (34 points with komi), so it keeps the real
/// komi, though the mercy rule's worth would allow more.
#[test]
fn a_position_lost_by_too_much_is_given_nothing() {
    let game = game_from(
        "X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.
         X.XO.O.O.",
        GameKind::Go,
        Color::Black,
    );
    let report = run_for_move(&mut searcher(3), &game, 4000);
    assert!(report.winrate() < 0.05, "{}", report.winrate());
    assert_eq!(report.extra_margin, 0);
    let mut generous = searcher_with(SearchParams {
        seed: 3,
        dyn_komi_most_given: 1.0,
        ..SearchParams::default()
    });
    assert!(run_for_move(&mut generous, &game, 4000).extra_margin < 0);
}

/// On an even board the probe finds nothing to ask for, and the search
/// goes on exactly as one without a probe.
#[test]
fn an_even_position_is_searched_at_the_real_komi() {
    let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
    let plain = run(&mut searcher(5), &game, 3000);
    let report = run_for_move(&mut searcher(5), &game, 3000);
    assert_eq!(report.extra_margin, 0);
    assert_eq!(report.candidates, plain.candidates);
}

#[test]
fn captures_a_big_string_in_atari() {
    let game = game_from(
        ".........
         .........
         .........
         ..OOOO...
         .OXXXX...
         ..OOOO...
         .........
         .........
         .........",
        GameKind::Go,
        Color::White,
    );
    let mut s = searcher(1);
    let report = run(&mut s, &game, 3000);
    let capture = game.geometry().point(6, 4).unwrap();
    assert_eq!(
        search_decision(s.params(), &game, &report),
        Decision::Play(Move::Play(capture))
    );
}

/// Black's L7-L6 in atari (CGOS game 31410 before move 69, Fuego's
/// tactics test): M7 reaches three liberties, and dies in a loose
/// ladder after White N8 that only the root's reading sees. A search
/// without that reading plays M7 out most; the next search of the
/// position, reading first, forgets those playouts rather than keep M7
/// the most played move by its old count.
#[test]
fn a_futile_extension_forgets_its_reused_playouts() {
    let game = game_from(
        "...................
         .................O.
         ..X..XX.O..O...OOX.
         ...O..........O.X..
         ................O..
         .X...X..........O..
         ...................
         ...................
         ...X.....X.X.......
         ............X..O...
         ..X..X.............
         .....OX...O........
         ..X.O....OX.X..O...
         ......X..OXOOO.....
         ..X.O.....O....O...
         .OOO.X....OX.X.OX..
         ....OX..X.XX..XXOO.
         ..O.OX..........XO.
         ...OXX.............",
        GameKind::Go,
        Color::Black,
    );
    let m7 = Move::Play(game.geometry().point(11, 6).unwrap());
    let visits_of = |report: &SearchReport| {
        report
            .candidates
            .iter()
            .find(|c| c.mv == m7)
            .map_or(0, |c| c.visits)
    };
    // The first search weighs AMAF as long as small boards do: at
    // 19x19's own equivalence its 300 playouts go most to another move.
    let mut s = searcher_with(SearchParams {
        prior_read_win: 0,
        prior_read_futile: 0,
        rave_equivalence_large: SearchParams::default().rave_equivalence,
        ..SearchParams::default()
    });
    let first = run(&mut s, &game, 300);
    s.params = SearchParams {
        threads: 1,
        ..SearchParams::default()
    };
    assert_eq!(first.best().map(|c| c.mv), Some(m7), "{:?}", first.best());
    let second = run(&mut s, &game, 600);
    assert!(
        visits_of(&second) < visits_of(&first) / 4,
        "{} {}",
        visits_of(&first),
        visits_of(&second)
    );
}

/// Nodes below the root with at least `at` playouts, and how many of them
/// lack on some move the priors their reading gives (see
/// `SearchParams::deep_reading_visits`), after a search with `visits`.
fn nodes_missing_their_reading(visits: u32, at: u32) -> (usize, usize) {
    use crate::go::GoDomain;
    // Black J8-J9 dies once White saves J7 at H7 (see `go::reading`).
    let game = game_from(
        "........X
         ........X
         ........O
         ........X
         .........
         .........
         .........
         .........
         .........",
        GameKind::Go,
        Color::Black,
    );
    let params = SearchParams {
        deep_reading_visits: visits,
        ..SearchParams::default()
    };
    let mut s = searcher_with(params.clone());
    run(&mut s, &game, 3000);
    let tree = &s.kept.as_ref().expect("the search keeps its tree").tree;
    let (mut busy, mut missing) = (0, 0);
    let mut stack = vec![(ROOT, game.position().clone())];
    while let Some((node, position)) = stack.pop() {
        let (first, count) = tree.node(node).children();
        for (k, child) in tree.block(first, count).iter().enumerate() {
            let Move::Play(p) = child.mv() else { continue };
            if child.visits() < at {
                continue;
            }
            let mut after = position.clone();
            after.play_in_search(p, position.to_move());
            busy += 1;
            let (grand_first, grand_count) = child.children();
            let grandchildren = tree.block(grand_first, grand_count);
            let unread = GoDomain::deep_priors(&params, &after, p)
                .iter()
                .any(|&(q, prior)| {
                    grandchildren
                        .iter()
                        .find(|g| g.mv() == Move::Play(q))
                        .is_some_and(|g| g.prior_visits() < prior.visits)
                });
            missing += usize::from(unread);
            stack.push((first + k as NodeId, after));
        }
    }
    (busy, missing)
}

/// With `deep_reading_visits`, every node the search came back to that
/// often carries its reading on its moves; without, the busy nodes near
/// the fight do not.
#[test]
fn busy_nodes_carry_their_reading() {
    let (busy, missing) = nodes_missing_their_reading(50, 50);
    assert!(busy > 0 && missing == 0, "{busy} busy, {missing} unread");
    let (busy, missing) = nodes_missing_their_reading(0, 50);
    assert!(busy > 0 && missing > 0, "{busy} busy, {missing} unread");
}

/// White's seven columns to Black's one, and komi: up to 61 points up
/// (about 42 in playouts, where Black still lives in some of them).
/// The moves' score leads say so, at the real komi also when the
/// search asked a margin on top of it.
#[test]
fn score_leads_are_the_mean_margins_at_the_real_komi() {
    let game = won_for_white();
    let plain = run(&mut searcher(3), &game, 4000);
    let shifted = run_for_move(&mut searcher(3), &game, 4000);
    assert!(shifted.extra_margin >= 5, "{}", shifted.extra_margin);
    let lead = |report: &SearchReport| report.best().and_then(|c| c.score_lead).unwrap();
    let (plain_lead, shifted_lead) = (lead(&plain), lead(&shifted));
    assert!((30.0..61.0).contains(&plain_lead), "{plain_lead}");
    assert!(
        (plain_lead - shifted_lead).abs() < 4.0,
        "{plain_lead} {shifted_lead}"
    );
}

/// The tree kept from the last move has its best move 900 playouts
/// ahead. 640 playouts in 60 ms run at 10,667 a second: in the 235 ms
/// left they could overtake it. Counted over the 200 ms that include a
/// solve that ran out of time they would seem too slow to, and the
/// search would stop with a handful of playouts.
#[test]
fn an_unfinished_solve_does_not_cut_the_playouts_short() {
    let tree = Tree::new(1 << 20);
    let first = tree.allocate(2).unwrap();
    tree.node(first).init(Move::Play(Point(12)), 0, 0);
    tree.node(first + 1).init(Move::Play(Point(13)), 0, 0);
    tree.node(ROOT).finish_expansion(first, 2);
    (0..1000).for_each(|_| tree.node(first).add_visit());
    (0..100).for_each(|_| tree.node(first + 1).add_visit());
    let limits = SearchLimits {
        playouts: None,
        time: Some(Duration::from_millis(435)),
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let ms = Duration::from_millis;
    assert!(!decided_early(&tree, &limits, None, 640, ms(200), ms(60)));
    assert!(decided_early(&tree, &limits, None, 640, ms(200), ms(200)));
    let play_on = SearchLimits {
        stop_when_decided: false,
        ..limits
    };
    assert!(!decided_early(&tree, &play_on, None, 640, ms(200), ms(200)));
}

/// A search that starts from a reused tree whose root has counted as
/// many playouts as the counters allow stops at its first check, long
/// before its time limit.
#[test]
fn the_search_stops_at_the_counters_ceiling() {
    let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
    let mut s = searcher(3);
    run(&mut s, &game, 500);
    let kept = s.kept.as_ref().expect("the search keeps its tree");
    let root = kept.tree.node(ROOT);
    root.add_visits(ROOT_VISIT_CEILING - root.visits_with_prior());
    let limits = SearchLimits {
        playouts: None,
        time: Some(Duration::from_secs(30)),
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let report = s.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
    assert!(report.playouts <= CHECK_EVERY, "{}", report.playouts);
    assert!(
        report.elapsed < Duration::from_secs(10),
        "{:?}",
        report.elapsed
    );
}

#[test]
fn verified_candidates_agree_with_the_solver() {
    let game = nogo_5x4_with_17_points();
    let mut s = searcher(5);
    run(&mut s, &game, 3000);
    let kept = s.kept.take().expect("the search keeps its tree");
    let root = game.position();
    let deadline = Instant::now() + Duration::from_secs(60);
    verify_candidates(&mut KeptTable::default(), &kept.tree, root, deadline);
    let mover = root.to_move();
    let (first, count) = kept.tree.node(ROOT).children();
    let mut proven = 0;
    for child in kept.tree.block(first, count) {
        let Move::Play(p) = child.mv() else { continue };
        let mut after = root.clone();
        after.play(p, mover);
        let winner = solver::solve_nogo(&after).expect("NoGo").winner;
        match child.proof() {
            PROVEN_WIN => assert_eq!(winner, mover, "{p:?}"),
            PROVEN_LOSS => assert_eq!(winner, mover.opponent(), "{p:?}"),
            _ => continue,
        }
        proven += 1;
    }
    // With a minute for it, verification stops only at a proven win
    // or after every searched move is proven lost.
    let won = kept
        .tree
        .block(first, count)
        .iter()
        .any(|c| c.proof() == PROVEN_WIN);
    let searched = kept
        .tree
        .block(first, count)
        .iter()
        .filter(|c| c.visits() > 0)
        .count();
    assert!(won || proven == searched, "{proven} of {searched} proven");
}

#[test]
fn nogo_solver_proves_a_small_board() {
    // 2x2 NoGo is a first-player win (nogo-solved.md).
    let game = Game::new(Geometry::square(2).unwrap(), GameKind::NoGo, 0.0);
    let mut s = searcher(3);
    let report = run(&mut s, &game, 5000);
    assert!(report.candidates.iter().any(|c| c.proof == Proof::Win));
    let Decision::Play(mv) = search_decision(s.params(), &game, &report) else {
        panic!("a won position must not resign");
    };
    let best = report.candidates.iter().find(|c| c.mv == mv).unwrap();
    assert_eq!(best.proof, Proof::Win);
}

#[test]
fn nogo_endgames_are_solved_under_a_time_limit() {
    let mut game = Game::new(Geometry::square(3).unwrap(), GameKind::NoGo, 0.0);
    let g = game.geometry();
    game.play(Color::Black, Move::Play(g.point(1, 1).unwrap()))
        .unwrap();
    let mut s = searcher(3);
    let limits = SearchLimits {
        playouts: None,
        time: Some(Duration::from_secs(2)),
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let report = s.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
    // 3x3 is a first-player win: after the centre, White to move loses,
    // so no proven win for White exists and the tree search answers.
    assert!(report.candidates.iter().all(|c| c.proof != Proof::Win));
    let empty = Game::new(g, GameKind::NoGo, 0.0);
    let report = s.search(&empty, &limits, &AtomicBool::new(false), None, &mut |_| {});
    assert_eq!(report.playouts, 0, "the solver answered");
    assert_eq!(report.best().map(|c| c.proof), Some(Proof::Win));
}

/// A 9x9 self-play endgame, White to move and winning: 15 points are
/// legal for either side, so the solver answers with or without a clock.
#[test]
fn nogo_nine_by_nine_endgames_are_solved() {
    let game = game_from(
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
        Color::White,
    );
    let legal = NogoDomain::root_moves(&game);
    assert_eq!(points_legal_for_either(game.position(), &legal), 15);
    let mut s = searcher(3);
    let report = run(&mut s, &game, 5000);
    assert_eq!(report.playouts, 0, "the solver answered");
    assert_eq!(report.best().map(|c| c.proof), Some(Proof::Win));
    let limits = SearchLimits {
        playouts: None,
        time: Some(Duration::from_millis(500)),
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let report = s.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
    assert_eq!(report.playouts, 0, "the solver answered");
    assert_eq!(report.best().map(|c| c.proof), Some(Proof::Win));
}

#[test]
fn nogo_without_moves_resigns() {
    // White to move: every empty point is a capture or suicide for White.
    let game = game_from(
        ".X
         X.",
        GameKind::NoGo,
        Color::White,
    );
    let mut s = searcher(3);
    let report = run(&mut s, &game, 100);
    assert_eq!(
        search_decision(s.params(), &game, &report),
        Decision::Resign
    );
}

#[test]
fn the_tree_is_reused_after_two_moves() {
    let mut game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
    let mut s = searcher(5);
    let first = run(&mut s, &game, 3000);
    let reply = first.best().unwrap().pv.clone();
    assert!(reply.len() >= 2, "{reply:?}");
    game.play(Color::Black, reply[0]).unwrap();
    game.play(Color::White, reply[1]).unwrap();
    let kept = s
        .reusable_tree(&game, 1 << 24)
        .expect("the subtree is kept");
    assert!(kept.node(ROOT).visits() > 0);
}

#[test]
fn the_tree_is_not_reused_for_the_other_side_to_move() {
    let mut game = Game::new(Geometry::square(5).unwrap(), GameKind::Go, 7.0);
    let mut s = searcher(5);
    run(&mut s, &game, 200);
    game.set_first_to_move(Color::White);
    assert!(s.reusable_tree(&game, 1 << 24).is_none());
    let report = run(&mut s, &game, 200);
    assert_eq!(report.to_move, Color::White);
}

#[test]
fn two_threads_share_the_tree() {
    let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
    let mut s = Searcher::new(SearchParams {
        threads: 2,
        ..SearchParams::default()
    });
    let report = run(&mut s, &game, 4000);
    assert!(report.playouts >= 4000);
    let visits: u64 = report.candidates.iter().map(|c| c.visits).sum();
    assert!(visits >= 3900, "{visits}");
}

#[test]
fn passes_back_when_the_board_already_wins() {
    // White owns most of the board; Black passed: White passes too.
    let mut game = game_from(
        "..X.O
         XXX.O
         ..XOO
         XXXO.
         ...O.",
        GameKind::Go,
        Color::Black,
    );
    game.set_komi(0.5);
    game.play(Color::Black, Move::Pass).unwrap();
    let mut s = searcher(1);
    let report = run(&mut s, &game, 500);
    // Black has 15 points to White's 10: White must not pass back.
    assert_ne!(
        search_decision(s.params(), &game, &report),
        Decision::Play(Move::Pass)
    );
}
