//! Short combinatorial games in canonical form, hash-consed in an arena.
//!
//! A game is `{ left options | right options }`; Left (Black) and Right
//! (White) alternate and the player who cannot move loses, as in NoGo.
//! Every game an [`Arena`] hands out is in canonical form (no dominated
//! and no reversible options, Siegel, *Combinatorial Game Theory*, II.2),
//! so two equal games have the same [`GameId`]. Comparison, negation and
//! sums are memoised; all work draws on one budget, and an operation that
//! would exceed it answers `None` (explosive sums of hot games exist).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A game in an [`Arena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(u32);

/// Who wins a game: Left (Black) or Right (White) whoever starts, or the
/// player who moves first, or the one who moves second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    Left,
    Right,
    First,
    Second,
}

/// A game form: its options, sorted and without repeats.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Form {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
}

/// A multiplicative hash: the keys are small integers, SipHash would
/// dominate the arena's time.
#[derive(Default)]
pub(super) struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }
    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(26) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }
    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// A hash map with [`MixHasher`].
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;

/// Canonical games and the memos of the operations on them.
pub struct Arena {
    forms: Vec<Form>,
    /// Option lists already made (canonical or not) to their canonical game.
    made: FastMap<Form, GameId>,
    le_memo: FastMap<(GameId, GameId), bool>,
    neg_memo: FastMap<GameId, GameId>,
    sum_memo: FastMap<(GameId, GameId), GameId>,
    /// Work units left: one per comparison or form made.
    work_left: u64,
}

impl Arena {
    /// An arena that may do `work` units of work (about one comparison or
    /// one game made each, some 50 to 100 bytes of memo).
    pub fn new(work: u64) -> Arena {
        let mut arena = Arena {
            forms: Vec::new(),
            made: FastMap::default(),
            le_memo: FastMap::default(),
            neg_memo: FastMap::default(),
            sum_memo: FastMap::default(),
            work_left: work,
        };
        arena.intern(Vec::new(), Vec::new());
        arena
    }

    /// The game 0 = { | }.
    pub fn zero(&self) -> GameId {
        GameId(0)
    }

    /// Work units left.
    pub fn work_left(&self) -> u64 {
        self.work_left
    }

    /// Games made so far (canonical or not).
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// Whether only 0 has been made.
    pub fn is_empty(&self) -> bool {
        self.forms.len() <= 1
    }

    /// Left's options of `g`.
    pub fn left(&self, g: GameId) -> &[GameId] {
        &self.forms[g.0 as usize].left
    }

    /// Right's options of `g`.
    pub fn right(&self, g: GameId) -> &[GameId] {
        &self.forms[g.0 as usize].right
    }

    fn spend(&mut self, units: u64) -> Option<()> {
        self.work_left = self.work_left.checked_sub(units)?;
        Some(())
    }

    /// Stores a form as it is (the caller knows it is canonical, or it is
    /// a pending form only compared against).
    fn push(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let id = GameId(self.forms.len() as u32);
        self.forms.push(Form {
            left: left.into_boxed_slice(),
            right: right.into_boxed_slice(),
        });
        id
    }

    /// Stores a canonical form once (sorted options).
    fn intern(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        left.sort_unstable();
        right.sort_unstable();
        let form = Form {
            left: left.into_boxed_slice(),
            right: right.into_boxed_slice(),
        };
        if let Some(&id) = self.made.get(&form) {
            return id;
        }
        let id = GameId(self.forms.len() as u32);
        self.made.insert(form.clone(), id);
        self.forms.push(form);
        id
    }

    /// The canonical game `{ left | right }` of canonical options.
    pub fn make(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> Option<GameId> {
        self.spend(1)?;
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let raw = Form {
            left: left.clone().into_boxed_slice(),
            right: right.clone().into_boxed_slice(),
        };
        if let Some(&id) = self.made.get(&raw) {
            return Some(id);
        }
        // Bypassing keeps the value, so every reversibility test may
        // compare against the form as given.
        let pending = self.push(left.clone(), right.clone());
        loop {
            left = self.undominated(left, false)?;
            right = self.undominated(right, true)?;
            if !self.bypass(&mut left, pending, false)?
                && !self.bypass(&mut right, pending, true)?
            {
                break;
            }
        }
        let id = self.intern(left, right);
        self.made.insert(raw, id);
        Some(id)
    }

    /// The options no other option beats: Left's maximal ones, or Right's
    /// minimal ones (`right`). Equal games have equal ids, so ties are
    /// repeats, already removed.
    fn undominated(&mut self, options: Vec<GameId>, right: bool) -> Option<Vec<GameId>> {
        let mut kept = Vec::with_capacity(options.len());
        for (i, &a) in options.iter().enumerate() {
            let mut dominated = false;
            for (j, &b) in options.iter().enumerate() {
                if i != j
                    && (if right {
                        self.le(b, a)?
                    } else {
                        self.le(a, b)?
                    })
                {
                    dominated = true;
                    break;
                }
            }
            if !dominated {
                kept.push(a);
            }
        }
        kept.sort_unstable();
        kept.dedup();
        Some(kept)
    }

    /// Bypasses one reversible option of `options` (Right's if `right`) of
    /// the game `whole`: a Left option `GL` with some `GLR <= G` is replaced
    /// by the Left options of that `GLR` (mirrored for Right). True if one
    /// was bypassed.
    fn bypass(&mut self, options: &mut Vec<GameId>, whole: GameId, right: bool) -> Option<bool> {
        for i in 0..options.len() {
            let option = options[i];
            let replies = if right {
                self.left(option).to_vec()
            } else {
                self.right(option).to_vec()
            };
            for reply in replies {
                let reverses = if right {
                    self.le(whole, reply)?
                } else {
                    self.le(reply, whole)?
                };
                if reverses {
                    options.swap_remove(i);
                    let through = if right {
                        self.right(reply)
                    } else {
                        self.left(reply)
                    };
                    options.extend_from_slice(through);
                    options.sort_unstable();
                    options.dedup();
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    /// Whether `g <= h`: no Left option of `g` is `>= h` and no Right
    /// option of `h` is `<= g`.
    pub fn le(&mut self, g: GameId, h: GameId) -> Option<bool> {
        if g == h {
            return Some(true);
        }
        if let Some(&known) = self.le_memo.get(&(g, h)) {
            return Some(known);
        }
        self.spend(1)?;
        let mut result = true;
        for i in 0..self.left(g).len() {
            let gl = self.left(g)[i];
            if self.le(h, gl)? {
                result = false;
                break;
            }
        }
        if result {
            for i in 0..self.right(h).len() {
                let hr = self.right(h)[i];
                if self.le(hr, g)? {
                    result = false;
                    break;
                }
            }
        }
        self.le_memo.insert((g, h), result);
        Some(result)
    }

    /// Whether `g` and `h` are equal games (for canonical ones: the same id).
    pub fn eq(&mut self, g: GameId, h: GameId) -> Option<bool> {
        Some(self.le(g, h)? && self.le(h, g)?)
    }

    /// `-g = { -GR | -GL }` (canonical when `g` is).
    pub fn neg(&mut self, g: GameId) -> Option<GameId> {
        if let Some(&known) = self.neg_memo.get(&g) {
            return Some(known);
        }
        self.spend(1)?;
        let mut left = Vec::with_capacity(self.right(g).len());
        for i in 0..self.right(g).len() {
            left.push(self.neg(self.right(g)[i])?);
        }
        let mut right = Vec::with_capacity(self.left(g).len());
        for i in 0..self.left(g).len() {
            right.push(self.neg(self.left(g)[i])?);
        }
        let id = self.intern(left, right);
        self.neg_memo.insert(g, id);
        self.neg_memo.insert(id, g);
        Some(id)
    }

    /// `g + h = { GL + h, g + HL | GR + h, g + HR }`, canonical.
    pub fn sum(&mut self, g: GameId, h: GameId) -> Option<GameId> {
        let zero = self.zero();
        if g == zero {
            return Some(h);
        }
        if h == zero {
            return Some(g);
        }
        let key = (g.min(h), g.max(h));
        if let Some(&known) = self.sum_memo.get(&key) {
            return Some(known);
        }
        self.spend(1)?;
        let (mut left, mut right) = (Vec::new(), Vec::new());
        for (a, b) in [(g, h), (h, g)] {
            for i in 0..self.left(a).len() {
                left.push(self.sum(self.left(a)[i], b)?);
            }
            for i in 0..self.right(a).len() {
                right.push(self.sum(self.right(a)[i], b)?);
            }
        }
        let id = self.make(left, right)?;
        self.sum_memo.insert(key, id);
        Some(id)
    }

    /// The sum of all `games` (0 for none).
    pub fn sum_all(&mut self, games: &[GameId]) -> Option<GameId> {
        games
            .iter()
            .try_fold(self.zero(), |total, &g| self.sum(total, g))
    }

    /// Who wins `g`.
    pub fn outcome(&mut self, g: GameId) -> Option<GameOutcome> {
        let zero = self.zero();
        let at_most_zero = self.le(g, zero)?;
        let at_least_zero = self.le(zero, g)?;
        Some(match (at_least_zero, at_most_zero) {
            (true, true) => GameOutcome::Second,
            (true, false) => GameOutcome::Left,
            (false, true) => GameOutcome::Right,
            (false, false) => GameOutcome::First,
        })
    }

    /// The integer `n` in canonical form: `{ n-1 | }` or `{ | n+1 }`.
    pub fn integer(&mut self, n: i32) -> GameId {
        let mut g = self.zero();
        for _ in 0..n.unsigned_abs() {
            g = if n > 0 {
                self.intern(vec![g], Vec::new())
            } else {
                self.intern(Vec::new(), vec![g])
            };
        }
        g
    }

    /// The integer `g` is, if it is one (canonical integers only).
    pub fn as_integer(&self, g: GameId) -> Option<i32> {
        let form = &self.forms[g.0 as usize];
        match (&form.left[..], &form.right[..]) {
            ([], []) => Some(0),
            ([n], []) => self.as_integer(*n).filter(|&n| n >= 0).map(|n| n + 1),
            ([], [n]) => self.as_integer(*n).filter(|&n| n <= 0).map(|n| n - 1),
            _ => None,
        }
    }

    /// `g` written out: integers as numbers, `*` for `{0|0}`, otherwise
    /// `{..|..}`, cut short after about `limit` characters.
    pub fn describe(&self, g: GameId, limit: usize) -> String {
        let mut out = String::new();
        self.write_game(g, limit, &mut out);
        out
    }

    fn write_game(&self, g: GameId, limit: usize, out: &mut String) {
        if out.len() > limit {
            out.push_str("..");
            return;
        }
        if let Some(n) = self.as_integer(g) {
            out.push_str(&n.to_string());
            return;
        }
        let zero = [self.zero()];
        if self.left(g) == zero && self.right(g) == zero {
            out.push('*');
            return;
        }
        out.push('{');
        for (side, options) in [self.left(g), self.right(g)].into_iter().enumerate() {
            if side == 1 {
                out.push('|');
            }
            for (k, &option) in options.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                self.write_game(option, limit, out);
            }
        }
        out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generous arena for the small games of these tests.
    fn arena() -> Arena {
        Arena::new(1_000_000)
    }

    fn star(a: &mut Arena) -> GameId {
        let zero = a.zero();
        a.make(vec![zero], vec![zero]).unwrap()
    }

    fn up(a: &mut Arena) -> GameId {
        let (zero, star) = (a.zero(), star(a));
        a.make(vec![zero], vec![star]).unwrap()
    }

    fn half(a: &mut Arena) -> GameId {
        let (zero, one) = (a.zero(), a.integer(1));
        a.make(vec![zero], vec![one]).unwrap()
    }

    #[test]
    fn integers_are_the_simplest_forms() {
        let mut a = arena();
        let zero = a.zero();
        assert_eq!(a.make(vec![], vec![]), Some(zero));
        let one = a.make(vec![zero], vec![]).unwrap();
        assert_eq!(one, a.integer(1));
        assert_eq!(a.as_integer(one), Some(1));
        // {0, 1 |} = 2: the dominated option 0 goes.
        let two = a.make(vec![zero, one], vec![]).unwrap();
        assert_eq!(two, a.integer(2));
        assert_eq!(a.left(two), &[one]);
        let minus_one = a.integer(-1);
        assert_eq!(a.neg(one), Some(minus_one));
        assert_eq!(a.sum(one, minus_one), Some(zero));
        assert_eq!(a.sum(two, minus_one), Some(one));
        // {-1 | 1} = 0: a number between, the simplest one.
        assert_eq!(a.make(vec![minus_one], vec![one]), Some(zero));
        assert_eq!(a.describe(two, 40), "2");
    }

    #[test]
    fn stars_and_nimbers_add_as_nim() {
        let mut a = arena();
        let zero = a.zero();
        let star = star(&mut a);
        assert_eq!(a.describe(star, 40), "*");
        assert_eq!(a.sum(star, star), Some(zero));
        // {* | *} = 0: each option reverses through 0.
        assert_eq!(a.make(vec![star], vec![star]), Some(zero));
        let star2 = a.make(vec![zero, star], vec![zero, star]).unwrap();
        let star3 = a.make(vec![zero, star, star2], vec![zero, star, star2]);
        assert_eq!(a.sum(star, star2), star3);
        assert_eq!(a.sum(star2, star2), Some(zero));
        assert_eq!(a.outcome(star), Some(GameOutcome::First));
        assert_eq!(a.outcome(zero), Some(GameOutcome::Second));
        assert_eq!(a.le(star, zero), Some(false));
        assert_eq!(a.le(zero, star), Some(false));
    }

    #[test]
    fn up_and_its_multiples() {
        let mut a = arena();
        let (zero, star, up) = (a.zero(), star(&mut a), up(&mut a));
        assert_eq!(a.outcome(up), Some(GameOutcome::Left));
        // ↑* = {0, * | 0}: first player wins.
        let up_star = a.sum(up, star).unwrap();
        assert_eq!(a.make(vec![zero, star], vec![zero]), Some(up_star));
        assert_eq!(a.outcome(up_star), Some(GameOutcome::First));
        // ⇑ = {0 | ↑*} and ⇑* = {0 | ↑}.
        let double_up = a.sum(up, up).unwrap();
        assert_eq!(a.make(vec![zero], vec![up_star]), Some(double_up));
        let double_up_star = a.sum(double_up, star).unwrap();
        assert_eq!(a.make(vec![zero], vec![up]), Some(double_up_star));
        assert_eq!(a.outcome(double_up_star), Some(GameOutcome::Left));
        // ↑ and * are confused; ⇑ beats *.
        assert_eq!(a.le(up, star), Some(false));
        assert_eq!(a.le(star, up), Some(false));
        assert_eq!(a.le(star, double_up), Some(true));
        assert_eq!(a.le(double_up, star), Some(false));
        // ↑ + ↓ = 0.
        let down = a.neg(up).unwrap();
        assert_eq!(a.make(vec![star], vec![zero]), Some(down));
        assert_eq!(a.sum(up, down), Some(zero));
    }

    #[test]
    fn fractions_and_switches() {
        let mut a = arena();
        let (zero, one, half) = (a.zero(), a.integer(1), half(&mut a));
        assert_eq!(a.sum(half, half), Some(one));
        assert_eq!(a.le(half, one), Some(true));
        assert_eq!(a.le(one, half), Some(false));
        let up = up(&mut a);
        assert_eq!(a.le(up, half), Some(true));
        assert_eq!(a.le(half, up), Some(false));
        // ±1 = {1 | -1}: hot, first player wins; ±1 + ±1 = 0.
        let minus_one = a.integer(-1);
        let pm_one = a.make(vec![one], vec![minus_one]).unwrap();
        assert_eq!(a.outcome(pm_one), Some(GameOutcome::First));
        assert_eq!(a.sum(pm_one, pm_one), Some(zero));
        // {1 | 0} + {1 | 0} = {1 + {1|0} | {1|0}}: Left wins whoever starts.
        let switch = a.make(vec![one], vec![zero]).unwrap();
        let twice = a.sum(switch, switch).unwrap();
        assert_eq!(a.outcome(twice), Some(GameOutcome::Left));
        assert_eq!(a.outcome(switch), Some(GameOutcome::First));
        assert_eq!(a.describe(switch, 40), "{1|0}");
    }

    #[test]
    fn a_spent_budget_answers_none() {
        let mut a = Arena::new(3);
        let zero = a.zero();
        let one = a.integer(1);
        let star = a.make(vec![zero], vec![zero]);
        let sums = star.and_then(|star| a.sum(star, one));
        let more = sums.and_then(|s| a.sum(s, s));
        assert_eq!(more, None);
        assert_eq!(a.work_left(), 0);
    }
}
