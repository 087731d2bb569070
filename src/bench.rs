//! `kosumi bench`: fixed work, fixed seed, playouts per second.

use std::time::Instant;

use rand_xoshiro::rand_core::SeedableRng;

use std::sync::atomic::AtomicBool;

use crate::board::{Game, GameKind, Geometry, LibertyMemo, Point, Position};
use crate::go::GoDomain;
use crate::go::checks::MoveChecks;
use crate::go::gammas::{RatingContext, gammas_for};
use crate::search::domain::{Domain, RecentMoves};
use crate::search::playout::below;
use crate::search::{FastRng, SearchLimits, SearchParams, Searcher, light_playout};

/// Seed of every benchmark run, so runs are comparable.
pub const BENCH_SEED: u64 = 20261122;

/// One benchmark's figures.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// JSON key, e.g. `light_go9`.
    pub name: &'static str,
    /// Playouts run.
    pub playouts: u64,
    /// Playouts per second.
    pub per_second: f64,
    /// Average moves per playout.
    pub average_length: f64,
    /// Black's share of the wins (a sanity check that the rules did not change).
    pub black_wins: f64,
}

/// Light playouts from the empty board: `count` of them, one thread.
pub fn light_playouts(
    name: &'static str,
    size: usize,
    kind: GameKind,
    komi: f32,
    count: u64,
) -> BenchResult {
    let geometry = Geometry::square(size).expect("bench sizes are valid");
    let root = Position::new(geometry, kind);
    let mut scratch = root.clone();
    let mut rng = FastRng::seed_from_u64(BENCH_SEED);
    let max_moves = 3 * geometry.area() as u32;
    let (mut total_moves, mut black_wins) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..count {
        scratch.copy_from(&root);
        let result = light_playout(&mut scratch, komi, max_moves, &mut rng);
        total_moves += result.moves as u64;
        black_wins += (result.winner == Some(crate::board::Color::Black)) as u64;
    }
    let seconds = start.elapsed().as_secs_f64();
    BenchResult {
        name,
        playouts: count,
        per_second: count as f64 / seconds,
        average_length: total_moves as f64 / count as f64,
        black_wins: black_wins as f64 / count as f64,
    }
}

/// A tree search from the empty board with `params` (seed and threads
/// overridden): `count` playouts, timed.
pub fn search(
    name: &'static str,
    size: usize,
    kind: GameKind,
    komi: f32,
    count: u64,
    threads: u32,
    params: &SearchParams,
) -> BenchResult {
    let geometry = Geometry::square(size).expect("bench sizes are valid");
    let game = Game::new(geometry, kind, komi);
    let mut searcher = Searcher::new(SearchParams {
        seed: BENCH_SEED,
        threads,
        ..params.clone()
    });
    let limits = SearchLimits {
        playouts: Some(count),
        time: None,
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let report = searcher.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
    BenchResult {
        name,
        playouts: report.playouts,
        per_second: report.playouts as f64 / report.elapsed.as_secs_f64(),
        average_length: 0.0,
        black_wins: 1.0 - report.winrate(),
    }
}

/// A middle-game position: `moves` random moves among the tree's
/// candidates from the empty `size` board, fixed seed; and the last two
/// moves.
fn random_position(size: usize, moves: usize) -> (Position, RecentMoves) {
    let geometry = Geometry::square(size).expect("bench sizes are valid");
    let mut position = Position::new(geometry, GameKind::Go);
    let mut rng = FastRng::seed_from_u64(BENCH_SEED);
    let mut recent = RecentMoves::default();
    for _ in 0..moves {
        let mover = position.to_move();
        let legal: Vec<Point> = GoDomain::tree_points(&position).iter().collect();
        if legal.is_empty() {
            break;
        }
        let p = legal[below(&mut rng, legal.len())];
        position.play(p, mover);
        recent = RecentMoves {
            last: Some(p),
            before_last: recent.last,
        };
    }
    (position, recent)
}

/// The learned strength of every candidate of a middle-game position (two
/// fifths of the board filled at random; see `random_position`), `count`
/// times, with the table the search uses on that board: positions rated a
/// second, and the candidates of the position as `average_length`.
pub fn ratings(name: &'static str, size: usize, count: u64, params: &SearchParams) -> BenchResult {
    let (position, recent) = random_position(size, size * size * 2 / 5);
    let mover = position.to_move();
    let gammas = gammas_for(size, params.human_table_from);
    let candidates: Vec<Point> = GoDomain::tree_points(&position).iter().collect();
    let start = Instant::now();
    let mut total = 0.0f32;
    for _ in 0..count {
        let liberties = LibertyMemo::new(&position);
        let context = RatingContext::new(&position, recent);
        for &p in &candidates {
            let checks = MoveChecks::new(&position, p, mover, &liberties);
            total += gammas.move_strength(&checks, &context);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(total);
    BenchResult {
        name,
        playouts: count,
        per_second: count as f64 / seconds,
        average_length: candidates.len() as f64,
        black_wins: 0.0,
    }
}

/// The standard set, those whose name contains `only`: light playouts
/// from the empty board; learned ratings of a middle-game position
/// (`rate_*`); tree searches with light playouts (`search_*`,
/// one and two threads) and with the full policies (`heavy_*`), on 9x9
/// and 19x19 Go (komi 7) and 9x9 NoGo. `params` tunes the searches;
/// `scale` multiplies the playout counts (1.0 takes about a minute).
pub fn standard(scale: f64, only: &str, params: &SearchParams) -> Vec<BenchResult> {
    let n = move |base: f64| ((base * scale) as u64).max(1);
    let light = SearchParams {
        heavy_playouts: false,
        nogo_playouts: false,
        ..params.clone()
    };
    let heavy = SearchParams {
        heavy_playouts: true,
        nogo_playouts: true,
        ..params.clone()
    };
    let searches: [(&'static str, usize, GameKind, f64, u32, &SearchParams); 10] = [
        ("search_go9", 9, GameKind::Go, 100_000.0, 1, &light),
        ("search_go19", 19, GameKind::Go, 20_000.0, 1, &light),
        ("search_nogo9", 9, GameKind::NoGo, 100_000.0, 1, &light),
        ("search_go9_t2", 9, GameKind::Go, 200_000.0, 2, &light),
        ("search_go19_t2", 19, GameKind::Go, 40_000.0, 2, &light),
        ("search_nogo9_t2", 9, GameKind::NoGo, 200_000.0, 2, &light),
        ("heavy_go9", 9, GameKind::Go, 50_000.0, 1, &heavy),
        ("heavy_go19", 19, GameKind::Go, 10_000.0, 1, &heavy),
        ("heavy_go9_t2", 9, GameKind::Go, 100_000.0, 2, &heavy),
        ("heavy_nogo9", 9, GameKind::NoGo, 100_000.0, 1, &heavy),
    ];
    let mut results = Vec::new();
    let lights: [(&'static str, usize, GameKind, f32, f64); 3] = [
        ("light_go9", 9, GameKind::Go, 7.0, 300_000.0),
        ("light_go19", 19, GameKind::Go, 7.0, 50_000.0),
        ("light_nogo9", 9, GameKind::NoGo, 0.0, 300_000.0),
    ];
    for (name, size, kind, komi, count) in lights {
        if name.contains(only) {
            results.push(light_playouts(name, size, kind, komi, n(count)));
        }
    }
    for (name, size, count) in [("rate_go9", 9, 20_000.0), ("rate_go19", 19, 5_000.0)] {
        if name.contains(only) {
            results.push(ratings(name, size, n(count), params));
        }
    }
    for (name, size, kind, count, threads, params) in searches {
        if name.contains(only) {
            let komi = if kind == GameKind::Go { 7.0 } else { 0.0 };
            results.push(search(name, size, kind, komi, n(count), threads, params));
        }
    }
    results
}

/// Size in bytes of the playout board (a playout start copies only the
/// part of its grids that the board size uses).
pub fn board_bytes() -> usize {
    std::mem::size_of::<Position>()
}

/// The results as one JSON object: `board_bytes`, then for each result
/// `name`, its playouts per second, and for light playouts `name_length`,
/// the average playout length.
pub fn to_json(results: &[BenchResult]) -> String {
    let board = format!("\"board_bytes\":{}", board_bytes());
    let fields: Vec<String> = std::iter::once(board)
        .chain(results.iter().flat_map(|r| {
            let mut fields = vec![format!("\"{}\":{:.0}", r.name, r.per_second)];
            if r.average_length > 0.0 {
                fields.push(format!("\"{}_length\":{:.2}", r.name, r.average_length));
            }
            fields
        }))
        .collect();
    format!("{{{}}}", fields.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_line_holds_the_board_size_and_each_figure() {
        let light = BenchResult {
            name: "light_go9",
            playouts: 10,
            per_second: 1234.4,
            average_length: 110.0,
            black_wins: 0.5,
        };
        let search = BenchResult {
            name: "search_go9",
            average_length: 0.0,
            per_second: 99.6,
            ..light.clone()
        };
        assert_eq!(
            to_json(&[light, search]),
            format!(
                "{{\"board_bytes\":{},\"light_go9\":1234,\"light_go9_length\":110.00,\"search_go9\":100}}",
                board_bytes()
            )
        );
    }
}
