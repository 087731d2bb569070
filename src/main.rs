//! The `kosumi` command: GTP engine by default, plus `bench` and `perft`.

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use kosumi::bench;
use kosumi::board::{GameKind, Geometry, Position, perft};
use kosumi::gtp::{self, EngineConfig};
use kosumi::search::SearchParams;

#[derive(Parser)]
#[command(name = "kosumi", version, about = "Go and NoGo engine speaking GTP v2")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// GTP engine: the game to play at start-up (`kosumi-game` switches later).
    #[arg(long, value_enum, default_value = "go")]
    game: GameArg,
    /// GTP engine: board side at start-up (default 19 for Go, 9 for NoGo),
    /// as if `boardsize N` had been sent. GoGui reads it through
    /// `gogui-rules_board_size`.
    #[arg(long, value_name = "N", value_parser = parse_board_side)]
    size: Option<usize>,
    /// GTP engine: komi at start-up (default 7.5 for Go, 0 for NoGo).
    #[arg(long, value_name = "K", value_parser = parse_start_komi, allow_hyphen_values = true)]
    komi: Option<f32>,
    /// GTP engine: seconds kept back for network and process lag from every
    /// overtime period (at most a fifth of it) and once from main time
    /// (`kosumi-param lag` sets it later).
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = parse_lag_seconds)]
    lag: std::time::Duration,
    /// GTP engine: for Lizzie 0.7, answer `version` as Leela Zero 0.17
    /// (`0.17 (Kosumi x.y.z)`): Lizzie refuses to analyse with an engine
    /// whose version it does not take for Leela Zero 0.15 or later.
    #[arg(long)]
    lizzie: bool,
    /// GTP engine: serve GTP over TCP on ADDRESS:PORT (a bare PORT means
    /// 127.0.0.1) instead of stdin/stdout. Remote controllers may not
    /// reach files (see --files-dir) and get capped tunables.
    #[arg(long, value_name = "ADDRESS")]
    listen: Option<String>,
    /// GTP engine: let --listen bind an address beyond loopback. GTP has no
    /// authentication: anyone who can connect controls the engine.
    #[arg(long)]
    listen_any: bool,
    /// GTP engine over TCP: controllers served at once, each with its own
    /// engine and game; the others wait.
    #[arg(long, value_name = "N", default_value_t = 1)]
    max_controllers: usize,
    /// GTP engine over TCP: close a connection idle this many seconds while
    /// no command runs (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = gtp::DEFAULT_IDLE_TIMEOUT.as_secs())]
    idle_timeout: u64,
    /// GTP engine over TCP: close a connection whose controller has not
    /// read a reply for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = gtp::DEFAULT_WRITE_TIMEOUT.as_secs())]
    write_timeout: u64,
    /// GTP engine over TCP: the folder remote loadsgf/printsgf are confined
    /// to (relative paths only); without it they are refused.
    #[arg(long, value_name = "DIR")]
    files_dir: Option<std::path::PathBuf>,
    /// GTP engine: loadsgf refuses files larger than this.
    #[arg(long, value_name = "BYTES", default_value_t = gtp::DEFAULT_MAX_SGF_BYTES)]
    max_sgf_bytes: u64,
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
    /// GTP engine: always search, never play the opening book's move
    /// (`kosumi-param opening_book 0|1` switches later).
    #[arg(long)]
    no_book: bool,
    /// GTP engine: hard cap on search-tree memory in MiB (the tree stops
    /// growing there; the search goes on).
    #[arg(long, value_name = "MIB")]
    max_tree_mb: Option<u32>,
    /// GTP engine: a search tunable as NAME=VALUE (repeatable; the names are
    /// those `kosumi-param` lists).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Go,
    Nogo,
}

/// The search `kosumi solve` proves with.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
enum SolveMethod {
    /// Negamax with a transposition table, symmetries, region bounds,
    /// threads and checkpoints (the engine's solver).
    Negamax,
    /// Depth-first proof-number search over a board of its own: a second,
    /// independent method to check the first (one thread, one winning
    /// move, no checkpoint).
    Dfpn,
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
        /// Search tunable as NAME=VALUE (repeatable; see `kosumi-param`).
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
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
    /// Solve NoGo on an empty board exactly: winner and winning first moves.
    Solve(SolveArgs),
}

/// The arguments of `kosumi solve`.
#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// Board side, or COLSxROWS.
    #[arg(long, default_value = "4")]
    size: String,
    #[arg(long, value_enum, default_value = "negamax")]
    method: SolveMethod,
    /// Give up after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Transposition table size in MiB (default: chosen from the size).
    #[arg(long)]
    table_mb: Option<usize>,
    /// Stop at the first winning move instead of classifying them all.
    #[arg(long)]
    first_win: bool,
    /// Threads searching together, sharing the table (the answer does
    /// not depend on it; the node count does).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Start from this checkpoint if it exists, and keep writing it
    /// (the proved positions, so a stopped solve can go on later).
    #[arg(long)]
    checkpoint: Option<std::path::PathBuf>,
    /// Minutes between checkpoint writes.
    #[arg(long, default_value_t = 10.0)]
    checkpoint_minutes: f64,
    /// Solve the position after these moves, Black first, one argument
    /// (e.g. --moves "E5 C3") instead of the empty board.
    #[arg(long, default_value = "")]
    moves: String,
}

fn parse_board_side(text: &str) -> Result<usize, String> {
    let range = gtp::MIN_BOARD_SIZE..=kosumi::board::MAX_SIZE;
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|side| range.contains(side))
        .ok_or_else(|| {
            format!(
                "give a board side from {} to {}",
                range.start(),
                range.end()
            )
        })
}

fn parse_start_komi(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|komi| komi.is_finite() && komi.abs() <= 1000.0)
        .ok_or_else(|| "give komi as a number from -1000 to 1000".to_string())
}

fn parse_lag_seconds(text: &str) -> Result<std::time::Duration, String> {
    gtp::parse_lag(text)
        .map_err(|_| format!("give the lag in seconds, 0 to {}", gtp::MAX_LAG_SECONDS))
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

/// Search tunables from `NAME=VALUE` texts, over the defaults.
fn parse_params(texts: &[String]) -> Result<SearchParams, String> {
    let mut params = SearchParams::default();
    for text in texts {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("bad --param '{text}': use NAME=VALUE"))?;
        params.set(name, value).map_err(|e| e.to_string())?;
    }
    Ok(params)
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

/// `kosumi solve`: the exact NoGo result of an empty board, progress on stderr.
fn run_solve(args: SolveArgs) -> Result<(), String> {
    use kosumi::nogo::solver::solve_with;

    let geometry = parse_size(&args.size)?;
    let root = position_after(geometry, &args.moves)?;
    if args.method == SolveMethod::Dfpn {
        return run_dfpn(&args, &root);
    }
    let options = solve_options(&args)?;
    let outcome = solve_with(&root, &options, &mut |p| {
        let frontier: Vec<String> = p
            .frontier
            .iter()
            .take_while(|&&(number, _)| number > 0)
            .map(|(number, count)| format!("{number}/{count}"))
            .collect();
        eprintln!(
            "solve: {} nodes, depth {}, root moves {}/{}, path {}, {:.1} s",
            p.nodes,
            p.depth,
            p.root_moves_done,
            p.root_moves,
            frontier.join(" "),
            p.elapsed.as_secs_f64()
        );
    });
    print_solve(&outcome, geometry, args.first_win)
}

/// `kosumi solve --method dfpn`: the second solver's verdict on `root`.
fn run_dfpn(args: &SolveArgs, root: &Position) -> Result<(), String> {
    use kosumi::nogo::dfpn::{DfpnOptions, solve_dfpn};
    use kosumi::nogo::solver::{SolveOutcome, SolveStatus};

    if args.threads != 1 || args.checkpoint.is_some() {
        return Err("--threads and --checkpoint are for --method negamax".to_string());
    }
    let limit = solve_options(args)?.limit;
    let options = DfpnOptions {
        limit,
        table_mb: args.table_mb.unwrap_or(DfpnOptions::default().table_mb),
    };
    let found = solve_dfpn(root, &options)
        .ok_or_else(|| "df-pn takes NoGo boards of at most 64 points".to_string())?;
    let outcome = SolveOutcome {
        status: if found.winner.is_some() {
            SolveStatus::Complete
        } else {
            SolveStatus::OutOfTime
        },
        winner: found.winner,
        winning_moves: found.winning_move.into_iter().collect(),
        losing_moves: Vec::new(),
        unresolved_moves: Vec::new(),
        nodes: found.nodes,
        elapsed: found.elapsed,
    };
    print_solve(&outcome, root.geometry(), true)
}

/// The NoGo position after `moves` (vertices, Black first) on an empty board.
fn position_after(geometry: Geometry, moves: &str) -> Result<Position, String> {
    use kosumi::gtp::parse::{Vertex, parse_vertex};

    let mut position = Position::new(geometry, GameKind::NoGo);
    for word in moves.split_whitespace() {
        let point = match parse_vertex(word, geometry.width(), geometry.height()) {
            Ok(Vertex::Point { col, row }) => geometry.point_unchecked(col, row),
            _ => return Err(format!("bad move '{word}': give vertices on the board")),
        };
        let mover = position.to_move();
        if !position.is_legal(point, mover) {
            return Err(format!("illegal move '{word}'"));
        }
        position.play(point, mover);
    }
    Ok(position)
}

/// The solver's options from `kosumi solve`'s arguments.
fn solve_options(args: &SolveArgs) -> Result<kosumi::nogo::solver::SolveOptions, String> {
    use kosumi::nogo::solver::{Checkpoint, SolveOptions};
    use std::time::Duration;

    let limit = match args.time {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s.min(1e9))),
        Some(s) => return Err(format!("bad time '{s}': give a positive number of seconds")),
        None => None,
    };
    let minutes = args.checkpoint_minutes;
    if !(minutes.is_finite() && minutes > 0.0) {
        return Err(format!(
            "bad checkpoint interval '{minutes}': give a positive number of minutes"
        ));
    }
    Ok(SolveOptions {
        limit,
        table_mb: args.table_mb,
        all_moves: !args.first_win,
        threads: args.threads.into(),
        checkpoint: args.checkpoint.clone().map(|path| Checkpoint {
            path,
            every: Duration::from_secs_f64((minutes * 60.0).min(1e9)),
        }),
        ..SolveOptions::default()
    })
}

/// Prints what a solve on a `geometry` board found.
fn print_solve(
    outcome: &kosumi::nogo::solver::SolveOutcome,
    geometry: Geometry,
    first_win: bool,
) -> Result<(), String> {
    use kosumi::board::Color;
    use kosumi::gtp::parse::{Vertex, format_vertex};
    use kosumi::nogo::solver::SolveStatus;

    let name = |points: &[kosumi::board::Point]| -> String {
        points
            .iter()
            .filter_map(|&p| geometry.coords(p))
            .map(|(col, row)| format_vertex(Vertex::Point { col, row }))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let label = format!("{}x{}", geometry.width(), geometry.height());
    let winner = match outcome.winner {
        Some(Color::Black) => "first",
        Some(Color::White) => "second",
        None => "unknown",
    };
    match outcome.status {
        SolveStatus::Unsupported => {
            return Err(format!(
                "the solver takes boards of at most {} points",
                kosumi::nogo::solver::MAX_SOLVER_AREA
            ));
        }
        SolveStatus::BadCheckpoint => {
            return Err("the checkpoint could not be loaded (the log says why)".to_string());
        }
        _ => {}
    }
    println!("board {label} (columns x rows)");
    println!("winner {winner}");
    match outcome.status {
        SolveStatus::Complete if first_win && outcome.winner == Some(Color::Black) => {
            println!("a winning move {}", name(&outcome.winning_moves));
        }
        SolveStatus::Complete => println!("winning moves {}", name(&outcome.winning_moves)),
        _ => {
            println!("winning moves (so far) {}", name(&outcome.winning_moves));
            println!("unresolved moves {}", name(&outcome.unresolved_moves));
        }
    }
    println!("nodes {}", outcome.nodes);
    println!("time {:.3} s", outcome.elapsed.as_secs_f64());
    Ok(())
}

/// The GTP engine, on stdin/stdout or TCP as `cli` says.
fn run_engine(cli: &Cli, params: SearchParams) -> Result<(), String> {
    let config = EngineConfig {
        game: cli.game.into(),
        size: cli.size,
        komi: cli.komi,
        lag: cli.lag,
        lizzie: cli.lizzie,
        seed: cli.seed,
        playouts: cli.playouts,
        threads: cli.threads,
        max_sgf_bytes: cli.max_sgf_bytes,
        ponder: cli.ponder,
        gogui_gfx: cli.gogui_gfx,
        opening_book: !cli.no_book,
        params,
        ..EngineConfig::default()
    };
    match &cli.listen {
        Some(address) => {
            let options = gtp::ListenOptions {
                address: address.clone(),
                any_address: cli.listen_any,
                idle_timeout: (cli.idle_timeout > 0)
                    .then(|| std::time::Duration::from_secs(cli.idle_timeout)),
                write_timeout: std::time::Duration::from_secs(cli.write_timeout.max(1)),
                max_controllers: cli.max_controllers.max(1),
                files_dir: cli.files_dir.clone(),
            };
            gtp::run_listen(&options, config)
        }
        None => gtp::run_stdio(config),
    }
    .map_err(|error| format!("GTP: {error}"))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => {
            let mut texts = cli.params.clone();
            if let Some(mib) = cli.max_tree_mb {
                texts.push(format!("max_tree_mb={mib}"));
            }
            parse_params(&texts).and_then(|params| run_engine(&cli, params))
        }
        Some(Command::Bench {
            json,
            scale,
            only,
            params,
        }) => parse_params(&params).map(|params| {
            let results = bench::standard(scale, &only, &params);
            println!("{:<16} {:>10} bytes", "playout board", bench::board_bytes());
            for r in &results {
                if r.name.starts_with("rate_") {
                    println!(
                        "{:<16} {:>10.0} positions/s  {:>7.1} us/position  ({} candidates, {} ratings)",
                        r.name,
                        r.per_second,
                        1e6 / r.per_second,
                        r.average_length,
                        r.playouts
                    );
                } else if r.average_length > 0.0 {
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
        }),
        Some(Command::Perft { game, size, depth }) => {
            parse_size(&size).and_then(|g| run_perft(game.into(), g, depth))
        }
        Some(Command::Solve(args)) => run_solve(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kosumi: {message}");
            ExitCode::FAILURE
        }
    }
}
