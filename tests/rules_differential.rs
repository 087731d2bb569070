//! Differential test of the rules core: `kosumi::board::Position` against the
//! naive flood-fill board of `tests/common`, move by move, over thousands of
//! seeded random Go and NoGo games on square and rectangular boards.
//!
//! After every move both boards must agree on the stones, the side to move,
//! the prisoners, the hash (recomputed from scratch from the Zobrist keys),
//! the ko ban, the empty points, every string's stones and liberties, and
//! the verdict of `check_move` on every point for both colours (with the
//! reason when illegal), hence also the legal-move sets. Games include
//! passes and, now and then, the same colour moving twice (GTP allows it),
//! which is what tells a ko ban tied to a colour from one tied to the turn.
//! Now and then a game goes on from a `copy_from` into a larger board left
//! dirty by another game, and each game ends by comparing Tromp–Taylor area
//! scores and reading the board back through `Position::from_text`.

mod common;

use std::fmt;
use std::time::Instant;

use common::NaiveBoard;
use kosumi::board::{Bitboard, BoardError, Color, GameKind, Geometry, Point, Position};
use kosumi::search::{FastRng, light_playout};
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// Counts of what the random games went through, to prove they exercised
/// the rules (captures, ko, suicide, passes) and not just empty boards.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    games: u64,
    stones_played: u64,
    passes: u64,
    same_colour_twice: u64,
    captures: u64,
    stones_captured: u64,
    multi_stone_captures: u64,
    ko_bans_set: u64,
    ko_refusals_seen: u64,
    moves_on_lapsed_ko_bans: u64,
    suicide_refusals_seen: u64,
    nogo_capture_refusals_seen: u64,
    nogo_games_ended_without_moves: u64,
    copy_from_round_trips: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.stones_played += other.stones_played;
        self.passes += other.passes;
        self.same_colour_twice += other.same_colour_twice;
        self.captures += other.captures;
        self.stones_captured += other.stones_captured;
        self.multi_stone_captures += other.multi_stone_captures;
        self.ko_bans_set += other.ko_bans_set;
        self.ko_refusals_seen += other.ko_refusals_seen;
        self.moves_on_lapsed_ko_bans += other.moves_on_lapsed_ko_bans;
        self.suicide_refusals_seen += other.suicide_refusals_seen;
        self.nogo_capture_refusals_seen += other.nogo_capture_refusals_seen;
        self.nogo_games_ended_without_moves += other.nogo_games_ended_without_moves;
        self.copy_from_round_trips += other.copy_from_round_trips;
    }
}

/// Where a disagreement happened, printed only when an assertion fails.
struct Context<'a> {
    width: usize,
    height: usize,
    kind: GameKind,
    seed: u64,
    ply: usize,
    naive: &'a NaiveBoard,
}

impl fmt::Display for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} {}x{} seed {} ply {}, {:?} to move, ko {:?}\n{}",
            self.kind,
            self.width,
            self.height,
            self.seed,
            self.ply,
            self.naive.to_move,
            self.naive.ko,
            self.naive.to_text()
        )
    }
}

fn point_of(geometry: Geometry, naive: &NaiveBoard, index: usize) -> Point {
    let (col, row) = naive.col_row(index);
    geometry
        .point(col, row)
        .expect("naive index is on the board")
}

fn bitboard_of(geometry: Geometry, naive: &NaiveBoard, indices: &[usize]) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for &i in indices {
        set.set(point_of(geometry, naive, i));
    }
    set
}

/// Asserts that the two boards agree in every observable way, counts the
/// illegal moves by reason, and returns the legal moves of Black and White.
fn assert_boards_agree(
    fast: &Position,
    naive: &NaiveBoard,
    ctx: &Context,
    tally: &mut Tally,
) -> [Vec<usize>; 2] {
    let geometry = fast.geometry();
    assert_eq!(fast.to_move(), naive.to_move, "side to move\n{ctx}");
    assert_eq!(
        fast.consecutive_passes() as u32,
        naive.consecutive_passes,
        "passes\n{ctx}"
    );
    for color in [Color::Black, Color::White] {
        assert_eq!(
            fast.prisoners(color),
            naive.prisoners[color as usize],
            "{color:?} prisoners\n{ctx}"
        );
        assert_eq!(
            fast.ko_point(color),
            naive.ko_point(color).map(|i| point_of(geometry, naive, i)),
            "{color:?} ko point\n{ctx}"
        );
    }
    assert_eq!(fast.hash(), naive.hash(), "hash\n{ctx}");

    for index in 0..naive.area() {
        let p = point_of(geometry, naive, index);
        assert_eq!(
            fast.cell(p).color(),
            naive.grid[index],
            "stone at {p:?}\n{ctx}"
        );
    }

    let mut fast_empties: Vec<u16> = fast.empty_points().to_vec();
    fast_empties.sort_unstable();
    let mut naive_empties: Vec<u16> = (0..naive.area())
        .filter(|&i| naive.grid[i].is_none())
        .map(|i| point_of(geometry, naive, i).0)
        .collect();
    naive_empties.sort_unstable();
    assert_eq!(fast_empties, naive_empties, "empty points\n{ctx}");

    // Strings: stones, size, liberties and atari of every stone.
    let mut seen = vec![false; naive.area()];
    for index in 0..naive.area() {
        if naive.grid[index].is_none() || seen[index] {
            continue;
        }
        let (stones, liberties) = naive.string(index);
        let stone_set = bitboard_of(geometry, naive, &stones);
        let p = point_of(geometry, naive, index);
        assert_eq!(fast.string_stones(p), stone_set, "string at {p:?}\n{ctx}");
        assert_eq!(
            fast.string_liberties(p).count() as usize,
            liberties,
            "liberties of the string at {p:?}\n{ctx}"
        );
        for &s in &stones {
            seen[s] = true;
            let q = point_of(geometry, naive, s);
            assert_eq!(fast.string_size(q), stones.len(), "size at {q:?}\n{ctx}");
            assert_eq!(fast.in_atari(q), liberties == 1, "atari at {q:?}\n{ctx}");
        }
    }

    let mut legal = [Vec::new(), Vec::new()];
    for color in [Color::Black, Color::White] {
        for index in 0..naive.area() {
            let p = point_of(geometry, naive, index);
            let expected = naive.check(index, color);
            assert_eq!(
                fast.check_move(p, color),
                expected,
                "check_move {color:?} at {p:?}\n{ctx}"
            );
            match expected {
                Ok(()) => legal[color as usize].push(index),
                Err(BoardError::Ko) => tally.ko_refusals_seen += 1,
                Err(BoardError::Suicide) => tally.suicide_refusals_seen += 1,
                Err(BoardError::NoGoCapture) => tally.nogo_capture_refusals_seen += 1,
                Err(_) => {}
            }
        }
        let moves = &legal[color as usize];
        assert_eq!(
            fast.legal_moves(color),
            bitboard_of(geometry, naive, moves),
            "{color:?} legal moves\n{ctx}"
        );
        assert_eq!(
            fast.has_legal_move(color),
            !moves.is_empty(),
            "{color:?} has a legal move\n{ctx}"
        );
    }
    legal
}

fn below(rng: &mut FastRng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A position on another, larger board with stones on it, so that
/// `copy_from` into it must overwrite everything that matters.
fn dirty_scratch_position(kind: GameKind, seed: u64) -> Position {
    let mut rng = FastRng::seed_from_u64(seed);
    let mut scratch = Position::new(Geometry::square(25).expect("25x25"), kind);
    light_playout(&mut scratch, 7.5, 300, &mut rng);
    scratch
}

/// Plays one random game on both boards, comparing after every move.
fn play_one_game(
    width: usize,
    height: usize,
    kind: GameKind,
    seed: u64,
    scratch: &mut Position,
    tally: &mut Tally,
) {
    let mut rng = FastRng::seed_from_u64(seed);
    let geometry = Geometry::new(width, height).expect("test sizes are valid");
    let mut fast = Position::new(geometry, kind);
    let mut naive = NaiveBoard::new(width, height, kind);
    let max_plies = 3 * naive.area() + 20;
    // Points where a ko ban was set, with the colour it barred.
    let mut past_ko_bans: Vec<(usize, Color)> = Vec::new();
    tally.games += 1;
    for ply in 0..max_plies {
        let ctx = Context {
            width,
            height,
            kind,
            seed,
            ply,
            naive: &naive,
        };
        let legal = assert_boards_agree(&fast, &naive, &ctx, tally);

        let roll = below(&mut rng, 1000);
        if kind == GameKind::Go && roll < 20 {
            fast.pass();
            naive.pass();
            tally.passes += 1;
            continue;
        }
        let mut mover = naive.to_move;
        if roll >= 980 && !legal[mover.opponent() as usize].is_empty() {
            mover = mover.opponent();
            tally.same_colour_twice += 1;
        }
        let choices = &legal[mover as usize];
        if choices.is_empty() {
            match kind {
                GameKind::Go => {
                    fast.pass();
                    naive.pass();
                    tally.passes += 1;
                    continue;
                }
                GameKind::NoGo => {
                    // The side to move has no legal move: it has lost.
                    tally.nogo_games_ended_without_moves += 1;
                    break;
                }
            }
        }
        let index = choices[below(&mut rng, choices.len())];
        let p = point_of(geometry, &naive, index);
        if past_ko_bans.contains(&(index, mover)) && naive.ko_point(mover) != Some(index) {
            tally.moves_on_lapsed_ko_bans += 1;
        }
        let fast_captured = fast.play(p, mover);
        let naive_captured = naive.play(index, mover);
        assert_eq!(
            fast_captured,
            naive_captured,
            "stones captured by {mover:?} at {p:?}\n{ctx_after}",
            ctx_after = Context {
                width,
                height,
                kind,
                seed,
                ply,
                naive: &naive,
            }
        );
        tally.stones_played += 1;
        if naive_captured > 0 {
            tally.captures += 1;
            tally.stones_captured += naive_captured as u64;
        }
        if naive_captured > 1 {
            tally.multi_stone_captures += 1;
        }
        if let Some(ban) = naive.ko {
            tally.ko_bans_set += 1;
            past_ko_bans.push(ban);
        }
        if below(&mut rng, 100) == 0 {
            // Continue the game on a copy made into a dirty, larger board.
            scratch.copy_from(&fast);
            scratch.check_invariants();
            std::mem::swap(&mut fast, scratch);
            tally.copy_from_round_trips += 1;
        }
    }
    let ctx = Context {
        width,
        height,
        kind,
        seed,
        ply: max_plies,
        naive: &naive,
    };
    assert_boards_agree(&fast, &naive, &ctx, tally);
    let score = fast.area_score();
    assert_eq!(
        (score.black, score.white),
        naive.area_score(),
        "area score\n{ctx}"
    );
    let rebuilt = Position::from_text(&fast.to_text(), kind).expect("a legal board reads back");
    assert_eq!(rebuilt.hash(), fast.hash(), "from_text(to_text)\n{ctx}");
    assert_eq!(
        rebuilt.to_text(),
        naive.to_text(),
        "from_text(to_text)\n{ctx}"
    );
}

/// Plays `games` games per orientation-specific size and returns the tally.
fn play_games(sizes: &[(usize, usize, u64)], kind: GameKind, first_seed: u64) -> Tally {
    let mut total = Tally::default();
    for &(width, height, games) in sizes {
        let start = Instant::now();
        let mut tally = Tally::default();
        let mut scratch = dirty_scratch_position(kind, first_seed);
        for game in 0..games {
            let seed = first_seed + (width * 1000 + height) as u64 * 100_000 + game;
            play_one_game(width, height, kind, seed, &mut scratch, &mut tally);
        }
        println!(
            "{kind:?} {width}x{height}: {games} games in {:.2} s: {tally:?}",
            start.elapsed().as_secs_f64()
        );
        total.add(&tally);
    }
    println!("{kind:?} total: {total:?}");
    total
}

#[test]
fn go_small_boards_match_the_naive_board() {
    let tally = play_games(
        &[
            (1, 1, 20),
            (2, 1, 100),
            (2, 2, 1500),
            (3, 3, 1500),
            (1, 7, 400),
            (3, 7, 400),
            (7, 3, 400),
        ],
        GameKind::Go,
        1,
    );
    assert!(tally.games >= 4000);
    assert!(tally.ko_bans_set >= 1_500, "{tally:?}");
    assert!(tally.ko_refusals_seen >= 1_500, "{tally:?}");
    assert!(tally.moves_on_lapsed_ko_bans >= 1_500, "{tally:?}");
    assert!(tally.suicide_refusals_seen >= 100_000, "{tally:?}");
    assert!(tally.multi_stone_captures >= 20_000, "{tally:?}");
    assert!(tally.passes >= 10_000, "{tally:?}");
    assert!(tally.same_colour_twice >= 2_000, "{tally:?}");
    assert!(tally.copy_from_round_trips >= 1_000, "{tally:?}");
}

#[test]
fn go_five_and_nine_match_the_naive_board() {
    let tally = play_games(&[(5, 5, 600), (9, 9, 120)], GameKind::Go, 2);
    assert!(tally.games >= 720);
    assert!(tally.ko_bans_set >= 500, "{tally:?}");
    assert!(tally.moves_on_lapsed_ko_bans >= 500, "{tally:?}");
    assert!(tally.multi_stone_captures >= 5_000, "{tally:?}");
}

#[test]
fn go_large_boards_match_the_naive_board() {
    let tally = play_games(
        &[
            (13, 13, 10),
            (19, 19, 4),
            (25, 25, 1),
            (25, 1, 40),
            (4, 25, 6),
        ],
        GameKind::Go,
        3,
    );
    assert!(tally.ko_bans_set >= 150, "{tally:?}");
    assert!(tally.multi_stone_captures >= 1_000, "{tally:?}");
}

#[test]
fn nogo_boards_match_the_naive_board() {
    let tally = play_games(
        &[
            (1, 1, 20),
            (1, 2, 100),
            (2, 2, 1000),
            (3, 3, 1000),
            (5, 5, 600),
            (3, 7, 300),
            (7, 3, 300),
            (1, 9, 300),
            (9, 9, 120),
            (13, 13, 10),
            (19, 19, 3),
            (25, 25, 1),
        ],
        GameKind::NoGo,
        4,
    );
    assert!(tally.games >= 3500);
    // NoGo has no captures, hence no ko; every game ends when a side is stuck.
    assert_eq!(tally.captures, 0, "{tally:?}");
    assert_eq!(tally.ko_bans_set, 0, "{tally:?}");
    assert_eq!(
        tally.nogo_games_ended_without_moves, tally.games,
        "{tally:?}"
    );
    assert!(tally.nogo_capture_refusals_seen >= 50_000, "{tally:?}");
    assert!(tally.suicide_refusals_seen >= 20_000, "{tally:?}");
}
