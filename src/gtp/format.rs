//! The output formats, in one place: how moves, colours and numbers are
//! spelled in replies, the analysis lines of Leela Zero (`lz-analyze`),
//! KataGo (`kata-analyze`) and the CGOS analysis extension (one JSON
//! line), GoGui's live graphics block, and short counts for GoGui boards.
//! Everything here turns data into text; nothing writes or searches.

use super::parse::{self, Vertex};
use crate::board::{Color, Game, GameKind, Geometry, Move, Outcome, Point};
use crate::player::Choice;
use crate::search::{SearchReport, wilson_interval};

/// Candidates listed per info line at most.
const MAX_INFO_CANDIDATES: usize = 30;

/// Candidates shown in a live graphics update at most.
const MAX_GFX_CANDIDATES: usize = 40;

/// Moves of the principal variation drawn by live graphics at most.
const MAX_GFX_VARIATION: usize = 12;

/// Upper-case GTP spelling of a point on `geometry`.
pub(crate) fn point_text(geometry: Geometry, p: Point) -> String {
    match geometry.coords(p) {
        Some((col, row)) => parse::format_vertex(Vertex::Point { col, row }),
        None => "PASS".to_string(),
    }
}

/// Upper-case GTP spelling of a move on `geometry`: `D4`, `PASS`.
pub(crate) fn move_text(geometry: Geometry, mv: Move) -> String {
    match mv {
        Move::Pass => "PASS".to_string(),
        Move::Play(p) => point_text(geometry, p),
    }
}

/// genmove's reply: the move, or `resign`.
pub(crate) fn choice_text(geometry: Geometry, choice: Choice) -> String {
    match choice {
        Choice::Play(mv) => move_text(geometry, mv),
        Choice::Resign => "resign".to_string(),
    }
}

/// `B` or `W`.
pub(crate) fn color_letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// A Go result as GTP and SGF write it: `B+3.5`, `W+0.5`, `0`.
pub(crate) fn outcome_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Draw => "0".to_string(),
        Outcome::Win(color, margin) => {
            format!("{}+{}", color_letter(color), number_text(margin.into()))
        }
    }
}

/// `black` or `white`.
pub(crate) fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A number with at most two decimals and no trailing zeros: `7.5`, `7`,
/// `-0.25`. f32 komi values such as 6.3 would otherwise print as 6.2999997.
pub(crate) fn number_text(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// Which engine's analysis format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InfoStyle {
    /// Integers x10000 for winrate, prior and lcb.
    LeelaZero,
    /// Floats in [0, 1].
    KataGo,
    /// One line of JSON per report, as the CGOS analysis extension
    /// (zakki/cgos, `cgos-genmove_analyze`) defines it.
    Cgos,
}

/// Candidates in a CGOS analysis line at most (it ends up in the SGF).
const MAX_CGOS_CANDIDATES: usize = 10;

/// Turns search reports into `info` lines.
#[derive(Clone, Debug)]
pub(crate) struct InfoFormatter {
    style: InfoStyle,
    geometry: Geometry,
    /// Ownership appended to every line, if asked: ` ownership v1 v2 ...`
    /// (KataGo) or `,"ownership":"..."` (CGOS).
    ownership: Option<String>,
    /// Candidates a line lists at most (`maxmoves`).
    max_moves: usize,
    /// Every candidate listed carries `scoreLead` (KataGo's format in Go):
    /// Sabaki's score graph breaks on a candidate without one, so a move
    /// that this search has not yet played out through waits for a line.
    score_leads: bool,
}

impl InfoFormatter {
    /// The formatter for an analysis of `game` (to move as analysed),
    /// listing at most `max_moves` candidates a line (the style's most if
    /// `None`) and appending `ownership` (see
    /// [`crate::player::Player::mover_ownership`]) if given.
    pub(crate) fn new(
        game: &Game,
        style: InfoStyle,
        max_moves: Option<usize>,
        ownership: Option<&[f32]>,
    ) -> InfoFormatter {
        let most = match style {
            InfoStyle::Cgos => MAX_CGOS_CANDIDATES,
            InfoStyle::LeelaZero | InfoStyle::KataGo => MAX_INFO_CANDIDATES,
        };
        InfoFormatter {
            style,
            geometry: game.geometry(),
            ownership: ownership.map(|values| ownership_suffix(values, style)),
            max_moves: max_moves.map_or(most, |n| n.min(most)),
            score_leads: style == InfoStyle::KataGo && game.kind() == GameKind::Go,
        }
    }

    /// One line holding every visited candidate, best first, or `None`
    /// when nothing was visited yet.
    pub(crate) fn line(&self, report: &SearchReport) -> Option<String> {
        if self.style == InfoStyle::Cgos {
            return self.json_line(report);
        }
        let mut line = String::new();
        for (order, candidate) in report
            .candidates
            .iter()
            .filter(|c| c.visits > 0 && (!self.score_leads || c.score_lead.is_some()))
            .take(self.max_moves)
            .enumerate()
        {
            let winrate = candidate.winrate.clamp(0.0, 1.0);
            let lcb = lower_confidence_bound(winrate, candidate.visits);
            if !line.is_empty() {
                line.push(' ');
            }
            // Sabaki reads KataGo's score estimate; Leela Zero has none.
            let score_lead = match (self.style, candidate.score_lead) {
                (InfoStyle::KataGo, Some(lead)) => format!(" scoreLead {lead:.3}"),
                _ => String::new(),
            };
            line.push_str(&format!(
                "info move {} visits {} winrate {}{score_lead} prior {} lcb {} order {order} pv",
                self.vertex(candidate.mv),
                candidate.visits,
                self.fraction(winrate),
                self.fraction(candidate.prior.clamp(0.0, 1.0)),
                self.fraction(lcb),
            ));
            let pv = if candidate.pv.is_empty() {
                std::slice::from_ref(&candidate.mv)
            } else {
                candidate.pv.as_slice()
            };
            for &mv in pv {
                line.push(' ');
                line.push_str(&self.vertex(mv));
            }
        }
        if line.is_empty() {
            return None;
        }
        if let Some(ownership) = &self.ownership {
            line.push_str(ownership);
        }
        Some(line)
    }

    /// The CGOS analysis JSON on one line: root win rate and visits for the
    /// side to move, then the most visited candidates with the principal
    /// variation that follows each.
    fn json_line(&self, report: &SearchReport) -> Option<String> {
        let best = report.best().filter(|best| best.visits > 0)?;
        let visits: u64 = report.candidates.iter().map(|c| c.visits).sum();
        let moves: Vec<String> = report
            .candidates
            .iter()
            .filter(|c| c.visits > 0)
            .take(self.max_moves)
            .map(|c| {
                let follow: Vec<String> = c.pv.iter().skip(1).map(|&mv| self.vertex(mv)).collect();
                format!(
                    r#"{{"move":"{}","visits":{},"winrate":{:.4},"prior":{:.4},"pv":"{}"}}"#,
                    self.vertex(c.mv),
                    c.visits,
                    c.winrate.clamp(0.0, 1.0),
                    c.prior.clamp(0.0, 1.0),
                    follow.join(" ")
                )
            })
            .collect();
        Some(format!(
            r#"{{"winrate":{:.4},"visits":{visits},"moves":[{}]{}}}"#,
            best.winrate.clamp(0.0, 1.0),
            moves.join(","),
            self.ownership.as_deref().unwrap_or("")
        ))
    }

    /// The line for a move the opening book answers: the book's line from
    /// here as the principal variation, the win rate of the search that
    /// chose the move when the book was built, and no visits (none were
    /// searched now; Leela Zero's and KataGo's forms need the field, so it
    /// reads 0 there, and CGOS's leaves it out). `pv` starts with the move.
    pub(crate) fn book_line(&self, winrate: f64, pv: &[Move]) -> String {
        let first = pv.first().map_or_else(String::new, |&mv| self.vertex(mv));
        let follow: Vec<String> = pv.iter().skip(1).map(|&mv| self.vertex(mv)).collect();
        let winrate = winrate.clamp(0.0, 1.0);
        let line = match self.style {
            InfoStyle::Cgos => format!(
                r#"{{"winrate":{winrate:.4},"moves":[{{"move":"{first}","winrate":{winrate:.4},"prior":1.0000,"pv":"{}"}}]"#,
                follow.join(" ")
            ),
            InfoStyle::LeelaZero | InfoStyle::KataGo => {
                let all: Vec<String> = pv.iter().map(|&mv| self.vertex(mv)).collect();
                format!(
                    "info move {first} visits 0 winrate {} prior {} lcb {} order 0 pv {}",
                    self.fraction(winrate),
                    self.fraction(1.0),
                    self.fraction(0.0),
                    all.join(" ")
                )
            }
        };
        let ownership = self.ownership.as_deref().unwrap_or("");
        format!("{line}{ownership}{}", self.json_close())
    }

    /// What closes a line: the JSON object's brace in CGOS's form.
    fn json_close(&self) -> &'static str {
        match self.style {
            InfoStyle::Cgos => "}",
            InfoStyle::LeelaZero | InfoStyle::KataGo => "",
        }
    }

    /// Upper-case vertex, lower-case `pass` (as Leela Zero and KataGo write).
    fn vertex(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => point_text(self.geometry, p),
        }
    }

    fn fraction(&self, value: f64) -> String {
        match self.style {
            InfoStyle::LeelaZero => format!("{}", (value * 10000.0).round() as i64),
            InfoStyle::KataGo | InfoStyle::Cgos => format!("{value:.6}"),
        }
    }
}

/// Lower end of the Wilson score interval (95%) of the winrate: low for
/// few visits even when every playout won.
fn lower_confidence_bound(winrate: f64, visits: u64) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    wilson_interval(winrate, visits as f64).0
}

/// What analysis lines append for ownership `values`, in `style`'s format.
fn ownership_suffix(values: &[f32], style: InfoStyle) -> String {
    match style {
        InfoStyle::LeelaZero | InfoStyle::KataGo => {
            let mut suffix = String::from(" ownership");
            for value in values {
                suffix.push_str(&format!(" {:.4}", value + 0.0));
            }
            suffix
        }
        InfoStyle::Cgos => format!(r#","ownership":"{}""#, cgos_ownership(values)),
    }
}

/// The CGOS ownership string: one character a point, `A` (-1) to `+` (1),
/// as the reference encoder of the CGOS extension writes it.
fn cgos_ownership(values: &[f32]) -> String {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    values
        .iter()
        .map(|&value| {
            let unit = ((value + 1.0) / 2.0).clamp(0.0, 1.0);
            char::from(CHARS[(unit * 62.0).round() as usize])
        })
        .collect()
}

/// Live graphics for a search in progress, as one `gogui-gfx:` block (the
/// block form, so GoGui shows all its commands together): the share of
/// visits of each candidate as influence, the principal variation, and a
/// status line. `None` before anything was visited.
pub(crate) fn gfx_block(report: &SearchReport, geometry: Geometry) -> Option<String> {
    let best = report.best().filter(|best| best.visits > 0)?;
    let sign = if report.to_move == Color::Black {
        1.0
    } else {
        -1.0
    };
    let mut influence = String::from("INFLUENCE");
    for candidate in report.candidates.iter().take(MAX_GFX_CANDIDATES) {
        if let Move::Play(p) = candidate.mv
            && candidate.visits > 0
        {
            let share = candidate.visits as f64 / best.visits as f64;
            influence.push_str(&format!(" {} {:.2}", point_text(geometry, p), sign * share));
        }
    }
    let mut variation = String::from("VAR");
    let mut color = report.to_move;
    for &mv in best.pv.iter().take(MAX_GFX_VARIATION) {
        let letter = color_letter(color).to_ascii_lowercase();
        variation.push_str(&format!(" {letter} {}", move_text(geometry, mv)));
        color = color.opponent();
    }
    let best_vertex = move_text(geometry, best.mv);
    let status = format!(
        "TEXT {} {best_vertex} win rate {:.1}% after {} playouts",
        color_word(report.to_move),
        100.0 * best.winrate.clamp(0.0, 1.0),
        report.playouts
    );
    Some(format!(
        "gogui-gfx:\n{influence}\n{variation}\n{status}\n\n"
    ))
}

/// A count short enough for a board point (GoGui sboard): `734`, `1.2k`,
/// `56k`, `3.4M`.
pub(crate) fn short_count(count: u64) -> String {
    match count {
        0..1_000 => count.to_string(),
        1_000..10_000 => format!("{:.1}k", count as f64 / 1e3),
        10_000..1_000_000 => format!("{}k", count / 1_000),
        1_000_000..10_000_000 => format!("{:.1}M", count as f64 / 1e6),
        _ => format!("{}M", count / 1_000_000),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn numbers_print_short() {
        assert_eq!(number_text(7.5), "7.5");
        assert_eq!(number_text(7.0), "7");
        assert_eq!(number_text(f64::from(6.3f32)), "6.3");
        assert_eq!(number_text(-0.001), "0");
        assert_eq!(number_text(-2.25), "-2.25");
    }

    fn report_with(to_move: Color, candidates: &[(Move, u64, f64, &[Move])]) -> SearchReport {
        SearchReport {
            to_move,
            candidates: candidates
                .iter()
                .map(|&(mv, visits, winrate, pv)| crate::search::Candidate {
                    mv,
                    visits,
                    winrate,
                    prior: 0.25,
                    pv: pv.to_vec(),
                    score_lead: None,
                    proof: crate::search::Proof::Unknown,
                })
                .collect(),
            playouts: 120,
            elapsed: Duration::ZERO,
            extra_margin: 0,
            probe_winrate: None,
        }
    }

    #[test]
    fn live_graphics_block_shows_shares_variation_and_status() {
        let g = Geometry::square(9).unwrap();
        let at = |col, row| Move::Play(g.point(col, row).unwrap());
        let report = report_with(
            Color::White,
            &[
                (at(3, 3), 80, 0.55, &[at(3, 3), at(4, 4), Move::Pass]),
                (at(4, 4), 20, 0.4, &[at(4, 4)]),
                (Move::Pass, 10, 0.1, &[Move::Pass]),
            ],
        );
        assert_eq!(
            gfx_block(&report, g).unwrap(),
            "gogui-gfx:\nINFLUENCE D4 -1.00 E5 -0.25\nVAR w D4 b E5 w PASS\n\
             TEXT white D4 win rate 55.0% after 120 playouts\n\n"
        );
        assert_eq!(gfx_block(&report_with(Color::Black, &[]), g), None);
    }

    #[test]
    fn cgos_analysis_is_one_json_line() {
        let g = Geometry::square(9).unwrap();
        let at = |col, row| Move::Play(g.point(col, row).unwrap());
        let report = report_with(
            Color::Black,
            &[
                (at(2, 2), 30, 0.6, &[at(2, 2), at(6, 6)]),
                (Move::Pass, 2, 0.25, &[Move::Pass]),
            ],
        );
        let formatter = InfoFormatter {
            style: InfoStyle::Cgos,
            geometry: g,
            ownership: None,
            max_moves: MAX_CGOS_CANDIDATES,
            score_leads: false,
        };
        assert_eq!(
            formatter.line(&report).unwrap(),
            r#"{"winrate":0.6000,"visits":32,"moves":[{"move":"C3","visits":30,"winrate":0.6000,"prior":0.2500,"pv":"G7"},{"move":"pass","visits":2,"winrate":0.2500,"prior":0.2500,"pv":""}]}"#
        );
        // As the reference encoder: index round(62 x share), so `/` never appears.
        assert_eq!(cgos_ownership(&[-1.0, 0.0, 1.0, 2.0]), "Af++");
    }

    #[test]
    fn counts_fit_on_a_point() {
        let texts: Vec<String> = [0, 999, 1_000, 9_949, 10_000, 999_999, 1_250_000, 12_000_000]
            .into_iter()
            .map(short_count)
            .collect();
        assert_eq!(
            texts,
            ["0", "999", "1.0k", "9.9k", "10k", "999k", "1.2M", "12M"]
        );
    }

    #[test]
    fn lcb_stays_in_range() {
        assert_eq!(lower_confidence_bound(0.0, 10), 0.0);
        assert!(lower_confidence_bound(0.6, 100) < 0.6);
        assert_eq!(lower_confidence_bound(1.0, 0), 0.0);
        assert!(lower_confidence_bound(1.0, 1) < 0.3);
        assert!(lower_confidence_bound(1.0, 1000) > 0.99);
    }
}
