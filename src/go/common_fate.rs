//! Distances in the common fate graph (Graepel et al., 2001): the board's
//! points with each string drawn together into one node, since its stones
//! live and die together. A move one liberty away from a long string the
//! opponent just extended is close to that move in this graph however far
//! it lies on the board.

use crate::board::{Cell, Point, Position};

/// Distances past this are not told apart.
pub const FARTHEST: u8 = 4;

/// Marks a point not reached within [`FARTHEST`].
const UNREACHED: u8 = u8::MAX;

/// Each point's common-fate distance from one string, up to [`FARTHEST`].
pub struct CommonFate {
    distance: Vec<u8>,
}

impl CommonFate {
    /// Distances from the string through `from`, or none at all if `from`
    /// is `None` or not a stone.
    pub fn from(position: &Position, from: Option<Point>) -> CommonFate {
        let mut fate = CommonFate {
            distance: Vec::new(),
        };
        let Some(source) = from.filter(|&p| position.cell(p).color().is_some()) else {
            return fate;
        };
        fate.distance = vec![UNREACHED; position.geometry().cells()];
        let mut frontier: Vec<Point> = position.string_stones(source).iter().collect();
        for &p in &frontier {
            fate.distance[p.idx()] = 0;
        }
        let mut next = Vec::new();
        for d in 1..=FARTHEST {
            for &p in &frontier {
                for q in position.geometry().neighbours(p) {
                    if fate.distance[q.idx()] != UNREACHED {
                        continue;
                    }
                    match position.cell(q) {
                        Cell::Border => {}
                        Cell::Empty => {
                            fate.distance[q.idx()] = d;
                            next.push(q);
                        }
                        _ => {
                            for s in position.string_stones(q).iter() {
                                fate.distance[s.idx()] = d;
                                next.push(s);
                            }
                        }
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        fate
    }

    /// The distance of `p` from the string, if it is within [`FARTHEST`].
    pub fn distance(&self, p: Point) -> Option<u8> {
        self.distance
            .get(p.idx())
            .copied()
            .filter(|&d| d != UNREACHED)
    }

    /// Whether the distances were measured from a string at all.
    pub fn is_measured(&self) -> bool {
        !self.distance.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    #[test]
    fn a_string_is_one_node() {
        // The White string runs along the second row; its far end is as
        // close to the source stone as its near end.
        let p = Position::from_text(
            ".......
             .......
             .......
             .......
             .......
             XOOOOO.
             .......",
            GameKind::Go,
        )
        .unwrap();
        let g = p.geometry();
        let fate = CommonFate::from(&p, g.point(0, 1).ok());
        assert_eq!(fate.distance(g.point(0, 1).unwrap()), Some(0));
        assert_eq!(fate.distance(g.point(5, 1).unwrap()), Some(1), "F2");
        assert_eq!(fate.distance(g.point(6, 1).unwrap()), Some(2), "G2");
        assert_eq!(fate.distance(g.point(5, 0).unwrap()), Some(2), "F1");
        assert_eq!(fate.distance(g.point(0, 0).unwrap()), Some(1), "A1");
        assert_eq!(fate.distance(g.point(6, 6).unwrap()), None, "G7, far");
    }

    #[test]
    fn no_source_measures_nothing() {
        let p = Position::from_text(".....\n.....\n..X..\n.....\n.....", GameKind::Go).unwrap();
        let g = p.geometry();
        let empty = CommonFate::from(&p, g.point(0, 0).ok());
        assert!(!empty.is_measured());
        assert_eq!(empty.distance(g.point(2, 2).unwrap()), None);
        assert!(!CommonFate::from(&p, None).is_measured());
    }
}
