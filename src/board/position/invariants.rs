//! The invariant checker: every derived field of a `Position` (strings,
//! pseudo-liberties, neighbour counts, 3x3 neighbourhoods, the empty list,
//! stone counts, the ko point) recomputed from the cells alone. Debug
//! builds run it after every move but a search's (see
//! `Position::play_in_search`) and at the end of each playout; tests call
//! it directly.

use super::{Bitboard, Cell, Color, GameKind, NeighbourCounts, Point, Position, PseudoLiberties};

impl Position {
    /// Recomputes every derived field from the cells and panics on any
    /// disagreement. Debug builds run it after every move but a search's
    /// (see [`Position::play_in_search`]).
    pub fn check_invariants(&self) {
        let g = self.geometry;
        let mut empty_total = 0;
        let (mut stone_total, mut stones_in_strings) = (0, 0);
        for i in 0..g.cells() {
            let p = Point(i as u16);
            let cell = self.cells[i];
            assert_eq!(cell == Cell::Border, !g.contains(p), "border at {i}");
            match cell {
                Cell::Empty => {
                    assert_eq!(self.string_head[i], 0, "head of empty {i}");
                    empty_total += 1;
                    let slot = self.empty_slot[i] as usize;
                    assert!(slot < self.empty_count as usize, "empty slot {i}");
                    assert_eq!(self.empties[slot] as usize, i, "empty list {i}");
                }
                Cell::Black | Cell::White => {
                    // Each string is checked once, from its head; the
                    // stone total below shows no stone escaped a string.
                    stone_total += 1;
                    if self.string_head[i] as usize == i {
                        stones_in_strings += self.check_string(p);
                    }
                }
                Cell::Border => {}
            }
        }
        for p in g.points() {
            let mut expected = 0;
            for n in g.neighbours(p) {
                expected += match self.cells[n.idx()] {
                    Cell::Black => 0x01,
                    Cell::White => 0x0100,
                    Cell::Border => 0x0101,
                    Cell::Empty => 1 << NeighbourCounts::EMPTY_SHIFT,
                };
            }
            assert_eq!(
                self.neighbour_counts[p.idx()].0,
                expected,
                "neighbour counts at {p:?}"
            );
            if self.kind == GameKind::Go {
                assert_eq!(
                    self.neighbourhoods[p.idx()],
                    self.neighbourhood_from_cells(p),
                    "3x3 neighbourhood at {p:?}"
                );
            }
        }
        assert_eq!(empty_total, self.empty_count as usize, "empty count");
        assert_eq!(stone_total, stones_in_strings, "stones outside any string");
        for color in [Color::Black, Color::White] {
            let counted = self.stones(color).count();
            assert_eq!(
                self.stone_counts[color.index()] as u32,
                counted,
                "{color:?} stones"
            );
        }
        if self.ko_point != 0 {
            let k = self.ko_point as usize;
            assert_eq!(self.cells[k], Cell::Empty, "ko point empty");
            assert_eq!(self.neighbour_counts[k].empty(), 0, "ko point surrounded");
        }
        assert_eq!(self.board_mask, g.board_mask(), "board mask");
    }

    /// Checks one string's list, head, size and pseudo-liberties against a
    /// flood fill from `p`; returns its size.
    fn check_string(&self, p: Point) -> u32 {
        let head = self.string_head[p.idx()] as usize;
        let color = self.cells[p.idx()];
        let mut seed = Bitboard::EMPTY;
        seed.set(p);
        let color = color.color().expect("a stone has a colour");
        let stones = seed.flood(&self.stones(color), self.geometry, &self.board_mask);
        let listed = self.string_stones(p);
        assert_eq!(stones, listed, "string list at {p:?}");
        assert_eq!(
            self.string_size[head] as u32,
            stones.count(),
            "size at {p:?}"
        );
        assert!(stones.contains(Point(head as u16)), "head at {p:?}");
        let mut expected = PseudoLiberties::default();
        for s in stones.iter() {
            assert_eq!(self.string_head[s.idx()] as usize, head, "head of {s:?}");
            for n in self.geometry.neighbours(s) {
                if self.cells[n.idx()] == Cell::Empty {
                    expected.add(n.idx());
                }
            }
        }
        assert_eq!(expected, self.liberties[head], "pseudo-liberties at {p:?}");
        assert!(expected.count() > 0, "string without liberty at {p:?}");
        stones.count()
    }
}
