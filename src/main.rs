//! The `kosumi` command: GTP engine by default, plus `bench` and `perft`.

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use kosumi::bench;
use kosumi::board::{GameKind, Geometry, Position, perft};
use kosumi::gtp::{self, EngineConfig};

#[derive(Parser)]
#[command(name = "kosumi", version, about = "Go and NoGo engine speaking GTP v2")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// GTP engine: the game to play at start-up (`kosumi-game` switches later).
    #[arg(long, value_enum, default_value = "go")]
    game: GameArg,
    /// GTP engine: serve GTP over TCP on ADDRESS:PORT (a bare PORT means
    /// 127.0.0.1), one controller at a time, instead of stdin/stdout.
    #[arg(long, value_name = "ADDRESS")]
    listen: Option<String>,
    /// GTP engine: search seed (fixed seed and playouts make replies repeatable).
    #[arg(long)]
    seed: Option<u64>,
    /// GTP engine: fixed playouts per move instead of the clock's budget.
    #[arg(long)]
    playouts: Option<u64>,
    /// GTP engine: search threads.
    #[arg(long)]
    threads: Option<usize>,
    /// GTP engine: after genmove answers, keep searching the position until
    /// the next command arrives (`kosumi-param ponder 0|1` switches later).
    #[arg(long)]
    ponder: bool,
    /// GTP engine: live graphics for GoGui on stderr (`gogui-gfx:` lines)
    /// while genmove searches (`kosumi-param gogui_gfx 0|1` switches later).
    #[arg(long)]
    gogui_gfx: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Go,
    Nogo,
}

impl From<GameArg> for GameKind {
    fn from(game: GameArg) -> GameKind {
        match game {
            GameArg::Go => GameKind::Go,
            GameArg::Nogo => GameKind::NoGo,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Light playouts per second on fixed positions with a fixed seed.
    Bench {
        /// End with one JSON line of the figures.
        #[arg(long)]
        json: bool,
        /// Multiply the playout counts (smaller is quicker, noisier).
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
        /// Run only the benchmarks whose name contains this text.
        #[arg(long, default_value = "")]
        only: String,
    },
    /// Rules check: reachable positions (Go) or move sequences (NoGo).
    Perft {
        #[arg(long, value_enum, default_value = "go")]
        game: GameArg,
        /// Board side, or COLSxROWS.
        #[arg(long, default_value = "3")]
        size: String,
        /// Go: stones placed at most (default: all reachable positions).
        /// NoGo: length of the move sequences.
        #[arg(long)]
        depth: Option<usize>,
    },
}

fn parse_size(text: &str) -> Result<Geometry, String> {
    let parts: Vec<&str> = text.split(['x', 'X']).collect();
    let numbers: Result<Vec<usize>, _> = parts.iter().map(|p| p.trim().parse::<usize>()).collect();
    let geometry = match numbers.as_deref() {
        Ok([n]) => Geometry::square(*n),
        Ok([cols, rows]) => Geometry::new(*cols, *rows),
        _ => return Err(format!("bad size '{text}': use N or COLSxROWS")),
    };
    geometry.map_err(|e| format!("bad size '{text}': {e}"))
}

fn run_perft(game: GameKind, geometry: Geometry, depth: Option<usize>) -> Result<(), String> {
    let label = format!("{}x{}", geometry.width(), geometry.height());
    match game {
        GameKind::Go => {
            let counts = perft::go_reachable(geometry, depth).map_err(|_| {
                format!(
                    "Go reachable-position counts need at most {} points",
                    perft::MAX_REACHABLE_AREA
                )
            })?;
            let mut total = 0;
            for (d, new) in counts.new_at_depth.iter().enumerate() {
                total += new;
                println!("go {label} depth {d}: {new} new, {total} total");
            }
            println!(
                "go {label} positions {} distinct hashes {}",
                counts.total, counts.distinct_hashes
            );
        }
        GameKind::NoGo => {
            let root = Position::new(geometry, GameKind::NoGo);
            for d in 1..=depth.unwrap_or(3) {
                println!(
                    "nogo {label} depth {d}: {}",
                    perft::move_sequences(&root, d)
                );
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => {
            let config = EngineConfig {
                game: cli.game.into(),
                seed: cli.seed,
                playouts: cli.playouts,
                threads: cli.threads,
                base_dir: None,
                ponder: cli.ponder,
                gogui_gfx: cli.gogui_gfx,
            };
            match &cli.listen {
                Some(address) => gtp::run_listen(address, config),
                None => gtp::run_stdio(config),
            }
            .map_err(|error| format!("GTP: {error}"))
        }
        Some(Command::Bench { json, scale, only }) => {
            let results = bench::standard(scale, &only);
            for r in &results {
                if r.average_length > 0.0 {
                    println!(
                        "{:<16} {:>10.0} playouts/s  {:>7.2} moves/playout  black wins {:.3}  ({} playouts)",
                        r.name, r.per_second, r.average_length, r.black_wins, r.playouts
                    );
                } else {
                    println!(
                        "{:<16} {:>10.0} playouts/s  black win rate {:.3}  ({} playouts)",
                        r.name, r.per_second, r.black_wins, r.playouts
                    );
                }
            }
            if json {
                println!("{}", bench::to_json(&results));
            }
            Ok(())
        }
        Some(Command::Perft { game, size, depth }) => {
            parse_size(&size).and_then(|g| run_perft(game.into(), g, depth))
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kosumi: {message}");
            ExitCode::FAILURE
        }
    }
}
