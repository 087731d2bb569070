//! Tactical reading: ladders.
//!
//! A goal-directed search in the seeds' manner: the attacker only ever
//! plays on one of the defender's two liberties (two candidates a ply), the
//! defender only extends on its last liberty or captures an attacking
//! string in atari. Such a search stays narrow, so it can follow a ladder
//! across the whole board (`MAX_LADDER_PLIES`).

use crate::board::{Cell, Color, Point, Position};

/// Deepest ladder followed; a longer one counts as escaped.
pub const MAX_LADDER_PLIES: usize = 160;

/// Whether the string through `target` (in atari or with two liberties)
/// dies in a ladder with `to_move` to play. Strings with more liberties
/// are never laddered.
pub fn ladder_captures(position: &Position, target: Point, to_move: Color) -> bool {
    let Some(defender) = position.cell(target).color() else {
        return false;
    };
    let mut scratch = position.clone();
    scratch.set_to_move(to_move);
    if to_move == defender {
        defender_loses(&mut scratch, target, defender, 0)
    } else {
        attacker_wins(&mut scratch, target, defender, 0)
    }
}

/// Defender to move, its string through `target` in atari: true if every
/// escape fails.
fn defender_loses(position: &mut Position, target: Point, defender: Color, ply: usize) -> bool {
    if ply >= MAX_LADDER_PLIES {
        return false;
    }
    let Some(liberty) = position.atari_liberty(target) else {
        // Not in atari (anymore): nothing to read here.
        return position.liberties_up_to(target, 2).len() < 2
            && attacker_wins(position, target, defender, ply);
    };
    // Escape by capturing an attacker in atari next to the string.
    for capture in attacker_captures(position, target, defender) {
        let mut next = position.clone();
        next.play(capture, defender);
        if !attacker_wins(&mut next, target, defender, ply + 1) {
            return false;
        }
    }
    // Escape by extending.
    if !position.is_legal_empty(liberty, defender) {
        return true;
    }
    let mut next = position.clone();
    next.play(liberty, defender);
    match next.liberties_up_to(target, 3).len() {
        0 | 1 => true,
        2 => attacker_wins(&mut next, target, defender, ply + 1),
        _ => false,
    }
}

/// Attacker to move, the defender's string through `target` with at most
/// two liberties: true if an atari on one of them leads to capture.
fn attacker_wins(position: &mut Position, target: Point, defender: Color, ply: usize) -> bool {
    if ply >= MAX_LADDER_PLIES {
        return false;
    }
    let attacker = defender.opponent();
    if let Some(liberty) = position.atari_liberty(target) {
        return position.is_legal_empty(liberty, attacker);
    }
    let liberties = position.liberties_up_to(target, 3);
    if liberties.len() != 2 {
        return false;
    }
    for atari in liberties.points() {
        if !position.is_legal_empty(atari, attacker) {
            continue;
        }
        let mut next = position.clone();
        next.play(atari, attacker);
        // An atari stone the defender can simply capture is no ladder.
        if next.in_atari(atari) && next.liberties_up_to(target, 2).len() == 1 {
            let capturable = next
                .atari_liberty(atari)
                .is_some_and(|p| next.is_legal_empty(p, defender));
            if capturable {
                continue;
            }
        }
        if defender_loses(&mut next, target, defender, ply + 1) {
            return true;
        }
    }
    false
}

/// Points where the defender captures an attacking string in atari that
/// touches the string through `target`.
fn attacker_captures(position: &Position, target: Point, defender: Color) -> Vec<Point> {
    let attacker = defender.opponent().cell();
    let mut captures = Vec::new();
    let mut s = target;
    loop {
        for n in position.geometry().neighbours(s) {
            if position.cell(n) == attacker
                && let Some(p) = position.atari_liberty(n)
                && !captures.contains(&p)
                && position.is_legal_empty(p, defender)
            {
                captures.push(p);
            }
        }
        s = position.next_in_string(s);
        if s == target {
            return captures;
        }
    }
}

/// Whether `color` extending on `p` (the liberty of its string in atari
/// next to `p`) only runs into a working ladder.
pub fn escape_is_hopeless(position: &Position, p: Point, color: Color) -> bool {
    let own = color.cell();
    let mut saves_something = false;
    for n in position.geometry().neighbours(p) {
        if position.cell(n) == own && position.atari_liberty(n) == Some(p) {
            saves_something = true;
            let mut next = position.clone();
            if !next.is_legal_empty(p, color) {
                return true;
            }
            next.play(p, color);
            if !ladder_captures(&next, p, color.opponent()) {
                return false;
            }
        }
    }
    saves_something
}

/// Every string on the board that a ladder captures with the opponent to
/// move (strings in atari or with two liberties), as one stone each.
pub fn laddered_strings(position: &Position) -> Vec<Point> {
    let mut found = Vec::new();
    let mut seen = crate::board::Bitboard::EMPTY;
    for color in [Color::Black, Color::White] {
        for p in position.stones(color).iter() {
            if seen.contains(p) {
                continue;
            }
            let stones = position.string_stones(p);
            seen = seen.or(&stones);
            let liberties = position.liberties_up_to(p, 3).len();
            if (1..=2).contains(&liberties)
                && position.cell(p) != Cell::Empty
                && ladder_captures(position, p, color.opponent())
            {
                found.push(p);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    fn at(position: &Position, col: usize, row: usize) -> Point {
        position.geometry().point(col, row).unwrap()
    }

    const LADDER: &str = ".........
                          ..O......
                          .OX......
                          ...O.....
                          .........
                          .........
                          .........
                          .........
                          .........";

    #[test]
    fn a_ladder_on_an_open_board_works() {
        let p = Position::from_text(LADDER, GameKind::Go).unwrap();
        let black = at(&p, 2, 6);
        assert!(ladder_captures(&p, black, Color::White));
        assert_eq!(laddered_strings(&p), vec![black]);
        // Black to move first simply extends and is still laddered.
        let mut after = p.clone();
        after.play(at(&p, 2, 5), Color::White);
        assert!(escape_is_hopeless(&after, at(&p, 3, 6), Color::Black));
    }

    #[test]
    fn ladder_breakers_save_the_string() {
        let mut p = Position::from_text(LADDER, GameKind::Go).unwrap();
        p.place_setup_stone(at(&p, 4, 6), Color::Black).unwrap();
        p.place_setup_stone(at(&p, 2, 4), Color::Black).unwrap();
        let black = at(&p, 2, 6);
        assert!(!ladder_captures(&p, black, Color::White));
        let mut after = p.clone();
        after.play(at(&p, 2, 5), Color::White);
        assert!(!escape_is_hopeless(&after, at(&p, 3, 6), Color::Black));
    }

    #[test]
    fn strings_with_many_liberties_are_not_laddered() {
        let p = Position::from_text(".....\n.....\n..X..\n.....\n.....", GameKind::Go).unwrap();
        assert!(!ladder_captures(&p, at(&p, 2, 2), Color::White));
        assert!(laddered_strings(&p).is_empty());
    }
}
