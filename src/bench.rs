//! `kosumi bench`: fixed work, fixed seed, playouts per second.

use std::time::Instant;

use rand_xoshiro::rand_core::SeedableRng;

use std::sync::atomic::AtomicBool;

use crate::board::{Game, GameKind, Geometry, Position};
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

/// A tree search from the empty board with `threads` threads: `count`
/// playouts, timed.
pub fn search(
    name: &'static str,
    size: usize,
    kind: GameKind,
    komi: f32,
    count: u64,
    threads: u32,
) -> BenchResult {
    let geometry = Geometry::square(size).expect("bench sizes are valid");
    let game = Game::new(geometry, kind, komi);
    let mut searcher = Searcher::new(SearchParams {
        seed: BENCH_SEED,
        threads,
        ..SearchParams::default()
    });
    let limits = SearchLimits {
        playouts: Some(count),
        time: None,
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

/// The standard set: light playouts and tree searches on 9x9 and 19x19 Go
/// (komi 7) and 9x9 NoGo, those whose name contains `only`. `scale`
/// multiplies the playout counts (1.0 takes some twenty seconds).
pub fn standard(scale: f64, only: &str) -> Vec<BenchResult> {
    let n = move |base: f64| ((base * scale) as u64).max(1);
    type Run = Box<dyn Fn() -> BenchResult>;
    let runs: Vec<(&str, Run)> = vec![
        (
            "light_go9",
            Box::new(move || light_playouts("light_go9", 9, GameKind::Go, 7.0, n(300_000.0))),
        ),
        (
            "light_go19",
            Box::new(move || light_playouts("light_go19", 19, GameKind::Go, 7.0, n(50_000.0))),
        ),
        (
            "light_nogo9",
            Box::new(move || light_playouts("light_nogo9", 9, GameKind::NoGo, 0.0, n(300_000.0))),
        ),
        (
            "search_go9",
            Box::new(move || search("search_go9", 9, GameKind::Go, 7.0, n(100_000.0), 1)),
        ),
        (
            "search_go19",
            Box::new(move || search("search_go19", 19, GameKind::Go, 7.0, n(20_000.0), 1)),
        ),
        (
            "search_nogo9",
            Box::new(move || search("search_nogo9", 9, GameKind::NoGo, 0.0, n(100_000.0), 1)),
        ),
        (
            "search_go9_t2",
            Box::new(move || search("search_go9_t2", 9, GameKind::Go, 7.0, n(200_000.0), 2)),
        ),
        (
            "search_go19_t2",
            Box::new(move || search("search_go19_t2", 19, GameKind::Go, 7.0, n(40_000.0), 2)),
        ),
        (
            "search_nogo9_t2",
            Box::new(move || search("search_nogo9_t2", 9, GameKind::NoGo, 0.0, n(200_000.0), 2)),
        ),
    ];
    runs.into_iter()
        .filter(|(name, _)| name.contains(only))
        .map(|(_, run)| run())
        .collect()
}

/// The results as one JSON object: `name` is playouts per second and, for
/// light playouts, `name_length` the average playout length.
pub fn to_json(results: &[BenchResult]) -> String {
    let fields: Vec<String> = results
        .iter()
        .flat_map(|r| {
            let mut fields = vec![format!("\"{}\":{:.0}", r.name, r.per_second)];
            if r.average_length > 0.0 {
                fields.push(format!("\"{}_length\":{:.2}", r.name, r.average_length));
            }
            fields
        })
        .collect();
    format!("{{{}}}", fields.join(","))
}
