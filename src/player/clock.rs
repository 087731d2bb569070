//! Turning GTP clocks into a thinking time per move.
//!
//! The GTP layer records the time system (time_settings,
//! kgs-time_settings) and the clock reports (time_left); the search asks
//! [`Clock::budget`] before each move. Without a time system the engine
//! uses [`DEFAULT_MOVE_TIME`]: a user must never face an engine that thinks
//! forever.

use std::time::Duration;

use crate::board::Color;

/// Thinking time per move when no clock was given.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// Time kept back for process and network lag (`--lag`): from every
/// overtime period, and once from main time. KGS needs about a second: a
/// reply that leaves less loses periods there.
pub const DEFAULT_LAG: Duration = Duration::from_millis(1000);

/// An overtime period keeps back at most this fraction of itself (one part
/// in this many) for lag: a period of a second or so is a local match,
/// where replies lose milliseconds, not a second.
pub const SHORT_PERIOD_LAG_PARTS: u32 = 5;

/// Under sudden death, this fraction of the main time (one part in this
/// many) is kept for a Go game that runs long and for the engine's
/// overhead outside the search: it is spent only slowly, a small share a
/// move.
pub const SUDDEN_DEATH_RESERVE_PARTS: u32 = 8;

/// The same for a NoGo game, which cannot run long (it ends when the legal
/// moves run out, and they are counted): only the overhead. Measurements:
/// docs/tuning.md ("NoGo time split").
pub const NOGO_SUDDEN_DEATH_RESERVE_PARTS: u32 = 32;

/// The moves a player still expects to play, and the share of its main
/// time kept back under sudden death for a game that runs past them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovesLeft {
    pub expected: u32,
    /// One part in this many of the main time is the reserve.
    reserve_parts: u32,
}

/// Once in the reserve, a move spends one part in this many of the time
/// left for each move it still expects to play.
const RESERVE_SPREAD: u32 = 4;

/// Shortest budget ever handed out.
pub const MIN_MOVE_TIME: Duration = Duration::from_millis(20);

/// How the game is timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    Unlimited,
    /// Main time only (sudden death).
    Absolute { main: Duration },
    /// Main time, then `periods` periods of `period` each (Japanese).
    ByoYomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Main time, then `stones` moves in each `period` (Canadian; GTP's time_settings).
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
}

impl TimeSystem {
    /// What a move's thinking time is cut from: main time, the overtime
    /// period, and the stones one period covers (1 in byo-yomi, where each
    /// move has a period of its own; 0 under sudden death). `None` without
    /// a limit.
    fn move_phases(self) -> Option<(Duration, Duration, u32)> {
        match self {
            TimeSystem::Unlimited => None,
            TimeSystem::Absolute { main } => Some((main, Duration::ZERO, 0)),
            TimeSystem::ByoYomi { main, period, .. } => Some((main, period, 1)),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => Some((main, period, stones)),
        }
    }
}

/// One player's clock as last reported.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlayerClock {
    /// Time left in the current phase.
    left: Duration,
    /// 0 in main time; in overtime, stones to play in `left` (Canadian) or
    /// periods left (byo-yomi).
    overtime_count: u32,
}

/// The game clock as the controller describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: Option<TimeSystem>,
    players: [Option<PlayerClock>; 2],
    /// Kept back for lag (see [`DEFAULT_LAG`]).
    lag: Duration,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new()
    }
}

impl Clock {
    /// No time system given yet.
    pub fn new() -> Clock {
        Clock {
            system: None,
            players: [None, None],
            lag: DEFAULT_LAG,
        }
    }

    /// Time kept back for lag.
    pub fn lag(&self) -> Duration {
        self.lag
    }

    /// Sets the time kept back for lag (`--lag`, `kosumi-param lag`).
    pub fn set_lag(&mut self, lag: Duration) {
        self.lag = lag;
    }

    /// Sets the time system and resets both clocks to its start.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = Some(system);
        self.players = [None, None];
    }

    /// GTP `time_settings main byo_yomi_time byo_yomi_stones` (seconds).
    pub fn set_gtp_time_settings(&mut self, main: Duration, period: Duration, stones: u32) {
        let system = if period.is_zero() {
            TimeSystem::Absolute { main }
        } else if stones == 0 {
            TimeSystem::Unlimited
        } else {
            TimeSystem::Canadian {
                main,
                period,
                stones,
            }
        };
        self.set_system(system);
    }

    /// GTP `time_left color time stones`.
    pub fn set_time_left(&mut self, color: Color, left: Duration, overtime_count: u32) {
        self.players[color.index()] = Some(PlayerClock {
            left,
            overtime_count,
        });
    }

    /// A new game: both clocks back to the time system's start.
    pub fn new_game(&mut self) {
        self.players = [None, None];
    }

    /// Charges `used` to `color`'s clock after one of its own moves, as a
    /// game clock would. Controllers that send no `time_left` (gogui-twogtp
    /// never does) still get an engine that spends its main time once; a
    /// later `time_left` replaces whatever was charged here.
    pub fn charge(&mut self, color: Color, used: Duration) {
        let (main, period, per_period) = match self.system {
            None | Some(TimeSystem::Unlimited) => return,
            Some(TimeSystem::Absolute { main }) => (main, Duration::ZERO, 0),
            Some(TimeSystem::ByoYomi {
                main,
                period,
                periods,
            }) => (main, period, periods),
            Some(TimeSystem::Canadian {
                main,
                period,
                stones,
            }) => (main, period, stones),
        };
        let byo_yomi = matches!(self.system, Some(TimeSystem::ByoYomi { .. }));
        let mut clock = self.player_clock(color, main);
        let mut used = used;
        if clock.overtime_count == 0 {
            if used <= clock.left || per_period == 0 {
                clock.left = clock.left.saturating_sub(used);
                self.players[color.index()] = Some(clock);
                return;
            }
            // Main time ran out during this move: the rest comes out of
            // the first overtime period.
            used -= clock.left;
            clock = PlayerClock {
                left: period,
                overtime_count: per_period,
            };
        }
        if byo_yomi {
            // Every period overrun costs one; the next move has a full period.
            while used > period && clock.overtime_count > 1 {
                used -= period;
                clock.overtime_count -= 1;
            }
            clock.left = period;
        } else {
            // Canadian: a period's stones share its time; the last one
            // starts a new period.
            clock.left = clock.left.saturating_sub(used);
            clock.overtime_count = clock.overtime_count.saturating_sub(1);
            if clock.overtime_count == 0 {
                clock = PlayerClock {
                    left: period,
                    overtime_count: per_period,
                };
            }
        }
        self.players[color.index()] = Some(clock);
    }

    /// The time system, if one was given.
    pub fn system(&self) -> Option<TimeSystem> {
        self.system
    }

    /// Thinking time for `color`'s next move when it expects to play
    /// `moves` more moves (see [`expected_moves_go`] and
    /// [`expected_moves_nogo`]). `None` means no limit from the clock.
    pub fn budget(&self, color: Color, moves: MovesLeft) -> Option<Duration> {
        let moves_left = moves.expected;
        let Some(system) = self.system else {
            return Some(DEFAULT_MOVE_TIME);
        };
        // No limit: no budget.
        let (main, period, per_period) = system.move_phases()?;
        let clock = self.player_clock(color, main);
        let budget = if let Some(stones) = overtime_stones(clock, per_period) {
            // A clock showing nothing left (the first move of a game
            // without main time, before any time_left) starts a fresh period.
            let left = if clock.left.is_zero() {
                period
            } else {
                clock.left
            };
            // Byo-yomi: each move has a whole period; time_left reports
            // the current period.
            let (left, stones) = match system {
                TimeSystem::ByoYomi { .. } => (left.min(period), 1),
                _ => (left, stones),
            };
            left.saturating_sub(self.lag_margin(left)) / stones
        } else if per_period > 0 {
            // Spread main time over the moves we still expect to play, and
            // use part of an overtime period on top.
            let spare = clock.left.saturating_sub(self.lag + clock.left / 20);
            let extra = period.saturating_sub(self.lag_margin(period)) / per_period / 2;
            spare / moves_left.max(1) + extra
        } else {
            self.sudden_death_budget(main, clock.left, moves_left.max(1), moves.reserve_parts)
        };
        Some(budget.max(MIN_MOVE_TIME))
    }

    /// A move's share of `left` under sudden death: what lies above the
    /// reserve (one part in `reserve_parts` of `main`, and the lag) is
    /// spread over the moves left; within the reserve, a move takes a small
    /// share, so a long game slows down instead of running out.
    fn sudden_death_budget(
        &self,
        main: Duration,
        left: Duration,
        moves_left: u32,
        reserve_parts: u32,
    ) -> Duration {
        let reserve = main / reserve_parts + self.lag;
        match left.checked_sub(reserve) {
            Some(spare) if !spare.is_zero() => spare / moves_left,
            _ => left.saturating_sub(self.lag.min(left / 2)) / (moves_left * RESERVE_SPREAD),
        }
    }

    /// Time kept back from an overtime period of `period`: the lag, but
    /// never more than a fifth of the period.
    fn lag_margin(&self, period: Duration) -> Duration {
        self.lag.min(period / SHORT_PERIOD_LAG_PARTS)
    }

    /// Whether time `color` leaves unused on its next move is still its to
    /// spend later. It is not when every move has a time of its own: no
    /// time system (the default time a move), no limit, a byo-yomi period,
    /// or the last stone of a Canadian period. A search that stops early
    /// there (a clear best move) only throws time away, where playing on
    /// would grow the tree the next move reuses (Go asks this; NoGo gained
    /// nothing from playing on).
    pub fn keeps_unused_time(&self, color: Color) -> bool {
        let Some((main, _, per_period)) = self.system.and_then(TimeSystem::move_phases) else {
            return false;
        };
        match overtime_stones(self.player_clock(color, main), per_period) {
            // Main time, sudden death's included.
            None => true,
            // Canadian: the period's other stones share what one leaves.
            Some(stones) => matches!(self.system, Some(TimeSystem::Canadian { .. })) && stones > 1,
        }
    }

    /// `color`'s clock as last reported or charged; the start of the game
    /// (`main` left, in main time) before either.
    fn player_clock(&self, color: Color, main: Duration) -> PlayerClock {
        self.players[color.index()].unwrap_or(PlayerClock {
            left: main,
            overtime_count: 0,
        })
    }
}

/// In overtime, the stones `clock` still has to play in the time it shows
/// (a fresh period's `per_period` once that time is used up); `None` in
/// main time. `per_period` is 0 without overtime (sudden death).
fn overtime_stones(clock: PlayerClock, per_period: u32) -> Option<u32> {
    if clock.overtime_count == 0 && !(clock.left.is_zero() && per_period > 0) {
        return None;
    }
    Some(if clock.left.is_zero() {
        per_period
    } else {
        clock.overtime_count.max(1)
    })
}

/// Moves a Go player still expects to play, `moves_played` into a game on
/// a board of `area` points: games last about three quarters of the area,
/// but never fewer than a sixth of it are expected, so that a game that
/// runs long (a Tromp-Taylor game captures every dead stone before it
/// ends) slows down instead of spending its main time.
pub fn expected_moves_go(area: usize, moves_played: usize) -> MovesLeft {
    let expected = (area * 3 / 4).saturating_sub(moves_played) / 2;
    MovesLeft {
        expected: expected.max(area / 6).max(1) as u32,
        reserve_parts: SUDDEN_DEATH_RESERVE_PARTS,
    }
}

/// Moves a NoGo player still expects to play when it has `legal` legal
/// moves on a board of `area` points. Fitted to 120 games of Kosumi against
/// HaHaNoGo on 9x9: the plies left were 0.85 `legal` - 10.7 (within a ply
/// at every stage, from 79 legal moves to 20). A game always ends when the
/// legal moves run out, so unlike Go little time is kept back for a long
/// game ([`NOGO_SUDDEN_DEATH_RESERVE_PARTS`]).
pub fn expected_moves_nogo(area: usize, legal: usize) -> MovesLeft {
    let plies =
        (legal as f64 * NOGO_PLIES_PER_LEGAL_MOVE - area as f64 * NOGO_PLIES_SHORTFALL).max(1.0);
    MovesLeft {
        expected: (plies / 2.0).ceil() as u32,
        reserve_parts: NOGO_SUDDEN_DEATH_RESERVE_PARTS,
    }
}

/// Plies left in a NoGo game per legal move of the side to move ...
const NOGO_PLIES_PER_LEGAL_MOVE: f64 = 0.85;
/// ... less this many per point of the board.
const NOGO_PLIES_SHORTFALL: f64 = 0.13;

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    #[test]
    fn no_settings_uses_the_default() {
        assert_eq!(
            Clock::new().budget(Color::Black, expected_moves_go(81, 0)),
            Some(DEFAULT_MOVE_TIME)
        );
    }

    #[test]
    fn zero_stones_with_byo_yomi_time_means_unlimited() {
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(0), S(10), 0);
        assert_eq!(clock.budget(Color::Black, expected_moves_go(81, 0)), None);
    }

    #[test]
    fn absolute_time_is_spread_and_never_runs_out() {
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(60), S(0), 0);
        let first = clock
            .budget(Color::Black, expected_moves_go(81, 0))
            .unwrap();
        assert!(
            first > Duration::from_millis(500) && first < S(5),
            "{first:?}"
        );
        // CGOS: one second left must still leave room for lag.
        clock.set_time_left(Color::Black, S(1), 0);
        let late = clock
            .budget(Color::Black, expected_moves_go(81, 120))
            .unwrap();
        assert!(late < Duration::from_millis(200), "{late:?}");
    }

    #[test]
    fn nogo_spreads_absolute_time_over_the_legal_moves_left() {
        // An empty 9x9 board: games last about 58 plies, 29 moves each.
        assert_eq!(expected_moves_nogo(81, 81).expected, 30);
        assert_eq!(expected_moves_nogo(81, 20).expected, 4);
        assert_eq!(expected_moves_nogo(81, 3).expected, 1);
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(7), S(0), 0);
        let opening = clock.budget(Color::Black, expected_moves_nogo(81, 81));
        let late = clock.budget(Color::Black, expected_moves_nogo(81, 30));
        assert!(opening < late, "{opening:?} {late:?}");
    }

    #[test]
    fn nogo_keeps_less_of_a_sudden_death_clock_back_than_go() {
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(10), S(0), 0);
        let nogo = expected_moves_nogo(81, 81);
        let go = MovesLeft {
            reserve_parts: SUDDEN_DEATH_RESERVE_PARTS,
            ..nogo
        };
        // 10 s less a thirty-second and the 1 s lag, over 30 moves.
        let spare = S(10) - S(10) / NOGO_SUDDEN_DEATH_RESERVE_PARTS - DEFAULT_LAG;
        assert_eq!(clock.budget(Color::Black, nogo), Some(spare / 30));
        assert!(clock.budget(Color::Black, go) < clock.budget(Color::Black, nogo));
    }

    #[test]
    fn canadian_overtime_divides_the_period() {
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(0), S(30), 10);
        clock.set_time_left(Color::White, S(30), 10);
        let budget = clock
            .budget(Color::White, expected_moves_go(361, 50))
            .unwrap();
        assert!(budget <= S(3) && budget >= S(2), "{budget:?}");
    }

    #[test]
    fn a_short_period_keeps_a_fifth_of_itself_for_lag() {
        let period_budget = |period: Duration| {
            let mut clock = Clock::new();
            clock.set_gtp_time_settings(S(0), period, 1);
            clock
                .budget(Color::Black, expected_moves_go(81, 10))
                .unwrap()
        };
        // referee.py's `time_settings 0 0.3 1`.
        let budget = period_budget(Duration::from_millis(300));
        assert_eq!(budget, Duration::from_millis(240));
        // scripts/match.sh's `time_settings 0 1 1`.
        assert_eq!(period_budget(S(1)), Duration::from_millis(800));
        // KGS-sized periods keep the whole lag.
        assert_eq!(period_budget(S(5)), S(4));
        assert_eq!(period_budget(S(30)), S(29));
    }

    #[test]
    fn byo_yomi_without_main_time_has_a_period_from_the_first_move() {
        // `kgs-time_settings byoyomi 0 5 3` and no time_left yet.
        let mut clock = Clock::new();
        clock.set_system(TimeSystem::ByoYomi {
            main: S(0),
            period: S(5),
            periods: 3,
        });
        let first = clock.budget(Color::Black, expected_moves_go(361, 0));
        assert_eq!(first, Some(S(4)));
        // Canadian without main time, likewise.
        clock.set_gtp_time_settings(S(0), S(60), 10);
        let first = clock.budget(Color::Black, expected_moves_go(361, 0));
        assert_eq!(first, Some(Duration::from_millis(5900)));
    }

    #[test]
    fn the_lag_is_kept_from_every_period_and_can_be_set() {
        let mut clock = Clock::new();
        clock.set_system(TimeSystem::ByoYomi {
            main: S(0),
            period: S(10),
            periods: 3,
        });
        clock.set_time_left(Color::Black, S(10), 3);
        let moves_left = expected_moves_go(361, 0);
        assert_eq!(clock.budget(Color::Black, moves_left), Some(S(9)));
        clock.set_lag(S(2));
        assert_eq!(clock.budget(Color::Black, moves_left), Some(S(8)));
    }

    #[test]
    fn sudden_death_keeps_main_time_through_a_long_game() {
        // CGOS 9x9, 60 s: a long game of 45 moves a side, each move costing
        // the whole budget (no early stop) plus 50 ms that the search does
        // not see, still ends with 15% of the main time.
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(60), S(0), 0);
        let overhead = Duration::from_millis(50);
        for move_number in 0..45 {
            let budget = clock
                .budget(Color::Black, expected_moves_go(81, 2 * move_number))
                .unwrap();
            clock.charge(Color::Black, budget + overhead);
        }
        let left = clock.player_clock(Color::Black, S(60)).left;
        assert!(left >= S(9), "{left:?}");
    }

    #[test]
    fn absolute_time_is_charged_without_time_left() {
        // gogui-twogtp -time sends time_settings and never time_left.
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(60), S(0), 0);
        let fresh = clock
            .budget(Color::Black, expected_moves_go(81, 0))
            .unwrap();
        clock.charge(Color::Black, S(50));
        let later = clock
            .budget(Color::Black, expected_moves_go(81, 0))
            .unwrap();
        assert!(later * 4 < fresh, "{later:?} {fresh:?}");
        assert_eq!(
            clock.budget(Color::White, expected_moves_go(81, 0)),
            Some(fresh)
        );
        clock.charge(Color::Black, S(20));
        assert_eq!(
            clock.budget(Color::Black, expected_moves_go(81, 0)),
            Some(MIN_MOVE_TIME)
        );
    }

    #[test]
    fn canadian_periods_are_charged_per_stone() {
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(10), S(30), 3);
        // 12 s: main time (10 s) runs out, 2 s come from the first period.
        clock.charge(Color::Black, S(12));
        assert_eq!(
            clock.players[0],
            Some(PlayerClock {
                left: S(28),
                overtime_count: 2
            })
        );
        clock.charge(Color::Black, S(8));
        clock.charge(Color::Black, S(5));
        // The period's three stones are played: a fresh period.
        assert_eq!(
            clock.players[0],
            Some(PlayerClock {
                left: S(30),
                overtime_count: 3
            })
        );
    }

    #[test]
    fn byo_yomi_periods_are_lost_only_by_overrunning() {
        let mut clock = Clock::new();
        clock.set_system(TimeSystem::ByoYomi {
            main: S(0),
            period: S(5),
            periods: 3,
        });
        clock.charge(Color::White, S(4));
        assert_eq!(clock.players[1].map(|c| c.overtime_count), Some(3));
        clock.charge(Color::White, S(7));
        assert_eq!(
            clock.players[1],
            Some(PlayerClock {
                left: S(5),
                overtime_count: 2
            })
        );
    }

    #[test]
    fn time_left_and_a_new_game_replace_the_charges() {
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(60), S(0), 0);
        let fresh = clock.budget(Color::Black, expected_moves_go(81, 0));
        clock.charge(Color::Black, S(30));
        clock.set_time_left(Color::Black, S(60), 0);
        assert_eq!(clock.budget(Color::Black, expected_moves_go(81, 0)), fresh);
        clock.charge(Color::Black, S(30));
        clock.new_game();
        assert_eq!(clock.budget(Color::Black, expected_moves_go(81, 0)), fresh);
    }

    #[test]
    fn byo_yomi_uses_one_period() {
        let mut clock = Clock::new();
        clock.set_system(TimeSystem::ByoYomi {
            main: S(0),
            period: S(5),
            periods: 3,
        });
        clock.set_time_left(Color::Black, S(5), 3);
        let budget = clock
            .budget(Color::Black, expected_moves_go(361, 50))
            .unwrap();
        assert_eq!(budget, S(4));
    }

    #[test]
    fn unused_time_is_kept_only_where_a_later_move_can_spend_it() {
        assert!(!Clock::new().keeps_unused_time(Color::Black));
        let mut clock = Clock::new();
        clock.set_gtp_time_settings(S(0), S(10), 0);
        assert!(!clock.keeps_unused_time(Color::Black), "no limit");
        clock.set_gtp_time_settings(S(300), S(0), 0);
        assert!(clock.keeps_unused_time(Color::Black), "sudden death");
        // scripts/match.sh and referee.py: a period of one stone a move.
        clock.set_gtp_time_settings(S(0), S(1), 1);
        assert!(!clock.keeps_unused_time(Color::Black));
        clock.set_gtp_time_settings(S(60), S(1), 1);
        assert!(clock.keeps_unused_time(Color::Black), "main time");
        clock.charge(Color::Black, S(61));
        assert!(!clock.keeps_unused_time(Color::Black), "overtime");
        // Canadian: the period's other stones share what one leaves.
        clock.set_gtp_time_settings(S(0), S(30), 3);
        assert!(clock.keeps_unused_time(Color::White));
        clock.set_time_left(Color::White, S(12), 1);
        assert!(!clock.keeps_unused_time(Color::White), "last stone");
        clock.set_system(TimeSystem::ByoYomi {
            main: S(0),
            period: S(5),
            periods: 3,
        });
        assert!(!clock.keeps_unused_time(Color::White), "byo-yomi period");
    }
}
