//! A small regular-expression matcher for test expectations (gogui-regress
//! `#? [...]` lines and transcript `~` lines), so the project needs no
//! regex crate.
//!
//! Supported: literals, `.`, classes `[a-z]` and `[^...]`, escapes `\d \w
//! \s \D \W \S` and escaped punctuation, groups `(...)`, alternation `|`,
//! quantifiers `* + ?` and `{m}`, `{m,}`, `{m,n}`, anchors `^ $`. A pattern
//! matches a whole text, as Java's `String.matches` does in GoGui.

use std::fmt;

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    root: Alternation,
}

/// Why a pattern could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub pattern: String,
    pub reason: &'static str,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad pattern {:?}: {}", self.pattern, self.reason)
    }
}

impl std::error::Error for PatternError {}

#[derive(Clone, Debug)]
struct Alternation(Vec<Vec<Piece>>);

#[derive(Clone, Debug)]
struct Piece {
    atom: Atom,
    min: usize,
    max: Option<usize>,
}

#[derive(Clone, Debug)]
enum Atom {
    Char(char),
    Any,
    Class {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
    Group(Alternation),
    Start,
    End,
}

impl Pattern {
    pub fn new(source: &str) -> Result<Pattern, PatternError> {
        let chars: Vec<char> = source.chars().collect();
        let mut parser = Parser {
            chars: &chars,
            at: 0,
            source,
        };
        let root = parser.alternation()?;
        if parser.at != chars.len() {
            return Err(parser.error("unbalanced ')'"));
        }
        Ok(Pattern {
            source: source.to_string(),
            root,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let matcher = Matcher { text: &chars };
        matcher.alternation(&self.root, 0, &mut |end| end == chars.len())
    }
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
    source: &'a str,
}

impl Parser<'_> {
    fn error(&self, reason: &'static str) -> PatternError {
        PatternError {
            pattern: self.source.to_string(),
            reason,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn alternation(&mut self) -> Result<Alternation, PatternError> {
        let mut branches = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            branches.push(self.sequence()?);
        }
        Ok(Alternation(branches))
    }

    fn sequence(&mut self) -> Result<Vec<Piece>, PatternError> {
        let mut pieces = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let (min, max) = self.quantifier()?;
            pieces.push(Piece { atom, min, max });
        }
        Ok(pieces)
    }

    fn atom(&mut self) -> Result<Atom, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.error("unexpected end"));
        };
        self.at += 1;
        Ok(match c {
            '.' => Atom::Any,
            '^' => Atom::Start,
            '$' => Atom::End,
            '(' => {
                // Non-capturing groups read the same here.
                if self.chars.get(self.at..self.at + 2) == Some(&['?', ':']) {
                    self.at += 2;
                }
                let inner = self.alternation()?;
                if self.peek() != Some(')') {
                    return Err(self.error("missing ')'"));
                }
                self.at += 1;
                Atom::Group(inner)
            }
            '[' => self.class()?,
            '\\' => self.escape()?,
            '*' | '+' | '?' | '{' => return Err(self.error("quantifier without an atom")),
            _ => Atom::Char(c),
        })
    }

    fn escape(&mut self) -> Result<Atom, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.error("trailing backslash"));
        };
        self.at += 1;
        Ok(match c {
            'd' | 'w' | 's' | 'D' | 'W' | 'S' => Atom::Class {
                ranges: shorthand(c.to_ascii_lowercase()),
                negated: c.is_ascii_uppercase(),
            },
            'n' => Atom::Char('\n'),
            't' => Atom::Char('\t'),
            _ => Atom::Char(c),
        })
    }

    fn class(&mut self) -> Result<Atom, PatternError> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("missing ']'"));
            };
            self.at += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let low = if c == '\\' {
                let Some(e) = self.peek() else {
                    return Err(self.error("trailing backslash"));
                };
                self.at += 1;
                if matches!(e, 'd' | 'w' | 's') {
                    ranges.extend(shorthand(e));
                    continue;
                }
                e
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&n| n != ']') {
                let high = self.chars[self.at + 1];
                self.at += 2;
                if high < low {
                    return Err(self.error("reversed range"));
                }
                ranges.push((low, high));
            } else {
                ranges.push((low, low));
            }
        }
        Ok(Atom::Class { ranges, negated })
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.chars[start..self.at]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
    }

    fn quantifier(&mut self) -> Result<(usize, Option<usize>), PatternError> {
        let bounds = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.at += 1;
                let min = self
                    .number()
                    .ok_or_else(|| self.error("bad repeat count"))?;
                let max = if self.peek() == Some(',') {
                    self.at += 1;
                    self.number()
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') {
                    return Err(self.error("missing '}'"));
                }
                return {
                    self.at += 1;
                    Ok((min, max))
                };
            }
            _ => return Ok((1, Some(1))),
        };
        self.at += 1;
        Ok(bounds)
    }
}

fn shorthand(c: char) -> Vec<(char, char)> {
    match c {
        'd' => vec![('0', '9')],
        'w' => vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
        _ => vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')],
    }
}

struct Matcher<'a> {
    text: &'a [char],
}

impl Matcher<'_> {
    fn alternation(
        &self,
        alt: &Alternation,
        at: usize,
        next: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        alt.0.iter().any(|branch| self.sequence(branch, at, next))
    }

    fn sequence(&self, pieces: &[Piece], at: usize, next: &mut dyn FnMut(usize) -> bool) -> bool {
        match pieces.split_first() {
            None => next(at),
            Some((piece, rest)) => {
                self.repeat(piece, 0, at, &mut |end| self.sequence(rest, end, next))
            }
        }
    }

    /// Greedy repetition with backtracking; an iteration that consumes
    /// nothing ends the repetition (so `(a*)*` terminates).
    fn repeat(
        &self,
        piece: &Piece,
        done: usize,
        at: usize,
        next: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        if piece.max.is_none_or(|max| done < max)
            && self.atom(&piece.atom, at, &mut |end| {
                end != at && self.repeat(piece, done + 1, end, next)
            })
        {
            return true;
        }
        done >= piece.min && next(at)
    }

    fn atom(&self, atom: &Atom, at: usize, next: &mut dyn FnMut(usize) -> bool) -> bool {
        match atom {
            Atom::Char(c) => self.text.get(at) == Some(c) && next(at + 1),
            Atom::Any => at < self.text.len() && next(at + 1),
            Atom::Class { ranges, negated } => match self.text.get(at) {
                Some(&c) => {
                    let inside = ranges.iter().any(|&(low, high)| (low..=high).contains(&c));
                    inside != *negated && next(at + 1)
                }
                None => false,
            },
            Atom::Group(inner) => self.alternation(inner, at, next),
            Atom::Start => at == 0 && next(at),
            Atom::End => at == self.text.len() && next(at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Pattern::new(pattern).unwrap().matches(text)
    }

    #[test]
    fn whole_text_alternatives_and_classes() {
        assert!(m("C3|D4", "D4"));
        assert!(!m("C3|D4", "D45"));
        assert!(m("[A-HJ-T]\\d+", "Q16"));
        assert!(!m("[A-HJ-T]\\d+", "I16"));
        assert!(m(
            "info (move [a-z0-9]+ )*pv.*",
            "info move d4 move e5 pv d4 e5"
        ));
        assert!(m("a{2,3}", "aaa") && !m("a{2,3}", "aaaa") && m("x{2}", "xx"));
        assert!(m("[^X]*", "abc") && !m("[^X]*", "aXc"));
        assert!(m("(a*)*b", "aaab"));
        assert!(m("", "") && !m("", "a"));
        assert!(m("B\\+3\\.5", "B+3.5"));
    }

    #[test]
    fn bad_patterns_are_errors() {
        for bad in ["(", "a)", "[a", "*", "a{x}", "\\"] {
            assert!(Pattern::new(bad).is_err(), "{bad}");
        }
    }
}
