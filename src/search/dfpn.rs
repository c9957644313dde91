//! df-pn search (being written).
use super::{MateOutcome, SearchInfo, SearchLimits, SolveResult};
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub struct Search {
    _hash_mb: usize,
}

impl Search {
    pub fn new(hash_mb: usize) -> Search {
        Search { _hash_mb: hash_mb }
    }
    pub fn clear(&mut self) {}
    pub fn solve(
        &mut self,
        _root: &Position,
        _limits: &SearchLimits,
        _stop: &AtomicBool,
        _on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SolveResult {
        let t = Instant::now();
        SolveResult { outcome: MateOutcome::Timeout, nodes: 0, elapsed: t.elapsed() + Duration::ZERO }
    }
}
