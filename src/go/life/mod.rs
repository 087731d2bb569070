//! Life and death without playouts: which strings live or die on the board
//! as it stands.
//!
//! - `benson`: unconditional life (Benson's algorithm): strings that cannot
//!   be captured even if their owner passes, and the small regions they
//!   enclose, where the opponent's stones are dead.
//! - `enclosed`: a bounded kill search for stones inside a small region
//!   the opponent encloses alone, and the move that decides such a region.
//! - `eyes`: small eye spaces and their vital points.

pub mod benson;
pub mod enclosed;
pub mod eyes;

pub use benson::{PassAlive, pass_alive};
pub use enclosed::{dies_enclosed, enclosing_region};

use crate::board::{Bitboard, Color, Point, Position};

/// Nodes the count's kill search may spend on one region: a count reads
/// each region once, and a read that runs out sends the count to a
/// play-out of the game (seconds). White B6 B7 in Black's three columns
/// (regress life_end_9x9_columns) are proven dead with 15,000, not with
/// 10,000.
pub const COUNT_READ_NODES: u32 = 40_000;

/// The fewest points a region of a string's own needs to make it live
/// whatever the opponent plays there: the largest eye spaces that die
/// (the flower and rabbity sixes) have six, and one more keeps a margin
/// for a shape the walls' cutting points spoil.
pub const MIN_LIVING_REGION: u32 = 8;

/// What the static analysis says of a string, where it says anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticStatus {
    Alive,
    Dead,
}

/// Static life and death over one position: Benson for both colours at
/// once, then a kill search per small enclosed region, each read once.
pub struct StaticJudge<'a> {
    position: &'a Position,
    /// Unconditionally alive stones, by colour index.
    settled: [Bitboard; 2],
    /// Where a colour's stones are dead: the opponent's vital regions.
    enclosed: [Bitboard; 2],
    /// Regions read so far, with the invader's colour and whether it dies
    /// there (a nakade's region holds the killer's inner stones too).
    read: Vec<(Bitboard, Color, bool)>,
}

impl<'a> StaticJudge<'a> {
    /// Runs Benson's algorithm for both colours.
    pub fn new(position: &'a Position) -> StaticJudge<'a> {
        let [black, white] = [Color::Black, Color::White].map(|c| pass_alive(position, c));
        StaticJudge {
            position,
            settled: [black.stones, white.stones],
            enclosed: [white.vital_regions, black.vital_regions],
            read: Vec::new(),
        }
    }

    /// Whether the string of `color` through `p` is alive unconditionally.
    pub fn unconditionally_alive(&self, p: Point, color: Color) -> bool {
        self.settled[color.index()].contains(p)
    }

    /// Whether the string of `color` through `p` is alive or dead
    /// unconditionally (Benson), known without reading.
    pub fn unconditionally_settled(&self, p: Point, color: Color) -> bool {
        self.settled[color.index()].contains(p) || self.enclosed[color.index()].contains(p)
    }

    /// The status of the string of `color` through `p`: alive or dead
    /// unconditionally, else dead if it sits in a small region of the
    /// opponent whose walls are safe and the kill search proves it; `None`
    /// where nothing is proven. `string_safe` judges each wall string (its
    /// stones and owner) the static analysis cannot (say, by the
    /// playouts' ownership).
    pub fn status(
        &mut self,
        p: Point,
        color: Color,
        string_safe: impl Fn(&Bitboard, Color) -> bool,
    ) -> Option<StaticStatus> {
        if self.settled[color.index()].contains(p) {
            return Some(StaticStatus::Alive);
        }
        if self.enclosed[color.index()].contains(p) {
            return Some(StaticStatus::Dead);
        }
        let position = self.position;
        let known = self
            .read
            .iter()
            .find(|(region, invader, _)| *invader == color && region.contains(p));
        let dies = match known {
            Some(&(_, _, dies)) => dies,
            None => {
                let region = enclosing_region(position, p, color);
                let dies = self.walls_safe(&region, color.opponent(), string_safe)
                    && dies_enclosed(position, &region, color, COUNT_READ_NODES);
                self.read.push((region, color, dies));
                dies
            }
        };
        dies.then_some(StaticStatus::Dead)
    }

    /// Whether the string of `color` through `p` lives by a region of its
    /// own: it borders at least [`MIN_LIVING_REGION`] points without
    /// `color`'s stones that only `color`'s stones and the edge enclose,
    /// whose walls are safe (see [`StaticJudge::status`] for
    /// `string_safe`) and where every opponent string is proven dead. No
    /// eye space that large can be killed once the opponent's stones in it
    /// are taken: the opponent would have to live inside to reduce it.
    pub fn lives_by_region(
        &mut self,
        p: Point,
        color: Color,
        string_safe: impl Fn(&Bitboard, Color) -> bool,
    ) -> bool {
        let position = self.position;
        let geometry = position.geometry();
        let board = position.board_mask();
        let others = board.and_not(&position.stones(color));
        let stones = position.string_stones(p);
        let mut unseen = stones.dilate(geometry, board).and(&others);
        while let Some(q) = unseen.first() {
            let mut seed = Bitboard::EMPTY;
            seed.set(q);
            let region = seed.flood(&others, geometry, board);
            unseen = unseen.and_not(&region);
            if region.count() >= MIN_LIVING_REGION
                && self.walls_safe(&region, color, &string_safe)
                && self.opponent_dead_in(&region, color, &string_safe)
            {
                return true;
            }
        }
        false
    }

    /// Whether every string of `color`'s opponent in `region` is proven
    /// dead.
    fn opponent_dead_in(
        &mut self,
        region: &Bitboard,
        color: Color,
        string_safe: &impl Fn(&Bitboard, Color) -> bool,
    ) -> bool {
        let opponent = color.opponent();
        let mut unjudged = region.and(&self.position.stones(opponent));
        while let Some(q) = unjudged.first() {
            unjudged = unjudged.and_not(&self.position.string_stones(q));
            if self.status(q, opponent, string_safe) != Some(StaticStatus::Dead) {
                return false;
            }
        }
        true
    }

    /// Whether every `owner` string around `region` may be taken as safe
    /// while the reader looks inside: unconditionally alive, or judged
    /// safe by `string_safe` and not open to an atari from outside (the
    /// reader plays only inside, so one liberty outside is a way in it
    /// would not see).
    fn walls_safe(
        &self,
        region: &Bitboard,
        owner: Color,
        string_safe: impl Fn(&Bitboard, Color) -> bool,
    ) -> bool {
        let position = self.position;
        let geometry = position.geometry();
        let mut walls = region
            .dilate(geometry, position.board_mask())
            .and_not(region)
            .and(&position.stones(owner));
        while let Some(q) = walls.first() {
            let stones = position.string_stones(q);
            walls = walls.and_not(&stones);
            if self.settled[owner.index()].contains(q) {
                continue;
            }
            let outside_liberties = position.string_liberties(q).and_not(region).count();
            if outside_liberties == 1 || !string_safe(&stones, owner) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    /// White's bulky five (B1 C1 D1 B2 C2) with three Black stones inside,
    /// under a safe Black wall: White to move cannot make two eyes.
    pub(super) const BULKY_NAKADE: &str = ".........
                                           .........
                                           .........
                                           OOOOOOOOO
                                           XXXXXXXXX
                                           XXXXX....
                                           OOOOXX...
                                           OXXOOX...
                                           O.X.OX...";

    #[test]
    fn a_nakade_kills_the_group_around_it_not_the_stones_inside() {
        let position = Position::from_text(BULKY_NAKADE, GameKind::Go).expect("a board");
        let at = |col, row| position.geometry().point_unchecked(col, row);
        let mut judge = StaticJudge::new(&position);
        let dead = judge.status(at(0, 0), Color::White, |_, _| true);
        assert_eq!(dead, Some(StaticStatus::Dead));
        // The White group is no safe wall for the Black stones inside, and
        // what was read for White's region says nothing of them.
        let inside = judge.status(at(2, 0), Color::Black, |_, _| false);
        assert_eq!(inside, None);
    }

    /// Black's band (rows 4 and 5) encloses the four rows below it, where
    /// White B3 and the pair G2 G3 die; White's band lives by its top rows.
    const BANDS: &str = ".........
                         ...XX....
                         .......O.
                         OOOOOOOOO
                         XXXXXXXXX
                         .........
                         .O....O..
                         ....X.O..
                         .........";

    #[test]
    fn a_wall_lives_by_a_wide_region_where_every_invader_dies() {
        let position = Position::from_text(BANDS, GameKind::Go).expect("a board");
        let at = |col, row| position.geometry().point_unchecked(col, row);
        let mut judge = StaticJudge::new(&position);
        assert!(judge.lives_by_region(at(0, 4), Color::Black, |_, _| true));
        // A Black stone inside the region lives by it too.
        assert!(judge.lives_by_region(at(4, 1), Color::Black, |_, _| true));
        assert!(judge.lives_by_region(at(0, 5), Color::White, |_, _| true));
        // Not where a wall may be lost.
        let mut judge = StaticJudge::new(&position);
        assert!(!judge.lives_by_region(at(0, 4), Color::Black, |_, _| false));
    }

    #[test]
    fn a_region_with_a_living_invader_or_too_few_points_gives_no_life() {
        // White's bottom-left group has two eyes in the area below
        // Black's band, and Black's top-right stones enclose four points.
        let board = "......X..
                     ......X..
                     ......XXX
                     OOOOOOOOO
                     XXXXXXXXX
                     OOOOO....
                     O.O.O....
                     OOOOO....
                     .........";
        let position = Position::from_text(board, GameKind::Go).expect("a board");
        let at = |col, row| position.geometry().point_unchecked(col, row);
        let mut judge = StaticJudge::new(&position);
        assert!(!judge.lives_by_region(at(0, 4), Color::Black, |_, _| true));
        assert!(!judge.lives_by_region(at(6, 7), Color::Black, |_, _| true));
    }
}
