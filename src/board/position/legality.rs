//! Legality: whether a colour may play a point under Go's or NoGo's rules,
//! the single-point eye test, and the light playouts' candidate test. The
//! hot paths decide from the neighbour counts and the neighbouring strings'
//! pseudo-liberties, without branching per neighbour.

use super::{Bitboard, BoardError, Cell, Color, GameKind, Point, Position, PseudoLiberties};

/// What the neighbours of an empty point `p` are, as NoGo legality needs
/// them: bit `2 * cell + atari` is set for each neighbour, `atari` telling
/// whether its string's only liberty is `p`. For an empty or border cell
/// `atari` means nothing, so both of its bits are read together.
#[derive(Clone, Copy, Debug)]
struct NeighbourKinds(u32);

impl NeighbourKinds {
    const EMPTY: u32 = 0b11 << (2 * Cell::Empty as u32);

    /// Bit of a neighbouring string of `color` with another liberty.
    #[inline(always)]
    fn safe(color: Color) -> u32 {
        1 << (2 * color.cell() as u32)
    }

    /// Bit of a neighbouring string of `color` whose only liberty is `p`.
    #[inline(always)]
    fn in_atari(color: Color) -> u32 {
        2 << (2 * color.cell() as u32)
    }

    /// A stone of `color` on `p` would capture.
    #[inline(always)]
    fn capture_by(self, color: Color) -> bool {
        self.0 & Self::in_atari(color.opponent()) != 0
    }

    /// A stone of `color` on `p` would have a liberty (directly or through
    /// a friendly string).
    #[inline(always)]
    fn liberty_for(self, color: Color) -> bool {
        self.0 & (Self::EMPTY | Self::safe(color)) != 0
    }

    /// `color` may play `p` in NoGo.
    #[inline(always)]
    fn nogo_legal(self, color: Color) -> bool {
        self.liberty_for(color) & !self.capture_by(color)
    }
}

/// For each colour, and each set of four diagonal cells (two bits each, as
/// [`Cell`] numbers them): whether they allow an eye of that colour, i.e.
/// hold at most one enemy stone, none if one of them is the border. A table
/// look-up replaces eight comparisons in the playouts' eye test.
static EYE_DIAGONALS: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut code = 0;
    while code < 256 {
        // Cells of each kind among the four diagonals.
        let mut counts = [0; 4];
        let mut k = 0;
        while k < 4 {
            counts[(code >> (2 * k)) & 3] += 1;
            k += 1;
        }
        let edge = (counts[Cell::Border as usize] > 0) as usize;
        table[Color::Black as usize][code] = counts[Cell::White as usize] + edge < 2;
        table[Color::White as usize][code] = counts[Cell::Black as usize] + edge < 2;
        code += 1;
    }
    table
};

impl Position {
    /// Whether `color` may play on `p` under this position's rules.
    #[inline]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check_move(p, color).is_ok()
    }

    /// [`Position::is_legal`] for a point known to be empty (one taken from
    /// [`Position::empty_points`]): the playouts' hot path.
    #[inline(always)]
    pub fn is_legal_empty(&self, p: Point, color: Color) -> bool {
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        match self.kind {
            GameKind::Go => {
                !(self.ko_point == p.0 && self.ko_color == color)
                    && self.go_move_keeps_a_liberty(p, color)
            }
            GameKind::NoGo => self.nogo_legal(p, color),
        }
    }

    /// [`Position::is_legal_empty`] for a NoGo position, without asking
    /// which rules apply: the NoGo playouts' hot path.
    #[inline(always)]
    pub fn is_legal_empty_nogo(&self, p: Point, color: Color) -> bool {
        debug_assert_eq!(self.kind, GameKind::NoGo);
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        self.nogo_legal(p, color)
    }

    /// Whether `color` may play on `p`, and if not, why.
    #[inline]
    pub fn check_move(&self, p: Point, color: Color) -> Result<(), BoardError> {
        let i = p.idx();
        if i >= self.geometry.cells() || self.cells[i] == Cell::Border {
            return Err(BoardError::OffBoard);
        }
        if self.cells[i] != Cell::Empty {
            return Err(BoardError::Occupied);
        }
        match self.kind {
            GameKind::Go => {
                if self.ko_point as usize == i && self.ko_color == color {
                    return Err(BoardError::Ko);
                }
                if self.go_move_keeps_a_liberty(p, color) {
                    Ok(())
                } else {
                    Err(BoardError::Suicide)
                }
            }
            GameKind::NoGo => self.nogo_check(p, color),
        }
    }

    /// Go: after `color` plays the empty point `p`, its string has a liberty
    /// (directly, through a friendly string, or by capturing).
    #[inline(always)]
    fn go_move_keeps_a_liberty(&self, p: Point, color: Color) -> bool {
        if self.neighbour_counts[p.idx()].empty() > 0 {
            return true;
        }
        // Every neighbour is a stone or the edge. A friend with another
        // liberty keeps us alive; an enemy whose last liberty is `p` gets
        // captured. Computed without branches: which neighbours are stones
        // is as random as the playout.
        let own = color.cell();
        let enemy = color.opponent().cell();
        let pair = PseudoLiberties::pair(p.idx());
        let mut ok = false;
        for n in self.geometry.neighbours(p) {
            let cell = self.cells[n.idx()];
            let atari = self.liberties[self.string_head[n.idx()] as usize].only_liberty_is(pair);
            ok |= (cell == own) & !atari | (cell == enemy) & atari;
        }
        ok
    }

    /// NoGo: the move must neither capture nor be suicide.
    #[inline(always)]
    fn nogo_check(&self, p: Point, color: Color) -> Result<(), BoardError> {
        if self.neighbour_counts[p.idx()].empty() == 4 {
            return Ok(());
        }
        let kinds = self.neighbour_kinds(p);
        if kinds.capture_by(color) {
            Err(BoardError::NoGoCapture)
        } else if kinds.liberty_for(color) {
            Ok(())
        } else {
            Err(BoardError::Suicide)
        }
    }

    /// NoGo: whether `color` may play the empty point `p`.
    #[inline(always)]
    fn nogo_legal(&self, p: Point, color: Color) -> bool {
        self.neighbour_counts[p.idx()].empty() == 4 || self.neighbour_kinds(p).nogo_legal(color)
    }

    /// NoGo: whether Black and White may each play the empty point `p`
    /// ([`Position::is_legal_empty`] for both colours). One pass over the
    /// neighbours: whether a neighbouring string's only liberty is `p` does
    /// not depend on who plays there.
    #[inline(always)]
    pub fn nogo_legality(&self, p: Point) -> (bool, bool) {
        debug_assert_eq!(self.kind, GameKind::NoGo);
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        if self.neighbour_counts[p.idx()].empty() == 4 {
            return (true, true);
        }
        let kinds = self.neighbour_kinds(p);
        (
            kinds.nogo_legal(Color::Black),
            kinds.nogo_legal(Color::White),
        )
    }

    /// The [`NeighbourKinds`] of the empty point `p`. Without branches per
    /// neighbour (see `go_move_keeps_a_liberty`).
    #[inline(always)]
    fn neighbour_kinds(&self, p: Point) -> NeighbourKinds {
        let pair = PseudoLiberties::pair(p.idx());
        let mut kinds = 0;
        for n in self.geometry.neighbours(p) {
            let cell = self.cells[n.idx()];
            let atari = self.liberties[self.string_head[n.idx()] as usize].only_liberty_is(pair);
            kinds |= 1 << (2 * cell as u32 + atari as u32);
        }
        NeighbourKinds(kinds)
    }

    /// Whether `p` is a single-point eye of `color`: every neighbour is its
    /// stone or the edge, and the diagonals hold at most one enemy stone
    /// (none on the edge). Light playouts never fill these.
    #[inline(always)]
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        if self.neighbour_counts[p.idx()].of(color) != 4 {
            return false;
        }
        let mut diagonals = 0;
        for (k, d) in self.geometry.diagonals(p).into_iter().enumerate() {
            diagonals |= (self.cells[d.idx()] as usize) << (2 * k);
        }
        EYE_DIAGONALS[color.index()][diagonals]
    }

    /// Whether a light playout may play `color` on the empty point `p`:
    /// in Go a legal move that does not fill `color`'s own single-point eye
    /// (`!is_eye && is_legal_empty`), in NoGo a legal move (`is_legal_empty`).
    /// `go` must match the position's rules; it is a parameter so that the
    /// playout loop can fix it once. A point with an empty neighbour is
    /// settled at once: it is no eye, the move keeps a liberty and captures
    /// nothing, and it is not the ko point (a ko point is always surrounded).
    #[inline(always)]
    pub fn is_light_candidate(&self, p: Point, color: Color, go: bool) -> bool {
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        debug_assert_eq!(go, self.kind == GameKind::Go);
        let counts = self.neighbour_counts[p.idx()];
        if go {
            if counts.empty() > 0 {
                return true;
            }
            if counts.of(color) == 4 && self.is_eye(p, color) {
                return false;
            }
            !(self.ko_point == p.0 && self.ko_color == color)
                && self.go_move_keeps_a_liberty(p, color)
        } else {
            self.nogo_legal(p, color)
        }
    }

    /// Whether the side to move has any legal move (NoGo: if not, it has lost).
    pub fn has_legal_move(&self, color: Color) -> bool {
        self.empty_points()
            .iter()
            .any(|&p| self.is_legal(Point(p), color))
    }

    /// Every legal move of `color`, as a set.
    pub fn legal_moves(&self, color: Color) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for &p in self.empty_points() {
            if self.is_legal(Point(p), color) {
                set.set(Point(p));
            }
        }
        set
    }
}
