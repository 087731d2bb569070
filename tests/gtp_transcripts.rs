//! Runs the GTP transcripts in `gtp-tests/*.gtp` against the engine, in
//! process, through the real session loop (reader thread, channel, pipes).
//!
//! Transcript format, one item a line:
//! - `% ...` is a comment.
//! - `> TEXT` sends TEXT plus a line feed. In TEXT, `\n`, `\r`, `\t`,
//!   `\xHH` and `\\` are escapes, so one step can send several lines in
//!   one write, CRs, tabs and control characters. `$TMP` becomes a
//!   temporary folder of this run.
//! - Every other line is expected output, in order: a literal line
//!   (blank lines too: each reply ends with one), `~ REGEX` for one line
//!   matching REGEX, `~* REGEX` for any number of such lines.
//!
//! After the last step the input is closed; the engine must then exit
//! without writing anything more. Every engine uses seed 1 and 64 playouts
//! per move, so replies are repeatable.

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use kosumi::gtp::commands::command_names;
use kosumi::gtp::parse::parse_command_line;
use kosumi::gtp::{Engine, EngineConfig, serve, spawn_reader};
use support::pattern::Pattern;

const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

enum Expect {
    Line(String),
    One(Pattern),
    Many(Pattern),
}

impl std::fmt::Debug for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expect::Line(line) => write!(f, "{line:?}"),
            Expect::One(pattern) => write!(f, "~ {}", pattern.as_str()),
            Expect::Many(pattern) => write!(f, "~* {}", pattern.as_str()),
        }
    }
}

impl Expect {
    fn accepts(&self, line: &str) -> bool {
        match self {
            Expect::Line(expected) => expected == line,
            Expect::One(pattern) | Expect::Many(pattern) => pattern.matches(line),
        }
    }
}

#[derive(Debug)]
struct Step {
    line_number: usize,
    input: String,
    expected: Vec<Expect>,
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                let code = u8::from_str_radix(&hex, 16).expect("\\x needs two hex digits");
                out.push(char::from(code));
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn parse_transcript(text: &str, tmp: &Path) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('%') {
            continue;
        }
        if let Some(input) = line.strip_prefix("> ").or(line.strip_prefix(">")) {
            let input = unescape(input).replace("$TMP", &tmp.display().to_string());
            steps.push(Step {
                line_number: index + 1,
                input,
                expected: Vec::new(),
            });
            continue;
        }
        let step = steps
            .last_mut()
            .unwrap_or_else(|| panic!("line {}: output before the first `>`", index + 1));
        let expect = if let Some(regex) = line.strip_prefix("~* ") {
            Expect::Many(Pattern::new(regex).expect("bad ~* pattern"))
        } else if let Some(regex) = line.strip_prefix("~ ") {
            Expect::One(Pattern::new(regex).expect("bad ~ pattern"))
        } else {
            Expect::Line(line.to_string())
        };
        step.expected.push(expect);
    }
    steps
}

/// Output lines of the engine, one at a time, with look-ahead.
struct OutputLines {
    lines: Receiver<String>,
    peeked: Option<String>,
    /// The next line starts a reply (the last one was blank).
    reply_start: bool,
    /// First lines of replies that GoGui would misread.
    misframed: Vec<String>,
}

impl OutputLines {
    fn peek(&mut self) -> Option<&str> {
        if self.peeked.is_none() {
            self.peeked = self.lines.recv_timeout(REPLY_TIMEOUT).ok();
        }
        self.peeked.as_deref()
    }

    fn next(&mut self) -> Option<String> {
        self.peek();
        let line = self.peeked.take()?;
        if self.reply_start && !line.is_empty() && !gogui_reads_as_written(&line) {
            self.misframed.push(line.clone());
        }
        self.reply_start = line.is_empty();
        Some(line)
    }
}

/// GoGui's GtpClient takes a reply's text from after the first space of the
/// whole reply, and gogui-regress matches its patterns against that: the
/// status (`=`/`?` and an optional id) must be followed by a space on the
/// first line, or the first word of the reply is lost.
fn gogui_reads_as_written(first_line: &str) -> bool {
    let Some(rest) = first_line.strip_prefix(['=', '?']) else {
        return false;
    };
    rest.trim_start_matches(|c: char| c.is_ascii_digit())
        .starts_with(' ')
}

/// The engine in a thread, fed and read through pipes.
fn start_engine(base_dir: &Path) -> (std::io::PipeWriter, OutputLines, thread::JoinHandle<()>) {
    let (input_reader, input_writer) = std::io::pipe().expect("pipe");
    let (output_reader, mut output_writer) = std::io::pipe().expect("pipe");
    let config = EngineConfig {
        seed: Some(1),
        threads: Some(1),
        playouts: Some(64),
        base_dir: Some(base_dir.to_path_buf()),
        ..EngineConfig::default()
    };
    let engine_thread = thread::spawn(move || {
        let input = spawn_reader(input_reader);
        let mut engine = Engine::new(config);
        serve(&mut engine, &input, &mut output_writer).expect("serve");
    });
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(output_reader).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let output = OutputLines {
        lines: receiver,
        peeked: None,
        reply_start: true,
        misframed: Vec::new(),
    };
    (input_writer, output, engine_thread)
}

/// Runs one transcript; returns the failures as text.
fn run_transcript(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let tmp = std::env::temp_dir().join(format!(
        "kosumi-transcript-{}-{}",
        std::process::id(),
        path.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let steps = parse_transcript(&text, &tmp);
    let base_dir = path.parent().unwrap();
    let (mut input, mut output, engine_thread) = start_engine(base_dir);
    let name = path.display();
    for step in &steps {
        input
            .write_all(format!("{}\n", step.input).as_bytes())
            .map_err(|e| format!("{name}:{}: write: {e}", step.line_number))?;
        for (k, expect) in step.expected.iter().enumerate() {
            if let Expect::Many(pattern) = expect {
                let next = step.expected.get(k + 1);
                while let Some(line) = output.peek() {
                    if next.is_some_and(|n| n.accepts(line)) || !pattern.matches(line) {
                        break;
                    }
                    output.next();
                }
                continue;
            }
            let got = output.next();
            match got {
                Some(line) if expect.accepts(&line) => {}
                other => {
                    return Err(format!(
                        "{name}:{}: `{}`: expected {:?}, got {:?}",
                        step.line_number,
                        step.input.escape_debug(),
                        expect,
                        other
                    ));
                }
            }
        }
    }
    drop(input);
    if let Some(extra) = output.next() {
        return Err(format!("{name}: unexpected output at the end: {extra:?}"));
    }
    if !output.misframed.is_empty() {
        return Err(format!(
            "{name}: replies GoGui would misread (no space after the status): {:?}",
            output.misframed
        ));
    }
    engine_thread
        .join()
        .map_err(|_| format!("{name}: engine thread panicked"))?;
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}

fn transcript_files() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("gtp-tests folder")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "gtp"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", folder.display());
    files
}

#[test]
fn every_transcript_passes() {
    let files = transcript_files();
    let failures: Vec<String> = thread::scope(|scope| {
        let runs: Vec<_> = files
            .iter()
            .map(|file| scope.spawn(move || run_transcript(file)))
            .collect();
        runs.into_iter()
            .filter_map(|run| run.join().expect("transcript thread").err())
            .collect()
    });
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_listed_command_appears_in_a_transcript() {
    let mut used = BTreeSet::new();
    for file in transcript_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for step in parse_transcript(&text, Path::new("/tmp")) {
            for line in step.input.split('\n') {
                if let Some(Ok(command)) = parse_command_line(line) {
                    used.insert(command.name);
                }
            }
        }
    }
    let missing: Vec<&str> = command_names()
        .filter(|name| !used.contains(*name))
        .collect();
    assert!(missing.is_empty(), "commands in no transcript: {missing:?}");
}

#[test]
fn gogui_framing_needs_the_space() {
    assert!(gogui_reads_as_written("= "));
    assert!(gogui_reads_as_written("=12 A1 B2"));
    assert!(gogui_reads_as_written("? illegal move"));
    assert!(!gogui_reads_as_written("="));
    assert!(!gogui_reads_as_written("=7"));
    assert!(!gogui_reads_as_written("info move A1"));
}

#[test]
fn escapes_decode() {
    assert_eq!(unescape(r"a\tb\r\nc\\d\x01"), "a\tb\r\nc\\d\u{1}");
}
