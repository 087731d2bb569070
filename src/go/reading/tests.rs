//! Tests of the tactical reading: ladders, captures, escapes and the
//! root reading priors.

use super::*;
use crate::board::GameKind;
use crate::go::tactics::ladder_captures;

/// Whether the string through `target` is captured with `to_move` to play
/// (a proven capture within the node budget).
fn captured(position: &Position, target: Point, to_move: Color) -> bool {
    let Some(defender) = position.cell(target).color() else {
        return false;
    };
    PLIES.with_borrow_mut(|plies| {
        let mut reader = Reader::new(plies);
        reader.load(position, to_move);
        if to_move == defender {
            reader.dies_first_to_move(target, defender, 0)
        } else {
            reader.captures_first_to_move(target, defender, 0)
        }
    })
}

fn board(text: &str) -> Position {
    Position::from_text(text, GameKind::Go).unwrap()
}

fn at(position: &Position, col: usize, row: usize) -> Point {
    position.geometry().point(col, row).unwrap()
}

#[test]
fn saving_the_attacker_in_atari_captures_what_no_atari_does() {
    // Black J8-J9 has two liberties, H8 and H9; White J7 is in atari.
    // White H7 saves J7 and leaves Black a ladder along the top edge;
    // either White atari first lets Black capture J7 and live.
    let p = board(
        "........X
         ........X
         ........O
         ........X
         .........
         .........
         .........
         .........
         .........",
    );
    let j8 = at(&p, 8, 7);
    let (h7, h8, h9) = (at(&p, 7, 6), at(&p, 7, 7), at(&p, 7, 8));
    assert!(!ladder_captures(&p, j8, Color::White), "no atari works");
    assert!(captured(&p, j8, Color::White));
    assert!(!captured(&p, j8, Color::Black), "Black to move lives");

    let white = root_effects(&p, Color::White);
    assert!(white.contains(&(h7, Effect::Captures(2))), "{white:?}");
    assert!(!white.iter().any(|&(m, _)| m == h8 || m == h9), "{white:?}");
    let black = root_effects(&p, Color::Black);
    assert!(black.contains(&(h7, Effect::Saves(2))), "{black:?}");
    assert!(black.contains(&(h9, Effect::FailsToSave(2))), "{black:?}");
    // Every claim holds when read again from the position it makes.
    for &(m, effect) in &white {
        if effect == Effect::Captures(2) {
            let mut after = p.clone();
            after.play(m, Color::White);
            assert!(captured(&after, j8, Color::Black), "{m:?}");
        }
    }
    for &(m, effect) in &black {
        if effect == Effect::Saves(2) {
            let mut after = p.clone();
            after.play(m, Color::Black);
            assert!(!captured(&after, j8, Color::White), "{m:?}");
        }
    }
}

#[test]
fn a_double_atari_breaks_a_ladder_deep_in_its_run() {
    // Fuego's ladder_19 test 75 (bad-ladder.2) after White L6: the
    // 14 stones from E13 to L6 run down to White M4. After Black L5,
    // White M6, Black M5, White N6, Black N7 they are short of
    // liberties, but White G13 ataris Black F13 and G12 at once, and
    // capturing either gives the string room (GNU Go's defend finds
    // G13 there, and calls the string safe after L6).
    let mut p = board(
        "...................
         ...................
         ..O......O...O.....
         ...............O...
         ...O............O..
         ....X..............
         ...XOX.............
         ...XOOX.........O..
         ....XOOX...........
         .....XOOX......X...
         ......XOOX.........
         ..X....XOOX....X...
         ........XOOX...OX..
         .........XO...XX...
         .............XOOO..
         ...........O.X..X..
         ..X..O.........X...
         ...................
         ...................",
    );
    let l6 = at(&p, 10, 5);
    assert_eq!(p.string_stones(l6).count(), 14);
    let black = root_effects(&p, Color::Black);
    assert!(
        !black.iter().any(|&(_, e)| e == Effect::Captures(14)),
        "{black:?}"
    );
    for (col, row, color) in [
        (10, 4, Color::Black),
        (11, 5, Color::White),
        (11, 4, Color::Black),
        (12, 5, Color::White),
        (12, 6, Color::Black),
    ] {
        p.play(at(&p, col, row), color);
    }
    assert!(!captured(&p, l6, Color::White), "G13 saves it");
}

#[test]
fn reaching_four_liberties_against_a_wall_is_no_save() {
    // tactics_ld test 38 (move 283 of GNU Go 3.4 against viking4),
    // White to move: White E7 or F6 gives the string round F7 four
    // liberties, and Black still captures it (GNU Go's attack: G7
    // after E7, E7 after F6). Neither may count as a save.
    let p = board(
        ".........O.OOXXO...
         ..O.OOOOO..OXXOOXO.
         .O.OXOXXOOOXX.XOOX.
         ..OXXXXOOXXX.X.XOOX
         ..OXXXOOXX.....XXOO
         ..OOOXOOOX....XXO..
         XXXOXXOOX...X.XOOO.
         OOOXXXOOXXX...XOXOO
         OXXXXOOOOOOX..XOXXX
         OOOXXXXO..OX.X.XXXO
         O.OOX.XXOOOXXXXXXXO
         .OXX.XX.XOXXOOXOXOO
         ..OX.O.XXXOO.OXOXO.
         .OOXO..X.XO..OOOOOO
         .OXXOO.XXOO.OOXXXO.
         .OOXXXX.XXO..O.XOOO
         OOXX.OOOOXXO.O.XOOX
         XOXOOOX.OXOOOOOXXXX
         XXXO.XXOOXXXOXXX.O.",
    );
    let (e7, f6) = (at(&p, 4, 6), at(&p, 5, 5));
    let white = root_effects(&p, Color::White);
    assert!(
        !white
            .iter()
            .any(|&(m, e)| (m == e7 || m == f6) && matches!(e, Effect::Saves(_))),
        "{white:?}"
    );
}

#[test]
fn a_string_that_reaches_four_liberties_and_dies_gives_no_hurry() {
    // CGOS game 31410 before move 68, White to move: Black R16 and
    // S17 join at S16 with four liberties and die in the corner all
    // the same (GNU Go's defend of R16 fails after Black S16 too), so
    // no White move there captures what was still alive.
    let p = board(
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
         .....OX............
         ..X.O....OX.X..O...
         ......X..OXOOO.....
         ..X.O.....O....O...
         .OOO.X....OX.X.OX..
         ....OX..X.XX..XXOO.
         ..O.OX..........XO.
         ...OXX.............",
    );
    let corner = [(15, 15), (17, 15), (18, 15), (17, 14), (18, 16)];
    let corner: Vec<Point> = corner.iter().map(|&(c, r)| at(&p, c, r)).collect();
    let white = root_effects(&p, Color::White);
    assert!(
        !white
            .iter()
            .any(|&(m, e)| corner.contains(&m) && matches!(e, Effect::Captures(_))),
        "{white:?}"
    );
}

#[test]
fn the_attacker_captures_a_self_atari_that_ataris_its_strings() {
    // GNU Go's blunder12 before move 258, after White C10 and Black
    // D11: White B10 leaves C10 three liberties, and after Black C11
    // White's double atari at B8 on C8 and B9 stands in atari itself:
    // Black A8 takes it, and the string dies (GNU Go's attack agrees).
    let p = board(
        ".O.OX..............
         OOOOX..............
         XOXXOXX.X.XXX...XXX
         XXX..XOXXXXOOXXXOOX
         ...X.XOOXOXXOOOXOOX
         ......XOOOOXXXOO.OX
         ..X.X.XXXOOXXXXO.OX
         .....OXOOOOXOXOOOOX
         .X.XOXXXXOOOOXXOXXX
         ..OOXOOOXXO..OO.OXO
         .X.XXO.OOXO.....OOO
         ..XXOOOXXO.OOOO....
         XXOOOXXXOOO.OXXO...
         XOO..OOXXOOOXXXOX..
         O....OXXOOXOOXOOXOO
         ..OO.OXXOOXXOXOOOXO
         .O.OOOOXXX.XXXXXOXX
         ..OXOXX..X..X.XXOOX
         ...XOOX.X..X...XXXX",
    );
    let (b10, c10) = (at(&p, 1, 9), at(&p, 2, 9));
    let white = root_effects(&p, Color::White);
    assert!(
        !white
            .iter()
            .any(|&(m, e)| m == b10 && matches!(e, Effect::Saves(_))),
        "{white:?}"
    );
    let mut after = p.clone();
    after.play(b10, Color::White);
    assert!(captured(&after, c10, Color::Black));
}

#[test]
fn a_ladder_is_read_to_its_end() {
    // Black C3 (liberties C2 and D3) dies in a ladder to the upper
    // right with White to move, and lives with Black to move.
    let ladder = board(
        ".............
         .............
         .............
         .............
         .............
         .............
         .............
         .............
         .............
         ..O..........
         .OX..........
         ...O.........
         .............",
    );
    let c3 = at(&ladder, 2, 2);
    assert!(ladder_captures(&ladder, c3, Color::White));
    assert!(captured(&ladder, c3, Color::White));
    assert!(!captured(&ladder, c3, Color::Black));
}

#[test]
fn a_string_that_dies_anyway_gives_no_hurry() {
    // White A1 is in atari, and A2 would be suicide: it is dead
    // whoever moves, so capturing it now is worth nothing extra.
    let p = board(
        ".....
         .....
         X....
         .X...
         OX...",
    );
    let a1 = at(&p, 0, 0);
    assert!(captured(&p, a1, Color::White), "dead with White to move");
    let effects = root_effects(&p, Color::Black);
    assert!(
        !effects
            .iter()
            .any(|(_, e)| matches!(e, Effect::Captures(_))),
        "{effects:?}"
    );
}

#[test]
fn capturing_a_cutting_stone_counts_as_several_stones() {
    // White E5 cuts three black stones apart and is in atari: Black
    // E4 captures it, worth more than the one stone it is.
    let p = board(
        ".........
         .........
         .........
         ....X....
         ...XOX...
         .........
         .........
         .........
         .........",
    );
    let e4 = at(&p, 4, 3);
    let effects = root_effects(&p, Color::Black);
    assert!(
        effects
            .iter()
            .any(|&(q, e)| q == e4 && matches!(e, Effect::Captures(stones) if stones > 1)),
        "{effects:?}"
    );
}

#[test]
fn the_side_to_move_wins_a_race_of_three_liberties_each() {
    // Black's row 8 and White's row 7 each have three liberties, all
    // against the other side's walls: whoever moves first fills the
    // other's liberties and wins the race.
    let p = board(
        ".............
         .............
         .............
         OOOOOOOOOOOOO
         OO.OOO.OOO.OO
         XXXXXXXXXXXXX
         OOOOOOOOOOOOO
         XX.XXX.XXX.XX
         XXXXXXXXXXXXX
         .............
         .............
         .............
         .............",
    );
    let (row7, row8) = (at(&p, 0, 6), at(&p, 0, 7));
    let white_liberties = [at(&p, 2, 5), at(&p, 6, 5), at(&p, 10, 5)];
    let black_liberties = [at(&p, 2, 8), at(&p, 6, 8), at(&p, 10, 8)];
    assert!(captured(&p, row7, Color::Black));
    assert!(!captured(&p, row7, Color::White), "White to move wins");
    assert!(captured(&p, row8, Color::White));
    assert!(!captured(&p, row8, Color::Black), "Black to move wins");

    let black = root_effects(&p, Color::Black);
    for m in white_liberties {
        assert!(black.contains(&(m, Effect::Captures(13))), "{black:?}");
        assert!(black.contains(&(m, Effect::Saves(13))), "{black:?}");
    }
    let white = root_effects(&p, Color::White);
    for m in black_liberties {
        assert!(white.contains(&(m, Effect::Captures(13))), "{white:?}");
        assert!(white.contains(&(m, Effect::Saves(13))), "{white:?}");
    }
    // Filling one's own liberty loses the race.
    assert!(
        !black
            .iter()
            .any(|&(m, e)| black_liberties.contains(&m) && e != Effect::FailsToSave(13)),
        "{black:?}"
    );
}
