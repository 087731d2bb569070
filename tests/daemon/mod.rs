//! Starting the daemon on a free loopback port, for the tests that talk to
//! it over TCP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts `kosumi --listen 127.0.0.1:0` with `args` and returns the process
/// and the address it listens on (the last word of its first log line).
/// Its stderr is drained from then on, so it never blocks on a full pipe.
pub fn start(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the daemon starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("a first log line");
    let address = line
        .split_whitespace()
        .last()
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, address)
}
