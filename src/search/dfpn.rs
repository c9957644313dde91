//! df-pn (Nagai): the iterative loop of one node, its result, and the driver at the root.
//!
//! * OR nodes (attacker to move) take the minimum proof number of their checks and combine their
//!   disproof numbers; AND nodes (defender to move) the reverse. How numbers combine (sums with
//!   SNDA-lite groups, or weak proof numbers) and the thresholds are in `numbers.rs`; the children in
//!   `node.rs`, their initial numbers in `estimates.rs`, chains in `chains.rs`; what a result depends
//!   on in `loops.rs`; proof and disproof hands in `hands.rs`.
//! * The best child is searched with thresholds that make it return as soon as another child looks
//!   better (by the 1+ε factor if set) or the node's own thresholds are reached. A df-pn+ edge cost on
//!   the minimised side makes long chains of checks raise their own numbers.
//! * A new OR node may be proven at once by mate in one, without generating its checks (`dfpn/leaves.rs`).
//! * **Node count**: one node per position whose moves the search generates (every entry of `mid`, and
//!   every one-ply look of `Init::Look`). Mate-in-one probes are counted apart (`mate1_probes`).
//! * **Depth limit**: a child beyond `max_ply` is disproven for this path only (`Dependence::DepthCut`).
//!   If the root ends up disproven only because of such cuts, the limit is doubled, the cut results are
//!   dropped, and the search goes on: a cut is never an answer.

mod leaves;
mod progress;
mod result;

use super::config::{PHASE_STEP_MIN_NODES, PHASE_STEP_MIN_NODES_UNLIMITED, SearchConfig};
use super::loops::{Dependence, PathBoards, PathMap, ROOT_PATH, next_path};
use super::node::Child;
use super::numbers::{Combined, INF, PN_MAX, Pick, PnDn, add, best_threshold};
use super::spare::Excuse;
use super::tt::{Record, Table, UNBOUNDED};
use super::{SearchInfo, SearchLimits, futile};
use crate::position::movegen::MoveList;
use crate::position::{Color, Hand, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The depth limit is never raised past this (the search recurses once per ply; see
/// `SEARCH_STACK_BYTES`). Loop plies are stored in 16 bits, so it stays below 65536.
pub const HARD_MAX_PLY: u32 = 60_000;

/// Limits are polled every this many nodes. The node budgets of the phases after the proof are
/// checked only here, so it fixes where a budgeted phase ends: changing it changes lines.
const POLL_INTERVAL: u64 = 1024;

/// `stop` and the time limit are looked at every this many nodes besides: 1 024 nodes can take a
/// long while where each node faults in a new page of a large table (0.2–1.4 s at the start of a
/// search with 4 GiB, `kanju solve --hash-mb 4096 --time-ms 100`). Neither is deterministic, so
/// looking more often changes nothing a node count decides. (A clock read is some 20 ns.)
const CLOCK_INTERVAL: u64 = 64;

/// The node budget for reading a line after its phase spent its own (`budget_for_reading`), or a
/// bound's line the table alone does not give (`pv.rs`, `read_bound`).
pub(super) const READING_NODES: u64 = 100_000;

/// The table salt of a problem (see `Dfpn::salt`).
fn problem_salt(pos: &Position, attacker: Color) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64 ^ attacker as u64;
    for n in pos.material_counts() {
        h = (h ^ u64::from(n))
            .wrapping_mul(0x1000_0000_01b3)
            .rotate_left(29);
    }
    h
}

/// What was known of a node when the search enters it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seen {
    /// The table has an entry for it: it has been searched before.
    Before,
    /// Never searched nor looked at.
    New,
    /// Never searched, but its parent's one-ply look-ahead (`Init::Look`) asked mate-1 there and found
    /// none: the position alone decides that, so the search does not ask again.
    NoMate1,
}

/// What a search of one node returns to its parent.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeResult {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate when proven.
    pub len: u16,
    /// Proof hand (proven), disproof hand (disproven), otherwise the node's attacker hand.
    pub hand: Hand,
    /// For a disproof: what it rests on.
    pub dep: Dependence,
}

/// How a search ended at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum RootResult {
    Proven,
    Disproven,
    /// Stopped by a limit or `stop`.
    Aborted,
    /// Could not go on; the reason.
    GaveUp(String),
}

/// The state of one solve.
pub(super) struct Dfpn<'a> {
    pub tt: &'a mut Table,
    pub pos: Position,
    /// The root position, for progress reports (`quick_pv`), which are made deep in the tree.
    root: Position,
    /// The moves from the search's root to the current node (`mid` pushes and pops them).
    line: Vec<Move>,
    pub attacker: Color,
    pub config: SearchConfig,
    limits: &'a SearchLimits,
    stop: &'a AtomicBool,
    on_info: &'a mut dyn FnMut(&SearchInfo),
    start: Instant,
    next_info: Duration,
    pub nodes: u64,
    /// Nodes expanded (`nodes` also counts the look-ahead's and the frontier's).
    pub expansions: u64,
    /// Nodes earlier solves spent on this same root with this same table (`Solver`): the phases
    /// after the proof take their budgets from all the work behind the answer, so that asking again
    /// does not give the line less search than the first time (the proof, found in the table, costs
    /// next to nothing then).
    pub prior_nodes: u64,
    pub mate1_probes: u64,
    /// Children cut as inferior repetitions that are no exact repetition (`loops.rs`).
    pub inferior_cuts: u64,
    /// Unguarded drop interpositions deferred behind another defence (`defer_unguarded_drop`).
    pub deferred_drops: u64,
    /// Blown-up children moved behind another (`merge_blown_up`).
    pub blown_up: u64,
    /// Drop chains split behind a stalled head (`split_stalled_drops`).
    pub stalled_splits: u64,
    /// Children counted with the pump cost (`loops.rs`).
    pub pump_children: u64,
    next_poll: u64,
    /// The node count at which `stop` and the clock are next looked at (`CLOCK_INTERVAL`).
    next_clock: u64,
    /// A node count at which the search stops, besides the user's limits (the PV phase's budget).
    pub node_budget: Option<u64>,
    pub aborted: bool,
    /// The current depth limit.
    pub max_ply: u32,
    /// Some child was cut by the depth limit since the table last dropped the cuts' results.
    pub depth_cuts: bool,
    /// Full keys of the positions on the current path (root included) → ply.
    pub path: PathMap,
    /// The boards of the current path with the attacker's hands, for inferior repetitions (`loops.rs`):
    /// kept by the main loop of `mid` and the root only (a path without them only cuts less).
    pub boards: PathBoards,
    /// Mixed into every table key: the attacker's colour and the material of the whole problem.
    /// Superiority compares attacker hands on one board, which is sound only while the board and the
    /// attacker's hand determine the defender's hand — true within one problem, not across problems
    /// that share the table (a game position with other hands, or the other side attacking).
    pub salt: u64,
    /// The salt of the main search (`salt` differs while the canonical game is searched).
    pub main_salt: u64,
    /// Futile interpositions are no defence (`futile.rs`): set while the canonical game is searched.
    pub futile_skip: bool,
    /// The spare game (`spare.rs`): only a mate with a piece left in the attacker's hand counts. Set
    /// while a spare test runs.
    pub spare: bool,
    /// Some nested test of the canonical game (spare mate, composers' futility) ended without an
    /// answer: its reply was counted as a defence, so the canonical length is not known to be exact.
    pub undecided_test: bool,
    /// The composers' futile-interposition tests of the current canonical phase, by the full key of
    /// the position tested (`futile.rs`).
    pub futile_tests: super::futile::Tests,
    /// The root's path key (see `next_path`).
    pub root_path: u64,
    /// The root's last numbers (for progress reports).
    root_numbers: (PnDn, PnDn),
    /// `UNBOUNDED` in the main search. In a length-bounded search (the PV search, `pv.rs`), the ply
    /// by which the attacker must have mated: a node at ply p asks "mate within `horizon` − p plies?",
    /// ignoring repetitions, and its results are stored for that budget.
    pub horizon: u32,
    /// Search shortest first before the proof (`deepen.rs`): set for `PvLevel::MinLength`.
    pub deepen: bool,
    /// The shortest-first search before the proof is running (`deepen.rs`): its bounded searches
    /// take the main search's initial numbers (`estimates.rs`).
    pub(super) deepening: bool,
    /// The root's minimax length, when the shortest-first search found it.
    pub exact_root: Option<u32>,
    /// The shortest a mate from the root can be: every shorter bound was refuted ("no mate within
    /// `least_mate` − 2"), by the shortest-first search before the proof (its table entries may be
    /// gone, the fact stays). The line phase starts from it (`pv::tighten`).
    pub(super) least_mate: u32,
    /// Children of every node on the current path, each node owning a contiguous range.
    pub(super) children: Vec<Child>,
    /// Scratch move lists: the node's moves and the look-ahead's (boxed: off the stack).
    pub(super) buf: Box<[MoveList; 2]>,
    /// Scratch space for ordering chains.
    pub(super) scratch: Vec<(u32, u32)>,
    /// Recent looks at new children (`estimates.rs`).
    pub(super) looks: super::estimates::LookCache,
}

impl<'a> Dfpn<'a> {
    /// A search of `pos` (a `problem_position`, whose defender has a king) over the table `tt`.
    pub(super) fn new(
        tt: &'a mut Table,
        pos: Position,
        config: SearchConfig,
        limits: &'a SearchLimits,
        stop: &'a AtomicBool,
        on_info: &'a mut dyn FnMut(&SearchInfo),
    ) -> Dfpn<'a> {
        let attacker = pos.side_to_move();
        let salt = problem_salt(&pos, attacker);
        let max_ply = config.max_ply.clamp(2, HARD_MAX_PLY);
        Dfpn {
            tt,
            root: pos.clone(),
            line: Vec::new(),
            pos,
            attacker,
            config,
            limits,
            stop,
            on_info,
            start: Instant::now(),
            next_info: limits.info_interval.unwrap_or(Duration::MAX),
            nodes: 0,
            expansions: 0,
            prior_nodes: 0,
            mate1_probes: 0,
            inferior_cuts: 0,
            deferred_drops: 0,
            blown_up: 0,
            stalled_splits: 0,
            pump_children: 0,
            next_poll: POLL_INTERVAL,
            next_clock: CLOCK_INTERVAL,
            node_budget: None,
            aborted: false,
            max_ply,
            depth_cuts: false,
            path: PathMap::default(),
            boards: PathBoards::default(),
            salt,
            main_salt: salt,
            futile_skip: false,
            spare: false,
            undecided_test: false,
            futile_tests: Default::default(),
            root_path: ROOT_PATH,
            root_numbers: (0, 0),
            horizon: UNBOUNDED,
            deepen: false,
            deepening: false,
            exact_root: None,
            least_mate: 1,
            children: Vec::with_capacity(1 << 16),
            buf: Box::new([MoveList::new(), MoveList::new()]),
            scratch: Vec::new(),
            looks: super::estimates::LookCache::new(),
        }
    }

    /// Searches the root until it is proven or disproven, a limit is hit, or the search cannot go on.
    pub(super) fn run(&mut self) -> RootResult {
        let root_key = self.pos.key();
        self.path.insert(root_key, 0);
        self.boards.clear();
        self.boards
            .push(self.pos.board_key(), self.pos.hand(self.attacker), 0);
        // Path keys start from the root's own key: path-dependent results never match another root.
        self.root_path = ROOT_PATH ^ root_key ^ self.salt;
        if self.deepen {
            self.exact_root = self.deepen();
            if self.exact_root.is_some() {
                return RootResult::Proven;
            }
            if self.aborted {
                return RootResult::Aborted;
            }
        }
        loop {
            let r = self.mid(PN_MAX, PN_MAX, 0, self.root_path, Seen::New);
            self.root_numbers = (r.pn, r.dn);
            if r.pn == 0 {
                return RootResult::Proven;
            }
            if self.aborted {
                return RootResult::Aborted;
            }
            if r.dn == 0 {
                if r.dep != Dependence::DepthCut {
                    return RootResult::Disproven;
                }
                if self.max_ply >= HARD_MAX_PLY {
                    return RootResult::GaveUp(format!(
                        "every line the search tried ran past the depth limit of {HARD_MAX_PLY} plies"
                    ));
                }
                self.max_ply = (self.max_ply * 2).min(HARD_MAX_PLY);
                self.lift_depth_cuts();
                log::info!("depth limit raised to {} plies", self.max_ply);
                continue;
            }
            // Neither solved nor stopped: a number reached its ceiling.
            return RootResult::GaveUp(format!(
                "proof numbers saturated (pn {}, dn {}): the tree is too wide to rank",
                r.pn, r.dn
            ));
        }
    }

    /// Drops the results that rest on the depth limit, when there are any (after the limit rose).
    pub(super) fn lift_depth_cuts(&mut self) {
        if self.depth_cuts {
            self.tt.purge_depth_cuts();
            self.depth_cuts = false;
        }
    }

    /// An unbounded search of the ordinary game: the main search, or a futile-interposition test's
    /// strict mate search (not a length-bounded line phase, not the spare or canonical game).
    #[inline(always)]
    pub(super) fn in_ordinary_unbounded_search(&self) -> bool {
        self.horizon == UNBOUNDED && !self.spare && !self.futile_skip
    }

    /// The table key of the current position.
    #[inline(always)]
    pub fn tt_key(&self) -> u64 {
        self.pos.board_key() ^ self.salt
    }

    /// The length budget of a node at `ply`: plies left to the horizon (`UNBOUNDED` in the main search).
    #[inline(always)]
    pub fn budget(&self, ply: u32) -> u32 {
        if self.horizon == UNBOUNDED {
            UNBOUNDED
        } else {
            self.horizon.saturating_sub(ply)
        }
    }

    /// Plays `m` from the current node (at `ply`, reached along `path`), runs `f` on the child (its
    /// ply and path key) with the child on the path, and takes the move back. `None`, without running
    /// `f`, when the child is on the path already: a repetition, where no line of decreasing values
    /// (the PV phase's lines) ever goes.
    pub(super) fn off_path_child<R>(
        &mut self,
        m: Move,
        ply: u32,
        path: u64,
        f: impl FnOnce(&mut Self, u32, u64) -> R,
    ) -> Option<R> {
        self.pos.do_move(m);
        let key = self.pos.key();
        let r = match self.path.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => None,
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(ply + 1);
                let r = f(self, ply + 1, next_path(path, m));
                self.path.remove(&key);
                Some(r)
            }
        };
        self.pos.undo_move(m);
        r
    }

    #[inline(always)]
    pub fn is_or_node(&self) -> bool {
        self.pos.side_to_move() == self.attacker
    }

    /// Whether `stop` or the user's limits say the search must end.
    pub(super) fn user_limit_reached(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether `stop`, the user's limits or the node budget say the search must end.
    pub(super) fn limit_reached(&self) -> bool {
        self.user_limit_reached() || self.node_budget.is_some_and(|n| self.nodes >= n)
    }

    /// The smallest step of a phase after the proof: larger when the user set no limit at all
    /// (`SearchLimits::open_ended`, `PHASE_STEP_MIN_NODES_UNLIMITED`).
    fn phase_floor(&self) -> u64 {
        let l = self.limits;
        if l.open_ended && l.time.is_none() && l.nodes.is_none() {
            PHASE_STEP_MIN_NODES_UNLIMITED
        } else {
            PHASE_STEP_MIN_NODES
        }
    }

    /// The node budget of one step of a phase after the proof, begun now (`SearchConfig::phase_step`).
    pub(super) fn phase_step(&self) -> Option<u64> {
        self.config.phase_step(
            self.nodes.saturating_add(self.prior_nodes),
            self.phase_floor(),
        )
    }

    /// The node count at which a phase after the proof, begun now, stops
    /// (`SearchConfig::phase_budget`).
    pub(super) fn phase_budget(&self) -> Option<u64> {
        self.config.phase_budget(
            self.nodes,
            self.nodes.saturating_add(self.prior_nodes),
            self.phase_floor(),
        )
    }

    /// After a phase spent its node budget (and only its budget): a small one more, so that the line
    /// it proved can still be read (reading may search again where the table lost an entry).
    pub(super) fn budget_for_reading(&mut self) {
        if self.aborted && self.node_budget.is_some() && !self.user_limit_reached() {
            self.aborted = false;
            self.node_budget = Some(self.nodes + READING_NODES);
        }
    }

    /// Polls the limits and reports progress; sets `aborted` when a limit is reached.
    fn poll(&mut self) {
        self.next_poll = self.nodes + POLL_INTERVAL;
        if self.limit_reached() {
            self.aborted = true;
        }
        let elapsed = self.start.elapsed();
        if elapsed >= self.next_info
            && let Some(iv) = self.limits.info_interval
        {
            self.next_info = elapsed + iv;
            let info = self.info();
            (self.on_info)(&info);
        }
    }

    /// Searches the current node until its proof number reaches `thpn` or its disproof number `thdn`
    /// (or it is solved, or a limit is hit), stores the result and returns it. `seen`: what was known of
    /// the node before.
    pub(super) fn mid(
        &mut self,
        thpn: PnDn,
        thdn: PnDn,
        ply: u32,
        path: u64,
        seen: Seen,
    ) -> NodeResult {
        // The full poll first, at exactly the node counts it always had (the count may jump past
        // `next_clock` and `next_poll` alike: the frontier counts its nodes too).
        if self.nodes >= self.next_poll {
            self.next_clock = self.nodes + CLOCK_INTERVAL;
            self.poll();
        } else if self.nodes >= self.next_clock {
            self.next_clock = self.nodes + CLOCK_INTERVAL;
            if self.stop.load(Ordering::Relaxed)
                || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
            {
                self.aborted = true;
            }
        }
        let or_node = self.is_or_node();
        let budget = self.budget(ply);
        if or_node && budget == 0 {
            // Only a bounded search has budgets: no mate in 0 plies.
            return self.bounded_disproof(0);
        }
        // Mate in three: at new nodes of the main search; in bounded searches where it is exact.
        let mate3 = if budget == UNBOUNDED {
            self.config.mate3 && seen != Seen::Before
        } else {
            self.config.pv_mate3 && (3..=4).contains(&budget)
        };
        // The spare game wants mates with pieces left over: mate-1's counts where it leaves one.
        if or_node
            && self.spare
            && self.config.mate1
            && let Some(r) = self.spare_leaf(seen, budget)
        {
            return r;
        }
        if or_node
            && self.config.mate1
            && !self.spare
            && (seen == Seen::New || budget <= 2 || mate3)
        {
            // A child the look-ahead saw has no mate in one (`Seen::NoMate1`): not asked again.
            if seen != Seen::NoMate1
                && let Some(r) = self.try_mate1()
            {
                return r;
            }
            // Mate in one is answered exactly, and an OR node's mates have odd lengths. (In the
            // canonical game a check answered only by futile interpositions mates too: only where
            // no check is, mate-1's answer holds there.)
            if budget <= 2 && !(self.futile_skip && futile::may_mate_in_one(self)) {
                return self.bounded_disproof(2);
            }
            if mate3 {
                match self.try_mate3() {
                    Ok(r) => return r,
                    // Mate within three is answered exactly too, unless the path cut a line (then the
                    // node is searched as usual, its result path-dependent).
                    Err(false) if budget <= 4 && !self.futile_skip => {
                        return self.bounded_disproof(4);
                    }
                    Err(_) => {}
                }
            }
        }
        self.nodes += 1;
        self.expansions += 1;
        let key = self.tt_key();
        let hand = self.pos.hand(self.attacker);
        let nodes_before = self.nodes;
        let base = self.children.len();
        self.expand(or_node, ply, path);
        let end = self.children.len();
        let agg = self.config.aggregation;
        // The df-pn+ edge cost: in the main search only, near the root (`SearchConfig::edge_plies`).
        let edge = if self.in_ordinary_unbounded_search() {
            self.config.edge_at(ply)
        } else {
            0
        };
        let pump = self.config.pump();
        // The ladder cost of drop chains (`chains.rs`, `link_drops`), where the edge cost counts too.
        let ladder = if !or_node && self.in_ordinary_unbounded_search() {
            self.config.ladder_at(ply)
        } else {
            0
        };
        let ties = self.config.ties.at(or_node);
        let (defer_drops, blowup) = self.merges(or_node, budget);

        let (mut pn, mut dn);
        let mut spare_excuses = true;
        loop {
            if defer_drops && self.defer_unguarded_drop(base, end) {
                continue;
            }
            // Over the active children: `pick` the minimised side (pn at OR nodes; its smallest, `lo`,
            // is the node's number), `comb` the other.
            let mut pick = Pick::new(base);
            let mut comb = Combined::default();
            for i in base..end {
                let c = &self.children[i];
                if !c.active {
                    continue;
                }
                let (l, h) = if or_node {
                    (pumped(c.pn, c.pump, pump), c.dn)
                } else {
                    (c.dn, add_cost(c.pn, and_cost(c, pump, ladder)))
                };
                let l = if edge != 0 && l != 0 && l != INF {
                    add(l, edge)
                } else {
                    l
                };
                pick.offer(i, l, h, ties);
                comb.push(agg, h, c.grouped);
            }
            let Pick {
                lo, second, best, ..
            } = pick;
            let hi = comb.total(agg);
            (pn, dn) = if or_node { (lo, hi) } else { (hi, lo) };
            if ply == 0 && budget == UNBOUNDED && !self.spare {
                // Live numbers for the progress reports.
                self.root_numbers = (pn, dn);
            }
            if end == base {
                // No moves: an OR node without checks is disproven, an AND node without evasions mated.
                (pn, dn) = if or_node { (INF, 0) } else { (0, INF) };
                break;
            }
            if !or_node && lo == 0 && self.futile_skip && !self.spare {
                // The canonical game: a refutation may be no defence after all — a futile drop
                // (composers' rule) or a reply answered by a spare mate.
                if self.excuse_futile_refutations(base, end, ply, path) {
                    continue;
                }
                if spare_excuses {
                    match self.excuse_spare_refutations(base, end, ply, path) {
                        Excuse::Unchanged => {}
                        Excuse::Changed => continue,
                        Excuse::AllSpare => {
                            spare_excuses = false;
                            continue;
                        }
                    }
                }
            }
            if blowup > 0 && lo != 0 && self.merge_blown_up(base, end, best, pn, blowup) {
                continue;
            }
            let (th_lo, th_hi) = if or_node { (thpn, thdn) } else { (thdn, thpn) };
            if lo == 0 || hi == 0 || lo >= th_lo || hi >= th_hi || self.aborted {
                break;
            }
            let c = self.children[best];
            let (cl, ch) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
            debug_assert!(cl != 0 && ch != 0 && cl != INF);
            let child_lo = best_threshold(th_lo, second, self.config.eps_den).saturating_sub(edge);
            // The child's own pn threshold: the costs its parent counts on its pn come off.
            let cost = if or_node {
                if c.pump { pump } else { 0 }
            } else {
                and_cost(&c, pump, ladder)
            };
            let (child_lo, child_hi) = if or_node {
                (
                    child_lo.saturating_sub(cost),
                    comb.child_threshold(agg, th_hi, ch, c.grouped),
                )
            } else {
                let th = comb.child_threshold(agg, th_hi, add(ch, cost), c.grouped);
                (child_lo, th.saturating_sub(cost).max(ch.saturating_add(1)))
            };
            let (cthpn, cthdn) = if or_node {
                (child_lo, child_hi)
            } else {
                (child_hi, child_lo)
            };

            let m = c.mv;
            self.pos.do_move(m);
            let child_key = self.pos.key();
            self.path.insert(child_key, ply + 1);
            let child_board = self.pos.board_key();
            self.boards
                .push(child_board, self.pos.hand(self.attacker), ply + 1);
            self.line.push(m);
            let r = self.mid(cthpn, cthdn, ply + 1, next_path(path, m), c.seen);
            self.line.pop();
            self.boards.pop(child_board);
            self.path.remove(&child_key);
            self.pos.undo_move(m);
            let c = &mut self.children[best];
            (c.pn, c.dn, c.len, c.hand, c.dep) = (r.pn, r.dn, r.len, r.hand, r.dep);
            c.seen = Seen::Before;
            self.advance_chain(best, or_node, ply, path);
        }

        if self.spare
            && !or_node
            && pn == 0
            && hand.is_empty()
            && self.children[base..end].iter().all(|c| c.futile)
        {
            // Mated (or only futile drops left) with nothing in hand: no spare mate.
            (pn, dn) = (INF, 0);
        }
        let amount = (self.nodes - nodes_before + 1).min(u32::MAX as u64) as u32;
        let r = self.finish(or_node, base..end, (pn, dn), hand, ply);
        let best = self.best_move_bits(or_node, base, end, &r);
        self.tt.store(
            key,
            &Record {
                hand: r.hand,
                pn: r.pn,
                dn: r.dn,
                len: r.len,
                best,
                amount,
                dep: r.dep,
                path,
                or_node,
                budget,
            },
        );
        self.children.truncate(base);
        r
    }
}

/// A child's pn as its parent counts it: with the pump cost inside a pump (`loops.rs`).
#[inline(always)]
fn pumped(pn: PnDn, pump: bool, cost: PnDn) -> PnDn {
    add_cost(pn, if pump { cost } else { 0 })
}

/// What an AND node counts on a child's pn besides the pn itself: the pump cost inside a pump
/// (`loops.rs`) and the ladder cost of the squares behind a drop chain's head (`chains.rs`).
#[inline(always)]
fn and_cost(c: &Child, pump: PnDn, ladder: PnDn) -> PnDn {
    let pump = if c.pump { pump } else { 0 };
    pump.saturating_add(ladder.saturating_mul(PnDn::from(c.squares_behind)))
}

/// `pn` with `cost` added, unless it is solved.
#[inline(always)]
fn add_cost(pn: PnDn, cost: PnDn) -> PnDn {
    if cost != 0 && pn != 0 && pn != INF {
        add(pn, cost)
    } else {
        pn
    }
}
