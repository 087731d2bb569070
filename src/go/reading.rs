//! Tactical reading of strings short of liberties, beyond ladders: GNU Go's
//! attack and defend, bounded by a node budget.
//!
//! The ladder reader in `tactics` is narrow enough to run inside priors
//! and playouts. This one is wider and runs once a search, at the root:
//! the attacker may also play a net (a point next to a liberty) and attack
//! strings with three liberties, the defender may also capture or atari
//! the attackers next to its string, or race them: fill the liberties of
//! an attacker no longer than itself. It finds loose ladders and nets,
//! which extensions only run into them, and short capturing races.
//!
//! A read that runs out of nodes or plies counts the string as safe: a
//! verdict of "captured" holds against every defence the reader knows
//! (extending, capturing, a double atari or, early on, ataring or racing
//! an attacker), though not against a counter-threat elsewhere on the
//! board or a ko won by threats. Four liberties count as safe inside a read;
//! at the root a save that reaches exactly four must also survive the
//! attacker taking one of them. `scripts/reading_vs_gnugo.py` checks the
//! root's verdicts against GNU Go's reader.

use std::cell::RefCell;

use crate::board::{Bitboard, Color, Point, Position};

use super::tactics::{load_ply, play_next_ply};

/// Moves (nodes) one read may play before it gives up. At 4,000 the read
/// of Fuego's tactics_19 test 3 (CGOS game 31410, Black's M7 reaching three
/// liberties and dying in a loose ladder after White N8) gave up and
/// called M7 safe; at 10,000 it is futile. `kosumi-tactics` on all of
/// tactics_19's 45 positions took 0.94 s against 0.91 s, on tactics_ld's
/// 46 0.21 s against 0.20 s: most reads end long before either budget,
/// and `ROOT_READ_NODES` still bounds a root's reading.
const READ_NODES: u32 = 10000;

/// Moves all the reads of one root analysis may play together.
const ROOT_READ_NODES: u32 = 100_000;

/// [`READ_NODES`] and [`ROOT_READ_NODES`] for the reading of a node inside
/// the search (see [`local_effects`]), which runs many times a search.
const LOCAL_READ_NODES: u32 = 2_000;
const LOCAL_TOTAL_READ_NODES: u32 = 6_000;

/// The attacker's widths tried in turn: plies (from where the read
/// starts) within which it also tries nets and three-liberty strings.
const WIDTHS: [usize; 4] = [0, 2, 4, WIDE_PLIES];

/// Deepest a read goes; a longer fight counts as the string escaping.
const MAX_READ_PLIES: usize = 80;

/// A string touching two or more enemy strings (a cutting string) counts
/// as at least this many stones: what hangs on it is the connection.
const CUTTER_STONES: u32 = 3;

/// Liberties at which a string counts as safe.
const SAFE_LIBERTIES: usize = 4;

/// Plies within which the attacker may also try nets and three-liberty
/// strings, widest setting: beyond them the read narrows to ladders, which
/// may run long. Reads widen step by step up to it (see `Reader::width`).
const WIDE_PLIES: usize = 7;

/// Plies within which the defender also ataris its attackers.
const COUNTER_ATARI_PLIES: usize = 5;

thread_local! {
    /// One position per ply of the reading, reused across reads.
    static PLIES: RefCell<Vec<Position>> = const { RefCell::new(Vec::new()) };
}

/// What a move at the root does to a string short of liberties. Each
/// carries the stones at stake: the string's size, or `CUTTER_STONES`
/// for a smaller string that cuts enemy strings apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Captures (now or by force) an enemy string of this many stones
    /// that its owner could still save by moving first.
    Captures(u32),
    /// Saves an own string of this many stones that the opponent could
    /// otherwise capture: every attack the reader knows fails, read to the
    /// end within its budget.
    Saves(u32),
    /// Extends an own string of this many stones that the opponent can
    /// capture, and it still dies.
    FailsToSave(u32),
}

/// The tactical effects of `mover`'s moves: for every string with three
/// liberties or fewer whose fate depends on who moves first, the moves
/// that capture it (enemy strings), that save it, or that extend it in
/// vain (own strings). A point may appear more than once.
pub fn root_effects(position: &Position, mover: Color) -> Vec<(Point, Effect)> {
    effects_of_strings_in(position, mover, None, (READ_NODES, ROOT_READ_NODES))
}

/// [`root_effects`] for the strings with a stone in `focus` only: what a
/// node inside the search reads about the strings its last move touched.
pub fn local_effects(position: &Position, mover: Color, focus: &Bitboard) -> Vec<(Point, Effect)> {
    effects_of_strings_in(
        position,
        mover,
        Some(focus),
        (LOCAL_READ_NODES, LOCAL_TOTAL_READ_NODES),
    )
}

/// The tactical effects of `mover`'s moves on the strings with a stone in
/// `focus` (every string without one), within `(nodes a read, nodes in
/// all)`.
fn effects_of_strings_in(
    position: &Position,
    mover: Color,
    focus: Option<&Bitboard>,
    (read_nodes, total_nodes): (u32, u32),
) -> Vec<(Point, Effect)> {
    PLIES.with_borrow_mut(|plies| {
        let mut reader = Reader::new(plies);
        reader.read_nodes = read_nodes;
        let mut effects = Vec::new();
        let mut seen = Bitboard::EMPTY;
        let mut spent = 0;
        for color in [mover.opponent(), mover] {
            let stones = match focus {
                Some(focus) => position.stones(color).and(focus),
                None => position.stones(color),
            };
            for s in stones.iter() {
                if seen.contains(s) {
                    continue;
                }
                let stones = position.string_stones(s);
                seen = seen.or(&stones);
                if position.liberties_up_to(s, SAFE_LIBERTIES).len() >= SAFE_LIBERTIES {
                    continue;
                }
                if spent >= total_nodes {
                    return effects;
                }
                let mut size = stones.count();
                if touching_strings(position, s).len() >= 2 {
                    size = size.max(CUTTER_STONES);
                }
                if color == mover {
                    reader.own_string(position, s, mover, size, &mut effects);
                } else {
                    reader.enemy_string(position, s, mover, size, &mut effects);
                }
                spent += reader.nodes;
            }
        }
        effects
    })
}

/// A read in progress: `plies[k]` is the position `k` moves in.
struct Reader<'a> {
    plies: &'a mut Vec<Position>,
    /// Moves played by this read (or this root analysis).
    nodes: u32,
    /// When `nodes` reaches it, the read gives up.
    limit: u32,
    /// Nodes each read may play (see `read_widening`).
    read_nodes: u32,
    /// Plies within which the attacker also tries nets and strings with
    /// three liberties (at most `WIDE_PLIES`).
    width: usize,
    /// Whether the last read stopped somewhere for want of nodes or plies,
    /// so that a "safe" verdict from it is a guess, not a refutation.
    gave_up: bool,
}

impl<'a> Reader<'a> {
    /// A reader with nothing spent, over the ply boards `plies`.
    fn new(plies: &'a mut Vec<Position>) -> Reader<'a> {
        Reader {
            plies,
            nodes: 0,
            limit: 0,
            read_nodes: READ_NODES,
            width: 0,
            gave_up: false,
        }
    }

    /// Makes `plies[0]` a copy of `position` with `to_move` to play.
    fn load(&mut self, position: &Position, to_move: Color) {
        load_ply(self.plies, 0, position);
        self.plies[0].set_to_move(to_move);
    }

    /// Makes `plies[ply + 1]` the position after `color` plays `p` at
    /// `ply`; false (and nothing played) if the move is illegal.
    fn play(&mut self, ply: usize, p: Point, color: Color) -> bool {
        if !self.plies[ply].is_legal_empty(p, color) {
            return false;
        }
        play_next_ply(self.plies, ply, p, color);
        self.nodes += 1;
        true
    }

    fn exhausted(&mut self, ply: usize) -> bool {
        let exhausted = ply >= MAX_READ_PLIES || self.nodes >= self.limit;
        self.gave_up |= exhausted;
        exhausted
    }

    /// Attacker to move at `ply`: whether the string through `target` is
    /// captured (see `read_widening`).
    fn captures_first_to_move(&mut self, target: Point, defender: Color, ply: usize) -> bool {
        self.read_widening(ply, |reader| reader.attack(target, defender, ply))
    }

    /// Defender to move at `ply`: whether every defence of the string
    /// through `target` fails (see `read_widening`).
    fn dies_first_to_move(&mut self, target: Point, defender: Color, ply: usize) -> bool {
        self.read_widening(ply, |reader| !reader.defend(target, defender, ply))
    }

    /// Whether `proves` holds for a read from `ply` at some width: read
    /// narrow first and wider while the budget lasts. A wider read only
    /// adds attacking tries, so a capture found narrow stands and is found
    /// cheaply; a width that runs out of budget ends the widening.
    fn read_widening(&mut self, ply: usize, mut proves: impl FnMut(&mut Self) -> bool) -> bool {
        self.limit = self.nodes + self.read_nodes;
        self.gave_up = false;
        for width in WIDTHS {
            self.width = ply + width;
            if proves(self) {
                return true;
            }
            if self.nodes >= self.limit {
                return false;
            }
        }
        false
    }

    /// Attacker to move: true if the string through `target` is captured.
    fn attack(&mut self, target: Point, defender: Color, ply: usize) -> bool {
        let attacker = defender.opponent();
        let position = &self.plies[ply];
        if position.cell(target) != defender.cell() {
            return true;
        }
        let liberties = position.liberties_up_to(target, SAFE_LIBERTIES);
        if liberties.len() == 1 {
            return liberties
                .points()
                .all(|liberty| position.is_legal_empty(liberty, attacker));
        }
        let wide = ply < self.width;
        if liberties.len() >= SAFE_LIBERTIES || liberties.len() == 3 && !wide {
            return false;
        }
        let candidates = attack_candidates(position, target, wide);
        if self.exhausted(ply) {
            return false;
        }
        for m in candidates {
            if self.play(ply, m, attacker) && !self.defend(target, defender, ply + 1) {
                return true;
            }
        }
        false
    }

    /// Defender to move: true if the string through `target` survives.
    fn defend(&mut self, target: Point, defender: Color, ply: usize) -> bool {
        let position = &self.plies[ply];
        if position.cell(target) != defender.cell() {
            return false;
        }
        let own = position.liberties_up_to(target, SAFE_LIBERTIES).len();
        if own >= SAFE_LIBERTIES {
            return true;
        }
        let candidates = defence_candidates(position, target, own, ply < COUNTER_ATARI_PLIES);
        if self.exhausted(ply) {
            return true;
        }
        for m in candidates {
            if self.play(ply, m, defender) && !self.attack(target, defender, ply + 1) {
                return true;
            }
        }
        false
    }

    /// Records the moves that capture the enemy string through `target`,
    /// if it dies when `mover` plays first and lives when its owner does.
    fn enemy_string(
        &mut self,
        position: &Position,
        target: Point,
        mover: Color,
        size: u32,
        effects: &mut Vec<(Point, Effect)>,
    ) {
        let defender = mover.opponent();
        self.nodes = 0;
        self.load(position, defender);
        if self.dead_whoever_moves(target, defender) {
            return; // no hurry
        }
        self.plies[0].set_to_move(mover);
        if !self.captures_first_to_move(target, defender, 0) {
            return;
        }
        for m in attack_candidates(&self.plies[0], target, true) {
            if self.play(0, m, mover) && self.dies_first_to_move(target, defender, 1) {
                effects.push((m, Effect::Captures(size)));
            }
        }
    }

    /// Records the moves that save `mover`'s string through `target`, and
    /// the extensions that do not, if the opponent could capture it.
    fn own_string(
        &mut self,
        position: &Position,
        target: Point,
        mover: Color,
        size: u32,
        effects: &mut Vec<(Point, Effect)>,
    ) {
        let attacker = mover.opponent();
        self.nodes = 0;
        self.load(position, attacker);
        if !self.captures_first_to_move(target, mover, 0) {
            return;
        }
        self.plies[0].set_to_move(mover);
        let liberties = self.plies[0].string_liberties(target);
        let attackers = touching_strings(&self.plies[0], target);
        let own = (liberties.count() as usize).min(SAFE_LIBERTIES);
        for m in defence_candidates(&self.plies[0], target, own, true) {
            if !self.play(0, m, mover) {
                continue;
            }
            // An atari that does not win the string it ataris only forces
            // an answer: the string is no safer for it than before. A race
            // move fills a liberty of an attacker with three or more.
            let before = &self.plies[0];
            let captures = |s: &Point| before.atari_liberty(*s) == Some(m);
            let races = |s: &Point| {
                let theirs = before.liberties_up_to(*s, SAFE_LIBERTIES);
                theirs.len() >= 3 && theirs.points().any(|q| q == m)
            };
            let direct = liberties.contains(m)
                || attackers.iter().any(captures)
                || attackers.iter().any(races);
            if !direct
                && !attackers
                    .iter()
                    .any(|&s| self.plies[1].in_atari(s) && self.dies_first_to_move(s, attacker, 1))
            {
                continue;
            }
            if !self.captures_first_to_move(target, mover, 1) {
                // A read that gave up proves nothing: no credit for it.
                if !self.gave_up && !self.four_liberties_fall(target, mover) {
                    effects.push((m, Effect::Saves(size)));
                }
            } else if liberties.contains(m) {
                effects.push((m, Effect::FailsToSave(size)));
            }
        }
    }

    /// Defender to move at ply 0: whether the string through `target` dies
    /// whatever it plays, a defence that only reaches four liberties
    /// failing when they fall (`four_liberties_fall`). The corner string
    /// of CGOS game 31410 at move 68 (Black R16 and S17, in tactics_19 and
    /// ladder_19) reaches four liberties at S16 and dies all the same, as
    /// GNU Go's defend says: White's moves there capture nothing that was
    /// still alive.
    fn dead_whoever_moves(&mut self, target: Point, defender: Color) -> bool {
        if self.dies_first_to_move(target, defender, 0) {
            return true;
        }
        let position = &self.plies[0];
        let own = position.liberties_up_to(target, SAFE_LIBERTIES).len();
        let candidates = defence_candidates(position, target, own, true);
        let reaches_four = |reader: &mut Self, m: Point| {
            reader.play(0, m, defender)
                && reader.plies[1]
                    .liberties_up_to(target, SAFE_LIBERTIES + 1)
                    .len()
                    == SAFE_LIBERTIES
        };
        // Only a defence that stops at four liberties can be a false save;
        // without one the read above stands, and these plays cost no read.
        if !candidates.iter().any(|&m| reaches_four(self, m)) {
            return false;
        }
        for m in candidates {
            if !self.play(0, m, defender) || self.captures_first_to_move(target, defender, 1) {
                continue;
            }
            if self.gave_up || !self.four_liberties_fall(target, defender) {
                return false;
            }
        }
        true
    }

    /// After a saving move at ply 0: whether the string through `target`,
    /// left with exactly `SAFE_LIBERTIES` liberties (which the reads count
    /// as safe), still dies when the attacker takes one of them first and
    /// the defender cannot rescue it. A move that only reaches four
    /// liberties next to a wall is no save: tactics_ld test 38 (White E7
    /// or F6 at move 283 of the viking4 game), where GNU Go's attack
    /// captures the four-liberty string.
    fn four_liberties_fall(&mut self, target: Point, defender: Color) -> bool {
        let liberties = self.plies[1].liberties_up_to(target, SAFE_LIBERTIES + 1);
        if liberties.len() != SAFE_LIBERTIES {
            return false;
        }
        let attacker = defender.opponent();
        liberties.points().any(|liberty| {
            self.play(1, liberty, attacker)
                && self.dies_first_to_move(target, defender, 2)
                && !self.gave_up
        })
    }
}

/// The attacker's tries against the string through `target`: saving its
/// own strings in atari next to it (else the defender captures them and
/// breaks out), by extending or by capturing what ataris them, the
/// target's liberties, then (when `wide`) the empty points next to them.
fn attack_candidates(position: &Position, target: Point, wide: bool) -> Vec<Point> {
    let g = position.geometry();
    let liberties = position.string_liberties(target);
    let target_stones = position.string_stones(target);
    let mut candidates: Vec<Point> = Vec::new();
    for s in touching_strings(position, target) {
        let Some(escape) = position.atari_liberty(s) else {
            continue;
        };
        // Extending, or capturing a defender's stone in atari that ataris
        // it (a double atari played as a self-atari).
        let captures = touching_strings(position, s)
            .into_iter()
            .filter(|&d| !target_stones.contains(d))
            .filter_map(|d| position.atari_liberty(d));
        for p in std::iter::once(escape).chain(captures) {
            if !liberties.contains(p) && !candidates.contains(&p) {
                candidates.push(p);
            }
        }
    }
    candidates.extend(liberties.iter());
    if wide {
        let nets = liberties
            .dilate(g, position.board_mask())
            .and(&position.empty_mask())
            .and_not(&liberties);
        for p in nets.iter() {
            if !candidates.contains(&p) {
                candidates.push(p);
            }
        }
    }
    candidates
}

/// One stone of each opposing string touching the string through `target`.
fn touching_strings(position: &Position, target: Point) -> Vec<Point> {
    let Some(color) = position.cell(target).color() else {
        return Vec::new();
    };
    let touching = position
        .string_stones(target)
        .dilate(position.geometry(), position.board_mask())
        .and(&position.stones(color.opponent()));
    let mut strings = Vec::new();
    let mut seen = Bitboard::EMPTY;
    for s in touching.iter() {
        if !seen.contains(s) {
            seen = seen.or(&position.string_stones(s));
            strings.push(s);
        }
    }
    strings
}

/// The defender's tries for the string through `target`: capturing an
/// attacker in atari next to it, extending on its liberties, a double
/// atari on two attackers next to it, then (when `wide`) ataris on
/// attackers with two liberties next to it and, in a capturing race,
/// filling a liberty of an attacker with no more liberties than the
/// target: moving first, the defender wins that race. A double atari is
/// tried at every ply: it breaks a ladder that runs along the attackers'
/// own short strings (Fuego's ladder_19 test 75, bad-ladder.2, where White
/// G13 ataris F13 and G12 five plies into the ladder's run).
/// `own` is the target's liberty count, up to `SAFE_LIBERTIES`, which the
/// caller has already taken.
fn defence_candidates(position: &Position, target: Point, own: usize, wide: bool) -> Vec<Point> {
    let mut captures = Vec::new();
    let mut ataris = Vec::new();
    let mut races = Vec::new();
    for s in touching_strings(position, target) {
        let liberties = position.liberties_up_to(s, SAFE_LIBERTIES);
        match liberties.len() {
            1 => captures.extend(liberties.points()),
            // In atari itself, the target has no time for an atari.
            2 if own >= 2 => ataris.extend(liberties.points()),
            n if wide && n <= own => races.extend(liberties.points()),
            _ => {}
        }
    }
    // Each string lists a point once: a point listed twice ataris two.
    let double_ataris: Vec<Point> = ataris
        .iter()
        .enumerate()
        .filter(|&(k, p)| ataris[..k].contains(p))
        .map(|(_, &p)| p)
        .collect();
    if !wide {
        ataris.clear();
    }
    let mut candidates = captures;
    for p in position
        .string_liberties(target)
        .iter()
        .chain(double_ataris)
        .chain(ataris)
        .chain(races)
    {
        if !candidates.contains(&p) {
            candidates.push(p);
        }
    }
    candidates
}

#[cfg(test)]
mod tests;
