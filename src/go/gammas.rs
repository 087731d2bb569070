//! The fitted tables of learned move strengths (see `features` and
//! `spatial`), the choice of table by board size, and the ratings of a
//! position's candidates: the strength of each move, and its chance of
//! being chosen.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;

use crate::board::{Color, LibertyMemo, Point, Position};
use crate::search::domain::{Domain, RecentMoves};

use super::checks::MoveChecks;
use super::domain::GoDomain;
use super::features::{
    DIAMOND, Features, GROUP_NAMES, GROUPS, LEVELS, PATTERN_GROUPS, SHAPE, SHAPE_BITS,
    diamond_symmetries, move_features, shape_symmetries,
};
use super::spatial::{EmptyReach, MAX_RADIUS, MIN_RADIUS, RADIUS_MASK, SpatialTable};

/// A multiplicative hash for pattern codes, which are already well spread
/// integers: much cheaper than the default SipHash.
#[derive(Default)]
pub struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, code: u32) {
        self.write_u64(u64::from(code));
    }

    fn write_u64(&mut self, code: u64) {
        self.0 = (self.0 ^ code).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Pattern codes to gammas.
type PatternMap = HashMap<u32, f32, BuildHasherDefault<CodeHasher>>;

/// The fitted strengths of every level.
pub struct Gammas {
    /// Gamma of every raw shape code (all eight symmetries filled in).
    shapes: Vec<f32>,
    /// Gamma of every raw diamond code met in training (all symmetries).
    diamonds: PatternMap,
    /// Gamma of a diamond not in `diamonds`.
    default_diamond: f32,
    /// Gamma of each level of the other groups (index 0 unused).
    levels: [Vec<f32>; GROUPS],
    /// Gamma of every spatial pattern in the dictionary, by key.
    spatial: SpatialTable,
}

/// The fitted table shipped with Kosumi.
pub static GO_GAMMAS: LazyLock<Gammas> = LazyLock::new(|| {
    Gammas::parse(include_str!("go_gammas.txt")).expect("the shipped gamma table parses")
});

/// The table fitted to human 19x19 games (Tygem, 9 dan against 9 dan),
/// with large spatial patterns.
pub static TYGEM_GAMMAS: LazyLock<Gammas> = LazyLock::new(|| {
    Gammas::parse(include_str!("tygem_gammas.txt")).expect("the shipped Tygem table parses")
});

/// The shipped table for a board whose larger side is `side`: the human
/// one from `human_table_from` on, else the 9x9 one.
pub fn gammas_for(side: usize, human_table_from: u32) -> &'static Gammas {
    if side >= human_table_from as usize {
        &TYGEM_GAMMAS
    } else {
        &GO_GAMMAS
    }
}

impl Gammas {
    /// Reads a table of `group level gamma` lines (pattern levels in hex,
    /// as canonical codes; `shape default G` for unseen shapes, and the
    /// same for diamonds; spatial levels as `radius:key`, key in hex).
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut defaults = [1.0f32; 2];
        let mut patterns: [Vec<(u32, f32)>; 2] = [Vec::new(), Vec::new()];
        let mut levels: [Vec<f32>; GROUPS] = std::array::from_fn(|g| vec![1.0; LEVELS[g]]);
        let mut spatial = SpatialTable::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("gamma table line {}: {line:?}", number + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [group, level, gamma] = fields[..] else {
                return Err(bad());
            };
            let gamma: f32 = gamma.parse().map_err(|_| bad())?;
            if group == "spatial" {
                let (radius, key) = level.split_once(':').ok_or_else(bad)?;
                let radius: usize = radius.parse().map_err(|_| bad())?;
                let key = u64::from_str_radix(key, 16).map_err(|_| bad())?;
                if !(MIN_RADIUS..=MAX_RADIUS).contains(&radius)
                    || (key & RADIUS_MASK) as usize != radius
                {
                    return Err(bad());
                }
                spatial.insert(key, gamma);
                continue;
            }
            let group = GROUP_NAMES
                .iter()
                .position(|&name| name == group)
                .ok_or_else(bad)?;
            if let Some(k) = PATTERN_GROUPS.iter().position(|&g| g == group) {
                if level == "default" {
                    defaults[k] = gamma;
                } else {
                    let code = u32::from_str_radix(level, 16).map_err(|_| bad())?;
                    let bits = if group == SHAPE { SHAPE_BITS } else { 24 };
                    if code >= 1 << bits {
                        return Err(bad());
                    }
                    patterns[k].push((code, gamma));
                }
            } else {
                let level: usize = level.parse().map_err(|_| bad())?;
                *levels[group].get_mut(level).ok_or_else(bad)? = gamma;
            }
        }
        let [shape_default, default_diamond] = defaults;
        let [shapes, diamond_list] = patterns;
        let mut table = vec![shape_default; 1 << SHAPE_BITS];
        for (code, gamma) in shapes {
            for symmetric in shape_symmetries(code) {
                table[symmetric as usize] = gamma;
            }
        }
        let mut diamonds = PatternMap::default();
        for (code, gamma) in diamond_list {
            for symmetric in diamond_symmetries(code) {
                diamonds.insert(symmetric, gamma);
            }
        }
        Ok(Gammas {
            shapes: table,
            diamonds,
            default_diamond,
            levels,
            spatial,
        })
    }

    /// A move's strength: the product of its levels' gammas.
    pub fn strength(&self, features: &Features) -> f32 {
        let shape = self.shapes[features[SHAPE] as usize];
        let diamond = self
            .diamonds
            .get(&features[DIAMOND])
            .copied()
            .unwrap_or(self.default_diamond);
        (0..GROUPS)
            .filter(|group| !PATTERN_GROUPS.contains(group))
            .fold(shape * diamond, |strength, group| {
                strength * self.levels[group][features[group] as usize]
            })
    }

    /// The gamma of the largest spatial pattern around `p` in the table (1
    /// if none).
    pub fn spatial_gamma(
        &self,
        position: &Position,
        p: Point,
        mover: Color,
        reach: &EmptyReach,
    ) -> f32 {
        self.spatial.gamma(position, p, mover, reach)
    }

    /// The strength of the candidate of `checks`: its features' and its
    /// spatial pattern's gammas.
    pub fn move_strength(&self, checks: &MoveChecks<'_>, context: &RatingContext) -> f32 {
        let features = move_features(checks, context.recent, context.open);
        let (position, p) = (checks.position, checks.point);
        let spatial = self.spatial_gamma(position, p, checks.mover, &context.reach);
        self.strength(&features) * spatial
    }
}

/// What the ratings of one position's candidates share.
pub struct RatingContext {
    /// The last two moves.
    pub recent: RecentMoves,
    /// More than half the board is still empty ([`Position::is_open`]).
    pub open: bool,
    /// How far around each point the board is empty.
    pub reach: EmptyReach,
}

impl RatingContext {
    pub fn new(position: &Position, recent: RecentMoves) -> RatingContext {
        RatingContext {
            recent,
            open: position.is_open(),
            reach: EmptyReach::of(position),
        }
    }
}

/// The chance that a strong player picks each of the side to move's
/// candidates (the points the tree gives a child) under `gammas`: its
/// strength over the sum of all the candidates' strengths, strongest first.
pub fn move_probabilities(
    position: &Position,
    recent: RecentMoves,
    gammas: &Gammas,
) -> Vec<(Point, f32)> {
    let mover = position.to_move();
    let liberties = LibertyMemo::new(position);
    let context = RatingContext::new(position, recent);
    let rated: Vec<(Point, f32)> = GoDomain::tree_points(position)
        .iter()
        .map(|p| {
            let checks = MoveChecks::new(position, p, mover, &liberties);
            (p, gammas.move_strength(&checks, &context))
        })
        .collect();
    into_chances(rated)
}

/// Move strengths as Bradley–Terry chances (each over the sum of all),
/// likeliest first. NoGo's table shares it.
pub fn into_chances(mut rated: Vec<(Point, f32)>) -> Vec<(Point, f32)> {
    let total: f32 = rated.iter().map(|&(_, s)| s).sum();
    for (_, strength) in &mut rated {
        *strength /= total;
    }
    rated.sort_by(|a, b| b.1.total_cmp(&a.1));
    rated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GameKind, Geometry};
    use crate::go::features::{CAPTURE, SELF_ATARI};
    use crate::go::spatial::SpatialWalk;

    #[test]
    fn the_shipped_table_prefers_captures_and_shuns_self_atari() {
        for gammas in [&*GO_GAMMAS, &*TYGEM_GAMMAS] {
            assert!(gammas.levels[CAPTURE][3] > 1.0);
            assert!(gammas.levels[SELF_ATARI][3] < 1.0);
        }
    }

    #[test]
    fn the_human_table_opens_in_the_corners_not_on_the_edge() {
        let position = Position::new(Geometry::square(19).unwrap(), GameKind::Go);
        let chances = move_probabilities(&position, RecentMoves::default(), gammas_for(19, 13));
        let chance = |col, row| {
            let p = position.geometry().point(col, row).unwrap();
            chances.iter().find(|&&(q, _)| q == p).unwrap().1
        };
        let total: f32 = chances.iter().map(|&(_, c)| c).sum();
        assert!((total - 1.0).abs() < 1e-3);
        // The 4-4 and 3-4 points against the 1-1 point and the centre.
        assert!(chance(3, 3) > 10.0 * chance(0, 0));
        assert!(chance(2, 3) > 10.0 * chance(9, 9));
        let (first, _) = chances[0];
        let line = position
            .geometry()
            .line(position.geometry().coords(first).unwrap());
        assert!(matches!(line, 2 | 3), "the likeliest first move {first:?}");
    }

    #[test]
    fn the_largest_known_spatial_pattern_gives_the_gamma() {
        let p = Position::from_text(
            ".......
             .......
             ..X....
             ...O...
             .......
             .......
             .......",
            GameKind::Go,
        )
        .unwrap();
        let at = p.geometry().point(4, 4).unwrap();
        let keys: Vec<(usize, u64)> = SpatialWalk::new(&p, at, Color::Black).collect();
        let line =
            |(radius, key): (usize, u64), gamma: f32| format!("spatial {radius}:{key:x} {gamma}\n");
        let both = line(keys[0], 2.0) + &line(keys[1], 5.0);
        let gammas = Gammas::parse(&both).unwrap();
        let reach = EmptyReach::of(&p);
        assert_eq!(gammas.spatial_gamma(&p, at, Color::Black, &reach), 5.0);
        assert_eq!(gammas.spatial_gamma(&p, at, Color::White, &reach), 1.0);
        // Without its radius-3 pattern the walk stops before radius 4.
        let outer = Gammas::parse(&line(keys[1], 5.0)).unwrap();
        assert_eq!(outer.spatial_gamma(&p, at, Color::Black, &reach), 1.0);
        // A key whose low bits name another radius is refused.
        let (_, key) = keys[0];
        assert!(Gammas::parse(&format!("spatial 4:{key:x} 2.0")).is_err());
        assert!(Gammas::parse(&format!("spatial 11:{key:x} 2.0")).is_err());
    }
}
