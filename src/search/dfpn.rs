//! df-pn (Nagai): one searcher, what it owns, and the loop of one node.
//!
//! * OR nodes (attacker to move) take the minimum proof number of their checks and combine their
//!   disproof numbers; AND nodes (defender to move) the reverse. How numbers combine (sums with
//!   SNDA-lite groups, or weak proof numbers) and the thresholds are in `numbers.rs`; the children in
//!   `node.rs` and `dfpn/expand.rs`, their first numbers in `dfpn/estimates.rs`, chains in
//!   `node/chains.rs` and `dfpn/chains.rs`; what a result depends on in `loops.rs`; proof and
//!   disproof hands in `hands.rs`.
//! * The best child is searched with thresholds that make it return as soon as another child looks
//!   better (by the 1+ε factor if set) or the node's own thresholds are reached (`dfpn/mid.rs`).
//! * A new OR node may be proven at once by mate in one, without generating its checks
//!   (`dfpn/leaves.rs`).
//! * **Node count**: one node per position whose moves the search generates (every entry of `mid`,
//!   and every one-ply look of `Init::Look`). Mate-in-one probes are counted apart.
//! * **Depth limit**: a child beyond the limit is disproven for this path only; if the root ends up
//!   disproven only because of such cuts, the limit is raised and the search goes on
//!   (`dfpn/root.rs`).
//!
//! **State by owner.** A `Searcher` owns what one thread of search needs: the position, the path to
//! it, the game being played (`game.rs`), its node budget, depth limit and counters, the arena of
//! children and the scratch lists. What every searcher of the solve shares — the table, switches,
//! limits, `stop`, the problem — is behind `shared` (`shared.rs`). A nested search (a test from a
//! node deep in the tree, a bounded question) swaps in a game, a path and a budget of its own and
//! gets the outer ones back when it returns (`dfpn/nested.rs`).

mod chains;
mod estimates;
mod expand;
mod leaves;
mod limits;
mod mid;
mod nested;
mod progress;
mod result;
mod root;

pub use root::RootResult;

use super::budget::Budget;
use super::config::SearchConfig;
use super::game::Game;
use super::loops::{Dependence, DepthLimit};
use super::node::Children;
use super::node::look_cache::LookCache;
use super::numbers::PnDn;
use super::outcome::SearchInfo;
use super::path::Path;
use super::report::Reporter;
use super::shared::Shared;
use super::stats::Stats;
use super::tt::Table;
use crate::position::movegen::MoveList;
use crate::position::{Color, Hand, Position};

/// The node budget for reading a line after its phase spent its own (`budget_for_reading`), or a
/// bound's line the table alone does not give (`pv/walk.rs`, `read_bound`).
pub const READING_NODES: u64 = 100_000;

/// What a search of one node returns to its parent.
#[derive(Clone, Copy, Debug)]
pub struct NodeResult {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate when proven.
    pub len: u16,
    /// Proof hand (proven), disproof hand (disproven), otherwise the node's attacker hand.
    pub hand: Hand,
    /// For a disproof: what it rests on.
    pub dep: Dependence,
}

impl NodeResult {
    /// What a nested test concludes of its root (`Searcher::nested`): a path-dependent disproof
    /// (a repetition, the depth limit) concludes nothing.
    pub fn verdict(&self) -> Verdict {
        if self.pn == 0 {
            Verdict::Mate(self.hand)
        } else if self.dn == 0 && self.dep.is_general() {
            Verdict::NoMate(self.hand)
        } else {
            Verdict::Unknown
        }
    }
}

/// What a nested test found of its root: a mate (of its game) with its proof hand, no mate on any
/// path with its disproof hand, or neither within its cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Mate(Hand),
    NoMate(Hand),
    Unknown,
}

/// One searcher: what a thread of df-pn search owns (module comment).
pub struct Searcher<'a> {
    /// What every searcher of the solve shares.
    pub shared: &'a Shared<'a>,
    /// The current position: the root's, with the path's moves played.
    pub pos: Position,
    pub path: Path,
    /// The game being searched.
    pub game: Game,
    pub budget: Budget,
    pub depth: DepthLimit,
    pub stats: Stats,
    /// The counters of the helpers this searcher ran (`parallel.rs`).
    pub helpers: Stats,
    /// Children of every node on the current path.
    pub children: Children,
    /// Scratch move lists: the node's moves and the look-ahead's (boxed: off the stack).
    pub moves: Box<[MoveList; 2]>,
    /// Recent looks at new children (`dfpn/estimates.rs`).
    pub looks: LookCache,
    pub report: Reporter<'a>,
}

impl<'a> Searcher<'a> {
    /// A searcher of `shared`'s problem from its root, in the main game, reporting progress to
    /// `on_info` at the limits' interval.
    pub fn new(shared: &'a Shared<'a>, on_info: &'a mut dyn FnMut(&SearchInfo)) -> Searcher<'a> {
        let problem = &shared.problem;
        Searcher {
            shared,
            pos: problem.root.clone(),
            path: Path::default(),
            game: Game::main(problem.salt),
            budget: Budget::default(),
            depth: DepthLimit::new(shared.config.max_ply),
            stats: Stats::default(),
            helpers: Stats::default(),
            children: Children::new(),
            moves: Box::new([MoveList::new(), MoveList::new()]),
            looks: LookCache::default(),
            report: Reporter::new(on_info, shared.limits.info_interval),
        }
    }

    /// The table every searcher of the solve shares.
    #[inline(always)]
    pub fn tt(&self) -> &'a Table {
        self.shared.table
    }

    #[inline(always)]
    pub fn config(&self) -> &'a SearchConfig {
        self.shared.config
    }

    /// The problem's attacker.
    #[inline(always)]
    pub fn attacker(&self) -> Color {
        self.shared.problem.attacker
    }

    /// The table salt of the problem's main game (the strict game's results).
    #[inline(always)]
    pub fn main_salt(&self) -> u64 {
        self.shared.problem.salt
    }

    /// The table key of the current position in the current game.
    #[inline(always)]
    pub fn tt_key(&self) -> u64 {
        self.pos.board_key() ^ self.game.salt()
    }

    /// The attacker's hand in the current position.
    #[inline(always)]
    pub fn hand(&self) -> Hand {
        self.pos.hand(self.attacker())
    }

    #[inline(always)]
    pub fn is_or_node(&self) -> bool {
        self.pos.side_to_move() == self.attacker()
    }

    /// Nodes searched so far.
    #[inline(always)]
    pub fn nodes(&self) -> u64 {
        self.stats.nodes
    }
}

#[cfg(test)]
pub mod tests;
