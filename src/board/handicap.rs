//! Fixed handicap placement as the GTP specification lays it out.

use super::{BoardError, Geometry, Point};

/// The points of `stones` fixed handicap stones, in the GTP order: 2 to 9
/// stones on odd boards of 9x9 and larger, 2 to 4 on the other square
/// boards of 7x7 and larger, none below 7x7. Stones sit on the third line
/// up to 12x12, on the fourth from 13x13.
pub fn fixed_handicap_points(geometry: Geometry, stones: usize) -> Result<Vec<Point>, BoardError> {
    let size = geometry.width();
    if !geometry.is_square() || size < 7 {
        return Err(BoardError::BadSize);
    }
    let max = if size % 2 == 1 && size >= 9 { 9 } else { 4 };
    if !(2..=max).contains(&stones) {
        return Err(BoardError::BadSize);
    }
    let low = if size >= 13 { 3 } else { 2 };
    let (high, mid) = (size - 1 - low, size / 2);
    // D4, Q16, D16, Q4, D10, Q10, K4, K16 on 19x19; the centre joins odd counts from 5.
    let order = [
        (low, low),
        (high, high),
        (low, high),
        (high, low),
        (low, mid),
        (high, mid),
        (mid, low),
        (mid, high),
    ];
    let corners_and_sides = match stones {
        2..=4 => stones,
        5 => 4,
        6 | 7 => 6,
        _ => 8,
    };
    let mut points: Vec<Point> = order[..corners_and_sides]
        .iter()
        .map(|&(col, row)| geometry.point_unchecked(col, row))
        .collect();
    if stones % 2 == 1 && stones >= 5 {
        points.push(geometry.point_unchecked(mid, mid));
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: usize, stones: usize) -> Vec<String> {
        let g = Geometry::square(size).unwrap();
        fixed_handicap_points(g, stones)
            .unwrap()
            .into_iter()
            .map(|p| {
                let (c, r) = g.coords(p).unwrap();
                format!("{}{}", b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[c] as char, r + 1)
            })
            .collect()
    }

    #[test]
    fn gtp_layout_on_19x19() {
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 3), ["D4", "Q16", "D16"]);
        assert_eq!(names(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            names(19, 8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
        );
        assert_eq!(names(19, 9).len(), 9);
    }

    #[test]
    fn small_and_even_boards() {
        assert_eq!(names(9, 4), ["C3", "G7", "C7", "G3"]);
        assert_eq!(names(13, 2), ["D4", "K10"]);
        assert_eq!(names(7, 4), ["C3", "E5", "C5", "E3"]);
        let g = |n| Geometry::square(n).unwrap();
        assert!(fixed_handicap_points(g(7), 5).is_err());
        assert!(fixed_handicap_points(g(10), 5).is_err());
        assert!(fixed_handicap_points(g(6), 2).is_err());
        assert!(fixed_handicap_points(g(19), 1).is_err());
        assert!(fixed_handicap_points(g(19), 10).is_err());
        assert!(fixed_handicap_points(Geometry::new(9, 11).unwrap(), 2).is_err());
    }
}
