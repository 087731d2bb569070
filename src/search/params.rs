//! Every tunable of the search, in one table.
//!
//! Each entry has a name (used by `--param name=value` on the command line
//! and `kosumi-param name value` in GTP), a one-line meaning and a default.

use crate::board::GameKind;

/// Tunables of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Seed of the playout generators (a fixed seed and one thread make
    /// searches repeatable).
    pub seed: u64,
    /// UCT exploration constant (added to the RAVE-blended value).
    pub exploration: f64,
    /// RAVE equivalence: AMAF statistics count as much as real ones when a
    /// node has about this many playouts (beta = a / (a + n + a*n/E)).
    pub rave_equivalence: f64,
    /// `rave_equivalence` on Go boards of more than 81 points. 1,000
    /// rather than 3,000 on 19x19, 10,000 playouts, seeds 1-7: tactics_19
    /// 243 against 238 (median 36 against 34), tactics_ld 236 against 230
    /// (34 against 33), ladder_19 551 against 548; seeds 8-14 tactics_19
    /// 246 against 242, tactics_ld 232 against 231. 19x19 self-play at
    /// 2,000 playouts won 66 of 120 against 3,000. At 500 tactics_19
    /// passed 240. 1,000 on 9x9 too cost tactics_ld's 9x9 tests (228 in
    /// all) and made no difference in 9x9 self-play (54% of 100), so
    /// small boards keep 3,000. 13x13 is not measured.
    pub rave_equivalence_large: f64,
    /// Virtual playouts at 50% given to every new node (first-play urgency).
    pub prior_even: u32,
    /// Extra virtual losses for first-line moves while the board is open
    /// (half as many for the second line) (Go).
    pub prior_edge_penalty: u32,
    /// Virtual wins for third- and fourth-line moves while the board is open (Go).
    pub prior_good_lines: u32,
    /// Virtual wins per captured stone (up to four) for a capture (Go).
    pub prior_capture: u32,
    /// Virtual wins for saving a string from atari when it then survives (Go).
    pub prior_escape: u32,
    /// Virtual losses for an escape that runs into a working ladder (Go).
    pub prior_hopeless_escape: u32,
    /// Virtual wins for an atari that starts a working ladder (Go).
    pub prior_ladder_attack: u32,
    /// Virtual losses for an atari that chases a long ladder which fails
    /// (the defender extends to two liberties and runs away) (Go).
    pub prior_broken_ladder: u32,
    /// Virtual wins per stone (up to `READ_STONES`) at the root for a move
    /// that reading shows captures an enemy string or saves an own one,
    /// short of liberties, whose fate hangs on who moves first (Go).
    /// Playing such a move in place of the most-played one when it had half
    /// its playouts and a win rate within 0.01 of it passed tactics_19
    /// 227 and tactics_ld 229 over seeds 1-7 at 10,000 playouts (228 and
    /// 228 without): the tests it was meant for (tactics_19 14, a capture
    /// level with the move played) still failed. Not adopted.
    pub prior_read_win: u32,
    /// Virtual losses at the root for extending an own string that reading
    /// shows dies anyway (Go). 400 rather than 100: at 100 a futile
    /// extension that the playouts overrate (tactics_19 test 11, P6) still
    /// drew most of the playouts; tactics_19 35/32/35 for seeds 1-3
    /// against 34/31/34, tactics_ld 33 for seed 1 either way.
    pub prior_read_futile: u32,
    /// Virtual losses for a self-atari (Go), unless it is a killing
    /// sacrifice (see `Position::is_nakade_sacrifice`).
    pub prior_self_atari: u32,
    /// Virtual wins for a MoGo 3x3 pattern move (Go). More helps the
    /// suites but not play: at 10,000 playouts, seeds 1-7, 25 passed
    /// tactics_19 235 and tactics_ld 234 in all (10: 228 and 228), 40
    /// passed 244 and 229 (medians 35 and 33, against 32 and 32), yet 25
    /// scored 42-53-5 against 10 in 100 games of 9x9 self-play at 5,000
    /// playouts a move, and 40 won 5 of 26 against 10 on 19x19 at 2,000.
    pub prior_pattern: u32,
    /// Virtual wins for a move within distance 2 of the last move (Go).
    pub prior_near_last: u32,
    /// Virtual losses for passing while the board still has open points (Go).
    pub prior_pass_penalty: u32,
    /// Virtual playouts judged by the learned move features (Go): the
    /// move's strength over the strongest sibling's, raised to
    /// `learned_exponent`, is their win share.
    pub prior_learned: u32,
    /// Exponent turning a learned strength ratio into a win share (Go).
    pub learned_exponent: f64,
    /// Go: weight of the root moves' criticality (Coulom 2009: how much
    /// more often a point's final owner wins than chance would have it) in
    /// their AMAF values, once a move has had 2,000 playouts: this times
    /// the criticality times the AMAF playouts is added as wins (Pachi
    /// uses 1.1, at every node). 0 turns it off. Against Pachi on 9x9 at
    /// equal time, 1.1 scored 81-107-12 of 200 (43.5%; Pachi had up to a
    /// fifth more time) where 0 scored 61-92-7 of 160 (40.3%). With Pachi
    /// paced to Kosumi's time (`PACHI_PACE`), the two side by side over
    /// the same hour: 1.1 36-37-2 of 75, 0 35-42-1 of 78. No difference
    /// shows. At 10,000 playouts the suites pass as before but for one
    /// tactics_19 test on one seed and one ladder_19 test.
    pub criticality: f64,
    /// Go playouts follow the MoGo-style policy (answers to the last move,
    /// 3x3 patterns, no big self-atari) instead of uniform random moves.
    pub heavy_playouts: bool,
    /// NoGo playouts prefer points both sides can play, then our safe
    /// points, and fill our own eyes last (instead of uniform moves).
    pub nogo_playouts: bool,
    /// NoGo tree priors from the seed paper's static evaluation (eyes,
    /// tiger mouths, forbidden points). Off: measured weaker so far.
    pub nogo_priors: bool,
    /// NoGo tree priors from the exact change in reserve points (points only
    /// one side may play) a move makes: prior win rate 50% + this per point.
    /// 0 turns them off.
    pub nogo_mobility_prior: f64,
    /// NoGo AMAF ignores the playout's reserve moves, on points only the
    /// mover could play (filling one's reserve is what every winner does last).
    pub nogo_amaf_contested_only: bool,
    /// NoGo playouts hold back every point only the mover may play, also one
    /// that became so during the playout. Off: such a point is played when
    /// drawn, which measured stronger (only points one-sided when the playout
    /// began are held back).
    pub nogo_hold_reserve: bool,
    /// `exploration` for NoGo, scaled by the share of the real statistics
    /// in the RAVE blend (1 - beta), as HaHaNoGo does: AMAF samples every
    /// sibling already, so a move explores once AMAF no longer outweighs it.
    pub nogo_exploration: f64,
    /// `rave_equivalence` for NoGo. With AMAF limited to contested moves
    /// the AMAF statistics stay sound, and a very large value (RAVE never
    /// fades) measured best.
    pub nogo_rave_equivalence: f64,
    /// NoGo playouts won with little to spare count partly as draws: a won
    /// playout becomes a draw with chance `weight (1 - tanh(spare / scale))`,
    /// `spare` being the points the winner still had in reserve when the
    /// loser ran out of moves. A win by one tempo says less about the
    /// position than a win with moves in hand. 0 turns it off.
    pub nogo_margin_weight: f64,
    /// The `scale` of `nogo_margin_weight`, in reserve points.
    pub nogo_margin_scale: f64,
    /// Go playouts count partly by their score: Black's value of a playout
    /// is `(1 - weight) win + weight (1 + tanh(margin / scale)) / 2`, drawn
    /// as a win, a draw or a loss with that expectation. Among moves that
    /// all win (or all lose) the search then prefers the bigger one, where
    /// a pure win rate cannot tell them apart (handicap games, lopsided
    /// endgames). 0, the default, turns it off: on even 9x9 games 0.1 and
    /// 0.25 measured no stronger (self-play at fixed playouts 52.8% and
    /// 53.8% of 200 games each; 0.25 against Pachi 11.5 of 40).
    pub go_score_weight: f64,
    /// The `scale` of `go_score_weight`, in points on 9x9 (it grows with
    /// the board's side: 21 points on 19x19 for 10 on 9x9).
    pub go_score_scale: f64,
    /// Go, a move to play: when the best root move's win rate after the
    /// probe (`dyn_komi_probe`) is above this, the search starts over
    /// demanding a bigger winning margin (a dynamic komi), so that a won
    /// position is not thrown away move by move for nothing. Above 1: off.
    /// 0.85 rather than 0.95 (once the floor also held at an early end):
    /// tactics_ld 33/35/31 for seeds 1-3 against 31/33/31, GNU Go 9x9 at
    /// 1 s 39-1-0 against 37-0-3 over 40 games.
    pub dyn_komi_trigger: f64,
    /// Go: the dynamic komi is the largest extra margin that the probe's
    /// playouts still reach this often (their win rate under it).
    /// In nearly finished positions most playouts end with the same
    /// margin, and the margin asked is that one: the search under it still
    /// wins 76-98% (tactics_ld 14, 15, 25, 38), so it cannot tell the move
    /// that also kills a group from one that does not. Asking once more,
    /// when the search under the margin still won over 70% at half its
    /// budget, one point past what its best move's playouts reach this
    /// often, up to the mercy rule's worth (a new tree for the last half,
    /// falling back on the first margin's tree if the floor or the gamble
    /// check fails), passed tactics_ld 33/36/31/33/31/35/30 for seeds 1-7
    /// (229 against 228; 14 and 15 gained, 16 lost; tactics_19 was the
    /// same, measured before the cap was added), and won 42-48-10
    /// of 100 9x9 self-play games at 5,000 playouts against itself without
    /// (95% interval 38-57%). Reading the margin off the probe's best move
    /// alone, or asking one point past it from the start, changed none of
    /// those four tests. Not adopted.
    pub dyn_komi_target: f64,
    /// Go: share of a move's playouts or time the probe at the real komi
    /// gets before the dynamic komi is decided.
    pub dyn_komi_probe: f64,
    /// Go: a search under a dynamic komi whose best win rate is below this
    /// once it has had as many playouts as the probe asked too much: it
    /// goes back to the probe's tree at the real komi.
    pub dyn_komi_floor: f64,
    /// Go, a move to play: when the best root move's win rate after the
    /// probe is below this, the search starts over given the points its
    /// playouts need to win `1 - dyn_komi_target` of the time, to lose by
    /// as little as it can (see `dyn_komi`). 0: off. At 0.2 the
    /// tactics_ld suite passed 31/33/31 tests for seeds 1-3 against
    /// 27/29/28 without (0.3: 31, 0.4: 30 for seed 1); in 80 games against
    /// Pachi Kosumi never came back from below 0.3 once it fell below 0.2.
    pub dyn_komi_losing: f64,
    /// Go: a lost position is given points only if its probe's playouts
    /// need no more than this share of the board's points; one lost by
    /// more is lost whatever it plays, and a search given that much plays
    /// a different game. At 1 (up to the mercy rule's worth), the Fuego
    /// nakade suite's lopsided 9x9 problems were given 31-33 points, and
    /// the search then never found the killing move that the real komi's
    /// finds (nakade-4pts.2, C1).
    pub dyn_komi_most_given: f64,
    /// Go: a margin asked is dropped when the move the search under it
    /// prefers is one the probe's tree, at the real komi, rates more than
    /// this below its own best move, after one standard error in the
    /// move's favour (a gamble for the margin). Without the
    /// check the nakade suite's problems, asked 30-36 points, played
    /// invasions elsewhere instead of the vital point (ld_nakade_9x9 22/21/26
    /// for seeds 1-3; with it and `dyn_komi_most_given` 0.25, 34/34/36;
    /// tactics_ld and tactics_19 unchanged).
    pub dyn_komi_tolerance: f64,
    /// A Go leaf on a board of up to 81 points is expanded once it has this
    /// many playouts. An expansion rates every child with the learned
    /// features and tactical checks, dearer than a playout: at 2, 9x9
    /// searches ran about a quarter fewer playouts a second and lost to 6.
    pub expand_visits: u32,
    /// Playouts per 81 points a Go leaf needs before it is expanded on
    /// larger boards, where a node has more children (8 on 19x19). Not yet
    /// measured above 2 there.
    pub expand_visits_large: u32,
    /// Playouts per 81 points a NoGo leaf needs before it is expanded
    /// (NoGo expansions cost little).
    pub nogo_expand_visits: u32,
    /// Hard cap on tree memory, in MiB. Memory is taken only as the tree
    /// grows (2 MiB at a time). A search adds nodes of 32 bytes, about 8 a
    /// playout in 9x9 Go and 13-20 in 9x9 NoGo, so 1 GiB lasts one thread
    /// about a minute of 9x9 Go or 10 s of 9x9 NoGo; once full, the tree
    /// stops growing and the search goes on.
    pub max_tree_mb: u32,
    /// Search threads sharing the tree.
    pub threads: u32,
    /// Resign when the best move's win rate is below this.
    pub resign_threshold: f64,
    /// Never resign before this many moves have been played.
    pub resign_min_moves: usize,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            seed: 0x6b6f_7375_6d69,
            exploration: 0.1,
            rave_equivalence: 3000.0,
            rave_equivalence_large: 1000.0,
            prior_even: 10,
            prior_edge_penalty: 10,
            prior_good_lines: 5,
            prior_capture: 10,
            prior_escape: 10,
            prior_hopeless_escape: 200,
            prior_ladder_attack: 20,
            prior_broken_ladder: 80,
            prior_read_win: 10,
            prior_read_futile: 400,
            prior_self_atari: 20,
            prior_pattern: 10,
            prior_near_last: 5,
            prior_learned: 15,
            learned_exponent: 0.5,
            criticality: 1.1,
            prior_pass_penalty: 20,
            heavy_playouts: true,
            nogo_playouts: true,
            nogo_priors: false,
            nogo_mobility_prior: 0.0,
            nogo_amaf_contested_only: true,
            nogo_hold_reserve: false,
            nogo_exploration: 0.1,
            nogo_rave_equivalence: 1e9,
            nogo_margin_weight: 0.2,
            nogo_margin_scale: 3.0,
            go_score_weight: 0.0,
            go_score_scale: 10.0,
            dyn_komi_trigger: 0.85,
            dyn_komi_target: 0.55,
            dyn_komi_probe: 0.25,
            dyn_komi_floor: 0.4,
            dyn_komi_losing: 0.2,
            dyn_komi_most_given: 0.25,
            dyn_komi_tolerance: 0.05,
            expand_visits: 6,
            expand_visits_large: 2,
            nogo_expand_visits: 2,
            max_tree_mb: 1024,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
            resign_threshold: 0.1,
            resign_min_moves: 20,
        }
    }
}

/// Why a parameter could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter '{0}'")]
    Unknown(String),
    #[error("bad value '{value}' for {name}")]
    BadValue { name: String, value: String },
}

/// Names and meanings, in table order.
pub const PARAM_TABLE: &[(&str, &str)] = &[
    ("seed", "seed of the playout generators"),
    ("exploration", "UCT exploration constant"),
    (
        "rave_equivalence",
        "playouts at which AMAF and real statistics weigh the same",
    ),
    (
        "rave_equivalence_large",
        "rave_equivalence on Go boards of more than 81 points",
    ),
    ("prior_even", "virtual 50% playouts given to every new node"),
    (
        "prior_edge_penalty",
        "virtual losses for first-line moves on an open board (Go)",
    ),
    (
        "prior_good_lines",
        "virtual wins for third- and fourth-line moves on an open board (Go)",
    ),
    (
        "prior_capture",
        "virtual wins per captured stone for a capture (Go)",
    ),
    (
        "prior_escape",
        "virtual wins for a successful atari escape (Go)",
    ),
    (
        "prior_hopeless_escape",
        "virtual losses for an escape into a working ladder (Go)",
    ),
    (
        "prior_ladder_attack",
        "virtual wins for an atari starting a working ladder (Go)",
    ),
    (
        "prior_broken_ladder",
        "virtual losses for an atari chasing a long broken ladder (Go)",
    ),
    (
        "prior_read_win",
        "virtual wins per stone at the root for a capture or save that reading proves (Go)",
    ),
    (
        "prior_read_futile",
        "virtual losses at the root for extending a string that reading shows dies (Go)",
    ),
    ("prior_self_atari", "virtual losses for a self-atari (Go)"),
    (
        "prior_pattern",
        "virtual wins for a MoGo 3x3 pattern move (Go)",
    ),
    (
        "prior_near_last",
        "virtual wins for a move near the last move (Go)",
    ),
    (
        "prior_pass_penalty",
        "virtual losses for passing on an open board (Go)",
    ),
    (
        "prior_learned",
        "virtual playouts judged by the learned move features (Go)",
    ),
    (
        "learned_exponent",
        "exponent of a move's learned strength ratio, as a win share (Go)",
    ),
    (
        "criticality",
        "Go: weight of a root move's criticality in its AMAF value (0: off)",
    ),
    (
        "heavy_playouts",
        "Go playouts follow the MoGo-style policy (1) or uniform random moves (0)",
    ),
    (
        "nogo_playouts",
        "NoGo playouts: open points first, then reserve, eyes last (1), or uniform (0)",
    ),
    (
        "nogo_priors",
        "NoGo tree priors from the seed paper's evaluation (1; measured weaker) or none (0)",
    ),
    (
        "nogo_mobility_prior",
        "NoGo prior win rate step per reserve point a move gains (0: off)",
    ),
    (
        "nogo_amaf_contested_only",
        "NoGo AMAF ignores the playout moves that fill a side's reserve",
    ),
    (
        "nogo_hold_reserve",
        "NoGo playouts also hold back points that become the mover's alone",
    ),
    ("nogo_exploration", "UCT exploration constant for NoGo"),
    ("nogo_rave_equivalence", "rave_equivalence for NoGo"),
    (
        "nogo_margin_weight",
        "NoGo: greatest chance that a playout won with no reserve to spare counts as a draw",
    ),
    (
        "nogo_margin_scale",
        "NoGo: reserve points over which that chance fades (tanh)",
    ),
    (
        "go_score_weight",
        "Go: share of a playout's value that comes from its score margin (tanh)",
    ),
    (
        "go_score_scale",
        "Go: score margin in points (9x9; more on larger boards) over which that share saturates",
    ),
    (
        "dyn_komi_trigger",
        "Go: a move's search demands a bigger margin above this win rate (over 1: off)",
    ),
    (
        "dyn_komi_target",
        "Go: win rate the probe's playouts keep under the extra margin demanded",
    ),
    (
        "dyn_komi_probe",
        "Go: share of a move's budget spent at the real komi before deciding the margin",
    ),
    (
        "dyn_komi_floor",
        "Go: below this win rate under the dynamic komi the search goes back to the real komi",
    ),
    (
        "dyn_komi_losing",
        "Go: below this win rate a move's search is given points (0: off)",
    ),
    (
        "dyn_komi_most_given",
        "Go: most points a lost position is given, as a share of the board's points",
    ),
    (
        "dyn_komi_tolerance",
        "Go: a margin asked goes when its move rates this far below the probe's best at the real komi",
    ),
    (
        "expand_visits",
        "Go: playouts a leaf needs before it is expanded (boards of up to 81 points)",
    ),
    (
        "expand_visits_large",
        "Go: playouts per 81 points a leaf needs before it is expanded on larger boards",
    ),
    (
        "nogo_expand_visits",
        "NoGo: playouts per 81 points a leaf needs before it is expanded",
    ),
    ("max_tree_mb", "hard cap on tree memory in MiB"),
    ("threads", "search threads"),
    ("resign_threshold", "resign below this win rate"),
    ("resign_min_moves", "never resign before this many moves"),
];

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

    /// Sets the parameter `name` from text; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        fn parse<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, ParamError> {
            value.trim().parse::<T>().map_err(|_| ParamError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
            })
        }
        let finite = |v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(ParamError::BadValue {
                    name: name.to_string(),
                    value: value.to_string(),
                })
            }
        };
        match name {
            "seed" => self.seed = parse(name, value)?,
            "exploration" => self.exploration = finite(parse(name, value)?)?,
            "rave_equivalence" => self.rave_equivalence = finite(parse(name, value)?)?.max(1.0),
            "rave_equivalence_large" => {
                self.rave_equivalence_large = finite(parse(name, value)?)?.max(1.0)
            }
            "prior_even" => self.prior_even = parse::<u32>(name, value)?.min(1000),
            "prior_edge_penalty" => self.prior_edge_penalty = parse::<u32>(name, value)?.min(1000),
            "prior_good_lines" => self.prior_good_lines = parse::<u32>(name, value)?.min(1000),
            "prior_capture" => self.prior_capture = parse::<u32>(name, value)?.min(1000),
            "prior_escape" => self.prior_escape = parse::<u32>(name, value)?.min(1000),
            "prior_hopeless_escape" => {
                self.prior_hopeless_escape = parse::<u32>(name, value)?.min(1000)
            }
            "prior_ladder_attack" => {
                self.prior_ladder_attack = parse::<u32>(name, value)?.min(1000)
            }
            "prior_read_win" => self.prior_read_win = parse::<u32>(name, value)?.min(1000),
            "prior_read_futile" => self.prior_read_futile = parse::<u32>(name, value)?.min(1000),
            "prior_broken_ladder" => {
                self.prior_broken_ladder = parse::<u32>(name, value)?.min(1000)
            }
            "prior_self_atari" => self.prior_self_atari = parse::<u32>(name, value)?.min(1000),
            "prior_pattern" => self.prior_pattern = parse::<u32>(name, value)?.min(1000),
            "prior_near_last" => self.prior_near_last = parse::<u32>(name, value)?.min(1000),
            "prior_learned" => self.prior_learned = parse::<u32>(name, value)?.min(1000),
            "learned_exponent" => self.learned_exponent = finite(parse(name, value)?)?,
            "criticality" => self.criticality = finite(parse(name, value)?)?,
            "prior_pass_penalty" => self.prior_pass_penalty = parse::<u32>(name, value)?.min(1000),
            "heavy_playouts" => self.heavy_playouts = parse::<u8>(name, value)? != 0,
            "nogo_playouts" => self.nogo_playouts = parse::<u8>(name, value)? != 0,
            "nogo_priors" => self.nogo_priors = parse::<u8>(name, value)? != 0,
            "nogo_mobility_prior" => {
                self.nogo_mobility_prior = finite(parse(name, value)?)?.min(1.0)
            }
            "nogo_amaf_contested_only" => {
                self.nogo_amaf_contested_only = parse::<u8>(name, value)? != 0
            }
            "nogo_hold_reserve" => self.nogo_hold_reserve = parse::<u8>(name, value)? != 0,
            "nogo_exploration" => self.nogo_exploration = finite(parse(name, value)?)?,
            "nogo_rave_equivalence" => {
                self.nogo_rave_equivalence = finite(parse(name, value)?)?.max(1.0)
            }
            "nogo_margin_weight" => {
                self.nogo_margin_weight = finite(parse(name, value)?)?.clamp(0.0, 1.0)
            }
            "nogo_margin_scale" => self.nogo_margin_scale = finite(parse(name, value)?)?.max(0.01),
            "go_score_weight" => {
                self.go_score_weight = finite(parse(name, value)?)?.clamp(0.0, 1.0)
            }
            "go_score_scale" => self.go_score_scale = finite(parse(name, value)?)?.max(0.01),
            "dyn_komi_trigger" => self.dyn_komi_trigger = finite(parse(name, value)?)?,
            "dyn_komi_target" => {
                self.dyn_komi_target = finite(parse(name, value)?)?.clamp(0.0, 1.0)
            }
            "dyn_komi_probe" => self.dyn_komi_probe = finite(parse(name, value)?)?.clamp(0.01, 0.9),
            "dyn_komi_floor" => self.dyn_komi_floor = finite(parse(name, value)?)?.clamp(0.0, 1.0),
            "dyn_komi_losing" => self.dyn_komi_losing = finite(parse(name, value)?)?,
            "dyn_komi_most_given" => {
                self.dyn_komi_most_given = finite(parse(name, value)?)?.min(1.0)
            }
            "dyn_komi_tolerance" => self.dyn_komi_tolerance = finite(parse(name, value)?)?.min(1.0),
            "expand_visits" => self.expand_visits = parse::<u32>(name, value)?.max(1),
            "expand_visits_large" => self.expand_visits_large = parse::<u32>(name, value)?.max(1),
            "nogo_expand_visits" => self.nogo_expand_visits = parse::<u32>(name, value)?.max(1),
            "max_tree_mb" => self.max_tree_mb = parse::<u32>(name, value)?.clamp(4, 1 << 16),
            "threads" => self.threads = parse::<u32>(name, value)?.clamp(1, 256),
            "resign_threshold" => self.resign_threshold = finite(parse(name, value)?)?.min(1.0),
            "resign_min_moves" => self.resign_min_moves = parse(name, value)?,
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// The current value of `name` as text.
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "seed" => self.seed.to_string(),
            "exploration" => self.exploration.to_string(),
            "rave_equivalence" => self.rave_equivalence.to_string(),
            "rave_equivalence_large" => self.rave_equivalence_large.to_string(),
            "prior_even" => self.prior_even.to_string(),
            "prior_edge_penalty" => self.prior_edge_penalty.to_string(),
            "prior_good_lines" => self.prior_good_lines.to_string(),
            "prior_capture" => self.prior_capture.to_string(),
            "prior_escape" => self.prior_escape.to_string(),
            "prior_hopeless_escape" => self.prior_hopeless_escape.to_string(),
            "prior_ladder_attack" => self.prior_ladder_attack.to_string(),
            "prior_broken_ladder" => self.prior_broken_ladder.to_string(),
            "prior_read_win" => self.prior_read_win.to_string(),
            "prior_read_futile" => self.prior_read_futile.to_string(),
            "prior_self_atari" => self.prior_self_atari.to_string(),
            "prior_pattern" => self.prior_pattern.to_string(),
            "prior_near_last" => self.prior_near_last.to_string(),
            "prior_learned" => self.prior_learned.to_string(),
            "learned_exponent" => self.learned_exponent.to_string(),
            "criticality" => self.criticality.to_string(),
            "prior_pass_penalty" => self.prior_pass_penalty.to_string(),
            "heavy_playouts" => u8::from(self.heavy_playouts).to_string(),
            "nogo_playouts" => u8::from(self.nogo_playouts).to_string(),
            "nogo_priors" => u8::from(self.nogo_priors).to_string(),
            "nogo_mobility_prior" => self.nogo_mobility_prior.to_string(),
            "nogo_amaf_contested_only" => u8::from(self.nogo_amaf_contested_only).to_string(),
            "nogo_hold_reserve" => u8::from(self.nogo_hold_reserve).to_string(),
            "nogo_exploration" => self.nogo_exploration.to_string(),
            "nogo_rave_equivalence" => self.nogo_rave_equivalence.to_string(),
            "nogo_margin_weight" => self.nogo_margin_weight.to_string(),
            "nogo_margin_scale" => self.nogo_margin_scale.to_string(),
            "go_score_weight" => self.go_score_weight.to_string(),
            "go_score_scale" => self.go_score_scale.to_string(),
            "dyn_komi_trigger" => self.dyn_komi_trigger.to_string(),
            "dyn_komi_target" => self.dyn_komi_target.to_string(),
            "dyn_komi_probe" => self.dyn_komi_probe.to_string(),
            "dyn_komi_floor" => self.dyn_komi_floor.to_string(),
            "dyn_komi_losing" => self.dyn_komi_losing.to_string(),
            "dyn_komi_most_given" => self.dyn_komi_most_given.to_string(),
            "dyn_komi_tolerance" => self.dyn_komi_tolerance.to_string(),
            "expand_visits" => self.expand_visits.to_string(),
            "expand_visits_large" => self.expand_visits_large.to_string(),
            "nogo_expand_visits" => self.nogo_expand_visits.to_string(),
            "max_tree_mb" => self.max_tree_mb.to_string(),
            "threads" => self.threads.to_string(),
            "resign_threshold" => self.resign_threshold.to_string(),
            "resign_min_moves" => self.resign_min_moves.to_string(),
            _ => return None,
        })
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
