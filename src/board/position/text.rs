//! Boards as text rows (`X`, `O`, `.`), for tests, the solver and debugging.

use super::{BoardError, Cell, Color, GameKind, Geometry, Position};

impl Position {
    /// The board as text, top row first: `X` black, `O` white, `.` empty.
    pub fn to_text(&self) -> String {
        let g = self.geometry;
        let mut text = String::new();
        for row in (0..g.height()).rev() {
            for col in 0..g.width() {
                text.push(match self.cells[g.point_unchecked(col, row).idx()] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    /// A position from text rows (top row first; `X`/`x`/`B` black,
    /// `O`/`o`/`W` white, anything else empty; spaces ignored). Stones are
    /// placed as setup, Black to move. For tests and the solver.
    pub fn from_text(text: &str, kind: GameKind) -> Result<Position, BoardError> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != width) {
            return Err(BoardError::BadSize);
        }
        let g = Geometry::new(width, height)?;
        let mut position = Position::new(g, kind);
        for (k, row) in rows.iter().enumerate() {
            for (col, &c) in row.iter().enumerate() {
                let color = match c {
                    'X' | 'x' | 'B' => Color::Black,
                    'O' | 'o' | 'W' => Color::White,
                    _ => continue,
                };
                position.place_setup_stone(g.point_unchecked(col, height - 1 - k), color)?;
            }
        }
        Ok(position)
    }
}
