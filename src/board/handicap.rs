//! Handicap placement: the fixed layouts as the GTP specification lays
//! them out, and free placement (`place_free_handicap`) beyond them.

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

/// Where `place_free_handicap` puts `stones` stones: the fixed layout when
/// the board has one, else the largest fixed layout plus points chosen one
/// at a time as far as possible from the stones already placed, away from
/// the edges while there is room.
///
/// `None` when the board cannot take that many (fewer than 2, or no free
/// point left).
pub fn free_handicap_points(g: Geometry, stones: usize) -> Option<Vec<Point>> {
    if stones < 2 || stones >= g.area() {
        return None;
    }
    if let Ok(points) = fixed_handicap_points(g, stones) {
        return Some(points);
    }
    let mut chosen = (2..stones)
        .rev()
        .find_map(|n| fixed_handicap_points(g, n).ok())
        .unwrap_or_default();
    let side = g.width().min(g.height());
    let margin = match side {
        13.. => 3,
        7.. => 2,
        5.. => 1,
        _ => 0,
    };
    let in_band = |p: Point| {
        g.coords(p).is_some_and(|(col, row)| {
            (margin..g.width() - margin).contains(&col)
                && (margin..g.height() - margin).contains(&row)
        })
    };
    let coords = |p: Point| {
        g.coords(p)
            .map_or((0.0, 0.0), |(col, row)| (col as f64, row as f64))
    };
    let squared = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2);
    if chosen.is_empty() {
        // Small boards without a layout: start in the centre.
        let centre = ((g.width() - 1) as f64 / 2.0, (g.height() - 1) as f64 / 2.0);
        let first = g.points().fold(None, |best: Option<(Point, f64)>, p| {
            let d = squared(coords(p), centre);
            match best {
                Some((_, best_d)) if best_d <= d => best,
                _ => Some((p, d)),
            }
        });
        chosen.extend(first.map(|(p, _)| p));
    }
    // Each free point with its squared distance to the nearest stone, and
    // the sum of squared distances to all of them to break ties.
    let mut free: Vec<(Point, f64, f64)> = g
        .points()
        .filter(|p| !chosen.contains(p))
        .map(|p| {
            let distances = chosen.iter().map(|&q| squared(coords(p), coords(q)));
            let nearest = distances.clone().fold(f64::INFINITY, f64::min);
            (p, nearest, distances.sum())
        })
        .collect();
    while chosen.len() < stones {
        let band_left = free.iter().any(|&(p, _, _)| in_band(p));
        let mut best: Option<(usize, f64, f64)> = None;
        for (k, &(p, nearest, sum)) in free.iter().enumerate() {
            if band_left && !in_band(p) {
                continue;
            }
            if best.is_none_or(|(_, n, s)| nearest > n || (nearest == n && sum > s)) {
                best = Some((k, nearest, sum));
            }
        }
        let (index, _, _) = best?;
        let (p, _, _) = free.remove(index);
        chosen.push(p);
        for entry in &mut free {
            let d = squared(coords(entry.0), coords(p));
            entry.1 = entry.1.min(d);
            entry.2 += d;
        }
    }
    Some(chosen)
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
