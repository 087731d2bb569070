//! Move making: plays, passes and setup stones, and the string bookkeeping
//! under them (placing a stone, merging strings, capturing, simple ko).

use super::{BoardError, Cell, Color, GRID, GameKind, Point, Position, PseudoLiberties};

impl Position {
    /// Plays a legal move of `color` on `p` and passes the turn to the
    /// opponent. Returns the number of stones captured. The caller must
    /// have checked legality ([`Position::check_move`]).
    #[inline]
    pub fn play(&mut self, p: Point, color: Color) -> u32 {
        let captured = self.play_in_search(p, color);
        #[cfg(debug_assertions)]
        self.check_invariants();
        captured
    }

    /// [`Position::play`] without the debug builds' invariant check after
    /// the move, for the searches that make millions of moves on scratch
    /// positions (playouts, the tactical and life readers): a playout
    /// checks its position once, at its end. (Checked after every such
    /// move, the search-heavy tests ran 19 times slower.)
    #[inline(always)]
    pub fn play_in_search(&mut self, p: Point, color: Color) -> u32 {
        debug_assert_eq!(self.check_move(p, color), Ok(()));
        let captured = self.put_stone::<true>(p, color);
        self.finish_move(color);
        captured
    }

    /// [`Position::play`] for a NoGo position: a legal NoGo move never
    /// captures, so the capture and ko bookkeeping is left out.
    #[inline(always)]
    pub fn play_nogo(&mut self, p: Point, color: Color) {
        self.play_nogo_in_search(p, color);
        #[cfg(debug_assertions)]
        self.check_invariants();
    }

    /// [`Position::play_nogo`] without the debug builds' invariant check
    /// (see [`Position::play_in_search`]); playout loops play most moves
    /// through this.
    #[inline(always)]
    pub fn play_nogo_in_search(&mut self, p: Point, color: Color) {
        debug_assert_eq!(self.kind, GameKind::NoGo);
        debug_assert_eq!(self.check_move(p, color), Ok(()));
        self.put_stone::<false>(p, color);
        self.finish_move(color);
    }

    /// Passes the turn after `color`'s stone.
    #[inline(always)]
    fn finish_move(&mut self, color: Color) {
        self.to_move = color.opponent();
        self.consecutive_passes = 0;
    }

    /// Puts a setup stone (handicap, SGF AB/AW) without changing the side to
    /// move. A setup that leaves strings without liberties has them removed,
    /// as a play would.
    pub fn place_setup_stone(&mut self, p: Point, color: Color) -> Result<(), BoardError> {
        if !self.geometry.contains(p) {
            return Err(BoardError::OffBoard);
        }
        if self.cells[p.idx()] != Cell::Empty {
            return Err(BoardError::Occupied);
        }
        self.put_stone::<true>(p, color);
        if self.string_size(p) > 0
            && self.liberties[self.string_head[p.idx()] as usize].count() == 0
        {
            self.remove_string(self.string_head[p.idx()] as usize, color.opponent());
        }
        self.ko_point = 0;
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(())
    }

    /// Forgets the passes since the last stone, so that play from here
    /// goes on until both sides pass again.
    pub fn forget_passes(&mut self) {
        self.consecutive_passes = 0;
    }

    /// A pass (Go only): the turn changes and any ko ban lapses.
    pub fn pass(&mut self) {
        self.ko_point = 0;
        self.to_move = self.to_move.opponent();
        self.consecutive_passes = self.consecutive_passes.saturating_add(1);
    }

    /// Places the stone, merges strings, removes captured enemies and sets
    /// the ko point. `CAPTURES` false leaves out the last two, for moves
    /// known to capture nothing (legal NoGo moves).
    ///
    /// The neighbours' contents are as random as the playout, so they are
    /// gathered without branches into masks first; the work that follows
    /// (merges, captures) branches once per mask.
    #[inline(always)]
    fn put_stone<const CAPTURES: bool>(&mut self, p: Point, color: Color) -> u32 {
        let i = p.idx();
        self.place_lone_stone(i, color);
        let neighbours = self.geometry.neighbours(p).map(Point::idx);
        // Two simple passes keep fewer values live than one busy one.
        let zero_mask = self.take_liberty_from_neighbours::<CAPTURES>(i, color, &neighbours);
        let (own_mask, enemy_mask) = self.sort_neighbours::<CAPTURES>(i, color, &neighbours);
        // Enemies left without pseudo-liberties (rare: test them together).
        // They go before the merges: pseudo-liberties are sums, so the
        // points they free may be credited to the friendly strings before
        // or after those are joined, and the masks need not outlive this.
        let captured = self.capture_doomed(i, color, &neighbours, zero_mask & enemy_mask, own_mask);
        if own_mask != 0 {
            self.join_friends(i, &neighbours, own_mask);
        }
        captured
    }

    /// Puts a stone of `color` on the empty point `i`, as a string of its
    /// own with no liberties yet.
    #[inline(always)]
    fn place_lone_stone(&mut self, i: usize, color: Color) {
        let own = color.cell();
        self.cells[i] = own;
        self.update_neighbourhoods(i, Cell::Empty as u16 ^ own as u16);
        self.stone_counts[color.index()] += 1;
        self.pop_empty(i);
        self.string_head[i] = i as u16;
        self.next_stone[i] = i as u16;
        self.string_size[i] = 1;
    }

    /// Tells the `neighbours` of the new stone `i` that it is there: their
    /// neighbour counts, and their strings' pseudo-liberties, which lose
    /// `i`. With `CAPTURES`, returns which neighbours' strings have none
    /// left, as a mask by neighbour (0 without).
    #[inline(always)]
    fn take_liberty_from_neighbours<const CAPTURES: bool>(
        &mut self,
        i: usize,
        color: Color,
        neighbours: &[usize; 4],
    ) -> u32 {
        let mut zero_mask = 0u32;
        for (k, &j) in neighbours.iter().enumerate() {
            self.neighbour_counts[j].stone_added(color);
            // Takes `i` from a neighbouring string's pseudo-liberties (or
            // from the scratch record, for an empty or border cell). A
            // string left with none is flagged at its last stone next to `i`.
            let record = &mut self.liberties[self.string_head[j] as usize];
            record.remove_wrapping(i);
            if CAPTURES {
                zero_mask |= (record.is_none() as u32) << k;
            }
        }
        zero_mask
    }

    /// Gives the new stone `i` its empty `neighbours` as pseudo-liberties
    /// and returns the masks of its friendly and (with `CAPTURES`) enemy
    /// neighbours.
    #[inline(always)]
    fn sort_neighbours<const CAPTURES: bool>(
        &mut self,
        i: usize,
        color: Color,
        neighbours: &[usize; 4],
    ) -> (u32, u32) {
        let own = color.cell();
        let enemy = color.opponent().cell();
        let mut liberties = 0;
        let (mut own_mask, mut enemy_mask) = (0u32, 0u32);
        for (k, &j) in neighbours.iter().enumerate() {
            let cell = self.cells[j];
            liberties += PseudoLiberties::pair_if(j, cell == Cell::Empty);
            own_mask |= ((cell == own) as u32) << k;
            if CAPTURES {
                enemy_mask |= ((cell == enemy) as u32) << k;
            }
        }
        self.liberties[i] = PseudoLiberties(liberties);
        (own_mask, enemy_mask)
    }

    /// Removes the enemy strings at the `doomed` neighbours of `color`'s new
    /// stone `i` and sets the ko point (lifting any old one). Returns the
    /// stones captured.
    #[inline(always)]
    fn capture_doomed(
        &mut self,
        i: usize,
        color: Color,
        neighbours: &[usize; 4],
        mut doomed: u32,
        own_mask: u32,
    ) -> u32 {
        let enemy = color.opponent().cell();
        let mut captured = 0;
        self.ko_point = 0;
        if doomed != 0 {
            let mut last_captured = 0;
            while doomed != 0 {
                let j = neighbours[doomed.trailing_zeros() as usize];
                doomed &= doomed - 1;
                // Each doomed string is flagged once (at its last stone next
                // to `i`); the test keeps this safe all the same.
                if self.cells[j] == enemy {
                    let h = self.string_head[j] as usize;
                    captured += self.string_size[h] as u32;
                    last_captured = j;
                    self.remove_string(h, color);
                }
            }
            self.prisoners[color.index()] += captured;
            // Simple ko: one stone captured by a lone stone (no friendly
            // neighbour to join) left in atari.
            if captured == 1 && own_mask == 0 && self.liberties[i].count() == 1 {
                self.ko_color = color.opponent();
                self.ko_point = last_captured as u16;
            }
        }
        captured
    }

    /// Joins the new stone `i` to the friendly strings at its neighbours in
    /// `own_mask` (not empty).
    #[inline(always)]
    fn join_friends(&mut self, i: usize, neighbours: &[usize; 4], own_mask: u32) {
        let first = self.string_head[neighbours[own_mask.trailing_zeros() as usize]];
        // Friends of other strings than the first (usually none).
        let mut mask = 0;
        for (k, &j) in neighbours.iter().enumerate() {
            mask |= ((self.string_head[j] != first) as u32) << k;
        }
        mask &= own_mask;
        let mut head = self.join_lone_stone(i, first as usize);
        while mask != 0 {
            let j = neighbours[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            let h = self.string_head[j] as usize;
            if h != head {
                head = self.merge_strings(head, h);
            }
        }
    }

    /// `merge_strings(i, h)` for a lone stone `i`, without branches: the
    /// string that goes is a single stone either way (`i`, or `h` when `h`
    /// is a lone stone too, as `merge_strings` keeps `i` on a tie).
    #[inline(always)]
    fn join_lone_stone(&mut self, i: usize, h: usize) -> usize {
        debug_assert_eq!(self.string_size[i], 1);
        let h_alone = self.string_size[h] == 1;
        let (keep, gone) = if h_alone { (i, h) } else { (h, i) };
        self.string_head[gone] = keep as u16;
        self.next_stone.0.swap(keep & (GRID - 1), gone & (GRID - 1));
        self.string_size[keep] += 1;
        let gone_liberties = self.liberties[gone];
        self.liberties[keep].merge(gone_liberties);
        keep
    }

    /// Joins two strings, relabelling the smaller; returns the new head.
    #[inline(always)]
    fn merge_strings(&mut self, a: usize, b: usize) -> usize {
        let (keep, gone) = if self.string_size[a] >= self.string_size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = gone;
        loop {
            self.string_head[s] = keep as u16;
            s = self.next_stone[s] as usize;
            if s == gone {
                break;
            }
        }
        self.next_stone.0.swap(keep, gone);
        self.string_size[keep] += self.string_size[gone];
        let gone_liberties = self.liberties[gone];
        self.liberties[keep].merge(gone_liberties);
        keep
    }

    /// Removes the string headed by `head`, giving its points back as
    /// liberties to the `capturer`'s strings around it.
    fn remove_string(&mut self, head: usize, capturer: Color) {
        let victim = capturer.opponent();
        let capturer_cell = capturer.cell();
        self.stone_counts[victim.index()] -= self.string_size[head];
        let mut s = head;
        loop {
            let next = self.next_stone[s] as usize;
            self.cells[s] = Cell::Empty;
            self.update_neighbourhoods(s, victim.cell() as u16 ^ Cell::Empty as u16);
            self.push_empty(s);
            self.string_head[s] = 0;
            for n in self.geometry.neighbours(Point(s as u16)) {
                let j = n.idx();
                self.neighbour_counts[j].stone_removed(victim);
                // The capturer's string gets the liberty; anything else
                // (the victim's stones, empty, border) hits the scratch record.
                let is_capturer = (self.cells[j] == capturer_cell) as usize;
                let h = self.string_head[j] as usize * is_capturer;
                self.liberties[h].add_wrapping(s);
            }
            s = next;
            if s == head {
                break;
            }
        }
    }
}
