//! The daemon as a process and as a session: stdin/stdout and TCP, quit
//! and end of input, `# interrupt` timing, determinism, and printsgf
//! records that load back to the same position.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kosumi::gtp::{Engine, EngineConfig, NoInput};

const KOSUMI: &str = env!("CARGO_BIN_EXE_kosumi");

mod daemon;

fn run(engine: &mut Engine, line: &str) -> String {
    let mut out = Vec::new();
    engine.execute_line(line, &mut out, &mut NoInput).unwrap();
    String::from_utf8(out).unwrap()
}

fn engine(seed: u64) -> Engine {
    Engine::new(EngineConfig {
        seed: Some(seed),
        threads: Some(1),
        playouts: Some(16),
        ..EngineConfig::default()
    })
}

#[test]
fn stdio_quit_answers_and_exits_at_once() {
    let mut child = Command::new(KOSUMI)
        .args(["--seed", "3", "--playouts", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Sabaki's attach: four commands in one write; quit keeps stdin open.
    stdin
        .write_all(
            b"name\nversion\nprotocol_version\nlist_commands\nboardsize 9\ngenmove b\nquit\n",
        )
        .unwrap();
    let started = Instant::now();
    let status = child.wait().unwrap();
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(10));
    let mut output = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    let replies: Vec<&str> = output.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 7, "{output:?}");
    assert_eq!(replies[0], "= Kosumi");
    assert_eq!(replies[2], "= 2");
    assert!(replies[5].starts_with("= "), "{output:?}");
    assert_eq!(replies[6], "= ");
    drop(stdin);
}

#[test]
fn stdio_end_of_input_exits_cleanly() {
    let output = answers(&["--game", "nogo"], "gogui-rules_game_id\n");
    assert_eq!(output, "= Nogo\n\n");
}

/// The replies of a process started with `args` to `input`, closed after.
fn answers(args: &[&str], input: &str) -> String {
    let mut child = Command::new(KOSUMI)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{args:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// GoGui adopts `gogui-rules_board_size` whatever its own `-size` said, and
/// a NoGo engine is its ruler, whose board size cannot be changed: the size
/// has to be right from the start.
#[test]
fn board_size_and_komi_from_the_command_line() {
    let ask = "gogui-rules_board_size\nkomi_get\n";
    assert_eq!(answers(&[], ask), "= 19\n\n? unknown command\n\n");
    assert_eq!(
        answers(&["--game", "nogo"], ask),
        "= 9\n\n? unknown command\n\n"
    );
    let board = answers(&["--size", "7", "--komi", "-2.5"], "showboard\n");
    assert!(board.contains(" 7 . . . . . . . 7"), "{board}");
    assert!(board.contains("komi -2.5"), "{board}");
    let nogo = answers(
        &["--game", "nogo", "--size", "13"],
        "gogui-rules_board_size\n",
    );
    assert_eq!(nogo, "= 13\n\n");
    for bad in [["--size", "26"], ["--size", "1"], ["--komi", "nan"]] {
        let status = Command::new(KOSUMI)
            .args(bad)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success(), "{bad:?}");
    }
}

/// Lizzie 0.7 reads the second number of `version`'s first word as Leela
/// Zero's minor version and needs at least 15; other controllers see
/// Kosumi's own version.
#[test]
fn version_for_lizzie_only_when_asked() {
    let own = answers(&[], "2 version\n");
    assert_eq!(own, format!("=2 {}\n\n", env!("CARGO_PKG_VERSION")));
    let lizzie = answers(&["--lizzie"], "2 version\n");
    let first_word = lizzie
        .strip_prefix("=2 ")
        .and_then(|text| text.split_whitespace().next())
        .expect("a version");
    let minor: u32 = first_word.split('.').nth(1).unwrap().parse().unwrap();
    assert!(minor >= 15, "{lizzie}");
}

#[test]
fn listen_serves_controllers_one_after_another() {
    let (mut child, address) = daemon::start(&["--playouts", "16"]);
    for round in 0..2 {
        let stream = TcpStream::connect(&address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        writer
            .write_all(b"1 name\nboardsize 5\n2 genmove b\nquit\n")
            .unwrap();
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        let replies: Vec<&str> = text.split_terminator("\n\n").collect();
        assert_eq!(replies.len(), 4, "round {round}: {text:?}");
        assert_eq!(replies[0], "=1 Kosumi");
        assert!(replies[2].starts_with("=2 "), "{text:?}");
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn interrupt_stops_a_long_genmove_quickly() {
    let mut child = Command::new(KOSUMI)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // An hour of main time: about two minutes for the first move.
    stdin
        .write_all(b"boardsize 9\ntime_settings 3600 0 0\ngenmove b\n")
        .unwrap();
    let mut line = String::new();
    for _ in 0..4 {
        line.clear();
        stdout.read_line(&mut line).unwrap();
    }
    std::thread::sleep(Duration::from_millis(300));
    let interrupted = Instant::now();
    stdin.write_all(b"# interrupt\nname\n").unwrap();
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert!(
        interrupted.elapsed() < Duration::from_secs(2),
        "took {:?}",
        interrupted.elapsed()
    );
    assert!(line.starts_with("= ") && line.trim().len() >= 3, "{line:?}");
    let mut rest = String::new();
    stdout.read_line(&mut rest).unwrap();
    rest.clear();
    stdout.read_line(&mut rest).unwrap();
    assert_eq!(rest, "= Kosumi\n");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn same_seed_same_game() {
    let play = |seed| {
        let mut engine = engine(seed);
        run(&mut engine, "boardsize 7");
        let mut transcript = String::new();
        for k in 0..30 {
            let color = if k % 2 == 0 { "b" } else { "w" };
            transcript.push_str(&run(&mut engine, &format!("genmove {color}")));
        }
        transcript.push_str(&run(&mut engine, "final_score"));
        transcript
    };
    assert_eq!(play(11), play(11));
}

/// Plays a varied game (handicap as plain moves, passes, captures), writes
/// it with printsgf and loads it into a fresh engine.
#[test]
fn printsgf_loads_back_to_the_same_position() {
    let folder = std::env::temp_dir().join(format!("kosumi-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let setups: [&[&str]; 4] = [
        &["boardsize 9", "komi 6.5"],
        &["boardsize 9", "play b c3", "play b g7", "play b e5"],
        &["boardsize 9", "fixed_handicap 4", "komi 0.5"],
        &["kosumi-game nogo", "boardsize 5"],
    ];
    for (k, setup) in setups.iter().enumerate() {
        let mut original = engine(k as u64);
        for line in *setup {
            assert!(run(&mut original, line).starts_with('='), "{line}");
        }
        for move_number in 0..40 {
            let color = if move_number % 2 == 0 { "w" } else { "b" };
            let reply = run(&mut original, &format!("genmove {color}"));
            if reply.contains("resign") {
                break;
            }
        }
        let file = folder.join(format!("game{k}.sgf"));
        let reply = run(&mut original, &format!("printsgf {}", file.display()));
        assert_eq!(reply, "= \n\n");
        let mut loaded = engine(99);
        if setup.contains(&"kosumi-game nogo") {
            run(&mut loaded, "kosumi-game nogo");
        }
        let reply = run(&mut loaded, &format!("loadsgf {}", file.display()));
        assert_eq!(
            reply,
            "= \n\n",
            "{}",
            std::fs::read_to_string(&file).unwrap()
        );
        for question in ["gogui-rules_board", "gogui-rules_side_to_move"] {
            assert_eq!(
                run(&mut original, question),
                run(&mut loaded, question),
                "setup {k}"
            );
        }
        assert_eq!(
            run(&mut original, "printsgf"),
            run(&mut loaded, "printsgf"),
            "setup {k}"
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
}
