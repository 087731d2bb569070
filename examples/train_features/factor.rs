//! Xiao and Müller's factorization Bradley–Terry model (AAAI 2016): a
//! move's log-strength is the sum of its features' weights (MM's gammas,
//! as logarithms) plus every pairwise interaction of its features, the dot
//! product of their latent vectors. Fitted by stochastic gradient descent
//! on the log-likelihood of the moves played, starting from MM's gammas
//! and small random vectors.

use kosumi::search::FastRng;
use kosumi::search::playout::below;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::data::{COLUMNS, Data, Judgement};

/// The largest latent dimension.
pub const MAX_DIMS: usize = 16;

/// Row of a gamma with no latent vector.
const NONE: u32 = u32::MAX;

/// The weights and latent vectors of every gamma.
pub struct Factored {
    /// Natural logarithm of each gamma.
    pub weights: Vec<f64>,
    /// Whether each weight is fitted (the "none" levels stay at 0, fixing
    /// the scale of their groups).
    free: Vec<bool>,
    /// Latent dimension.
    pub dims: usize,
    /// Row of each gamma's latent vector in `vectors`, or [`NONE`].
    rows: Vec<u32>,
    /// The latent vectors, `dims` numbers a row.
    vectors: Vec<f64>,
    /// Games whose positions the descent saw once beside the fitting
    /// positions (see [`Factored::fit`]).
    pub fresh_games: usize,
}

/// How the descent runs.
pub struct Schedule {
    pub epochs: usize,
    /// Step size of the first epoch; each later epoch's is `decay` times it.
    pub rate: f64,
    pub decay: f64,
    /// L2 penalty on the latent vectors, per position a vector appears in.
    pub penalty: f64,
}

impl Factored {
    /// MM's `gammas` as weights; a latent vector of `dims` small random
    /// numbers for each free gamma `has_vector` names.
    pub fn new(
        gammas: &[f64],
        free: Vec<bool>,
        has_vector: impl Fn(usize) -> bool,
        dims: usize,
    ) -> Factored {
        assert!((1..=MAX_DIMS).contains(&dims), "latent dimension {dims}");
        let mut rng = FastRng::seed_from_u64(1);
        let mut rows = vec![NONE; gammas.len()];
        let mut vectors = Vec::new();
        let vectored = rows
            .iter_mut()
            .enumerate()
            .filter(|&(i, _)| free[i] && has_vector(i));
        for (_, row) in vectored {
            *row = (vectors.len() / dims) as u32;
            vectors.extend(
                (0..dims).map(|_| 0.02 * (f64::from(rng.next_u32()) / 4_294_967_296.0 - 0.5)),
            );
        }
        Factored {
            weights: gammas.iter().map(|g| g.ln()).collect(),
            free,
            dims,
            rows,
            vectors,
            fresh_games: 0,
        }
    }

    /// How many gammas have a latent vector.
    pub fn vector_count(&self) -> usize {
        self.vectors.len() / self.dims
    }

    /// The latent vector of gamma `i`, if it has one.
    pub fn vector(&self, i: usize) -> Option<&[f64]> {
        let row = self.rows[i];
        (row != NONE).then(|| {
            let start = row as usize * self.dims;
            &self.vectors[start..start + self.dims]
        })
    }

    fn vector_mut(&mut self, i: usize) -> Option<&mut [f64]> {
        let row = self.rows[i];
        (row != NONE).then(|| {
            let start = row as usize * self.dims;
            &mut self.vectors[start..start + self.dims]
        })
    }

    /// A candidate's log-strength, and the sum of its latent vectors.
    fn score(&self, columns: &[u32; COLUMNS]) -> (f64, [f64; MAX_DIMS]) {
        let mut total = 0.0;
        let mut sum = [0.0; MAX_DIMS];
        let mut squares = 0.0;
        for &i in columns {
            total += self.weights[i as usize];
            if let Some(v) = self.vector(i as usize) {
                for (s, x) in sum.iter_mut().zip(v) {
                    *s += x;
                    squares += x * x;
                }
            }
        }
        let pairs: f64 = sum.iter().map(|s| s * s).sum::<f64>() - squares;
        (total + 0.5 * pairs, sum)
    }

    pub fn judge(&self, data: &Data) -> Judgement {
        data.judge_by(|c| self.score(&data.columns(c)).0.exp())
    }

    /// Runs the descent: each epoch goes over `data`'s positions, then over
    /// those of the epoch's `fresh` data, if any (positions seen once, so
    /// that the descent learns from more games than memory holds), each
    /// set in a random order; `after_epoch` is called with each epoch's
    /// number.
    pub fn fit(
        &mut self,
        data: &Data,
        schedule: &Schedule,
        mut fresh: impl FnMut(usize) -> Option<Data>,
        mut after_epoch: impl FnMut(usize, &Self),
    ) {
        let mut rng = FastRng::seed_from_u64(2);
        let mut step = Step::new(self.weights.len(), self.dims);
        let mut rate = schedule.rate;
        for epoch in 0..schedule.epochs {
            let more = fresh(epoch);
            self.fresh_games += more.as_ref().map_or(0, Data::games);
            for set in std::iter::once(data).chain(more.as_ref()) {
                let mut order: Vec<u32> = (0..set.positions() as u32).collect();
                for k in (1..order.len()).rev() {
                    order.swap(k, below(&mut rng, k + 1));
                }
                for &j in &order {
                    step.descend(self, set, j as usize, rate, schedule.penalty);
                }
            }
            after_epoch(epoch, self);
            rate *= schedule.decay;
        }
    }
}

/// One position's gradient, gathered before it is applied so that every
/// candidate's gradient sees the same parameters.
struct Step {
    columns: Vec<[u32; COLUMNS]>,
    scores: Vec<f64>,
    sums: Vec<[f64; MAX_DIMS]>,
    weight_grad: Vec<f64>,
    vector_grad: Vec<f64>,
    touched: Vec<u32>,
    seen: Vec<bool>,
}

impl Step {
    fn new(gammas: usize, dims: usize) -> Step {
        Step {
            columns: Vec::new(),
            scores: Vec::new(),
            sums: Vec::new(),
            weight_grad: vec![0.0; gammas],
            vector_grad: vec![0.0; gammas * dims],
            touched: Vec::new(),
            seen: vec![false; gammas],
        }
    }

    fn descend(&mut self, model: &mut Factored, data: &Data, j: usize, rate: f64, penalty: f64) {
        let candidates = data.range(j);
        let chosen = data.chosen_of(j);
        self.scores.clear();
        self.sums.clear();
        self.columns.clear();
        self.columns.extend(candidates.map(|c| data.columns(c)));
        for columns in &self.columns {
            let (score, sum) = model.score(columns);
            self.scores.push(score);
            self.sums.push(sum);
        }
        let top = self.scores.iter().copied().fold(f64::MIN, f64::max);
        let total: f64 = self.scores.iter().map(|s| (s - top).exp()).sum();
        let dims = model.dims;
        for (c, columns) in self.columns.iter().enumerate() {
            let chance = (self.scores[c] - top).exp() / total;
            let g = chance - f64::from(u8::from(c == chosen));
            for &i in columns {
                let i = i as usize;
                if !model.free[i] {
                    continue;
                }
                if !self.seen[i] {
                    self.seen[i] = true;
                    self.touched.push(i as u32);
                }
                self.weight_grad[i] += g;
                if let Some(v) = model.vector(i) {
                    let grad = &mut self.vector_grad[i * dims..(i + 1) * dims];
                    for ((gd, s), x) in grad.iter_mut().zip(&self.sums[c]).zip(v) {
                        *gd += g * (s - x);
                    }
                }
            }
        }
        for &i in &self.touched {
            let i = i as usize;
            self.seen[i] = false;
            model.weights[i] -= rate * self.weight_grad[i];
            self.weight_grad[i] = 0.0;
            if let Some(v) = model.vector_mut(i) {
                let grad = &mut self.vector_grad[i * dims..(i + 1) * dims];
                for (x, gd) in v.iter_mut().zip(grad.iter_mut()) {
                    *x -= rate * (*gd + penalty * *x);
                    *gd = 0.0;
                }
            }
        }
        self.touched.clear();
    }
}
