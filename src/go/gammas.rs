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

/// Pattern codes to their gamma and latent row.
type PatternMap = HashMap<u32, Rated, BuildHasherDefault<CodeHasher>>;

/// The largest latent dimension a table may give.
const MAX_FACTOR_DIMS: usize = 16;

/// The latent vectors of a factorization Bradley–Terry table (Xiao and
/// Müller 2016): besides its levels' gammas, a move's strength carries
/// `exp` of the dot products of every two of its levels' vectors, so that
/// a shape can be worth more near the last move or on a given line.
struct Factors {
    dims: usize,
    /// Row of each level of the other groups ([`NO_ROW`] if it has none).
    levels: [Vec<u32>; GROUPS],
    /// The vectors, `dims` numbers a row.
    vectors: Vec<f32>,
}

impl Factors {
    fn new() -> Factors {
        Factors {
            dims: 0,
            levels: std::array::from_fn(|g| vec![NO_ROW; LEVELS[g]]),
            vectors: Vec::new(),
        }
    }

    /// Adds a vector; returns its row, or `None` if its length differs
    /// from the table's.
    fn push(&mut self, numbers: &[f32]) -> Option<u32> {
        if self.dims == 0 {
            self.dims = numbers.len();
        }
        let fits = numbers.len() == self.dims && (1..=MAX_FACTOR_DIMS).contains(&self.dims);
        fits.then(|| {
            self.vectors.extend_from_slice(numbers);
            (self.vectors.len() / self.dims - 1) as u32
        })
    }

    /// Every pairwise dot product of the vectors of a move's levels (its
    /// patterns' rows given), summed.
    fn interaction(&self, features: &Features, patterns: [Rated; 2]) -> f32 {
        let mut rows = [NO_ROW; GROUPS];
        let mut count = 0;
        for (g, &level) in features.iter().enumerate() {
            let row = match PATTERN_GROUPS.iter().position(|&p| p == g) {
                Some(k) => patterns[k].row,
                None => self.levels[g][level as usize],
            };
            if row != NO_ROW {
                rows[count] = row;
                count += 1;
            }
        }
        let rows = &rows[..count];
        // The usual widths get loops the compiler unrolls into vector code.
        match self.dims {
            8 => pairwise_sum::<8>(&self.vectors, rows),
            16 => pairwise_sum::<16>(&self.vectors, rows),
            _ => self.pairwise_sum_any(rows),
        }
    }

    /// [`pairwise_sum`] for a width without its own code.
    fn pairwise_sum_any(&self, rows: &[u32]) -> f32 {
        let mut sum = [0.0f32; MAX_FACTOR_DIMS];
        let mut squares = 0.0;
        for &row in rows {
            let start = row as usize * self.dims;
            for (s, &x) in sum.iter_mut().zip(&self.vectors[start..start + self.dims]) {
                *s += x;
                squares += x * x;
            }
        }
        0.5 * (sum.iter().map(|s| s * s).sum::<f32>() - squares)
    }
}

/// The sum of the dot products of every two of the `rows` of `N` numbers
/// in `vectors`: half of (the square of their sum less their squares).
fn pairwise_sum<const N: usize>(vectors: &[f32], rows: &[u32]) -> f32 {
    let mut sum = [0.0f32; N];
    let mut squares = [0.0f32; N];
    for &row in rows {
        let start = row as usize * N;
        let vector = &vectors[start..start + N];
        for i in 0..N {
            sum[i] += vector[i];
            squares[i] += vector[i] * vector[i];
        }
    }
    0.5 * (0..N).map(|i| sum[i] * sum[i] - squares[i]).sum::<f32>()
}

/// The row of a pattern with no latent vector.
const NO_ROW: u32 = u32::MAX;

/// A pattern's gamma and the row of its latent vector ([`NO_ROW`] if none).
#[derive(Clone, Copy)]
struct Rated {
    gamma: f32,
    row: u32,
}

impl Rated {
    fn new(gamma: f32) -> Rated {
        Rated { gamma, row: NO_ROW }
    }
}

/// The fitted strengths of every level.
pub struct Gammas {
    /// Every raw shape code (all eight symmetries filled in).
    shapes: Vec<Rated>,
    /// Every raw diamond code met in training (all symmetries).
    diamonds: PatternMap,
    /// Gamma of a diamond not in `diamonds`.
    default_diamond: f32,
    /// Gamma of each level of the other groups (index 0 unused).
    levels: [Vec<f32>; GROUPS],
    /// Gamma of every spatial pattern in the dictionary, by key.
    spatial: SpatialTable,
    /// The latent vectors, if the table was fitted with them.
    factors: Option<Factors>,
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
    /// same for diamonds; spatial levels as `radius:key`, key in hex), and
    /// `factor group level v1 .. vk` lines giving levels latent vectors
    /// (not spatial ones).
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut defaults = [1.0f32; 2];
        let mut patterns: [Vec<(u32, f32)>; 2] = [Vec::new(), Vec::new()];
        let mut levels: [Vec<f32>; GROUPS] = std::array::from_fn(|g| vec![1.0; LEVELS[g]]);
        let mut spatial = SpatialTable::default();
        let mut factors = None;
        // Rows of the shapes' and diamonds' latent vectors, by canonical code.
        let mut pattern_rows: [Vec<(u32, u32)>; 2] = [Vec::new(), Vec::new()];
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("gamma table line {}: {line:?}", number + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let ["factor", group, level, numbers @ ..] = &fields[..] {
                let factors = factors.get_or_insert_with(Factors::new);
                factor_line(factors, &mut pattern_rows, group, level, numbers).ok_or_else(bad)?;
                continue;
            }
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
                    patterns[k].push((pattern_code(group, level).ok_or_else(bad)?, gamma));
                }
            } else {
                let level: usize = level.parse().map_err(|_| bad())?;
                *levels[group].get_mut(level).ok_or_else(bad)? = gamma;
            }
        }
        let [shape_default, default_diamond] = defaults;
        let [shapes, diamond_list] = patterns;
        let [shape_rows, diamond_rows] = pattern_rows;
        let table = shape_table(shape_default, &shapes, &shape_rows);
        let diamonds = diamond_map(default_diamond, &diamond_list, &diamond_rows);
        Ok(Gammas {
            shapes: table,
            diamonds,
            default_diamond,
            levels,
            spatial,
            factors,
        })
    }

    /// A move's strength: the product of its levels' gammas, times `exp`
    /// of their latent vectors' interactions if the table has them.
    pub fn strength(&self, features: &Features) -> f32 {
        let shape = self.shapes[features[SHAPE] as usize];
        let diamond = self
            .diamonds
            .get(&features[DIAMOND])
            .copied()
            .unwrap_or(Rated::new(self.default_diamond));
        let product = (0..GROUPS)
            .filter(|group| !PATTERN_GROUPS.contains(group))
            .fold(shape.gamma * diamond.gamma, |strength, group| {
                strength * self.levels[group][features[group] as usize]
            });
        match &self.factors {
            Some(factors) => product * factors.interaction(features, [shape, diamond]).exp(),
            None => product,
        }
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

/// Every raw shape code's gamma and latent row (`default` and no row
/// unless the table names its canonical code).
fn shape_table(default: f32, gammas: &[(u32, f32)], rows: &[(u32, u32)]) -> Vec<Rated> {
    let mut table = vec![Rated::new(default); 1 << SHAPE_BITS];
    for &(code, gamma) in gammas {
        for symmetric in shape_symmetries(code) {
            table[symmetric as usize].gamma = gamma;
        }
    }
    for &(code, row) in rows {
        for symmetric in shape_symmetries(code) {
            table[symmetric as usize].row = row;
        }
    }
    table
}

/// The gamma and latent row of every raw diamond code the table names
/// (`default` for a diamond with a row and no gamma).
fn diamond_map(default: f32, gammas: &[(u32, f32)], rows: &[(u32, u32)]) -> PatternMap {
    let mut diamonds = PatternMap::default();
    for &(code, gamma) in gammas {
        for symmetric in diamond_symmetries(code) {
            diamonds.insert(symmetric, Rated::new(gamma));
        }
    }
    for &(code, row) in rows {
        for symmetric in diamond_symmetries(code) {
            diamonds.entry(symmetric).or_insert(Rated::new(default)).row = row;
        }
    }
    diamonds
}

/// Reads one `factor group level v1 .. vk` line into `factors` (a shape's
/// or diamond's row into `pattern_rows`, by canonical code); `None` if it
/// is malformed.
fn factor_line(
    factors: &mut Factors,
    pattern_rows: &mut [Vec<(u32, u32)>; 2],
    group: &str,
    level: &str,
    numbers: &[&str],
) -> Option<()> {
    let group = GROUP_NAMES.iter().position(|&name| name == group)?;
    let numbers: Vec<f32> = numbers
        .iter()
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    if numbers.iter().any(|x| !x.is_finite()) {
        return None;
    }
    if let Some(k) = PATTERN_GROUPS.iter().position(|&g| g == group) {
        let code = pattern_code(group, level)?;
        pattern_rows[k].push((code, factors.push(&numbers)?));
    } else {
        let level: usize = level.parse().ok()?;
        if level == 0 || level >= LEVELS[group] {
            return None;
        }
        factors.levels[group][level] = factors.push(&numbers)?;
    }
    Some(())
}

/// A shape's or diamond's canonical code as a table writes it (hex), if
/// it fits the group's code.
fn pattern_code(group: usize, level: &str) -> Option<u32> {
    let code = u32::from_str_radix(level, 16).ok()?;
    let bits = if group == SHAPE { SHAPE_BITS } else { 24 };
    (code < 1 << bits).then_some(code)
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

    fn group(name: &str) -> usize {
        GROUP_NAMES.iter().position(|&n| n == name).unwrap()
    }

    #[test]
    fn latent_vectors_multiply_a_move_by_the_exp_of_their_dot_products() {
        let table = "distance 1 2.0\n\
                     line 3 3.0\n\
                     factor distance 1 1.0 0.5\n\
                     factor line 3 0.5 -2.0\n";
        let gammas = Gammas::parse(table).unwrap();
        let mut features: Features = [0; GROUPS];
        features[group("distance")] = 1;
        // One level with a vector has nothing to interact with.
        assert!((gammas.strength(&features) - 2.0).abs() < 1e-6);
        features[group("line")] = 3;
        // Dot product 1.0 * 0.5 + 0.5 * -2.0 = -0.5.
        let expected = 6.0 * (-0.5f32).exp();
        assert!((gammas.strength(&features) - expected).abs() < 1e-5);
        // A shape's vector: the empty 3x3 shape is code 0.
        let shaped = Gammas::parse(&format!("{table}factor shape 0 2.0 0.0\n")).unwrap();
        let expected = 6.0 * (-0.5f32 + 2.0 + 1.0).exp();
        assert!((shaped.strength(&features) - expected).abs() < 1e-4);
        assert!(
            Gammas::parse("shape default 1\n")
                .unwrap()
                .factors
                .is_none()
        );
    }

    #[test]
    fn malformed_factor_lines_are_refused() {
        for line in [
            "factor distance 0 1.0 2.0",
            "factor distance 99 1.0 2.0",
            "factor spatial 3:1 1.0 2.0",
            "factor nonsense 1 1.0",
            "factor line 2 1.0 x",
            "factor line 2 1.0 NaN",
            "factor line 2",
            "factor shape 100000000 1.0",
        ] {
            assert!(Gammas::parse(line).is_err(), "{line}");
        }
        let mixed = "factor line 2 1.0 2.0\nfactor line 3 1.0\n";
        assert!(Gammas::parse(mixed).is_err(), "vectors of two lengths");
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
