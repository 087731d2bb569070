//! Tactical reading: ladders.
//!
//! A goal-directed search in the seeds' manner: the attacker only ever
//! plays on one of the defender's two liberties (two candidates a ply), the
//! defender only extends on its last liberty or captures an attacking
//! string in atari. Such a search stays narrow, so it can follow a ladder
//! across the whole board (`MAX_LADDER_PLIES`).

use std::cell::RefCell;

use crate::board::{Cell, Color, FewPoints, Point, Position};

/// Deepest ladder followed; a longer one counts as escaped.
pub const MAX_LADDER_PLIES: usize = 160;

thread_local! {
    /// One position per ply of the reading, reused across reads: copying
    /// the used part of a board is far cheaper than cloning a whole one.
    static PLIES: RefCell<Vec<Position>> = const { RefCell::new(Vec::new()) };
}

/// Whether the string through `target` (in atari or with two liberties)
/// dies in a ladder with `to_move` to play. Strings with more liberties
/// are never laddered.
pub fn ladder_captures(position: &Position, target: Point, to_move: Color) -> bool {
    let Some(defender) = position.cell(target).color() else {
        return false;
    };
    PLIES.with_borrow_mut(|plies| {
        let mut reader = Reader { plies, deepest: 0 };
        reader.load(0, position);
        reader.plies[0].set_to_move(to_move);
        if to_move == defender {
            reader.defender_loses(target, defender, 0)
        } else {
            reader.attacker_wins(target, defender, 0)
        }
    })
}

/// Makes `plies[ply]` (at most one past the end) a copy of `position`,
/// reusing the board already there: the reading's plies are kept between
/// reads because copying the used part of a board is far cheaper than
/// cloning a whole one.
pub(super) fn load_ply(plies: &mut Vec<Position>, ply: usize, position: &Position) {
    if plies.len() <= ply {
        plies.push(position.clone());
    } else {
        plies[ply].copy_from(position);
    }
}

/// Makes `plies[ply + 1]` the position after `color` plays `p` on
/// `plies[ply]` (the move must be legal there).
pub(super) fn play_next_ply(plies: &mut Vec<Position>, ply: usize, p: Point, color: Color) {
    if plies.len() <= ply + 1 {
        let copy = plies[ply].clone();
        plies.push(copy);
    } else {
        let (done, rest) = plies.split_at_mut(ply + 1);
        rest[0].copy_from(&done[ply]);
    }
    plies[ply + 1].play_in_search(p, color);
}

/// A ladder read in progress: `plies[k]` is the position `k` moves in.
struct Reader<'a> {
    plies: &'a mut Vec<Position>,
    /// The deepest ply reached so far.
    deepest: usize,
}

impl Reader<'_> {
    /// Makes `plies[ply]` a copy of `position`.
    fn load(&mut self, ply: usize, position: &Position) {
        load_ply(self.plies, ply, position);
    }

    /// Makes `plies[ply + 1]` the position after `color` plays `p` at `ply`.
    fn play(&mut self, ply: usize, p: Point, color: Color) {
        play_next_ply(self.plies, ply, p, color);
        self.deepest = self.deepest.max(ply + 1);
    }

    /// Defender to move, its string through `target` in atari: true if
    /// every escape fails.
    fn defender_loses(&mut self, target: Point, defender: Color, ply: usize) -> bool {
        if ply >= MAX_LADDER_PLIES {
            return false;
        }
        let position = &self.plies[ply];
        let Some(liberty) = position.atari_liberty(target) else {
            // Not in atari (anymore): two liberties is the attacker's turn.
            return position.liberties_up_to(target, 3).len() == 2
                && self.attacker_wins(target, defender, ply);
        };
        // Escape by capturing an attacker in atari next to the string.
        for capture in attacker_captures(position, target, defender) {
            self.play(ply, capture, defender);
            if !self.attacker_wins(target, defender, ply + 1) {
                return false;
            }
        }
        // Escape by extending.
        if !self.plies[ply].is_legal_empty(liberty, defender) {
            return true;
        }
        self.play(ply, liberty, defender);
        match self.plies[ply + 1].liberties_up_to(target, 3).len() {
            0 | 1 => true,
            2 => self.attacker_wins(target, defender, ply + 1),
            _ => false,
        }
    }

    /// Attacker to move, the defender's string through `target` with at
    /// most two liberties: true if an atari on one of them leads to capture.
    fn attacker_wins(&mut self, target: Point, defender: Color, ply: usize) -> bool {
        if ply >= MAX_LADDER_PLIES {
            return false;
        }
        let attacker = defender.opponent();
        let position = &self.plies[ply];
        if let Some(liberty) = position.atari_liberty(target) {
            return position.is_legal_empty(liberty, attacker);
        }
        let liberties = position.liberties_up_to(target, 3);
        if liberties.len() != 2 {
            return false;
        }
        for atari in liberties.points() {
            if !self.plies[ply].is_legal_empty(atari, attacker) {
                continue;
            }
            // Capturing the atari stone is among the defender's escapes.
            self.play(ply, atari, attacker);
            if self.defender_loses(target, defender, ply + 1) {
                return true;
            }
        }
        false
    }
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

/// Whether `color` extending on `p` a string of its own that is short of
/// liberties (one or two, `p` among them) only runs into a working ladder:
/// the extended string is left with two liberties or fewer and the
/// opponent, to move, captures it.
pub fn escape_is_hopeless(position: &Position, p: Point, color: Color) -> bool {
    let extends_a_weak_string = position
        .geometry()
        .neighbours(p)
        .into_iter()
        .any(|n| position.cell(n) == color.cell() && position.liberties_up_to(n, 3).len() <= 2);
    if !extends_a_weak_string {
        return false;
    }
    if !position.is_legal_empty(p, color) {
        return true;
    }
    if extension_has_three_liberties(position, p, color) {
        return false;
    }
    PLIES.with_borrow_mut(|plies| {
        let mut reader = Reader { plies, deepest: 0 };
        reader.load(0, position);
        reader.play(0, p, color);
        reader.plies[1].liberties_up_to(p, 3).len() <= 2 && reader.attacker_wins(p, color, 1)
    })
}

/// Whether `color` playing the empty point `p` surely leaves the string it
/// forms three liberties or more, counted without playing the move (the
/// common case, which needs no reading). Captures count as one liberty
/// each, as in `Position::is_self_atari`.
fn extension_has_three_liberties(position: &Position, p: Point, color: Color) -> bool {
    let mut liberties = FewPoints::with_limit(3);
    for n in position.geometry().neighbours(p) {
        match position.cell(n) {
            Cell::Empty => {
                if !liberties.insert(n.0) {
                    return true;
                }
            }
            Cell::Border => {}
            cell if cell == color.cell() => {
                for liberty in position.liberties_up_to(n, 4).points() {
                    if liberty != p && !liberties.insert(liberty.0) {
                        return true;
                    }
                }
            }
            _ => {
                if position.in_atari(n) && !liberties.insert(n.0) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether `attacker` playing `p` puts the string through `target` in
/// atari and then captures it in a ladder.
pub fn atari_starts_ladder(position: &Position, p: Point, attacker: Color, target: Point) -> bool {
    let defender = attacker.opponent();
    if position.cell(target) != defender.cell() || !position.is_legal_empty(p, attacker) {
        return false;
    }
    PLIES.with_borrow_mut(|plies| {
        let mut reader = Reader { plies, deepest: 0 };
        reader.load(0, position);
        reader.play(0, p, attacker);
        reader.plies[1].atari_liberty(target).is_some()
            && reader.defender_loses(target, defender, 1)
    })
}

/// Plies a failed ladder must run past the first extension before chasing
/// it counts as a blunder: a short chase is often a forcing move, a long
/// one leaves a row of cutting points.
const LONG_CHASE_PLIES: usize = 6;

/// Whether `attacker` playing `p` ataris the string through `target` only
/// to chase a long ladder that fails: the defender extends to exactly two
/// liberties, is not captured, and the reading of the ladder runs at least
/// `LONG_CHASE_PLIES` further.
pub fn atari_chases_broken_ladder(
    position: &Position,
    p: Point,
    attacker: Color,
    target: Point,
) -> bool {
    let defender = attacker.opponent();
    if position.cell(target) != defender.cell() || !position.is_legal_empty(p, attacker) {
        return false;
    }
    PLIES.with_borrow_mut(|plies| {
        let mut reader = Reader { plies, deepest: 0 };
        reader.load(0, position);
        reader.play(0, p, attacker);
        let Some(liberty) = reader.plies[1].atari_liberty(target) else {
            return false;
        };
        if !reader.plies[1].is_legal_empty(liberty, defender) {
            return false;
        }
        reader.play(1, liberty, defender);
        reader.plies[2].liberties_up_to(target, 3).len() == 2
            && !reader.attacker_wins(target, defender, 2)
            && reader.deepest >= 2 + LONG_CHASE_PLIES
    })
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
    fn extending_a_laddered_two_liberty_string_is_hopeless() {
        // Black C7 has two liberties (D7, C6). Extending to D7 keeps two
        // (E7 is White): White ladders the pair either way.
        let p = Position::from_text(
            ".........
             ..O......
             .OX.O....
             ...O.....
             .........
             .........
             .........
             .........
             .........",
            GameKind::Go,
        )
        .unwrap();
        let black = at(&p, 2, 6);
        assert_eq!(p.liberties_up_to(black, 3).len(), 2);
        assert!(escape_is_hopeless(&p, at(&p, 3, 6), Color::Black));
        // With a friend at D8, D7 connects out.
        let mut q = p.clone();
        q.place_setup_stone(at(&q, 3, 7), Color::Black).unwrap();
        assert!(!escape_is_hopeless(&q, at(&q, 3, 6), Color::Black));
    }

    /// The ladder shape in the lower left of a 13x13 board: a White atari
    /// on C2 runs up to the upper right.
    const LONG_LADDER: &str = ".............
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
                               .............";

    #[test]
    fn only_long_broken_ladders_count_as_chases() {
        let mut p = Position::from_text(LONG_LADDER, GameKind::Go).unwrap();
        let (c2, black) = (at(&p, 2, 1), at(&p, 2, 2));
        assert!(atari_starts_ladder(&p, c2, Color::White, black));
        assert!(!atari_chases_broken_ladder(&p, c2, Color::White, black));
        // Black K10 breaks the ladder far away: White only chases.
        let mut far = p.clone();
        far.place_setup_stone(at(&far, 9, 9), Color::Black).unwrap();
        assert!(!atari_starts_ladder(&far, c2, Color::White, black));
        assert!(atari_chases_broken_ladder(&far, c2, Color::White, black));
        // A breaker right in front makes the atari a short, harmless push.
        p.place_setup_stone(at(&p, 4, 3), Color::Black).unwrap();
        assert!(!atari_starts_ladder(&p, c2, Color::White, black));
        assert!(!atari_chases_broken_ladder(&p, c2, Color::White, black));
    }

    #[test]
    fn strings_with_many_liberties_are_not_laddered() {
        let p = Position::from_text(".....\n.....\n..X..\n.....\n.....", GameKind::Go).unwrap();
        assert!(!ladder_captures(&p, at(&p, 2, 2), Color::White));
        assert!(laddered_strings(&p).is_empty());
    }
}
