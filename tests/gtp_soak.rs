//! Seeded random-command soak: thousands of random and malformed lines.
//! Every reply must be well formed (`=`/`?` first, exactly one blank line
//! at the end), nothing may panic, and a failed command must leave the
//! board, side to move and komi exactly as they were (showboard before and
//! after are compared).

use kosumi::gtp::commands::command_names;
use kosumi::gtp::parse::parse_command_line;
use kosumi::gtp::{Engine, EngineConfig, NoInput};
use kosumi::search::FastRng;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

const LINES: usize = 4000;

/// Commands the soak must not send at random: `quit` ends the session,
/// and these parameters could make later searches slow or write files.
fn excluded(name: &str) -> bool {
    matches!(name, "quit" | "kosumi-param" | "printsgf")
}

struct Generator {
    rng: FastRng,
    names: Vec<&'static str>,
}

impl Generator {
    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn vertex(&mut self) -> String {
        match self.below(10) {
            0 => self
                .pick(&["pass", "PASS", "i5", "z0", "a0", "A26", "resign", "e", "5e"])
                .to_string(),
            _ => {
                let letters = b"ABCDEFGHJKLMNOPQRSTabcdefghj";
                let col = letters[self.below(letters.len())] as char;
                let rows = if self.below(4) == 0 { 20 } else { 9 };
                let row = 1 + self.below(rows);
                format!("{col}{row}")
            }
        }
    }

    fn argument(&mut self) -> String {
        match self.below(6) {
            0 => self
                .pick(&["b", "w", "B", "W", "black", "white", "x"])
                .to_string(),
            1 | 2 => self.vertex(),
            3 => self
                .pick(&[
                    "-1", "0", "1", "2", "3", "4", "5", "7", "9", "9", "13", "25", "26", "6.5",
                    "1e9", "nan", "x",
                ])
                .to_string(),
            4 => self
                .pick(&[
                    "alive",
                    "dead",
                    "seki",
                    "go",
                    "nogo",
                    "true",
                    "false",
                    "interval",
                    "ownership",
                    "none",
                    "absolute",
                    "byoyomi",
                    "canadian",
                    "chinese",
                    "japanese",
                    "game_9x9.sgf",
                    "dead_stone_7x7.sgf",
                    "bad_unclosed.sgf",
                    "missing.sgf",
                ])
                .to_string(),
            _ => {
                let junk = ["", "é", "\u{212A}", "#", "\u{0}", "--", "9999999999", ";"];
                self.pick(&junk).to_string()
            }
        }
    }

    fn line(&mut self) -> String {
        let name = match self.below(20) {
            0 => self
                .pick(&["frobnicate", "PLAY", "", "#", "12", "99999999999"])
                .to_string(),
            1..=6 => "play".to_string(),
            _ => {
                let index = self.below(self.names.len());
                let name = self.names[index];
                name.to_string()
            }
        };
        let mut words = Vec::new();
        if self.below(5) == 0 {
            words.push(self.below(1000).to_string());
        }
        words.push(name.clone());
        let count = match name.as_str() {
            "play" => {
                if self.below(6) == 0 {
                    self.below(4)
                } else {
                    words.push(self.pick(&["b", "w"]).to_string());
                    words.push(self.vertex());
                    0
                }
            }
            "boardsize" => {
                words.push(
                    self.pick(&["2", "3", "5", "7", "9", "1", "26", "x"])
                        .to_string(),
                );
                0
            }
            _ => self.below(4),
        };
        for _ in 0..count {
            let arg = self.argument();
            words.push(arg);
        }
        let separator = if self.below(10) == 0 { "\t" } else { " " };
        let mut line = words.join(separator);
        match self.below(12) {
            0 => line.push('\r'),
            1 => line.push_str(" # comment"),
            2 => {
                let mut at = self.below(line.len() + 1);
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                line.insert(at, '\u{7}');
            }
            _ => {}
        }
        line
    }
}

fn run(engine: &mut Engine, line: &str) -> String {
    let mut out = Vec::new();
    engine
        .execute_line(line, &mut out, &mut NoInput)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("replies are UTF-8")
}

/// Checks the framing of one reply; returns whether it was a failure.
fn check_reply(line: &str, reply: &str) -> Option<bool> {
    let parsed = parse_command_line(line);
    if parsed.is_none() {
        assert_eq!(reply, "", "blank or comment line {line:?} got a reply");
        return None;
    }
    assert!(
        reply.starts_with('=') || reply.starts_with('?'),
        "{line:?}: reply {reply:?} does not start with = or ?"
    );
    assert!(
        reply.ends_with("\n\n"),
        "{line:?}: reply {reply:?} does not end with a blank line"
    );
    assert_eq!(
        reply.matches("\n\n").count(),
        1,
        "{line:?}: reply {reply:?} holds a blank line inside"
    );
    if let Some(Ok(command)) = parsed
        && let Some(id) = command.id
    {
        let status_and_id = reply.split([' ', '\n']).next().unwrap_or("");
        assert_eq!(
            &status_and_id[1..],
            id.to_string(),
            "{line:?}: id not echoed in {reply:?}"
        );
    }
    Some(reply.starts_with('?'))
}

#[test]
fn random_lines_get_well_formed_replies_and_failures_change_nothing() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let mut engine = Engine::new(EngineConfig {
        seed: Some(7),
        threads: Some(1),
        playouts: Some(8),
        base_dir: Some(folder),
        ..EngineConfig::default()
    });
    run(&mut engine, "kosumi-param ownership_playouts 16");
    // Counting plays unsure boards out, two games of searches: kept tiny.
    run(&mut engine, "kosumi-param aftermath_playouts 16");
    run(&mut engine, "boardsize 7");
    let mut generator = Generator {
        rng: FastRng::seed_from_u64(20261122),
        names: command_names().filter(|name| !excluded(name)).collect(),
    };
    let (mut failures, mut successes) = (0, 0);
    for _ in 0..LINES {
        let line = generator.line();
        let before = run(&mut engine, "showboard");
        let reply = run(&mut engine, &line);
        match check_reply(&line, &reply) {
            Some(true) => {
                failures += 1;
                let after = run(&mut engine, "showboard");
                assert_eq!(
                    before, after,
                    "{line:?} failed ({reply:?}) but changed the engine"
                );
            }
            Some(false) => successes += 1,
            None => {}
        }
    }
    // The generator must exercise both paths a fair amount.
    assert!(
        failures > LINES / 10 && successes > LINES / 10,
        "{failures} failures, {successes} successes"
    );
}
