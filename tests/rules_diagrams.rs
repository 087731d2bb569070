//! The rules on hand-made diagrams: ko, superko, snapback, suicide,
//! captures, NoGo legality, scoring, handicap and undo.
//!
//! Boards are text, top row first: `X` black, `O` white, `.` empty. Points
//! are named as in GTP: columns `A`.. without `I`, rows from 1 at the bottom.

use kosumi::board::{
    AreaScore, Bitboard, BoardError, Color, Game, GameError, GameKind, Geometry, Move, Outcome,
    Point, Position,
};

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The point a GTP vertex such as `C3` names on `geometry`.
fn at(geometry: Geometry, vertex: &str) -> Point {
    let col = COLUMNS
        .find(vertex[..1].to_ascii_uppercase().as_str())
        .expect("a column letter");
    let row: usize = vertex[1..].parse().expect("a row number");
    geometry.point(col, row - 1).expect("vertex on the board")
}

/// A position from a diagram, checked to hold exactly the drawn stones
/// (a diagram with a string without liberties would lose it on setup).
fn board(diagram: &str, kind: GameKind) -> Position {
    let position = Position::from_text(diagram, kind).expect("a valid diagram");
    assert_eq!(
        position.to_text(),
        normalised(diagram),
        "the diagram must be a legal position"
    );
    position
}

/// The diagram as `Position::to_text` writes it.
fn normalised(diagram: &str) -> String {
    diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .map(|l| l + "\n")
        .collect()
}

/// A game whose setup is the diagram's stones, `first` to move.
fn game(diagram: &str, kind: GameKind, komi: f32, first: Color) -> Game {
    let position = board(diagram, kind);
    let geometry = position.geometry();
    let stones: Vec<(Point, Color)> = geometry
        .points()
        .filter_map(|p| position.cell(p).color().map(|c| (p, c)))
        .collect();
    let mut game = Game::new(geometry, kind, komi);
    game.add_setup(&stones).expect("a legal setup");
    game.set_first_to_move(first);
    assert_eq!(game.position().hash(), position.hash());
    game
}

fn play(game: &mut Game, color: Color, vertex: &str) {
    let p = at(game.geometry(), vertex);
    game.play(color, Move::Play(p))
        .unwrap_or_else(|e| panic!("{color:?} {vertex}: {e}\n{}", game.position().to_text()));
}

fn points(geometry: Geometry, vertices: &[&str]) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for v in vertices {
        set.set(at(geometry, v));
    }
    set
}

// ---------------------------------------------------------------- ko

/// White captures at B3; Black may not take back at C3 at once.
const SIMPLE_KO: &str = "
    . . . . .
    . X O . .
    X . X O .
    . X O . .
    . . . . .
";

#[test]
fn simple_ko_forbids_the_immediate_recapture_and_lapses_after_other_moves() {
    let mut position = board(SIMPLE_KO, GameKind::Go);
    let g = position.geometry();
    position.set_to_move(Color::White);
    assert_eq!(position.play(at(g, "B3"), Color::White), 1);
    assert_eq!(position.cell(at(g, "C3")).color(), None);
    assert_eq!(position.ko_point(Color::Black), Some(at(g, "C3")));
    assert_eq!(position.ko_point(Color::White), None);
    assert_eq!(
        position.check_move(at(g, "C3"), Color::Black),
        Err(BoardError::Ko)
    );
    // The ban binds Black only: White may fill the ko.
    assert_eq!(position.check_move(at(g, "C3"), Color::White), Ok(()));

    // A ko threat and an answer elsewhere lift the ban.
    position.play(at(g, "E5"), Color::Black);
    position.play(at(g, "E1"), Color::White);
    assert_eq!(position.ko_point(Color::Black), None);
    assert_eq!(position.check_move(at(g, "C3"), Color::Black), Ok(()));
    assert_eq!(position.play(at(g, "C3"), Color::Black), 1);
    // Now White is the one who must wait.
    assert_eq!(position.ko_point(Color::White), Some(at(g, "B3")));
    assert_eq!(
        position.check_move(at(g, "B3"), Color::White),
        Err(BoardError::Ko)
    );
}

#[test]
fn a_pass_lifts_the_ko_ban() {
    let mut position = board(SIMPLE_KO, GameKind::Go);
    let g = position.geometry();
    position.play(at(g, "B3"), Color::White);
    assert_eq!(
        position.check_move(at(g, "C3"), Color::Black),
        Err(BoardError::Ko)
    );
    position.pass();
    assert_eq!(position.ko_point(Color::Black), None);
    assert_eq!(position.check_move(at(g, "C3"), Color::Black), Ok(()));
}

#[test]
fn capturing_two_stones_sets_no_ko_ban_and_one_liberty_decides_a_single_capture() {
    // White D3 captures the two black stones C3 and C2 (C2's only other
    // neighbours are white): not a ko, Black may play C3 at once.
    let mut position = board(
        "
        . . . . .
        . . O . .
        . O X . .
        . O X O .
        . . O . .
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    assert_eq!(position.play(at(g, "D3"), Color::White), 2);
    assert_eq!(position.ko_point(Color::Black), None);
    assert_eq!(position.check_move(at(g, "C3"), Color::Black), Ok(()));

    // A lone stone that captures one stone and is left with one liberty
    // makes a ko: White may not retake at B1 ...
    let mut position = board(
        "
        . . .
        O X .
        . O X
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    assert_eq!(position.play(at(g, "A1"), Color::Black), 1);
    assert_eq!(position.string_liberties(at(g, "A1")).count(), 1);
    assert_eq!(position.ko_point(Color::White), Some(at(g, "B1")));
    // ... but with two liberties left it is no ko.
    let mut position = board(
        "
        . . .
        . X .
        . O X
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    assert_eq!(position.play(at(g, "A1"), Color::Black), 1);
    assert_eq!(position.string_liberties(at(g, "A1")).count(), 2);
    assert_eq!(position.ko_point(Color::White), None);
}

#[test]
fn a_capturing_stone_joined_to_a_friend_sets_no_ko_ban() {
    // Black C3 takes B3 and joins D3: the two stones have one liberty, B3,
    // but White's retake there captures two stones, so it is no ko.
    let mut position = board(
        "
        . . . .
        . X O O
        X O . X
        . X O O
        . . . .
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    assert_eq!(position.play(at(g, "C3"), Color::Black), 1);
    assert_eq!(position.string_size(at(g, "C3")), 2);
    assert_eq!(position.string_liberties(at(g, "C3")), points(g, &["B3"]));
    assert_eq!(position.ko_point(Color::White), None);
    assert_eq!(position.check_move(at(g, "B3"), Color::White), Ok(()));
    assert_eq!(position.play(at(g, "B3"), Color::White), 2);
}

#[test]
fn game_rejects_the_ko_recapture_and_keeps_its_state() {
    let mut game = game(SIMPLE_KO, GameKind::Go, 7.5, Color::White);
    play(&mut game, Color::White, "B3");
    let g = game.geometry();
    let hash = game.position().hash();
    assert_eq!(
        game.play(Color::Black, Move::Play(at(g, "C3"))),
        Err(GameError::Illegal(BoardError::Ko))
    );
    assert_eq!(game.moves().len(), 1);
    assert_eq!(game.position().hash(), hash);
    assert_eq!(game.to_move(), Color::Black);
    play(&mut game, Color::Black, "E5");
    play(&mut game, Color::White, "E1");
    play(&mut game, Color::Black, "C3");
    assert_eq!(game.position().prisoners(Color::Black), 1);
}

// ---------------------------------------------------------- superko

/// Three kos on one row, each of the shape `X O . O` (Black captures the
/// `O` by playing the `.`) or, once taken, `X . X O`. The first and third
/// are waiting for Black, the middle one for White.
const TRIPLE_KO: &str = ". X O . O . X . X O . X O . O .";

#[test]
fn triple_ko_cycle_is_rejected_by_positional_superko_but_not_by_simple_ko() {
    let mut game = game(TRIPLE_KO, GameKind::Go, 0.5, Color::Black);
    let g = game.geometry();
    assert_eq!((g.width(), g.height()), (16, 1));
    let start = game.position().hash();
    // Each move takes a ko that was not the last one taken.
    for (color, vertex) in [
        (Color::Black, "D1"), // first ko
        (Color::White, "H1"), // middle ko
        (Color::Black, "O1"), // third ko
        (Color::White, "C1"), // first ko back
        (Color::Black, "J1"), // middle ko back
    ] {
        let before = game.position().prisoners(color);
        play(&mut game, color, vertex);
        assert_eq!(game.position().prisoners(color), before + 1, "{vertex}");
        assert_ne!(game.position().hash(), start, "{vertex}");
    }
    // Taking the third ko back would recreate the starting position.
    let p = at(g, "N1");
    assert_eq!(game.position().check_move(p, Color::White), Ok(()));
    let mut replayed = game.position().clone();
    replayed.play(p, Color::White);
    assert_eq!(replayed.hash(), start);
    assert_eq!(replayed.to_text(), normalised(TRIPLE_KO));
    assert_eq!(
        game.check_move(Color::White, Move::Play(p)),
        Err(BoardError::Superko)
    );
    assert_eq!(
        game.play(Color::White, Move::Play(p)),
        Err(GameError::Illegal(BoardError::Superko))
    );
    assert_eq!(game.moves().len(), 5);
    // Any other move is fine, passing included.
    assert_eq!(game.check_move(Color::White, Move::Pass), Ok(()));
    assert_eq!(
        game.check_move(Color::White, Move::Play(at(g, "A1"))),
        Ok(())
    );
}

/// Black's D1 puts C1-D1 in atari; White takes the two stones at B1, Black
/// takes two back at C1 and White throws in at A1: four moves, no ko, and
/// Black's D1 would start the cycle over.
const TWO_FOR_TWO_CYCLE: &str = "
    . X . O
    X X O O
    O . X X
";

#[test]
fn two_for_two_capture_cycle_is_rejected_by_positional_superko() {
    let mut game = game(TWO_FOR_TWO_CYCLE, GameKind::Go, 0.5, Color::White);
    let g = game.geometry();
    let start = game.position().hash();
    play(&mut game, Color::White, "B1");
    assert_eq!(game.position().prisoners(Color::White), 2);
    play(&mut game, Color::Black, "C1");
    assert_eq!(game.position().prisoners(Color::Black), 2);
    play(&mut game, Color::White, "A1");
    let p = at(g, "D1");
    assert_eq!(game.position().check_move(p, Color::Black), Ok(()));
    assert_eq!(game.position().ko_point(Color::Black), None);
    assert_eq!(
        game.check_move(Color::Black, Move::Play(p)),
        Err(BoardError::Superko)
    );
    let mut replayed = game.position().clone();
    replayed.play(p, Color::Black);
    assert_eq!(replayed.hash(), start);
    // Any other move makes a new position: legal.
    assert_eq!(
        game.check_move(Color::Black, Move::Play(at(g, "C3"))),
        Ok(())
    );
}

#[test]
fn ko_retake_after_two_passes_is_superko() {
    let mut game = game(SIMPLE_KO, GameKind::Go, 7.5, Color::White);
    let g = game.geometry();
    play(&mut game, Color::White, "B3");
    game.play(Color::Black, Move::Pass).expect("pass");
    game.play(Color::White, Move::Pass).expect("pass");
    assert!(game.is_over());
    // The passes lifted the simple-ko ban, but C3 would recreate the setup.
    let p = at(g, "C3");
    assert_eq!(game.position().check_move(p, Color::Black), Ok(()));
    assert_eq!(
        game.check_move(Color::Black, Move::Play(p)),
        Err(BoardError::Superko)
    );
}

// ------------------------------------------------------------- undo

#[test]
fn undo_restores_the_ko_ban_and_the_superko_history() {
    let mut game = game(SIMPLE_KO, GameKind::Go, 7.5, Color::White);
    let g = game.geometry();
    let retake = Move::Play(at(g, "C3"));
    play(&mut game, Color::White, "B3");
    game.play(Color::Black, Move::Pass).expect("pass");
    game.play(Color::White, Move::Pass).expect("pass");
    assert_eq!(
        game.check_move(Color::Black, retake),
        Err(BoardError::Superko)
    );

    // Undoing the passes brings the simple-ko ban back.
    game.undo().expect("undo pass");
    game.undo().expect("undo pass");
    assert_eq!(game.to_move(), Color::Black);
    assert_eq!(game.position().ko_point(Color::Black), Some(at(g, "C3")));
    assert_eq!(game.check_move(Color::Black, retake), Err(BoardError::Ko));

    // Undoing the capture goes back to the setup, White to move; the
    // capture can be replayed and sets the same ban.
    game.undo().expect("undo capture");
    assert_eq!(game.moves().len(), 0);
    assert_eq!(game.position().ko_point(Color::Black), None);
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));
    play(&mut game, Color::White, "B3");
    assert_eq!(game.check_move(Color::Black, retake), Err(BoardError::Ko));
}

#[test]
fn undone_positions_leave_the_superko_history() {
    // Black plays C3, undoes it, and plays it again: had the undone
    // position stayed in the history, the replay would be superko.
    let mut game = Game::new(Geometry::square(5).expect("5x5"), GameKind::Go, 7.5);
    play(&mut game, Color::Black, "C3");
    play(&mut game, Color::White, "D4");
    game.undo().expect("undo");
    game.undo().expect("undo");
    assert!(game.position().stones(Color::Black).is_empty());
    play(&mut game, Color::Black, "C3");
    play(&mut game, Color::White, "D4");
    assert_eq!(game.moves().len(), 2);
}

// ---------------------------------------------------- captures, suicide

/// White's group A1-A2-B2-C2 has two liberties, B1 and C1.
const SNAPBACK: &str = "
    . . . . .
    . . . . .
    X X X . .
    O O O X .
    O . . X .
";

#[test]
fn snapback_recaptures_the_capturing_group() {
    let mut position = board(SNAPBACK, GameKind::Go);
    let g = position.geometry();
    // Black throws in at B1: a lone stone in atari, White's group too.
    assert_eq!(position.play(at(g, "B1"), Color::Black), 0);
    assert!(position.in_atari(at(g, "B1")));
    assert!(position.in_atari(at(g, "A1")));
    // White captures it, and its group, now five stones, has one liberty.
    assert_eq!(position.play(at(g, "C1"), Color::White), 1);
    assert_eq!(position.ko_point(Color::Black), None);
    assert_eq!(position.string_size(at(g, "C1")), 5);
    assert_eq!(position.string_liberties(at(g, "C1")), points(g, &["B1"]));
    // Black plays B1 again and takes all five.
    assert_eq!(position.check_move(at(g, "B1"), Color::Black), Ok(()));
    assert_eq!(position.play(at(g, "B1"), Color::Black), 5);
    assert!(position.stones(Color::White).is_empty());
    assert_eq!(position.prisoners(Color::Black), 5);
    assert_eq!(position.prisoners(Color::White), 1);
}

#[test]
fn a_lone_stone_without_liberties_is_suicide() {
    let position = board(
        "
        . O .
        O . O
        . O .
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    assert_eq!(
        position.check_move(at(g, "B2"), Color::Black),
        Err(BoardError::Suicide)
    );
    assert_eq!(position.check_move(at(g, "B2"), Color::White), Ok(()));
    assert!(!position.legal_moves(Color::Black).contains(at(g, "B2")));
}

#[test]
fn filling_a_groups_last_liberty_is_suicide_unless_it_captures() {
    let position = board(
        "
        O O O .
        X X . O
        O O O .
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    // Black C2 would join A2-B2 and leave the three stones no liberty; every
    // white string keeps one, so nothing is captured.
    assert_eq!(
        position.check_move(at(g, "C2"), Color::Black),
        Err(BoardError::Suicide)
    );
    // The same point for White takes the two black stones.
    let mut after = position.clone();
    assert_eq!(after.play(at(g, "C2"), Color::White), 2);
    assert_eq!(after.cell(at(g, "A2")).color(), None);
    assert_eq!(after.cell(at(g, "B2")).color(), None);
}

#[test]
fn a_move_without_empty_neighbours_is_legal_when_it_captures() {
    let position = board(
        "
        . . .
        O X .
        . O X
        ",
        GameKind::Go,
    );
    let g = position.geometry();
    let a1 = at(g, "A1");
    assert!(
        g.neighbours(a1)
            .iter()
            .all(|&n| position.cell(n).color().is_some() || !g.contains(n)),
        "A1 has no empty neighbour"
    );
    let mut after = position.clone();
    assert_eq!(after.play(a1, Color::Black), 1);
    assert_eq!(after.cell(at(g, "B1")).color(), None);
    assert_eq!(after.cell(at(g, "A2")).color(), Some(Color::White));
    // Without the capture the same move is suicide: give B1 a liberty.
    let position = board(
        "
        . . .
        O . .
        . O X
        ",
        GameKind::Go,
    );
    assert_eq!(
        position.check_move(a1, Color::Black),
        Err(BoardError::Suicide)
    );
}

/// Four white stones, each in atari at C3.
const FOUR_IN_ATARI: &str = "
    . . X . .
    . X O X .
    X O . O X
    . X O X .
    . . X . .
";

#[test]
fn one_move_captures_several_strings() {
    let mut position = board(FOUR_IN_ATARI, GameKind::Go);
    let g = position.geometry();
    // White may not fill C3: it would join four strings with no liberty.
    assert_eq!(
        position.check_move(at(g, "C3"), Color::White),
        Err(BoardError::Suicide)
    );
    assert_eq!(position.play(at(g, "C3"), Color::Black), 4);
    assert!(position.stones(Color::White).is_empty());
    assert_eq!(position.prisoners(Color::Black), 4);
    assert_eq!(
        position.string_liberties(at(g, "C3")),
        points(g, &["B3", "C4", "D3", "C2"])
    );
    assert_eq!(position.ko_point(Color::White), None);
}

// ---------------------------------------------------------------- NoGo

#[test]
fn nogo_forbids_capturing_even_several_strings() {
    let position = board(FOUR_IN_ATARI, GameKind::NoGo);
    let g = position.geometry();
    assert_eq!(
        position.check_move(at(g, "C3"), Color::Black),
        Err(BoardError::NoGoCapture)
    );
    assert_eq!(
        position.check_move(at(g, "C3"), Color::White),
        Err(BoardError::Suicide)
    );
    // One stone is enough to make a capture illegal.
    let position = board(
        "
        . X .
        X O .
        . X .
        ",
        GameKind::NoGo,
    );
    let g = position.geometry();
    assert_eq!(
        position.check_move(at(g, "C2"), Color::Black),
        Err(BoardError::NoGoCapture)
    );
    assert_eq!(position.check_move(at(g, "C1"), Color::Black), Ok(()));
}

#[test]
fn nogo_forbids_suicide() {
    let position = board(
        "
        . O .
        O . O
        . O .
        ",
        GameKind::NoGo,
    );
    let g = position.geometry();
    assert_eq!(
        position.check_move(at(g, "B2"), Color::Black),
        Err(BoardError::Suicide)
    );
    // Filling a friendly string's last liberty is suicide too.
    let position = board(
        "
        O O O .
        X X . O
        O O O .
        ",
        GameKind::NoGo,
    );
    let g = position.geometry();
    assert_eq!(
        position.check_move(at(g, "C2"), Color::Black),
        Err(BoardError::Suicide)
    );
    // And where Go would let White capture, NoGo does not.
    assert_eq!(
        position.check_move(at(g, "C2"), Color::White),
        Err(BoardError::NoGoCapture)
    );
}

/// Black to move: every empty point would capture a white stone in atari.
/// For White every empty point is suicide.
const NOGO_STUCK: &str = "
    . O X O
    X X X .
    O X O X
    . X O .
";

#[test]
fn nogo_side_without_a_legal_move_has_lost() {
    let position = board(NOGO_STUCK, GameKind::NoGo);
    let g = position.geometry();
    assert_eq!(position.empty_points().len(), 4);
    for vertex in ["A4", "D3", "A1", "D1"] {
        assert_eq!(
            position.check_move(at(g, vertex), Color::Black),
            Err(BoardError::NoGoCapture),
            "{vertex}"
        );
        assert_eq!(
            position.check_move(at(g, vertex), Color::White),
            Err(BoardError::Suicide),
            "{vertex}"
        );
    }
    assert!(!position.has_legal_move(Color::Black));
    assert!(!position.has_legal_move(Color::White));
    assert!(position.legal_moves(Color::Black).is_empty());

    let mut nogo = game(NOGO_STUCK, GameKind::NoGo, 0.0, Color::Black);
    assert!(nogo.is_over());
    assert_eq!(
        nogo.play(Color::Black, Move::Pass),
        Err(GameError::Illegal(BoardError::NoGoPass))
    );
    // The same stones under Go rules: Black has moves, the game goes on.
    let go = game(NOGO_STUCK, GameKind::Go, 0.0, Color::Black);
    assert!(!go.is_over());
    assert!(go.position().has_legal_move(Color::Black));
}

#[test]
fn nogo_one_by_one_has_no_legal_move_and_two_by_one_has_one_each() {
    let one = Position::new(Geometry::new(1, 1).expect("1x1"), GameKind::NoGo);
    assert!(!one.has_legal_move(Color::Black));
    let two = Position::new(Geometry::new(2, 1).expect("2x1"), GameKind::NoGo);
    assert_eq!(two.legal_moves(Color::Black).count(), 2);
    let mut after = two.clone();
    after.play(at(two.geometry(), "A1"), Color::Black);
    assert!(!after.has_legal_move(Color::White));
    assert!(!after.has_legal_move(Color::Black));
}

// ------------------------------------------------------------- scoring

/// Black's D-E group and White's C column share the liberties D1 and D2;
/// whoever fills one puts its own group in atari. Both outer groups have
/// two eyes.
const SEKI: &str = "
    . X O X X O .
    X X O . X O O
    . X O . X O .
";

#[test]
fn seki_shared_liberties_count_for_nobody() {
    let position = board(SEKI, GameKind::Go);
    let g = position.geometry();
    // It is a seki: filling a shared liberty is self-atari for either side.
    for color in [Color::Black, Color::White] {
        for vertex in ["D1", "D2"] {
            let mut after = position.clone();
            after.play(at(g, vertex), color);
            assert!(after.in_atari(at(g, vertex)), "{color:?} {vertex}");
        }
    }
    // Black: 8 stones + A1, A3. White: 7 stones + G1, G3. D1, D2: nobody.
    assert_eq!(
        position.area_score(),
        AreaScore {
            black: 10,
            white: 9
        }
    );
    let seki = game(SEKI, GameKind::Go, 0.5, Color::Black);
    assert_eq!(
        seki.area_score().outcome(seki.komi()),
        Outcome::Win(Color::Black, 0.5)
    );
}

#[test]
fn neutral_points_and_lone_stones_in_area_scoring() {
    let position = board(
        "
        X X . O O
        X X . O O
        X X . O O
        ",
        GameKind::Go,
    );
    assert_eq!(position.area_score(), AreaScore { black: 6, white: 6 });
    assert_eq!(position.area_score().outcome(0.0), Outcome::Draw);

    let g = Geometry::square(9).expect("9x9");
    let empty = Position::new(g, GameKind::Go);
    assert_eq!(empty.area_score(), AreaScore { black: 0, white: 0 });
    let mut one_stone = empty.clone();
    one_stone.play(at(g, "E5"), Color::White);
    assert_eq!(
        one_stone.area_score(),
        AreaScore {
            black: 0,
            white: 81
        }
    );
    one_stone.play(at(g, "A1"), Color::Black);
    assert_eq!(one_stone.area_score(), AreaScore { black: 1, white: 1 });
}

/// White's A2 is dead inside Black's side of the board.
const DEAD_STONE: &str = "
    . X . O .
    O X . O .
    . X . O .
";

#[test]
fn area_score_with_dead_gives_the_dead_stones_points_to_the_surrounder() {
    let scored = game(DEAD_STONE, GameKind::Go, 0.5, Color::Black);
    let g = scored.geometry();
    // As it stands A1 and A3 touch both colours, and so does the C column.
    assert_eq!(scored.area_score(), AreaScore { black: 3, white: 7 });
    let dead = points(g, &["A2"]);
    assert_eq!(
        scored.area_score_with_dead(&dead),
        AreaScore { black: 6, white: 6 }
    );
    assert_eq!(
        scored.area_score_with_dead(&dead).outcome(scored.komi()),
        Outcome::Win(Color::White, 0.5)
    );
    // The board itself is untouched.
    assert_eq!(
        scored.position().cell(at(g, "A2")).color(),
        Some(Color::White)
    );
    // Calling Black's wall dead as well hands everything to White.
    let all_dead = points(g, &["A2", "B1", "B2", "B3"]);
    assert_eq!(
        scored.area_score_with_dead(&all_dead),
        AreaScore {
            black: 0,
            white: 15
        }
    );
}

// ----------------------------------------------------------- handicap

#[test]
fn fixed_handicap_is_setup_that_undo_keeps() {
    let g = Geometry::square(19).expect("19x19");
    let mut game = Game::new(g, GameKind::Go, 0.5);
    let placed = game.place_fixed_handicap(4).expect("four stones");
    assert_eq!(placed, ["D4", "Q16", "D16", "Q4"].map(|v| at(g, v)));
    assert_eq!(
        game.position().stones(Color::Black),
        points(g, &["D4", "Q16", "D16", "Q4"])
    );
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.handicap(), 4);
    assert!(game.moves().is_empty());

    play(&mut game, Color::White, "K10");
    play(&mut game, Color::Black, "C3");
    game.undo().expect("undo");
    game.undo().expect("undo");
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));
    assert_eq!(game.position().stones(Color::Black).count(), 4);
    assert!(game.position().stones(Color::White).is_empty());
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.handicap(), 4);
    // A second handicap, or one after a move, is refused.
    assert_eq!(game.place_fixed_handicap(2), Err(GameError::BoardNotEmpty));
    let mut started = Game::new(g, GameKind::Go, 0.5);
    play(&mut started, Color::Black, "D4");
    assert_eq!(
        started.place_fixed_handicap(2),
        Err(GameError::BoardNotEmpty)
    );
    let mut fresh = Game::new(g, GameKind::Go, 0.5);
    assert_eq!(fresh.place_fixed_handicap(10), Err(GameError::BadHandicap));
    assert_eq!(fresh.place_fixed_handicap(1), Err(GameError::BadHandicap));
}

#[test]
fn handicap_is_inferred_from_black_stones_before_whites_first_move() {
    let g = Geometry::square(9).expect("9x9");
    let mut record = Game::new(g, GameKind::Go, 0.5);
    for vertex in ["C3", "G7", "C7"] {
        play(&mut record, Color::Black, vertex);
    }
    play(&mut record, Color::White, "E5");
    play(&mut record, Color::Black, "G3");
    assert_eq!(record.handicap(), 3);

    // One black stone before White is an ordinary first move.
    let mut even = Game::new(g, GameKind::Go, 0.5);
    play(&mut even, Color::Black, "C3");
    play(&mut even, Color::White, "G7");
    play(&mut even, Color::Black, "C7");
    assert_eq!(even.handicap(), 0);

    // A pass ends the run of handicap stones.
    let mut passed = Game::new(g, GameKind::Go, 0.5);
    play(&mut passed, Color::Black, "C3");
    passed.play(Color::Black, Move::Pass).expect("pass");
    play(&mut passed, Color::Black, "G7");
    assert_eq!(passed.handicap(), 0);

    // Setup stones of both colours are not a handicap.
    let mixed = game(". X .\n. O .\n. X .", GameKind::Go, 0.5, Color::White);
    assert_eq!(mixed.handicap(), 0);
}

// --------------------------------------------------- illegal requests

#[test]
fn occupied_and_off_board_points_are_refused() {
    let position = board(SIMPLE_KO, GameKind::Go);
    let g = position.geometry();
    assert_eq!(
        position.check_move(at(g, "B4"), Color::White),
        Err(BoardError::Occupied)
    );
    assert_eq!(
        position.check_move(Point(0), Color::Black),
        Err(BoardError::OffBoard)
    );
    // The first cell of the padded grid past the last column is border.
    let border = Point(at(g, "E1").0 + 1);
    assert!(!g.contains(border));
    assert_eq!(
        position.check_move(border, Color::Black),
        Err(BoardError::OffBoard)
    );
    assert_eq!(
        Position::from_text("X .\n. . .", GameKind::Go).err(),
        Some(BoardError::BadSize)
    );
}
