//! Every tunable of the search, declared once.
//!
//! The `tunables!` declaration below is the only place a tunable is
//! written: its field (with the doc comment), type, default, the range a
//! value set from text is brought into, and the one-line help. From it
//! come the `SearchParams` struct, its `Default`, `PARAM_TABLE` (the names
//! `--param name=value` and `kosumi-param name value` know, in the order
//! they are listed) and `SearchParams::set`/`get`.

use crate::board::GameKind;

/// Why a parameter could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter '{0}'")]
    Unknown(String),
    #[error("bad value '{value}' for {name}")]
    BadValue { name: String, value: String },
}

/// A tunable's type: how text becomes a value within its range, and how
/// the value is written back.
trait Tunable: Sized {
    /// The value `text` names, brought into `range` (`None`: not a value).
    fn parse_in(text: &str, range: (Self, Self)) -> Option<Self>;
    /// The value as `get` writes it (and `parse_in` reads it back).
    fn show(&self) -> String;
}

macro_rules! integer_tunable {
    ($($ty:ty),*) => {$(
        impl Tunable for $ty {
            fn parse_in(text: &str, (low, high): ($ty, $ty)) -> Option<$ty> {
                text.trim().parse::<$ty>().ok().map(|value| value.clamp(low, high))
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

integer_tunable!(u32, u64, usize);

/// Real tunables are finite and never negative.
impl Tunable for f64 {
    fn parse_in(text: &str, (low, high): (f64, f64)) -> Option<f64> {
        let value = text.trim().parse::<f64>().ok()?;
        (value.is_finite() && value >= 0.0).then(|| value.clamp(low, high))
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

/// Switches read a number (0 is off) and write 0 or 1, as GoGui's
/// boolean parameters do.
impl Tunable for bool {
    fn parse_in(text: &str, _: (bool, bool)) -> Option<bool> {
        text.trim().parse::<u8>().ok().map(|value| value != 0)
    }
    fn show(&self) -> String {
        u8::from(*self).to_string()
    }
}

/// Declares the tunables: `name: type = default, (low, high), "help";`
/// each, after its doc comment.
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $default:expr, $range:expr, $help:literal;)*) => {
        /// Tunables of the search.
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $($(#[$doc])* pub $name: $ty,)*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams {
                    $($name: $default,)*
                }
            }
        }

        /// Names and meanings, in table order.
        pub const PARAM_TABLE: &[(&str, &str)] = &[$((stringify!($name), $help),)*];

        impl SearchParams {
            /// Sets the parameter `name` from text; on error nothing changes.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
                let bad = || ParamError::BadValue {
                    name: name.to_string(),
                    value: value.to_string(),
                };
                match name {
                    $(stringify!($name) => {
                        self.$name = Tunable::parse_in(value, $range).ok_or_else(bad)?;
                    })*
                    _ => return Err(ParamError::Unknown(name.to_string())),
                }
                Ok(())
            }

            /// The current value of `name` as text.
            pub fn get(&self, name: &str) -> Option<String> {
                match name {
                    $(stringify!($name) => Some(self.$name.show()),)*
                    _ => None,
                }
            }
        }
    };
}

tunables! {
    /// Seed of the playout generators (a fixed seed and one thread make
    /// searches repeatable).
    seed: u64 = 0x6b6f_7375_6d69, (0, u64::MAX),
        "seed of the playout generators";
    /// UCT exploration constant (added to the RAVE-blended value).
    exploration: f64 = 0.1, (0.0, f64::INFINITY),
        "UCT exploration constant";
    /// RAVE equivalence: AMAF statistics count as much as real ones when a
    /// node has about this many playouts (beta = a / (a + n + a*n/E)).
    rave_equivalence: f64 = 3000.0, (1.0, f64::INFINITY),
        "playouts at which AMAF and real statistics weigh the same";
    /// `rave_equivalence` on Go boards of more than 81 points.
    /// Measurements: docs/tuning.md.
    rave_equivalence_large: f64 = 1000.0, (1.0, f64::INFINITY),
        "rave_equivalence on Go boards of more than 81 points";
    /// Virtual playouts at 50% given to every new node (first-play urgency).
    prior_even: u32 = 10, (0, 1000),
        "virtual 50% playouts given to every new node";
    /// Extra virtual losses for first-line moves while the board is open
    /// (half as many for the second line) (Go).
    prior_edge_penalty: u32 = 10, (0, 1000),
        "virtual losses for first-line moves on an open board (Go)";
    /// Virtual wins for third- and fourth-line moves while the board is open (Go).
    prior_good_lines: u32 = 5, (0, 1000),
        "virtual wins for third- and fourth-line moves on an open board (Go)";
    /// Virtual wins per captured stone (up to four) for a capture (Go).
    prior_capture: u32 = 10, (0, 1000),
        "virtual wins per captured stone for a capture (Go)";
    /// Virtual wins for saving a string from atari when it then survives (Go).
    prior_escape: u32 = 10, (0, 1000),
        "virtual wins for a successful atari escape (Go)";
    /// Virtual losses for an escape that runs into a working ladder (Go).
    prior_hopeless_escape: u32 = 200, (0, 1000),
        "virtual losses for an escape into a working ladder (Go)";
    /// Virtual wins for an atari that starts a working ladder (Go).
    prior_ladder_attack: u32 = 20, (0, 1000),
        "virtual wins for an atari starting a working ladder (Go)";
    /// Virtual losses for an atari that chases a long ladder which fails
    /// (the defender extends to two liberties and runs away) (Go).
    prior_broken_ladder: u32 = 80, (0, 1000),
        "virtual losses for an atari chasing a long broken ladder (Go)";
    /// Virtual wins per stone (up to `READ_STONES`) at the root for a move
    /// that reading shows captures an enemy string or saves an own one,
    /// short of liberties, whose fate hangs on who moves first (Go).
    /// Measurements: docs/tuning.md.
    prior_read_win: u32 = 10, (0, 1000),
        "virtual wins per stone at the root for a capture or save that reading proves (Go)";
    /// Virtual losses at the root for extending an own string that reading
    /// shows dies anyway (Go). Measurements: docs/tuning.md.
    prior_read_futile: u32 = 400, (0, 1000),
        "virtual losses at the root for extending a string that reading shows dies (Go)";
    /// A node below the root gets the root's tactical reading (captures,
    /// saves, futile extensions as priors of its moves) when its playouts
    /// reach this many: the lines the search keeps returning to are read
    /// as the root is. 0 turns it off (Go). Measurements: docs/tuning.md.
    deep_reading_visits: u32 = 1000, (0, u32::MAX),
        "Go: playouts at which a node below the root gets the root's tactical reading (0: off)";
    /// Virtual wins at the root for the vital point of a small eye space
    /// (three to six points) of a group not yet alive (Go).
    prior_vital: u32 = 20, (0, 1000),
        "virtual wins at the root for the vital point of a small eye space (Go)";
    /// Virtual wins at the root for the move that decides a small enclosed
    /// group, which lives or dies by who moves first (Go).
    prior_life: u32 = 40, (0, 1000),
        "virtual wins at the root for the key move of a small enclosed group that lives or dies by who moves first (Go)";
    /// Virtual losses for a self-atari (Go), unless it is a killing
    /// sacrifice (see `Position::is_nakade_sacrifice`).
    prior_self_atari: u32 = 20, (0, 1000),
        "virtual losses for a self-atari (Go)";
    /// Virtual wins for a MoGo 3x3 pattern move (Go). Measurements:
    /// docs/tuning.md.
    prior_pattern: u32 = 10, (0, 1000),
        "virtual wins for a MoGo 3x3 pattern move (Go)";
    /// Virtual wins for a move within distance 2 of the last move (Go).
    prior_near_last: u32 = 5, (0, 1000),
        "virtual wins for a move near the last move (Go)";
    /// Virtual losses for passing while the board still has open points (Go).
    prior_pass_penalty: u32 = 20, (0, 1000),
        "virtual losses for passing on an open board (Go)";
    /// Virtual playouts judged by the learned move features (Go): the
    /// move's strength over the strongest sibling's, raised to
    /// `learned_exponent`, is their win share.
    prior_learned: u32 = 15, (0, 1000),
        "virtual playouts judged by the learned move features (Go)";
    /// Exponent turning a learned strength ratio into a win share (Go).
    learned_exponent: f64 = 0.5, (0.0, f64::INFINITY),
        "exponent of a move's learned strength ratio, as a win share (Go)";
    /// The smallest board side whose learned strengths come from the
    /// table fitted to human 19x19 games (`tygem_gammas.txt`); smaller
    /// boards use the one fitted to 9x9 engine games.
    human_table_from: u32 = 13, (2, 26),
        "smallest board side rated by the table learned from human 19x19 games (Go)";
    /// Go: weight of the root moves' criticality (Coulom 2009: how much
    /// more often a point's final owner wins than chance would have it) in
    /// their AMAF values, once a move has had 2,000 playouts: this times
    /// the criticality times the AMAF playouts is added as wins (Pachi uses
    /// 1.1, at every node). 0 turns it off. Measurements: docs/tuning.md.
    criticality: f64 = 1.1, (0.0, f64::INFINITY),
        "Go: weight of a root move's criticality in its AMAF value (0: off)";
    /// Go playouts follow the MoGo-style policy (answers to the last move,
    /// 3x3 patterns, no big self-atari) instead of uniform random moves.
    heavy_playouts: bool = true, (false, true),
        "Go playouts follow the MoGo-style policy (1) or uniform random moves (0)";
    /// NoGo playouts prefer points both sides can play, then our safe
    /// points, and fill our own eyes last (instead of uniform moves).
    nogo_playouts: bool = true, (false, true),
        "NoGo playouts: open points first, then reserve, eyes last (1), or uniform (0)";
    /// NoGo tree priors from the seed paper's static evaluation (eyes,
    /// tiger mouths, forbidden points). Off: measured weaker so far.
    nogo_priors: bool = false, (false, true),
        "NoGo tree priors from the seed paper's evaluation (1; measured weaker) or none (0)";
    /// NoGo tree priors from the exact change in reserve points (points only
    /// one side may play) a move makes: prior win rate 50% + this per point.
    /// 0 turns them off.
    nogo_mobility_prior: f64 = 0.0, (0.0, 1.0),
        "NoGo prior win rate step per reserve point a move gains (0: off)";
    /// NoGo tree priors from the learned move strengths (`nogo_gammas.txt`):
    /// this many virtual playouts, won in the share `nogo_learned_exponent`
    /// gives (0: off, the priors above decide). Off: 20 won in self-play and
    /// not against HaHaNoGo (docs/tuning.md).
    nogo_prior_learned: u32 = 0, (0, 1000),
        "NoGo: virtual playouts judged by the learned move strengths (0: off)";
    /// NoGo: only leaves fewer moves than this from the root get the
    /// learned priors (the others, rarely visited, are not worth rating).
    nogo_learned_depth: usize = 4, (0, usize::MAX),
        "NoGo: learned priors only for leaves fewer moves than this from the root";
    /// Exponent turning a learned strength ratio into a win share (NoGo).
    nogo_learned_exponent: f64 = 0.5, (0.0, f64::INFINITY),
        "NoGo: exponent of a move's learned strength ratio, as a win share";
    /// NoGo AMAF ignores the playout's reserve moves, on points only the
    /// mover could play (filling one's reserve is what every winner does last).
    nogo_amaf_contested_only: bool = true, (false, true),
        "NoGo AMAF ignores the playout moves that fill a side's reserve";
    /// NoGo playouts hold back every point only the mover may play, also one
    /// that became so during the playout. Off: such a point is played when
    /// drawn, which measured stronger (only points one-sided when the playout
    /// began are held back).
    nogo_hold_reserve: bool = false, (false, true),
        "NoGo playouts also hold back points that become the mover's alone";
    /// `exploration` for NoGo, scaled by the share of the real statistics
    /// in the RAVE blend (1 - beta), as HaHaNoGo does: AMAF samples every
    /// sibling already, so a move explores once AMAF no longer outweighs it.
    nogo_exploration: f64 = 0.1, (0.0, f64::INFINITY),
        "UCT exploration constant for NoGo";
    /// `rave_equivalence` for NoGo. With AMAF limited to contested moves
    /// the AMAF statistics stay sound, and a very large value (RAVE never
    /// fades) measured best.
    nogo_rave_equivalence: f64 = 1e9, (1.0, f64::INFINITY),
        "rave_equivalence for NoGo";
    /// NoGo playouts won with little to spare count partly as draws: a won
    /// playout becomes a draw with chance `weight (1 - tanh(spare / scale))`,
    /// `spare` being the points the winner still had in reserve when the
    /// loser ran out of moves. A win by one tempo says less about the
    /// position than a win with moves in hand. 0 turns it off.
    nogo_margin_weight: f64 = 0.2, (0.0, 1.0),
        "NoGo: greatest chance that a playout won with no reserve to spare counts as a draw";
    /// The `scale` of `nogo_margin_weight`, in reserve points.
    nogo_margin_scale: f64 = 3.0, (0.01, f64::INFINITY),
        "NoGo: reserve points over which that chance fades (tanh)";
    /// Go playouts count partly by their score: Black's value of a playout
    /// is `(1 - weight) win + weight (1 + tanh(margin / scale)) / 2`, drawn
    /// as a win, a draw or a loss with that expectation. Among moves that
    /// all win (or all lose) the search then prefers the bigger one, where
    /// a pure win rate cannot tell them apart (handicap games, lopsided
    /// endgames). 0, the default, turns it off. Measurements:
    /// docs/tuning.md.
    go_score_weight: f64 = 0.0, (0.0, 1.0),
        "Go: share of a playout's value that comes from its score margin (tanh)";
    /// The `scale` of `go_score_weight`, in points on 9x9 (it grows with
    /// the board's side: 21 points on 19x19 for 10 on 9x9).
    go_score_scale: f64 = 10.0, (0.01, f64::INFINITY),
        "Go: score margin in points (9x9; more on larger boards) over which that share saturates";
    /// Go, a move to play: when the best root move's win rate after the
    /// probe (`dyn_komi_probe`) is above this, the search starts over
    /// demanding a bigger winning margin (a dynamic komi), so that a won
    /// position is not thrown away move by move for nothing. Above 1: off.
    /// Measurements: docs/tuning.md.
    dyn_komi_trigger: f64 = 0.85, (0.0, f64::INFINITY),
        "Go: a move's search demands a bigger margin above this win rate (over 1: off)";
    /// Go: the dynamic komi is the largest extra margin that the probe's
    /// playouts still reach this often (their win rate under it).
    /// Measurements: docs/tuning.md.
    dyn_komi_target: f64 = 0.55, (0.0, 1.0),
        "Go: win rate the probe's playouts keep under the extra margin demanded";
    /// Go: share of a move's playouts or time the probe at the real komi
    /// gets before the dynamic komi is decided.
    dyn_komi_probe: f64 = 0.25, (0.01, 0.9),
        "Go: share of a move's budget spent at the real komi before deciding the margin";
    /// Go: a search under a dynamic komi whose best win rate is below this
    /// once it has had as many playouts as the probe asked too much: it
    /// goes back to the probe's tree at the real komi.
    dyn_komi_floor: f64 = 0.4, (0.0, 1.0),
        "Go: below this win rate under the dynamic komi the search goes back to the real komi";
    /// Go, a move to play: when the best root move's win rate after the
    /// probe is below this, the search starts over given the points its
    /// playouts need to win `1 - dyn_komi_target` of the time, to lose by
    /// as little as it can (see `dyn_komi`). 0: off. Measurements:
    /// docs/tuning.md.
    dyn_komi_losing: f64 = 0.2, (0.0, f64::INFINITY),
        "Go: below this win rate a move's search is given points (0: off)";
    /// Go: a lost position is given points only if its probe's playouts
    /// need no more than this share of the board's points; one lost by more
    /// is lost whatever it plays, and a search given that much plays a
    /// different game. Measurements: docs/tuning.md.
    dyn_komi_most_given: f64 = 0.25, (0.0, 1.0),
        "Go: most points a lost position is given, as a share of the board's points";
    /// Go: a margin asked is dropped when the move the search under it
    /// prefers is one the probe's tree, at the real komi, rates more than
    /// this below its own best move, after one standard error in the move's
    /// favour (a gamble for the margin). Measurements: docs/tuning.md.
    dyn_komi_tolerance: f64 = 0.05, (0.0, 1.0),
        "Go: a margin asked goes when its move rates this far below the probe's best at the real komi";
    /// A Go leaf on a board of up to 81 points is expanded once it has this
    /// many playouts. Measurements: docs/tuning.md.
    expand_visits: u32 = 6, (1, u32::MAX),
        "Go: playouts a leaf needs before it is expanded (boards of up to 81 points)";
    /// Playouts per 81 points a Go leaf needs before it is expanded on
    /// larger boards, where a node has more children (8 on 19x19). Not yet
    /// measured above 2 there.
    expand_visits_large: u32 = 2, (1, u32::MAX),
        "Go: playouts per 81 points a leaf needs before it is expanded on larger boards";
    /// Playouts per 81 points a NoGo leaf needs before it is expanded
    /// (NoGo expansions cost little).
    nogo_expand_visits: u32 = 2, (1, u32::MAX),
        "NoGo: playouts per 81 points a leaf needs before it is expanded";
    /// Hard cap on tree memory, in MiB. Memory is taken only as the tree
    /// grows (2 MiB at a time). A search adds nodes of 32 bytes, about 8 a
    /// playout in 9x9 Go and 13-20 in 9x9 NoGo, so 1 GiB lasts one thread
    /// about a minute of 9x9 Go or 10 s of 9x9 NoGo; once full, the tree
    /// stops growing and the search goes on.
    max_tree_mb: u32 = 1024, (4, 1 << 16),
        "hard cap on tree memory in MiB";
    /// Search threads sharing the tree.
    threads: u32 = std::thread::available_parallelism().map_or(1, |n| n.get() as u32), (1, 256),
        "search threads";
    /// Resign when the best move's win rate is below this.
    resign_threshold: f64 = 0.1, (0.0, 1.0),
        "resign below this win rate";
    /// Never resign before this many moves have been played.
    resign_min_moves: usize = 20, (0, usize::MAX),
        "never resign before this many moves";
}

impl SearchParams {
    /// The exploration constant for a game of `kind`.
    pub fn exploration_for(&self, kind: GameKind) -> f64 {
        match kind {
            GameKind::Go => self.exploration,
            GameKind::NoGo => self.nogo_exploration,
        }
    }

    /// The RAVE equivalence for a game of `kind` on a board of `area` points.
    pub fn rave_equivalence_for(&self, kind: GameKind, area: usize) -> f64 {
        match kind {
            GameKind::Go if area <= 81 => self.rave_equivalence,
            GameKind::Go => self.rave_equivalence_large,
            GameKind::NoGo => self.nogo_rave_equivalence,
        }
    }

    /// Playouts a leaf needs before it is expanded, in a game of `kind` on
    /// a board of `area` points.
    pub fn expand_threshold(&self, kind: GameKind, area: usize) -> u32 {
        let per_81_points = (area as u32 / 81).max(1);
        match kind {
            GameKind::Go if area <= 81 => self.expand_visits,
            GameKind::Go => self.expand_visits_large * per_81_points,
            GameKind::NoGo => self.nogo_expand_visits * per_81_points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_thresholds_follow_the_game_and_the_board() {
        let params = SearchParams::default();
        assert_eq!(
            params.expand_threshold(GameKind::Go, 81),
            params.expand_visits
        );
        assert_eq!(
            params.expand_threshold(GameKind::Go, 25),
            params.expand_visits
        );
        assert_eq!(
            params.expand_threshold(GameKind::Go, 361),
            4 * params.expand_visits_large
        );
        assert_eq!(
            params.expand_threshold(GameKind::NoGo, 81),
            params.nogo_expand_visits
        );
    }

    #[test]
    fn rave_equivalence_follows_the_game_and_the_board() {
        let mut params = SearchParams::default();
        params.set("rave_equivalence", "2000").unwrap();
        params.set("rave_equivalence_large", "700").unwrap();
        params.set("nogo_rave_equivalence", "5000").unwrap();
        assert_eq!(params.rave_equivalence_for(GameKind::Go, 81), 2000.0);
        assert_eq!(params.rave_equivalence_for(GameKind::Go, 49), 2000.0);
        assert_eq!(params.rave_equivalence_for(GameKind::Go, 169), 700.0);
        assert_eq!(params.rave_equivalence_for(GameKind::Go, 361), 700.0);
        assert_eq!(params.rave_equivalence_for(GameKind::NoGo, 361), 5000.0);
    }

    #[test]
    fn every_listed_parameter_round_trips() {
        let mut params = SearchParams::default();
        for (name, _) in PARAM_TABLE {
            let value = params.get(name).expect("listed parameters have values");
            params.set(name, &value).expect("current values are valid");
        }
        assert_eq!(params, SearchParams::default());
    }

    /// Every field of `SearchParams` is in the table (read off its Debug
    /// form), so `kosumi-param` and GoGui's dialog show them all.
    #[test]
    fn the_table_lists_every_field() {
        let debug = format!("{:?}", SearchParams::default());
        let body = debug
            .strip_prefix("SearchParams { ")
            .and_then(|rest| rest.strip_suffix(" }"))
            .expect("a struct's Debug form");
        let fields: Vec<&str> = body
            .split(", ")
            .filter_map(|entry| entry.split_once(": ").map(|(name, _)| name))
            .collect();
        assert!(fields.len() > 20, "{fields:?}");
        for field in fields {
            assert!(
                PARAM_TABLE.iter().any(|(name, _)| *name == field),
                "{field} is not in PARAM_TABLE"
            );
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut params = SearchParams::default();
        assert!(params.set("exploration", "-1").is_err());
        assert!(params.set("exploration", "nan").is_err());
        assert!(params.set("threads", "many").is_err());
        assert!(params.set("nonsense", "1").is_err());
        assert_eq!(params, SearchParams::default());
        params.set("seed", "42").unwrap();
        assert_eq!(params.seed, 42);
    }
}
