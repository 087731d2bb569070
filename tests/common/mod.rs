//! A deliberately naive Go/NoGo board, independent of `kosumi::board`.
//!
//! The grid is a plain `Vec<Option<Color>>` indexed `row * width + col`
//! (row 0 at the bottom, as in `Geometry::point`). Strings and liberties are
//! found by flood fill every time they are needed, and a move is judged by
//! playing it on a copy of the grid and looking at the result. There are no
//! bitboards, no pseudo-liberties and no incremental state beyond the stones,
//! the side to move, the ko ban and the prisoner counts. It is slow on
//! purpose: it is the reference `kosumi::board::Position` is compared with.
//!
//! Only three things come from the engine: the `Color`, `GameKind` and
//! `BoardError` vocabulary, and the Zobrist keys (`stone_key`), which define
//! what a hash is.

#![allow(dead_code)] // each integration test crate uses a different subset

use std::cell::RefCell;

use kosumi::board::zobrist::stone_key;
use kosumi::board::{BoardError, Color, GameKind, Geometry};

/// What a legal move does to the board.
#[derive(Clone, Debug)]
pub struct NaiveOutcome {
    /// The grid after the move.
    pub grid: Vec<Option<Color>>,
    /// Grid indices of the captured stones.
    pub captured: Vec<usize>,
    /// Stones in the mover's string after the move.
    pub own_string_size: usize,
    /// Distinct liberties of the mover's string after the move.
    pub own_liberties: usize,
}

/// A Go or NoGo position kept the slow way.
#[derive(Clone, Debug)]
pub struct NaiveBoard {
    pub width: usize,
    pub height: usize,
    pub kind: GameKind,
    pub grid: Vec<Option<Color>>,
    pub to_move: Color,
    /// Simple ko: the grid index the given colour may not play next.
    pub ko: Option<(usize, Color)>,
    /// Stones captured by Black and by White.
    pub prisoners: [u32; 2],
    /// Passes since the last stone.
    pub consecutive_passes: u32,
    /// Flood-fill scratch: a point is visited when its mark equals the
    /// current stamp (saves clearing a visited array for every fill).
    marks: RefCell<(Vec<u32>, u32)>,
}

fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn other(color: Color) -> Color {
    match color {
        Color::Black => Color::White,
        Color::White => Color::Black,
    }
}

impl NaiveBoard {
    /// An empty `width` x `height` board, Black to move.
    pub fn new(width: usize, height: usize, kind: GameKind) -> NaiveBoard {
        NaiveBoard {
            width,
            height,
            kind,
            grid: vec![None; width * height],
            to_move: Color::Black,
            ko: None,
            prisoners: [0, 0],
            consecutive_passes: 0,
            marks: RefCell::new((vec![0; width * height], 0)),
        }
    }

    /// Number of points.
    pub fn area(&self) -> usize {
        self.width * self.height
    }

    /// Grid index of column `col`, row `row` (row 0 at the bottom).
    pub fn index(&self, col: usize, row: usize) -> usize {
        assert!(col < self.width && row < self.height);
        row * self.width + col
    }

    /// Column and row of a grid index.
    pub fn col_row(&self, index: usize) -> (usize, usize) {
        (index % self.width, index / self.width)
    }

    /// The stone at column `col`, row `row`.
    pub fn at(&self, col: usize, row: usize) -> Option<Color> {
        self.grid[self.index(col, row)]
    }

    /// The on-board orthogonal neighbours of a grid index.
    pub fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> + use<> {
        let (col, row) = self.col_row(index);
        let width = self.width;
        [
            (col > 0).then(|| index - 1),
            (col + 1 < self.width).then(|| index + 1),
            (row > 0).then(|| index - width),
            (row + 1 < self.height).then(|| index + width),
        ]
        .into_iter()
        .flatten()
    }

    /// The string through `start` on `grid` (which must hold a stone there)
    /// and the number of its distinct liberties, by flood fill.
    pub fn string_on(&self, grid: &[Option<Color>], start: usize) -> (Vec<usize>, usize) {
        let color = grid[start].expect("a string starts on a stone");
        let mut marks = self.marks.borrow_mut();
        let (visited, stamp) = &mut *marks;
        if *stamp == u32::MAX {
            visited.fill(0);
            *stamp = 0;
        }
        *stamp += 1;
        let stamp = *stamp;
        // One mark array serves both stones and liberties: a point is either.
        let mut stones = vec![start];
        visited[start] = stamp;
        let mut liberties = 0;
        let mut next = 0;
        while next < stones.len() {
            let s = stones[next];
            next += 1;
            for n in self.neighbours(s) {
                if visited[n] == stamp {
                    continue;
                }
                match grid[n] {
                    None => {
                        visited[n] = stamp;
                        liberties += 1;
                    }
                    Some(c) if c == color => {
                        visited[n] = stamp;
                        stones.push(n);
                    }
                    Some(_) => {}
                }
            }
        }
        (stones, liberties)
    }

    /// The string through `index` on the current board and its liberty count.
    pub fn string(&self, index: usize) -> (Vec<usize>, usize) {
        self.string_on(&self.grid, index)
    }

    /// Plays `color` on `index` on a copy of the grid and reports what
    /// happens, or why the move is illegal. Checks in the engine's order:
    /// occupied, ko, then capture (NoGo) or suicide.
    pub fn try_move(&self, index: usize, color: Color) -> Result<NaiveOutcome, BoardError> {
        if self.grid[index].is_some() {
            return Err(BoardError::Occupied);
        }
        if self.kind == GameKind::Go && self.ko == Some((index, color)) {
            return Err(BoardError::Ko);
        }
        let mut grid = self.grid.clone();
        grid[index] = Some(color);
        let mut captured: Vec<usize> = Vec::new();
        for n in self.neighbours(index) {
            if grid[n] == Some(other(color)) && !captured.contains(&n) {
                let (stones, liberties) = self.string_on(&grid, n);
                if liberties == 0 {
                    captured.extend(stones);
                }
            }
        }
        if !captured.is_empty() {
            if self.kind == GameKind::NoGo {
                return Err(BoardError::NoGoCapture);
            }
            for &s in &captured {
                grid[s] = None;
            }
        }
        let (own, own_liberties) = self.string_on(&grid, index);
        if own_liberties == 0 {
            return Err(BoardError::Suicide);
        }
        Ok(NaiveOutcome {
            own_string_size: own.len(),
            own_liberties,
            grid,
            captured,
        })
    }

    /// Whether `color` may play on `index`, and if not, why.
    pub fn check(&self, index: usize, color: Color) -> Result<(), BoardError> {
        self.try_move(index, color).map(|_| ())
    }

    /// Grid indices of every legal move of `color`, ascending.
    pub fn legal_moves(&self, color: Color) -> Vec<usize> {
        (0..self.area())
            .filter(|&i| self.check(i, color).is_ok())
            .collect()
    }

    /// Plays a move (panics if illegal); returns the number of stones captured.
    /// Simple ko: a lone stone that captured exactly one stone and is left
    /// with exactly one liberty bars the opponent from the captured point for
    /// one move.
    pub fn play(&mut self, index: usize, color: Color) -> u32 {
        let outcome = self
            .try_move(index, color)
            .unwrap_or_else(|e| panic!("naive board: illegal move {index} for {color:?}: {e}"));
        let captured = outcome.captured.len() as u32;
        self.ko = (captured == 1 && outcome.own_string_size == 1 && outcome.own_liberties == 1)
            .then(|| (outcome.captured[0], other(color)));
        self.grid = outcome.grid;
        self.prisoners[color_index(color)] += captured;
        self.to_move = other(color);
        self.consecutive_passes = 0;
        captured
    }

    /// A pass: the turn changes and the ko ban lapses.
    pub fn pass(&mut self) {
        self.ko = None;
        self.to_move = other(self.to_move);
        self.consecutive_passes += 1;
    }

    /// The grid index `color` may not play because of simple ko.
    pub fn ko_point(&self, color: Color) -> Option<usize> {
        match self.ko {
            Some((index, barred)) if barred == color => Some(index),
            _ => None,
        }
    }

    /// The engine geometry with the same columns and rows.
    pub fn geometry(&self) -> Geometry {
        Geometry::new(self.width, self.height).expect("naive boards have valid sizes")
    }

    /// Zobrist hash from scratch: XOR of the key of every stone.
    pub fn hash(&self) -> u64 {
        let geometry = self.geometry();
        let mut hash = 0;
        for (index, stone) in self.grid.iter().enumerate() {
            if let Some(color) = *stone {
                let (col, row) = self.col_row(index);
                hash ^= stone_key(color, geometry.point(col, row).expect("on the board"));
            }
        }
        hash
    }

    /// Tromp–Taylor area: stones plus empty regions that border only one colour.
    pub fn area_score(&self) -> (u32, u32) {
        let mut score = [0u32; 2];
        let mut visited = vec![false; self.area()];
        for start in 0..self.area() {
            if let Some(color) = self.grid[start] {
                score[color_index(color)] += 1;
                continue;
            }
            if visited[start] {
                continue;
            }
            let mut region = vec![start];
            visited[start] = true;
            let mut borders = [false; 2];
            let mut next = 0;
            while next < region.len() {
                let s = region[next];
                next += 1;
                for n in self.neighbours(s) {
                    match self.grid[n] {
                        Some(color) => borders[color_index(color)] = true,
                        None if !visited[n] => {
                            visited[n] = true;
                            region.push(n);
                        }
                        None => {}
                    }
                }
            }
            match borders {
                [true, false] => score[0] += region.len() as u32,
                [false, true] => score[1] += region.len() as u32,
                _ => {}
            }
        }
        (score[0], score[1])
    }

    /// The board as text, top row first: `X` black, `O` white, `.` empty.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                text.push(match self.at(col, row) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    /// Number of legal move sequences of exactly `depth` moves from here,
    /// the side to move alternating (a side with no move ends a sequence
    /// early and it is not counted).
    pub fn move_sequences(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mover = self.to_move;
        let mut total = 0;
        for index in self.legal_moves(mover) {
            let mut child = self.clone();
            child.play(index, mover);
            total += child.move_sequences(depth - 1);
        }
        total
    }

    /// Whether every string on the board has at least one liberty.
    pub fn every_string_has_a_liberty(&self) -> bool {
        (0..self.area()).all(|i| self.grid[i].is_none() || self.string(i).1 > 0)
    }
}

/// Number of legal Go positions on a `width` x `height` board: colourings of
/// the points with empty, black and white in which every string has a
/// liberty, found by trying all 3^n colourings.
pub fn count_legal_positions_by_enumeration(width: usize, height: usize) -> u64 {
    let mut board = NaiveBoard::new(width, height, GameKind::Go);
    let n = board.area();
    let total = 3u64.pow(n as u32);
    let mut legal = 0;
    for code in 0..total {
        let mut rest = code;
        for cell in board.grid.iter_mut() {
            *cell = match rest % 3 {
                0 => None,
                1 => Some(Color::Black),
                _ => Some(Color::White),
            };
            rest /= 3;
        }
        legal += board.every_string_has_a_liberty() as u64;
    }
    legal
}
