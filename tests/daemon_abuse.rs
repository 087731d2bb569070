//! The daemon against broken and hostile controllers, on loopback: every
//! reproducer gets a clear answer within a second or two, the daemon goes on
//! serving the next controller, and its memory stays under 256 MiB.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

mod daemon;

/// Peak memory the daemon may reach over the whole test.
const MAX_RSS_KIB: u64 = 256 * 1024;

/// A daemon on a free loopback port; killed when dropped.
struct Daemon {
    child: Child,
    address: String,
}

impl Daemon {
    fn start(args: &[&str]) -> Daemon {
        let mut all = vec!["--threads", "1", "--playouts", "16"];
        all.extend_from_slice(args);
        let (child, address) = daemon::start(&all);
        Daemon { child, address }
    }

    fn connect(&self) -> Controller {
        let stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        Controller {
            reader: BufReader::new(stream.try_clone().unwrap()),
            stream,
        }
    }

    /// Peak resident memory so far (Linux), in KiB.
    fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| value.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Controller {
    reader: BufReader<TcpStream>,
    stream: TcpStream,
}

impl Controller {
    fn send(&mut self, text: &str) {
        self.stream.write_all(text.as_bytes()).unwrap();
    }

    /// The next reply, blank line dropped, and how long it took.
    fn reply(&mut self) -> (String, Duration) {
        let started = Instant::now();
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            let read = self.reader.read_line(&mut line).expect("a reply in time");
            assert!(read > 0, "connection closed; so far {reply:?}");
            if line == "\n" {
                return (reply.trim_end().to_string(), started.elapsed());
            }
            reply.push_str(&line);
        }
    }

    /// Sends one command and returns its reply, which must come within
    /// `limit`.
    fn ask(&mut self, command: &str, limit: Duration) -> String {
        self.send(&format!("{command}\n"));
        let (reply, took) = self.reply();
        assert!(took <= limit, "{command}: {took:?} for {reply:?}");
        reply
    }
}

const SECOND: Duration = Duration::from_secs(1);

fn scratch_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("kosumi-abuse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

fn make_fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[test]
fn files_are_confined_and_bounded() {
    let folder = scratch_folder("files");
    let inside = folder.join("inside");
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::write(folder.join("outside.sgf"), "(;SZ[9];B[ee])").unwrap();
    std::fs::write(inside.join("game.sgf"), "(;SZ[9];B[ee])").unwrap();
    std::fs::write(
        inside.join("big.sgf"),
        "(;SZ[9]".to_string() + &";B[]".repeat(2 << 20),
    )
    .unwrap();
    make_fifo(&inside.join("fifo.sgf"));
    std::os::unix::fs::symlink(folder.join("outside.sgf"), inside.join("link.sgf")).unwrap();

    let refused = Daemon::start(&[]);
    let mut controller = refused.connect();
    let reply = controller.ask("loadsgf game.sgf", SECOND);
    assert!(reply.starts_with("? files are off"), "{reply}");
    let reply = controller.ask("printsgf out.sgf", SECOND);
    assert!(reply.starts_with("? files are off"), "{reply}");
    drop(refused);

    let inside_text = inside.display().to_string();
    let daemon = Daemon::start(&["--files-dir", &inside_text, "--max-sgf-bytes", "4194304"]);
    let mut controller = daemon.connect();
    assert_eq!(controller.ask("loadsgf game.sgf", SECOND), "=");
    assert_eq!(controller.ask("printsgf copy.sgf", SECOND), "=");
    assert!(inside.join("copy.sgf").exists());
    let outside = "? only relative paths inside the files folder";
    for command in [
        "loadsgf /dev/zero",
        "loadsgf ../outside.sgf",
        "loadsgf link.sgf",
        "printsgf ../escape.sgf",
        "printsgf /tmp/escape.sgf",
        "printsgf link.sgf",
    ] {
        assert_eq!(controller.ask(command, SECOND), outside, "{command}");
    }
    assert!(!folder.join("escape.sgf").exists());
    // A FIFO would block a read forever; a file over the cap is not read.
    assert_eq!(
        controller.ask("loadsgf fifo.sgf", SECOND),
        "? cannot load file"
    );
    assert_eq!(
        controller.ask("loadsgf big.sgf", SECOND),
        "? cannot load file"
    );
    let board = controller.ask("showboard", SECOND);
    assert!(board.contains("moves 1"), "the game is unchanged: {board}");
    assert!(daemon.peak_rss_kib() < MAX_RSS_KIB);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn remote_tunables_are_capped_and_lines_bounded() {
    let daemon = Daemon::start(&[]);
    let mut controller = daemon.connect();
    for (command, cap) in [
        ("kosumi-param threads 256", "threads above the cap"),
        (
            "kosumi-param max_tree_mb 65536",
            "max_tree_mb above the cap",
        ),
        (
            "kosumi-param ownership_playouts 4294967295",
            "ownership_playouts above the cap",
        ),
        (
            "kosumi-param aftermath_playouts 4001",
            "aftermath_playouts above the cap",
        ),
    ] {
        let reply = controller.ask(command, SECOND);
        assert!(reply.starts_with(&format!("? {cap}")), "{command}: {reply}");
    }
    assert_eq!(controller.ask("kosumi-param threads", SECOND), "= 1");
    // A 100 MB line of one-letter words: dropped unread, then business as usual.
    controller.send("boardsize 9\nplay b e5\n");
    assert_eq!(controller.reply().0, "=");
    assert_eq!(controller.reply().0, "=");
    let long = "a ".repeat(50_000_000) + "\n";
    controller.send(&long);
    let (reply, _) = controller.reply();
    assert_eq!(reply, "? input line too long");
    let board = controller.ask("showboard", SECOND);
    assert!(board.contains("moves 1"), "{board}");
    assert!(
        daemon.peak_rss_kib() < MAX_RSS_KIB,
        "{}",
        daemon.peak_rss_kib()
    );
}

#[test]
fn long_commands_stop_on_interrupt() {
    let daemon = Daemon::start(&[]);
    let mut controller = daemon.connect();
    controller.ask("kosumi-game nogo", SECOND);
    controller.ask("boardsize 7", SECOND);
    controller.send("kosumi-solve 86400\n");
    std::thread::sleep(Duration::from_millis(500));
    controller.send("# interrupt\n");
    let (reply, took) = controller.reply();
    assert!(took < SECOND, "{took:?}");
    assert!(reply.starts_with("= "), "{reply}");
    controller.ask("kosumi-game go", SECOND);
    controller.ask("boardsize 19", SECOND);
    controller.ask("kosumi-param ownership_playouts 50000", SECOND);
    controller.send("final_score\n");
    std::thread::sleep(Duration::from_millis(300));
    controller.send("# interrupt\n");
    let (reply, took) = controller.reply();
    assert!(took < SECOND, "{took:?}");
    assert!(reply.starts_with("= "), "{reply}");
}

#[test]
fn no_controller_stalls_the_next() {
    let daemon = Daemon::start(&["--idle-timeout", "2", "--write-timeout", "2"]);
    // One that connects and says nothing: closed after the idle timeout.
    let idle = daemon.connect();
    let mut next = daemon.connect();
    let waited = Instant::now();
    assert_eq!(next.ask("name", Duration::from_secs(6)), "= Kosumi");
    assert!(waited.elapsed() >= Duration::from_secs(1));
    drop(next);
    drop(idle);
    // One that floods showboard and never reads: its replies stall, and
    // after the write timeout it is dropped.
    let mut flooder = daemon.connect();
    let flood_stream = flooder.stream.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut stream = flood_stream;
        let lines = "showboard\n".repeat(100_000);
        for _ in 0..30 {
            if stream.write_all(lines.as_bytes()).is_err() {
                return;
            }
        }
    });
    let mut next = daemon.connect();
    assert_eq!(next.ask("name", Duration::from_secs(10)), "= Kosumi");
    assert!(
        daemon.peak_rss_kib() < MAX_RSS_KIB,
        "{}",
        daemon.peak_rss_kib()
    );
    let mut rest = Vec::new();
    flooder.stream.set_read_timeout(Some(SECOND)).unwrap();
    let _ = flooder.reader.read_to_end(&mut rest);
}

#[test]
fn several_controllers_at_once_each_with_its_game() {
    let daemon = Daemon::start(&["--max-controllers", "2"]);
    let mut first = daemon.connect();
    let mut second = daemon.connect();
    first.ask("boardsize 9", SECOND);
    second.ask("boardsize 13", SECOND);
    first.ask("play b e5", SECOND);
    assert!(first.ask("showboard", SECOND).contains("moves 1"));
    assert!(second.ask("showboard", SECOND).contains("moves 0"));
    assert_eq!(second.ask("gogui-rules_board_size", SECOND), "= 13");
}
