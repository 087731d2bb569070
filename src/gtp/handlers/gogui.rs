//! GoGui's commands: the analyze command list, `gogui-interrupt`, the
//! `gogui-rules_*` family that lets GoGui referee NoGo, and the gfx
//! commands `kosumi-ladders`, `kosumi-tactics`, `kosumi-life` and
//! `kosumi-patterns`.

use super::text;
use crate::board::{Bitboard, Color, GameKind, Move, Outcome, Point};
use crate::go::gammas::{gammas_for, move_probabilities};
use crate::go::life::eyes::vital_points;
use crate::go::life::pass_alive;
use crate::go::reading::{Effect, root_effects};
use crate::go::tactics::laddered_strings;
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::gtp::format::{color_letter, color_word, number_text, outcome_text};
use crate::nogo::gammas::move_probabilities as nogo_move_probabilities;
use crate::player::StringStatus;
use crate::search::domain::RecentMoves;
use crate::search::stone_before;

/// Moves `kosumi-patterns` labels with their chance.
const LABELLED_MOVES: usize = 10;

pub(crate) fn gogui_analyze_commands(
    _: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(
        [
            "dboard/Ownership/kosumi-ownership",
            "sboard/Visits/kosumi-visits",
            "var/Principal variation/kosumi-pv",
            "string/Win rate/kosumi-winrate",
            "gfx/Ladders/kosumi-ladders",
            "gfx/Tactics/kosumi-tactics",
            "gfx/Life and death/kosumi-life",
            "gfx/Move patterns/kosumi-patterns",
            "plist/Dead stones/final_status_list dead",
            "plist/Seki stones/final_status_list seki",
            "string/Final score/final_score",
            "string/Show board/showboard",
            "param/Engine parameters/kosumi-param",
        ]
        .join("\n"),
    )
}

pub(crate) fn gogui_interrupt(_: &mut Engine, _: &mut Call) -> Result<Response, GtpError> {
    text("")
}

/// GoGui's documented form: a capital letter, then lower case only. GoGui
/// treats an engine that answers `Go` as a Go program and any other as the
/// ruler of its game.
pub(crate) fn gogui_rules_game_id(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(match engine.game().kind() {
        GameKind::Go => "Go",
        GameKind::NoGo => "Nogo",
    })
}

pub(crate) fn gogui_rules_board_size(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(engine.geometry().width().to_string())
}

pub(crate) fn gogui_rules_board(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let board = engine.game().position().to_text();
    text(format!("\n{}", board.trim_end()))
}

pub(crate) fn gogui_rules_legal_moves(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let game = engine.game();
    if game.is_over() {
        return text("");
    }
    let mover = game.to_move();
    let mut moves: Vec<String> = engine
        .geometry()
        .points()
        .filter(|&p| game.check_move(mover, Move::Play(p)).is_ok())
        .map(|p| engine.point_text(p))
        .collect();
    if game.kind() == GameKind::Go {
        moves.push("PASS".to_string());
    }
    text(moves.join(" "))
}

pub(crate) fn gogui_rules_side_to_move(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(color_word(engine.game().to_move()))
}

/// The sentence GoGui shows in its "game finished" dialog (its
/// documentation's form: who won, and by how much where that means
/// something).
pub(crate) fn gogui_rules_final_result(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let game = engine.game();
    if !game.is_over() {
        return text("The game is not over.");
    }
    let capitalized = |color: Color| {
        let mut word = color_word(color).to_string();
        word[..1].make_ascii_uppercase();
        word
    };
    if game.kind() == GameKind::NoGo {
        let loser = game.to_move();
        return text(format!(
            "{} wins: {} has no legal move.",
            capitalized(loser.opponent()),
            color_word(loser)
        ));
    }
    let outcome = engine.interruptible(call.watcher, |engine| {
        engine.player().final_outcome(engine.game())
    });
    match outcome {
        Outcome::Draw => text("Draw: the area count is even."),
        Outcome::Win(color, margin) => {
            let margin = number_text(margin.into());
            text(format!(
                "{} wins by {margin} points ({}+{margin}), counting area with dead stones removed.",
                capitalized(color),
                color_letter(color),
            ))
        }
    }
}

/// `kosumi-ladders` (GoGui gfx): every stone of each string a ladder
/// captures with the opponent of the string to move, in red, and a status
/// line naming one stone of each.
pub(crate) fn kosumi_ladders(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    if engine.game().kind() == GameKind::NoGo {
        return text("TEXT no ladders in NoGo: nothing is ever captured");
    }
    let position = engine.game().position();
    let strings = laddered_strings(position);
    if strings.is_empty() {
        return text("TEXT no string dies in a ladder");
    }
    let stones: Vec<Point> = strings
        .iter()
        .flat_map(|&p| position.string_stones(p).iter().collect::<Vec<Point>>())
        .collect();
    text(format!(
        "COLOR red {}\nTEXT dies in a ladder: {}",
        engine.points_text(&stones),
        engine.points_text(&strings)
    ))
}

/// `kosumi-tactics` (GoGui gfx): what the root's tactical reading finds
/// for the side to move (see `go::reading`): in green the points that
/// capture an enemy string short of liberties, in blue those that save an
/// own one, in red the extensions that die anyway, and a status line
/// listing each.
pub(crate) fn kosumi_tactics(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    if engine.game().kind() == GameKind::NoGo {
        return text("TEXT no tactics in NoGo: nothing is ever captured");
    }
    let position = engine.game().position();
    let mover = position.to_move();
    let (mut captures, mut saves, mut futile) = (Vec::new(), Vec::new(), Vec::new());
    for (p, effect) in root_effects(position, mover) {
        let list = match effect {
            Effect::Captures(_) => &mut captures,
            Effect::Saves(_) => &mut saves,
            Effect::FailsToSave(_) => &mut futile,
        };
        if !list.contains(&p) {
            list.push(p);
        }
    }
    if captures.is_empty() && saves.is_empty() && futile.is_empty() {
        return text("TEXT no string short of liberties is at stake");
    }
    futile.retain(|p| !captures.contains(p) && !saves.contains(p));
    for list in [&mut captures, &mut saves, &mut futile] {
        list.sort_by_key(|&p| engine.point_text(p));
    }
    let shown_saves: Vec<Point> = saves
        .iter()
        .copied()
        .filter(|p| !captures.contains(p))
        .collect();
    let mut lines = Vec::new();
    for (color, points) in [
        ("green", &captures),
        ("blue", &shown_saves),
        ("red", &futile),
    ] {
        if !points.is_empty() {
            lines.push(format!("COLOR {color} {}", engine.points_text(points)));
        }
    }
    let listed = |points: &[Point]| match points {
        [] => "none".to_string(),
        _ => engine.points_text(points),
    };
    lines.push(format!(
        "TEXT {} captures: {}; saves: {}; futile: {}",
        color_word(mover),
        listed(&captures),
        listed(&saves),
        listed(&futile)
    ));
    text(lines.join("\n"))
}

/// `kosumi-life` (GoGui gfx): how the game would be counted now. Dead
/// stones are marked with a cross and seki stones with a triangle; the
/// strings alive unconditionally (Benson) get a square, the vital points of
/// small eye spaces still undecided a circle; each side's
/// territory with the dead stones removed is shaded; a status line counts
/// them and gives the result.
pub(crate) fn kosumi_life(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    if engine.game().kind() == GameKind::NoGo {
        return text("TEXT no life and death in NoGo: nothing is ever captured");
    }
    let statuses = engine.interruptible(call.watcher, |engine| {
        engine.player().final_statuses(engine.game())
    });
    let position = engine.game().position();
    let stones_with = |wanted: StringStatus| -> Vec<Point> {
        let lists = statuses.iter().filter(|(_, status)| *status == wanted);
        lists
            .flat_map(|(points, _)| points.iter().copied())
            .collect()
    };
    let (dead, seki) = (
        stones_with(StringStatus::Dead),
        stones_with(StringStatus::Seki),
    );
    let mut dead_set = Bitboard::EMPTY;
    dead.iter().for_each(|&p| dead_set.set(p));
    let areas = position.areas_with_dead(&dead_set);
    let mut lines = Vec::new();
    let mut alive = Vec::new();
    for color in [Color::Black, Color::White] {
        alive.extend(pass_alive(position, color).stones.iter());
        let own_stones = position.stones(color).and_not(&dead_set);
        let territory: Vec<Point> = areas[color.index()].and_not(&own_stones).iter().collect();
        // GoGui's gfx shades a side's territory with a line named after it.
        lines.push((color_word(color).to_ascii_uppercase(), territory));
    }
    // The key points of the small eye spaces still undecided.
    let vital = vital_points(position);
    let counts = (dead.len(), seki.len(), alive.len(), vital.len());
    lines.push(("SQUARE".to_string(), alive));
    lines.push(("CIRCLE".to_string(), vital));
    lines.push(("MARK".to_string(), dead));
    lines.push(("TRIANGLE".to_string(), seki));
    // GoGui takes a gfx line with no points, but it says nothing: leave it out.
    let mut lines: Vec<String> = lines
        .into_iter()
        .filter(|(_, points)| !points.is_empty())
        .map(|(name, points)| format!("{name} {}", engine.points_text(&points)))
        .collect();
    // The count from the statuses already found, not a second estimate.
    let game = engine.game();
    let result = outcome_text(game.area_score_with_dead(&dead_set).outcome(game.komi()));
    lines.push(format!(
        "TEXT stones dead {}, in seki {}, unconditionally alive {}; vital points {}; counted {result}",
        counts.0, counts.1, counts.2, counts.3
    ));
    text(lines.join("\n"))
}

/// `kosumi-patterns` (GoGui gfx): how likely the learned move model (the
/// Bradley–Terry table of the game and board size: `go::gammas`,
/// `nogo::gammas`) finds each move of the side to move: every candidate
/// shaded by its chance against the likeliest one's, the likeliest ten
/// labelled in per cent, and a status line listing the first five.
pub(crate) fn kosumi_patterns(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let game = engine.game();
    let position = game.position();
    let mover = game.to_move();
    let recent = RecentMoves {
        last: stone_before(game, 0),
        before_last: stone_before(game, 1),
    };
    let chances = match game.kind() {
        GameKind::NoGo => nogo_move_probabilities(position, recent),
        GameKind::Go => {
            let g = engine.geometry();
            let gammas = gammas_for(
                g.width().max(g.height()),
                engine.player().params().human_table_from,
            );
            move_probabilities(position, recent, gammas)
        }
    };
    let Some(&(_, likeliest)) = chances.first() else {
        return text(match game.kind() {
            GameKind::NoGo => "TEXT no move to rate: no legal move is left",
            GameKind::Go => "TEXT no move to rate: only pass is left",
        });
    };
    // GoGui shades positive influence as Black's and negative as White's.
    let sign = if mover == Color::Black { 1.0 } else { -1.0 };
    let influence: Vec<String> = chances
        .iter()
        .map(|&(p, chance)| {
            let value = sign * f64::from(chance / likeliest).sqrt();
            format!("{} {value:.3}", engine.point_text(p))
        })
        .collect();
    let percent = |chance: f32| format!("{:.0}", 100.0 * chance);
    let labels: Vec<String> = chances
        .iter()
        .take(LABELLED_MOVES)
        .map(|&(p, chance)| format!("{} {}", engine.point_text(p), percent(chance)))
        .collect();
    let listed: Vec<String> = chances
        .iter()
        .take(5)
        .map(|&(p, chance)| format!("{} {:.1}%", engine.point_text(p), 100.0 * chance))
        .collect();
    text(format!(
        "INFLUENCE {}\nLABEL {}\nTEXT {}'s likeliest moves: {}",
        influence.join(" "),
        labels.join(" "),
        color_word(mover),
        listed.join(", ")
    ))
}
