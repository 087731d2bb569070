//! The end of a game played out, for the strings the first judgement is
//! unsure of.
//!
//! `scoring` judges each string by static analysis (Benson, the life
//! reader) and the ownership playouts. Where neither is sure (no static
//! proof, and the playouts give the string's points to both sides, see
//! `UNSURE_OWNERSHIP`), its fate hangs on a fight the playouts play
//! badly: a semeai, a group with one eye against outside liberties, a ko.
//! For those, the commands that count a finished game (final_status_list,
//! final_score, GoGui's result and `kosumi-life`) play the game on from
//! its position, as GNU Go's aftermath does: both sides search each move
//! and follow kgs-genmove_cleanup's rules (no pass while the opponent has
//! stones judged dead), until two passes, and counts the end by area,
//! every stone alive; a play-out stops sooner once most of every unsure
//! string's points are held for good (Benson) by one side. The game is
//! played out twice, once with each side moving first, since who moves
//! next after the passes is an accident, and a single play-out of short
//! searches sometimes blunders: an unsure string whose points end mostly
//! in the opponent's area both times is dead, one whose points end in its own both times lives (in seki where
//! the playouts left its points to neither side), and where the two
//! differ the first judgement stands. A string of a seki's shape (see
//! `scoring`) is not played out.
//! Moves during a game (passing, cleanup) keep the first judgement: they
//! must not cost seconds.

use std::sync::PoisonError;
use std::sync::atomic::Ordering::Relaxed;

use super::scoring::{JudgedString, StringStatus, StringStatuses, dead_in, outcome_without};
use super::{Player, board_copy};
use crate::board::{Bitboard, Color, Game, GameKind, Move, Outcome, Point, Position};
use crate::go::life::pass_alive;
use crate::search::{SearchLimits, SearchReport, Searcher};

/// Playouts of each move's search when the game is played out: at 2,000
/// the finished test games agree with GNU Go's dead stones more often than
/// at 1,000, at up to half a minute for the worst 19x19 board on one
/// thread (docs/tuning.md, "Aftermath").
pub const DEFAULT_AFTERMATH_PLAYOUTS: u32 = 2000;

/// Moves (passes included) played out at most, per point of the board:
/// a finished game needs far fewer (at most 0.6 a point in the finished
/// test games), but one side may pass while the other fills its area
/// (two moves a point), as on the composed boards of the suites.
const MOVES_PER_POINT: usize = 2;

impl Player {
    /// Every string with its status as the game would be counted: the
    /// first judgement, with the strings it is unsure of decided by
    /// playing the game out (unless `aftermath_playouts` is 0, or the
    /// play-out is interrupted or does not end).
    ///
    /// The last answer is kept: a controller asks final_score and
    /// final_status_list of the same position one after the other.
    pub fn final_statuses(&self, game: &Game) -> StringStatuses {
        let key = CountKey::new(self, game);
        let mut kept = self.counted.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((kept_key, statuses)) = kept.as_ref()
            && *kept_key == key
        {
            return statuses.clone();
        }
        let statuses = self.count_statuses(game);
        // An interrupted count is not kept: it did not play out.
        if !self.interrupted.load(Relaxed) {
            *kept = Some((key, statuses.clone()));
        }
        statuses
    }

    /// [`Player::final_statuses`], worked out afresh.
    fn count_statuses(&self, game: &Game) -> StringStatuses {
        let judged = self.judge_strings(game);
        let unsure = judged.iter().filter(|string| !string.sure).count();
        let ends = match (game.kind(), unsure) {
            (GameKind::Go, 1..) => {
                let started = std::time::Instant::now();
                let ends = self
                    .play_out(game, game.to_move(), &judged)
                    .zip(self.play_out(game, game.to_move().opponent(), &judged));
                log::info!(
                    "count: {unsure} unsure strings {} in {:.1} s",
                    if ends.is_some() {
                        "played out"
                    } else {
                        "not played out"
                    },
                    started.elapsed().as_secs_f64()
                );
                ends
            }
            _ => None,
        };
        judged
            .into_iter()
            .enumerate()
            .map(|(i, string)| {
                let taken = ends.as_ref().map(|(one, other)| (one[i], other[i]));
                let status = decided_status(&string, taken);
                (string.points, status)
            })
            .collect()
    }

    /// The stones judged dead as the game would be counted (see
    /// [`Player::final_statuses`]).
    pub fn final_dead_stones(&self, game: &Game) -> Bitboard {
        dead_in(&self.final_statuses(game), game.position(), None)
    }

    /// The Go game's result as it would be counted: by area, with the
    /// dead stones of [`Player::final_statuses`] removed.
    pub fn final_outcome(&self, game: &Game) -> Outcome {
        outcome_without(game, &self.final_dead_stones(game))
    }

    /// Plays the game on from its position, `first` to move, until two
    /// passes or until every string of `judged` the first judgement is
    /// unsure of is decided (see [`settle_early`]), each move searched with
    /// `aftermath_playouts` playouts (no more than the fixed playouts a
    /// move where those are set; see [`Player::play_out_move`]). Returns
    /// for each string whether the opponent took it: decided early, or
    /// else whether most of its points ended in the opponent's area (every
    /// stone counted alive); `None` when the setting is 0, or when the
    /// play-out was interrupted or did not end within its moves.
    fn play_out(&self, game: &Game, first: Color, judged: &[JudgedString]) -> Option<Vec<bool>> {
        let playouts = self.play_out_playouts();
        if playouts == 0 {
            return None;
        }
        let mut scratch = board_copy(game, first);
        // A searcher of its own: counting must not disturb the tree kept
        // for the next genmove, and a fresh one answers the same board the
        // same way whatever came before.
        let mut searcher = Searcher::new(self.params.clone()).quiet();
        let mut early: Vec<Option<bool>> = vec![None; judged.len()];
        let mut pending: Vec<usize> = (0..judged.len()).filter(|&i| !judged[i].sure).collect();
        let mut passes = 0;
        let max_moves = MOVES_PER_POINT * game.geometry().area();
        for _ in 0..max_moves {
            if passes == 2 {
                break;
            }
            let color = scratch.to_move();
            let limits = SearchLimits {
                playouts: Some(u64::from(playouts)),
                time: None,
                dynamic_komi: true,
                stop_when_decided: true,
                may_pass: true,
            };
            let report = searcher.search(&scratch, &limits, &self.interrupted, None, &mut |_| {});
            if self.interrupted.load(Relaxed) {
                return None;
            }
            let mv = self.play_out_move(&scratch, color, &report);
            scratch.play(color, mv).ok()?;
            passes = if mv == Move::Pass { passes + 1 } else { 0 };
            settle_early(scratch.position(), judged, &mut early, &mut pending);
            if pending.is_empty() {
                break;
            }
        }
        if !pending.is_empty() && passes < 2 {
            return None;
        }
        let areas = scratch.position().areas_with_dead(&Bitboard::EMPTY);
        Some(
            judged
                .iter()
                .zip(early)
                .map(|(string, fate)| fate.unwrap_or_else(|| taken_in(string, &areas)))
                .collect(),
        )
    }
}

/// Decides the `pending` strings of `judged` (by index) whose fate the
/// play-out has settled in `position`, removing them from `pending`: a
/// string most of whose points the opponent holds for good (stones alive
/// unconditionally, or the regions they enclose; Benson) is taken, one
/// most of whose points its own side holds for good is not. Such points
/// stay where they are however the play-out goes on, so the count at its
/// end would say the same. (A string merely captured is not decided: its
/// owner may win the points back.)
fn settle_early(
    position: &Position,
    judged: &[JudgedString],
    early: &mut [Option<bool>],
    pending: &mut Vec<usize>,
) {
    let held = [Color::Black, Color::White].map(|c| {
        let alive = pass_alive(position, c);
        alive.stones.or(&alive.vital_regions)
    });
    pending.retain(|&i| {
        let string = &judged[i];
        let fate = if mostly_in(string, &held[string.color.opponent().index()]) {
            Some(true)
        } else if mostly_in(string, &held[string.color.index()]) {
            Some(false)
        } else {
            None
        };
        early[i] = fate;
        fate.is_none()
    });
}

impl Player {
    /// Playouts of each play-out move: `aftermath_playouts`, but an engine
    /// held to fixed playouts a move (regress runs, matches) plays the
    /// game out no deeper than it plays its own moves.
    fn play_out_playouts(&self) -> u32 {
        let setting = self.settings.aftermath_playouts;
        match self.settings.fixed_playouts {
            Some(fixed) => setting.min(fixed.try_into().unwrap_or(u32::MAX)),
            None => setting,
        }
    }
}

/// What a count of statuses depends on besides the engine's code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountKey {
    game: GameKind,
    board: u64,
    komi: f32,
    seed: u64,
    ownership_playouts: u32,
    aftermath_playouts: u32,
}

impl CountKey {
    fn new(player: &Player, game: &Game) -> CountKey {
        CountKey {
            game: game.kind(),
            board: game.position().hash_with_side(),
            komi: game.komi(),
            seed: player.params.seed,
            ownership_playouts: player.settings.ownership_playouts,
            aftermath_playouts: player.play_out_playouts(),
        }
    }
}

impl Player {
    /// The move of a play-out: the search's most visited legal move, a
    /// pass included (unlike genmove, the side behind may pass: made to
    /// move, it fills the last shared liberty of a seki). A pass is
    /// replaced by a move on a liberty of the opponent's stones judged
    /// dead (the searched ones first) where our stone would not stand in
    /// atari: nobody plays into atari to capture, which would again break
    /// a seki. (Choosing by mean margin instead of visits agreed with GNU
    /// Go less often, docs/tuning.md.)
    fn play_out_move(&self, game: &Game, color: Color, report: &SearchReport) -> Move {
        let legal = |mv: Move| game.check_move(color, mv).is_ok();
        let candidates = &report.candidates;
        let best = candidates
            .iter()
            .find(|c| legal(c.mv))
            .map_or(Move::Pass, |c| c.mv);
        if best != Move::Pass {
            return best;
        }
        let position = game.position();
        let mut targets = Bitboard::EMPTY;
        for p in self.dead_stones(game, Some(color.opponent())).iter() {
            targets = targets.or(&position.string_liberties(p));
        }
        let safe = |p: Point| {
            targets.contains(p) && legal(Move::Play(p)) && !position.is_self_atari(p, color)
        };
        let searched = candidates.iter().filter_map(|c| match c.mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        });
        searched
            .chain(targets.iter())
            .find(|&p| safe(p))
            .map_or(Move::Pass, Move::Play)
    }
}

/// Whether most of `string`'s points lie in `area`.
fn mostly_in(string: &JudgedString, area: &Bitboard) -> bool {
    2 * string.points.iter().filter(|&&p| area.contains(p)).count() > string.points.len()
}

/// Whether most of `string`'s points lie in the opponent's area, given
/// each side's area (Black's, White's).
fn taken_in(string: &JudgedString, areas: &[Bitboard; 2]) -> bool {
    mostly_in(string, &areas[string.color.opponent().index()])
}

/// The status of `string` once the two play-outs decided whether the
/// opponent took it (`None`: not played out, the first judgement stands).
fn decided_status(string: &JudgedString, taken: Option<(bool, bool)>) -> StringStatus {
    let Some(taken) = taken.filter(|_| !string.sure) else {
        return string.status;
    };
    match taken {
        (true, true) => StringStatus::Dead,
        (false, false) if string.status == StringStatus::Seki => StringStatus::Seki,
        (false, false) => StringStatus::Alive,
        _ => string.status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use crate::player::Settings;
    use crate::player::clock::Clock;
    use crate::record::game::{LoadSettings, game_from_sgf};
    use crate::search::SearchParams;

    /// A finished 9x9 game (Kosumi against GNU Go, tests/data/finished):
    /// White's stones E1 F1 F2 F3 G3 and H1 H2 on the first line cannot
    /// make two eyes inside Black's wall, but the ownership playouts give
    /// them to Black only about 63% of the time.
    const ONE_EYED_GROUP: &str = include_str!("../../tests/data/finished/9x9-s049-g2.sgf");

    #[test]
    fn settled_boards_are_judged_sure_without_a_play_out() {
        // Dead stones the playouts are unsure of are proven by reading,
        // and walls the playouts are unsure of live by their areas.
        let boards = [
            include_str!("../../regress/sgf/life_end_9x9_nakade.sgf"),
            include_str!("../../regress/sgf/life_end_9x9_bands.sgf"),
            include_str!("../../regress/sgf/life_end_9x9_columns.sgf"),
            include_str!("../../regress/sgf/life_end_19x19_bands.sgf"),
        ];
        let player = player(2000);
        for sgf in boards {
            let game = load(sgf);
            let judged = player.judge_strings(&game);
            let unsure: Vec<&Vec<Point>> = judged
                .iter()
                .filter(|string| !string.sure)
                .map(|string| &string.points)
                .collect();
            assert!(unsure.is_empty(), "unsure strings {unsure:?}");
        }
    }

    fn player(aftermath_playouts: u32) -> Player {
        let params = SearchParams {
            seed: 1,
            threads: 1,
            ..SearchParams::default()
        };
        let settings = Settings {
            fixed_playouts: None,
            ownership_playouts: crate::player::scoring::DEFAULT_OWNERSHIP_PLAYOUTS,
            aftermath_playouts,
            ponder: false,
            opening_book: false,
            rules: "chinese".to_string(),
        };
        Player::new(params, Clock::new(), settings)
    }

    fn load(sgf: &str) -> Game {
        let settings = LoadSettings {
            kind: GameKind::Go,
            default_komi: 7.5,
            parse_komi: |text| text.parse().ok(),
            move_number: None,
        };
        game_from_sgf(sgf, &settings).unwrap()
    }

    fn vertices(game: &Game, stones: &Bitboard) -> Vec<String> {
        let g = game.geometry();
        let mut names: Vec<String> = stones
            .iter()
            .filter_map(|p| g.coords(p))
            .map(|(col, row)| {
                let letter = b"ABCDEFGHJKLMNOPQRST"[col] as char;
                format!("{letter}{}", row + 1)
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_group_the_playouts_are_unsure_of_is_decided_by_playing_the_game_out() {
        let game = load(ONE_EYED_GROUP);
        let first = player(0);
        assert!(first.dead_stones(&game, None).is_empty());
        assert!(first.final_dead_stones(&game).is_empty());
        let played = player(DEFAULT_AFTERMATH_PLAYOUTS);
        let dead = played.final_dead_stones(&game);
        assert_eq!(
            vertices(&game, &dead),
            ["E1", "F1", "F2", "F3", "G3", "H1", "H2"]
        );
        // The in-game judgement stays the first one: it must not cost seconds.
        assert!(played.dead_stones(&game, None).is_empty());
        assert_eq!(
            played.final_outcome(&game),
            game.area_score_with_dead(&dead).outcome(game.komi())
        );
    }

    #[test]
    fn an_interrupted_count_keeps_the_first_judgement_and_is_not_kept() {
        let game = load(ONE_EYED_GROUP);
        let played = player(DEFAULT_AFTERMATH_PLAYOUTS);
        // As `# interrupt` or gogui-interrupt would during the play-out:
        // the first search stops at once and the first judgement stands.
        played.interrupted().store(true, Relaxed);
        assert!(played.final_dead_stones(&game).is_empty());
        assert!(played.counted.lock().unwrap().is_none());
        played.interrupted().store(false, Relaxed);
        assert_eq!(played.final_dead_stones(&game).count(), 7);
    }

    #[test]
    fn the_count_of_a_position_is_kept_until_the_position_changes() {
        let mut game = load(ONE_EYED_GROUP);
        let played = player(DEFAULT_AFTERMATH_PLAYOUTS);
        let counted = played.final_statuses(&game);
        assert_eq!(played.final_statuses(&game), counted);
        let key = |player: &Player| player.counted.lock().unwrap().as_ref().map(|kept| kept.0);
        assert_eq!(key(&played), Some(CountKey::new(&played, &game)));
        let a1 = game.geometry().point(0, 0).unwrap();
        game.play(game.to_move(), Move::Play(a1)).unwrap();
        assert_ne!(key(&played), Some(CountKey::new(&played, &game)));
    }

    #[test]
    fn a_play_out_settles_a_string_once_one_side_holds_most_of_it_for_good() {
        let position = Position::from_text(
            ". X . X O . .
             X X X X O . .
             O O O O O . .
             . . . . . . .
             . . X . . . .
             . . . . . . .
             . . . . . . .",
            GameKind::Go,
        )
        .unwrap();
        let g = position.geometry();
        let at = |col, row| g.point(col, row).unwrap();
        let black = |points: Vec<Point>| JudgedString {
            points,
            color: Color::Black,
            status: StringStatus::Alive,
            sure: false,
        };
        let judged = [
            // Two eyes in the corner: alive unconditionally, not taken.
            black(vec![
                at(1, 6),
                at(3, 6),
                at(0, 5),
                at(1, 5),
                at(2, 5),
                at(3, 5),
            ]),
            // A lone stone in the open: still to be decided.
            black(vec![at(2, 2)]),
            // A White string whose stones were captured, on points Black
            // holds for good (an eye of the living corner): taken.
            JudgedString {
                points: vec![at(0, 6)],
                color: Color::White,
                status: StringStatus::Alive,
                sure: false,
            },
            // A captured string on open points: its owner may win them back.
            black(vec![at(5, 1)]),
        ];
        let mut early = vec![None; judged.len()];
        let mut pending = vec![0, 1, 2, 3];
        settle_early(&position, &judged, &mut early, &mut pending);
        assert_eq!(early, [Some(false), None, Some(true), None]);
        assert_eq!(pending, [1, 3]);
    }

    #[test]
    fn play_outs_change_only_unsure_strings_and_only_when_both_agree() {
        let g = Geometry::square(5).unwrap();
        let points: Vec<Point> = (1..4).map(|row| g.point(1, row).unwrap()).collect();
        let string = |status, sure| JudgedString {
            points: points.clone(),
            color: Color::Black,
            status,
            sure,
        };
        // Each side's area at the end of a play-out: White's holds two of
        // the string's three points (taken), one (not taken), or none.
        let ends_with_white_on = |count: usize| {
            let mut white = Bitboard::EMPTY;
            points.iter().take(count).for_each(|&p| white.set(p));
            let mut black = Bitboard::EMPTY;
            points.iter().skip(count).for_each(|&p| black.set(p));
            [black, white]
        };
        let (taken, partly, kept) = (
            ends_with_white_on(2),
            ends_with_white_on(1),
            ends_with_white_on(0),
        );
        let decide = |string: &JudgedString, one: &[Bitboard; 2], other: &[Bitboard; 2]| {
            decided_status(
                string,
                Some((taken_in(string, one), taken_in(string, other))),
            )
        };
        let unsure_alive = string(StringStatus::Alive, false);
        assert_eq!(decide(&unsure_alive, &taken, &taken), StringStatus::Dead);
        assert_eq!(decide(&unsure_alive, &taken, &kept), StringStatus::Alive);
        let unsure_dead = string(StringStatus::Dead, false);
        assert_eq!(decide(&unsure_dead, &partly, &kept), StringStatus::Alive);
        assert_eq!(decide(&unsure_dead, &kept, &taken), StringStatus::Dead);
        let unsure_seki = string(StringStatus::Seki, false);
        assert_eq!(decide(&unsure_seki, &kept, &partly), StringStatus::Seki);
        assert_eq!(decide(&unsure_seki, &taken, &taken), StringStatus::Dead);
        let sure_alive = string(StringStatus::Alive, true);
        assert_eq!(decide(&sure_alive, &taken, &taken), StringStatus::Alive);
        assert_eq!(decided_status(&unsure_dead, None), StringStatus::Dead);
    }
}
