//! An in-process runner for gogui-regress test suites (`.tst` files).
//!
//! Semantics as gogui-regress has them: a line starting with a number is a
//! test whose id is that number; the `#? [pattern]` line after it holds
//! the expected response, matched against the whole response text
//! (case-sensitive regular expression, `|` alternatives). A leading `!`
//! inside the brackets negates it, a `*` after the brackets marks an
//! expected failure. Other lines are sent as they are; `#` lines are
//! comments. Each file gets a fresh engine whose relative file paths
//! start at the file's folder.

use std::fmt;
use std::path::{Path, PathBuf};

use kosumi::gtp::{Engine, EngineConfig, NoInput};

use super::pattern::Pattern;

/// One numbered test and how it went.
#[derive(Clone, Debug)]
pub struct TestOutcome {
    pub id: u32,
    pub line_number: usize,
    pub command: String,
    pub response: String,
    /// The bracketed pattern as written (with any leading `!`).
    pub expected: String,
    pub passed: bool,
    pub expected_failure: bool,
}

/// Results of one suite file.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    pub file: PathBuf,
    pub tests: Vec<TestOutcome>,
    /// Non-test commands that failed (`?` answers), as `line: command -> reply`.
    pub command_errors: Vec<String>,
}

impl SuiteReport {
    /// Tests that failed without a `*` mark.
    pub fn unexpected_failures(&self) -> Vec<&TestOutcome> {
        self.tests
            .iter()
            .filter(|t| !t.passed && !t.expected_failure)
            .collect()
    }

    /// Tests marked `*` that passed (gogui-regress reports these too).
    pub fn unexpected_passes(&self) -> Vec<&TestOutcome> {
        self.tests
            .iter()
            .filter(|t| t.passed && t.expected_failure)
            .collect()
    }

    /// Whether the suite passes as gogui-regress would judge it.
    pub fn ok(&self) -> bool {
        self.unexpected_failures().is_empty() && self.command_errors.is_empty()
    }
}

impl fmt::Display for SuiteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = self.unexpected_failures();
        writeln!(
            f,
            "{}: {} tests, {} unexpected failures, {} unexpected passes, {} command errors",
            self.file.display(),
            self.tests.len(),
            failed.len(),
            self.unexpected_passes().len(),
            self.command_errors.len()
        )?;
        for t in failed {
            writeln!(
                f,
                "  FAIL line {} `{}`: got {:?}, expected [{}]",
                t.line_number, t.command, t.response, t.expected
            )?;
        }
        for e in &self.command_errors {
            writeln!(f, "  ERROR {e}")?;
        }
        Ok(())
    }
}

/// A reply split into its status and text, read as gogui-regress reads it:
/// the text is what follows the first space of the whole reply, trimmed
/// (none when the reply has no space), so a reply framed without the space
/// after its status loses its first word here exactly as it does there.
fn split_reply(reply: &str) -> (bool, String) {
    let success = reply.starts_with('=');
    let text = match reply.find(' ') {
        Some(index) => reply[index..].trim(),
        None => "",
    };
    (success, text.to_string())
}

/// Parses `#? [pattern]` or `#? [pattern]*` into (pattern, expected failure).
fn parse_expectation(line: &str) -> Result<(String, bool), String> {
    let rest = line.trim_start_matches("#?").trim();
    let (inner, marked) = match rest.strip_suffix('*') {
        Some(before) => (before.trim_end(), true),
        None => (rest, false),
    };
    let pattern = inner
        .strip_prefix('[')
        .and_then(|p| p.strip_suffix(']'))
        .ok_or_else(|| format!("expected `#? [pattern]`, got {line:?}"))?;
    Ok((pattern.to_string(), marked))
}

fn pattern_matches(expected: &str, response: &str) -> Result<bool, String> {
    let (negated, source) = match expected.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, expected),
    };
    let pattern = Pattern::new(source).map_err(|e| e.to_string())?;
    Ok(pattern.matches(response) != negated)
}

/// Runs one suite file with a fresh engine made from `config`.
pub fn run_suite(path: &Path, mut config: EngineConfig) -> Result<SuiteReport, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    config.base_dir = path.parent().map(Path::to_path_buf);
    let mut engine = Engine::new(config);
    let mut report = SuiteReport {
        file: path.to_path_buf(),
        tests: Vec::new(),
        command_errors: Vec::new(),
    };
    // The last numbered test, waiting for its `#?` line.
    let mut pending: Option<(u32, usize, String, bool, String)> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = raw.trim();
        if line.starts_with("#?") {
            let Some((id, test_line, command, success, response)) = pending.take() else {
                return Err(format!("line {line_number}: `#?` without a test before it"));
            };
            let (expected, expected_failure) =
                parse_expectation(line).map_err(|e| format!("line {line_number}: {e}"))?;
            let passed = success
                && pattern_matches(&expected, &response)
                    .map_err(|e| format!("line {line_number}: {e}"))?;
            report.tests.push(TestOutcome {
                id,
                line_number: test_line,
                command,
                response,
                expected,
                passed,
                expected_failure,
            });
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut output = Vec::new();
        engine
            .execute_line(line, &mut output, &mut NoInput)
            .map_err(|e| format!("line {line_number}: {e}"))?;
        let (success, response) = split_reply(&String::from_utf8_lossy(&output));
        let first_word = line.split_whitespace().next().unwrap_or("");
        match first_word.parse::<u32>() {
            Ok(id) => pending = Some((id, line_number, line.to_string(), success, response)),
            Err(_) if !success => report
                .command_errors
                .push(format!("line {line_number}: {line} -> ? {response}")),
            Err(_) => {}
        }
    }
    Ok(report)
}

/// `text` as a pattern that matches exactly it: punctuation escaped, line
/// feeds as `\n`.
pub fn escape_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => pattern.push_str("\\n"),
            '\\' | '.' | '[' | ']' | '(' | ')' | '{' | '}' | '*' | '+' | '?' | '|' | '^' | '$'
            | '!' => {
                pattern.push('\\');
                pattern.push(c);
            }
            _ => pattern.push(c),
        }
    }
    pattern
}

/// The suite at `path` with the `#?` line of every numbered test replaced
/// by the exact reply the engine gives now (for suites that pin search
/// results: regenerate, then review the diff). A test that fails with `?`
/// keeps its line. Other lines are kept as they are.
pub fn regenerate_suite(path: &Path, mut config: EngineConfig) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    config.base_dir = path.parent().map(Path::to_path_buf);
    let mut engine = Engine::new(config);
    let mut regenerated = String::with_capacity(text.len());
    let mut pending: Option<String> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with("#?") {
            match pending.take() {
                Some(response) => {
                    regenerated.push_str(&format!("#? [{}]\n", escape_pattern(&response)))
                }
                None => {
                    regenerated.push_str(raw);
                    regenerated.push('\n');
                }
            }
            continue;
        }
        regenerated.push_str(raw);
        regenerated.push('\n');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut output = Vec::new();
        engine
            .execute_line(line, &mut output, &mut NoInput)
            .map_err(|e| format!("line {}: {e}", index + 1))?;
        let (success, response) = split_reply(&String::from_utf8_lossy(&output));
        let numbered = line
            .split_whitespace()
            .next()
            .is_some_and(|word| word.parse::<u32>().is_ok());
        pending = (numbered && success).then_some(response);
    }
    Ok(regenerated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_and_replies_parse() {
        assert_eq!(parse_expectation("#? [C3|D4]"), Ok(("C3|D4".into(), false)));
        assert_eq!(parse_expectation("#? [!PASS]*"), Ok(("!PASS".into(), true)));
        assert!(parse_expectation("#? C3").is_err());
        assert_eq!(split_reply("=12 D4\n\n"), (true, "D4".into()));
        assert_eq!(
            split_reply("? illegal move\n\n"),
            (false, "illegal move".into())
        );
        assert_eq!(split_reply("=\n\n"), (true, String::new()));
        assert_eq!(split_reply("= \nA B\nC\n\n"), (true, "A B\nC".into()));
        // Without the space after the status, GoGui loses the first word.
        assert_eq!(split_reply("=\nA B\nC\n\n"), (true, "B\nC".into()));
        assert!(pattern_matches("!D4", "C3").unwrap());
        assert!(!pattern_matches("D4|C3", "c3").unwrap());
    }

    #[test]
    fn escaped_text_matches_itself_only() {
        let texts = [
            "black C6 win rate 58.7% visits 46 playouts 64",
            "\n\"\" 1.2k 3\n12k \"\"",
            "!a [b] (c) {d} *+?|^$ \\ e.f",
            "",
        ];
        for text in texts {
            let pattern = escape_pattern(text);
            assert!(pattern_matches(&pattern, text).unwrap(), "{pattern}");
            assert!(!pattern_matches(&pattern, &format!("{text}x")).unwrap());
        }
        assert!(!pattern_matches(&escape_pattern("58.7%"), "5807%").unwrap());
    }
}
