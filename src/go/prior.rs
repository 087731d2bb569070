//! Prior knowledge for new tree nodes (CrazyStone/Fuego style): each term
//! adds virtual playouts, won for a good sign, lost for a bad one, so the
//! search starts from sensible values and still corrects them.

use crate::board::{Bitboard, Color, GameKind, LibertyMemo, Point, Position};

use super::checks::MoveChecks;
use super::life::enclosed::{MAX_READ_EMPTIES, enclosing_regions, key_move};
use super::life::eyes::vital_points;
use super::policy::pattern_at;
use super::reading::{Effect, local_effects, root_effects};
use super::tactics::atari_chases_broken_ladder;
use crate::search::domain::{Prior, RecentMoves};
use crate::search::params::SearchParams;

/// What a whole expansion shares: the last move and how open the board is.
pub struct PriorContext {
    /// The last stone played (the move that led here), if any.
    pub last: Option<Point>,
    /// More than half the board is still empty ([`Position::is_open`]).
    pub open: bool,
}

/// A move's learned strength (see `features`) over the strongest
/// candidate's, in (0, 1].
pub type StrengthRatio = f32;

/// The hand-made prior of the Go move of `checks`.
pub fn go_prior(params: &SearchParams, checks: &MoveChecks<'_>, context: &PriorContext) -> Prior {
    let MoveChecks {
        position, point: p, ..
    } = *checks;
    let mut prior = Prior::even(params.prior_even);
    let contacts = Contacts::of(params, checks, &mut prior);
    add_atari_terms(&mut prior, params, checks, &contacts);
    if checks.is_bad_self_atari() {
        prior.lost(params.prior_self_atari);
    }
    if pattern_at(position, p) {
        prior.won(params.prior_pattern);
    }
    add_placement_terms(&mut prior, params, position, p, context);
    prior
}

/// What a move does to the strings next to it, as [`go_prior`] weighs it.
struct Contacts {
    /// It plays the last liberty of a friendly string.
    saves_atari: bool,
    /// It extends a friendly string of at most two liberties.
    extends_weak_string: bool,
    /// It captures.
    captures: bool,
    /// One of its ataris starts a working ladder.
    ladders: bool,
    /// The strings it puts in atari, one stone each.
    ataris: Vec<Point>,
}

impl Contacts {
    /// The contacts of the move of `checks`, crediting `prior` with its
    /// captures (by size) and its first ladder atari on the way.
    #[inline]
    fn of(params: &SearchParams, checks: &MoveChecks<'_>, prior: &mut Prior) -> Contacts {
        let MoveChecks {
            position,
            point: p,
            mover,
            liberties,
            ..
        } = *checks;
        let own = mover.cell();
        let enemy = mover.opponent().cell();
        let mut contacts = Contacts {
            saves_atari: false,
            extends_weak_string: false,
            captures: false,
            ladders: false,
            ataris: Vec::new(),
        };
        for (k, n) in position.geometry().neighbours(p).into_iter().enumerate() {
            let cell = position.cell(n);
            if cell == enemy {
                if position.atari_liberty(n) == Some(p) {
                    let size = position.string_size(n) as u32;
                    prior.won(params.prior_capture * size.min(4));
                    contacts.captures = true;
                } else if liberties.liberties(position, n) == 2 {
                    let id = position.string_id(n);
                    if !contacts.ataris.iter().any(|&a| position.string_id(a) == id) {
                        contacts.ataris.push(n);
                    }
                    if !contacts.ladders && checks.atari_starts_ladder(k) {
                        prior.won(params.prior_ladder_attack);
                        contacts.ladders = true;
                    }
                }
            } else if cell == own {
                contacts.saves_atari |= position.atari_liberty(n) == Some(p);
                contacts.extends_weak_string |= liberties.liberties(position, n) <= 2;
            }
        }
        contacts
    }
}

/// The terms of a move among strings short of liberties: a hopeless
/// escape loses, a saving one wins, a lone atari that chases a broken
/// ladder loses.
#[inline]
fn add_atari_terms(
    prior: &mut Prior,
    params: &SearchParams,
    checks: &MoveChecks<'_>,
    contacts: &Contacts,
) {
    // A killing sacrifice extends a string into atari on purpose: neither
    // a hopeless escape nor a self-atari to shun.
    let killing = checks.is_killing_sacrifice();
    if !killing && contacts.extends_weak_string && checks.escape_is_hopeless() {
        prior.lost(params.prior_hopeless_escape);
    } else if contacts.saves_atari {
        prior.won(params.prior_escape);
    } else if let [chased] = contacts.ataris[..]
        && !contacts.captures
        && !contacts.ladders
        && !contacts.extends_weak_string
        && atari_chases_broken_ladder(checks.position, checks.point, checks.mover, chased)
    {
        // Chasing a broken ladder only leaves cutting points behind.
        prior.lost(params.prior_broken_ladder);
    }
}

/// The terms of where the move `p` is: near the last move, and on an open
/// board, on which line (the first two lose, the third and fourth win;
/// boards under 7x7 have no good lines).
#[inline]
fn add_placement_terms(
    prior: &mut Prior,
    params: &SearchParams,
    position: &Position,
    p: Point,
    context: &PriorContext,
) {
    let g = position.geometry();
    if let (Some(last), Some((col, row))) = (context.last, g.coords(p))
        && let Some((last_col, last_row)) = g.coords(last)
    {
        let distance = col.abs_diff(last_col) + row.abs_diff(last_row);
        if distance <= 2 {
            prior.won(params.prior_near_last);
        }
    }
    if context.open
        && let Some(coords) = g.coords(p)
    {
        let line = g.line(coords);
        let small = g.width().min(g.height()) < 7;
        match line {
            0 if !small => prior.lost(params.prior_edge_penalty),
            1 if !small => prior.lost(params.prior_edge_penalty / 2),
            2 | 3 if !small => prior.won(params.prior_good_lines),
            _ => {}
        }
    }
}

/// Adds the learned term to a Go prior: `prior_learned` virtual playouts,
/// of which the move wins the share `ratio ^ learned_exponent`.
pub fn add_learned(prior: &mut Prior, params: &SearchParams, ratio: StrengthRatio) {
    prior.learned(params.prior_learned, params.learned_exponent, ratio);
}

/// Most stones a root reading prior counts at one point.
pub const READ_STONES: u32 = 6;

/// Extra priors for `mover`'s moves at the root from tactical reading
/// (see `reading::root_effects`): wins for captures and saves by the
/// stones at stake, losses for extensions that die anyway. Go only.
pub fn root_reading_priors(
    params: &SearchParams,
    position: &Position,
    mover: Color,
) -> Vec<(Point, Prior)> {
    reading_priors(params, position, mover, || root_effects(position, mover))
}

/// Points within this many steps of a node's last move whose strings the
/// node's reading reads (see [`local_reading_priors`]).
const LOCAL_READING_REACH: usize = 2;

/// [`root_reading_priors`] for the side to move at a node inside the
/// search, reading only the strings with a stone near `last`, the move into
/// the node: the fights that move started or changed.
pub fn local_reading_priors(
    params: &SearchParams,
    position: &Position,
    last: Point,
) -> Vec<(Point, Prior)> {
    let mover = position.to_move();
    reading_priors(params, position, mover, || {
        let mut focus = Bitboard::EMPTY;
        focus.set(last);
        for _ in 0..LOCAL_READING_REACH {
            focus = focus.dilate(position.geometry(), position.board_mask());
        }
        local_effects(position, mover, &focus)
    })
}

/// The priors of `mover`'s moves from the reading `read` does, which runs
/// only in Go and when those priors are on.
fn reading_priors(
    params: &SearchParams,
    position: &Position,
    mover: Color,
    read: impl FnOnce() -> Vec<(Point, Effect)>,
) -> Vec<(Point, Prior)> {
    if position.kind() != GameKind::Go || params.prior_read_win + params.prior_read_futile == 0 {
        return Vec::new();
    }
    let effects = read();
    let liberties = LibertyMemo::new(position);
    let mut priors: Vec<(Point, u32, bool)> = Vec::new();
    for (p, effect) in effects {
        let index = match priors.iter().position(|&(q, _, _)| q == p) {
            Some(index) => index,
            None => {
                priors.push((p, 0, false));
                priors.len() - 1
            }
        };
        match effect {
            Effect::Captures(stones) | Effect::Saves(stones) => priors[index].1 += stones,
            Effect::FailsToSave(_) => priors[index].2 = true,
        }
    }
    priors
        .into_iter()
        .filter_map(|(p, stones, futile)| {
            let mut prior = Prior { visits: 0, wins: 0 };
            if stones > 0 {
                prior.won(params.prior_read_win * stones.min(READ_STONES));
            } else if futile
                && !MoveChecks::new(position, p, mover, &liberties).is_killing_sacrifice()
            {
                prior.lost(params.prior_read_futile);
            }
            (prior.visits > 0).then_some((p, prior))
        })
        .collect()
}

/// Extra priors at the root for the vital points of small eye spaces
/// (see `life::eyes`) of both colours around groups not yet alive: the
/// move there decides between one eye and two, for whichever side plays
/// it. Go only.
pub fn root_vital_priors(params: &SearchParams, position: &Position) -> Vec<(Point, Prior)> {
    if position.kind() != GameKind::Go || params.prior_vital == 0 {
        return Vec::new();
    }
    vital_points(position)
        .into_iter()
        .map(|p| {
            let mut prior = Prior { visits: 0, wins: 0 };
            prior.won(params.prior_vital);
            (p, prior)
        })
        .collect()
}

/// Most small enclosed regions the root reads for [`root_life_priors`]:
/// each costs two reads, and a finished board has many.
const LIFE_REGIONS_READ: usize = 2;

/// Nodes each of [`root_life_priors`]'s reads may cost: a read that runs
/// out is most often one whose goal fails (the invader moving first
/// cannot live), which no budget would prove.
const LIFE_READ_NODES: u32 = 2_000;

/// Extra priors at the root from life-and-death reading: for each small
/// region one colour encloses (see `life::enclosed`) whose invader stones
/// die if the encloser moves first and live if they move first, the move
/// of the side to move that decides it. The regions nearest the last two
/// stones are read first, at most [`LIFE_REGIONS_READ`] of them. Go only.
pub fn root_life_priors(
    params: &SearchParams,
    position: &Position,
    mover: Color,
    recent: RecentMoves,
) -> Vec<(Point, Prior)> {
    if position.kind() != GameKind::Go || params.prior_life == 0 {
        return Vec::new();
    }
    let mut regions = small_enclosed_regions(position);
    let g = position.geometry();
    let distance = |region: &Bitboard| {
        [recent.last, recent.before_last]
            .into_iter()
            .flatten()
            .filter_map(|stone| g.coords(stone))
            .flat_map(|(col, row)| {
                region.iter().filter_map(move |q| {
                    g.coords(q).map(|(c, r)| col.abs_diff(c) + row.abs_diff(r))
                })
            })
            .min()
            .unwrap_or(0)
    };
    regions.sort_by_cached_key(|(region, _)| distance(region));
    let mut priors = Vec::new();
    for (region, invader) in regions.into_iter().take(LIFE_REGIONS_READ) {
        // The mover's own key move first: without it there is no prior,
        // and the other side's read only confirms the region is undecided.
        let Some(key) = key_move(
            position,
            &region,
            invader,
            mover != invader,
            LIFE_READ_NODES,
        ) else {
            continue;
        };
        if key_move(
            position,
            &region,
            invader,
            mover == invader,
            LIFE_READ_NODES,
        )
        .is_none()
        {
            continue;
        }
        let mut prior = Prior { visits: 0, wins: 0 };
        prior.won(params.prior_life);
        priors.push((key, prior));
    }
    priors
}

/// The regions of at most [`MAX_READ_EMPTIES`] empty points that one
/// colour encloses around the other's stones, with the invader's colour.
fn small_enclosed_regions(position: &Position) -> Vec<(Bitboard, Color)> {
    [Color::Black, Color::White]
        .into_iter()
        .flat_map(|invader| {
            enclosing_regions(position, &position.stones(invader), invader)
                .into_iter()
                .map(move |region| (region, invader))
        })
        .filter(|(region, _)| region.and(&position.empty_mask()).count() <= MAX_READ_EMPTIES)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(position: &Position, col: usize, row: usize) -> Point {
        position.geometry().point(col, row).unwrap()
    }

    /// The prior of `mover` playing `p`, with the learned `ratio` if given.
    fn prior_of(
        params: &SearchParams,
        position: &Position,
        p: Point,
        mover: Color,
        open: bool,
        ratio: Option<StrengthRatio>,
    ) -> Prior {
        let liberties = LibertyMemo::new(position);
        let checks = MoveChecks::new(position, p, mover, &liberties);
        let mut prior = go_prior(params, &checks, &PriorContext { last: None, open });
        if let Some(ratio) = ratio {
            add_learned(&mut prior, params, ratio);
        }
        prior
    }

    fn rate(prior: Prior) -> f64 {
        prior.wins as f64 / (2.0 * prior.visits as f64)
    }

    #[test]
    fn captures_beat_quiet_moves_and_self_ataris_lose() {
        let p = Position::from_text(
            ".........
             .........
             .........
             ..OOOO...
             .OXXX....
             ..OOOO...
             .........
             .........
             .........",
            GameKind::Go,
        )
        .unwrap();
        let params = SearchParams::default();
        let capture = prior_of(&params, &p, at(&p, 5, 4), Color::White, false, None);
        let quiet = prior_of(&params, &p, at(&p, 7, 7), Color::White, false, None);
        assert!(rate(capture) > 0.7 && rate(quiet) == 0.5);
        // Black extending at F5 stays in atari: self-atari, hopeless.
        let escape = prior_of(&params, &p, at(&p, 5, 4), Color::Black, false, None);
        assert!(rate(escape) < 0.4, "{escape:?}");
    }

    #[test]
    fn a_killing_sacrifice_is_neither_a_hopeless_escape_nor_a_futile_extension() {
        // Black's bottom string has two liberties, G1 and J1, both shared
        // with White's H1. White G1 extends H1 into atari, but Black's
        // capture at J1 leaves a two-point eye space: the sacrifice kills.
        // Black G1 or J1 is a plain self-atari of eight stones.
        let p = Position::from_text(
            ".........
             .........
             .........
             .........
             .........
             .........
             ....OOOOO
             ...OXXXXX
             ...OXX.O.",
            GameKind::Go,
        )
        .unwrap();
        let params = SearchParams::default();
        let (g1, j1) = (at(&p, 6, 0), at(&p, 8, 0));
        for kill in [g1, j1] {
            let prior = prior_of(&params, &p, kill, Color::White, false, None);
            assert!(rate(prior) >= 0.5, "{prior:?}");
            assert!(
                root_reading_priors(&params, &p, Color::White)
                    .iter()
                    .all(|&(q, prior)| q != kill || prior.wins > 0),
                "reading calls White {kill:?} futile"
            );
        }
        let suicide = prior_of(&params, &p, g1, Color::Black, false, None);
        assert!(rate(suicide) < 0.5, "{suicide:?}");
    }

    #[test]
    fn ataris_are_judged_by_the_ladder_they_start() {
        // Black C3 has two liberties, C2 and D3; White C2 ladders it to
        // the upper right.
        let ladder = Position::from_text(
            ".............
             .............
             .............
             .............
             .............
             .............
             .............
             .............
             .............
             ..O..........
             .OX..........
             ...O.........
             .............",
            GameKind::Go,
        )
        .unwrap();
        let params = SearchParams::default();
        let c2 = at(&ladder, 2, 1);
        let working = prior_of(&params, &ladder, c2, Color::White, false, None);
        assert!(rate(working) > 0.5, "{working:?}");
        // Black K10 breaks the ladder: the same atari only chases.
        let mut broken = ladder.clone();
        broken
            .place_setup_stone(at(&broken, 9, 9), Color::Black)
            .unwrap();
        let chase = prior_of(&params, &broken, c2, Color::White, false, None);
        assert!(rate(chase) < 0.5, "{chase:?}");
    }

    #[test]
    fn the_third_line_beats_the_first_on_an_open_board() {
        let p = Position::new(crate::board::Geometry::square(9).unwrap(), GameKind::Go);
        let params = SearchParams::default();
        let third = prior_of(&params, &p, at(&p, 2, 2), Color::Black, true, None);
        let first = prior_of(&params, &p, at(&p, 0, 4), Color::Black, true, None);
        assert!(rate(third) > 0.5 && rate(first) < 0.5);
    }

    #[test]
    fn the_strongest_learned_move_wins_its_virtual_playouts() {
        let p = Position::new(crate::board::Geometry::square(9).unwrap(), GameKind::Go);
        let params = SearchParams {
            prior_learned: 16,
            learned_exponent: 0.5,
            ..SearchParams::default()
        };
        let center = at(&p, 4, 4);
        let strongest = prior_of(&params, &p, center, Color::Black, false, Some(1.0));
        let weak = prior_of(&params, &p, center, Color::Black, false, Some(1.0 / 64.0));
        let even = params.prior_even;
        assert_eq!((strongest.visits, strongest.wins), (even + 16, even + 32));
        // sqrt(1/64) = 1/8 of 16 playouts won: 2 wins, 4 half points.
        assert_eq!((weak.visits, weak.wins), (even + 16, even + 4));
    }

    #[test]
    fn reading_at_the_root_rewards_the_capture_and_punishes_the_futile_extension() {
        // Black J8-J9 dies once White saves J7 at H7 (see `reading`);
        // Black extending at H9 dies too.
        let p = Position::from_text(
            "........X
             ........X
             ........O
             ........X
             .........
             .........
             .........
             .........
             .........",
            GameKind::Go,
        )
        .unwrap();
        let params = SearchParams::default();
        let prior_of = |color, point| {
            root_reading_priors(&params, &p, color)
                .into_iter()
                .find(|&(q, _)| q == point)
                .map(|(_, prior)| prior)
        };
        let white_h7 = prior_of(Color::White, at(&p, 7, 6)).expect("H7 captures");
        assert_eq!(white_h7.wins, 2 * white_h7.visits);
        assert!(white_h7.visits >= 2 * params.prior_read_win, "two stones");
        let black_h9 = prior_of(Color::Black, at(&p, 7, 8)).expect("H9 is futile");
        assert_eq!(
            (black_h9.visits, black_h9.wins),
            (params.prior_read_futile, 0)
        );
        let off = SearchParams {
            prior_read_win: 0,
            prior_read_futile: 0,
            ..SearchParams::default()
        };
        assert!(root_reading_priors(&off, &p, Color::White).is_empty());
    }

    #[test]
    fn a_node_reads_the_strings_near_its_last_move_only() {
        // The root reading's position: White's H7 captures J8-J9.
        let mut p = Position::from_text(
            "........X
             ........X
             ........O
             ........X
             .........
             .........
             ....X....
             .........
             .........",
            GameKind::Go,
        )
        .unwrap();
        p.set_to_move(Color::White);
        let params = SearchParams::default();
        let near = local_reading_priors(&params, &p, at(&p, 8, 5));
        let h7 = near.iter().find(|&&(q, _)| q == at(&p, 7, 6));
        assert!(
            h7.is_some_and(|(_, prior)| prior.wins == 2 * prior.visits),
            "{near:?}"
        );
        assert!(local_reading_priors(&params, &p, at(&p, 4, 2)).is_empty());
    }

    #[test]
    fn the_key_move_of_a_small_enclosed_group_gets_a_root_prior_for_both_sides() {
        // White's straight three A1 B1 C1 under Black's wall: B1 decides.
        let mut p = Position::from_text(
            ".........
             .........
             .........
             .........
             .........
             .........
             XXXXX....
             OOOOX....
             ...OX....",
            GameKind::Go,
        )
        .unwrap();
        let params = SearchParams::default();
        let b1 = at(&p, 1, 0);
        for mover in [Color::White, Color::Black] {
            p.set_to_move(mover);
            let recent = RecentMoves {
                last: None,
                before_last: None,
            };
            let priors = root_life_priors(&params, &p, mover, recent);
            assert_eq!(priors.iter().map(|&(q, _)| q).collect::<Vec<_>>(), vec![b1]);
            assert_eq!(root_vital_priors(&params, &p)[0].0, b1);
        }
    }
}
