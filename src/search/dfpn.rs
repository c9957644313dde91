//! df-pn (Nagai) with the 1+ε threshold trick, proof and disproof pieces, SNDA-lite aggregation and
//! path-dependent repetition results.
//!
//! * OR nodes (attacker to move) take the minimum proof number and the sum of disproof numbers of their
//!   checks; AND nodes (defender to move) the reverse.
//! * SNDA-lite (komori-n): children that tend to reach the same positions — interpositions at AND nodes;
//!   bishop/rook drops and non-promotions of pawn/bishop/rook at OR nodes — are aggregated with `max`
//!   instead of `+`, so the many near-identical lines do not inflate the sum.
//! * A repetition on the current path is a loss for the attacker on that path only: such children are
//!   disproven with `FLAG_PATH_DEPENDENT`, and a disproof that rests on one is stored under the path key
//!   (the graph-history-interaction problem), never as a general disproof.
//! * Node count: every position the search (or its frontier look-ahead) plays a move into.

use super::frontier::{self, AndLook, OrLook};
use super::hands;
use super::tt::{Dependence, INF, PN_MAX, PN_UNIT, PnDn, Table};
use super::{MateOutcome, SearchInfo, SearchLimits};
use crate::position::movegen::{MoveList, generate_checks, generate_evasions};
use crate::position::{Bitboard, Color, Hand, Move, PieceKind, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deeper than any known problem (Microcosmos is 1525 plies). Reaching it makes the node count as
/// unsolved on this path, and the search never claims "no mate" afterwards.
pub const MAX_PLY: u32 = 3000;
/// df-pn+ edge cost: an unsolved child counts this much more on the side its parent minimises (pn at
/// OR nodes, dn at AND nodes). Proof numbers then grow with the length of a chain of checks, so a long
/// chase (a king running, a rook after it) raises its own proof number until the thresholds send the
/// search elsewhere, instead of diving thousands of plies with pn stuck at one node. An eighth of a
/// node: a whole node solved 67 Zukou problems in 4 s each, a quarter 70–77, an eighth 74 (none:
/// tanuki-m5-227, a mate in 5, runs out of time).
const EDGE_COST: PnDn = PN_UNIT / 8;

/// Limits are polled every this many nodes.
const POLL_INTERVAL: u64 = 1024;

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default)]
pub(super) struct KeyHasher(u64);
impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}
/// The positions on the current path: full key → `loop_mark(ply)`.
pub(super) type PathMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// `loop_ply` of a result that rests on no repetition.
pub(super) const NO_LOOP: u32 = u32::MAX;
/// `loop_ply` of a result cut by the depth limit: it depends on the whole path, root included.
const DEPTH_CUT: u32 = 0;

/// How a position at `ply` is marked in the path map and in `loop_ply`: one more than its ply, so that
/// `DEPTH_CUT` (0) lies above every node, the root included.
#[inline(always)]
pub(super) fn loop_mark(ply: u32) -> u32 {
    ply + 1
}

/// The path key of a child: a hash of the move sequence from the root, order-sensitive.
#[inline(always)]
pub(super) fn next_path(path: u64, m: Move) -> u64 {
    (path ^ (m.to_u16() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .rotate_left(17)
        .wrapping_mul(0xbf58_476d_1ce4_e5b9)
}
pub(super) const ROOT_PATH: u64 = 0x6b61_6e6a_7570_6174;

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

/// One child of the node being searched, as last seen.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub mv: Move,
    pub pn: PnDn,
    pub dn: PnDn,
    /// Plies to mate when proven.
    pub len: u16,
    /// Proof hand (proven) or disproof hand (disproven); otherwise the child's attacker hand.
    pub hand: Hand,
    /// For a disproof resting on a repetition: `loop_mark` of the shallowest repeated position's ply
    /// (`DEPTH_CUT` if cut by the depth limit); `NO_LOOP` otherwise.
    pub loop_ply: u32,
    /// Aggregated with `max` rather than `+` (SNDA-lite).
    pub group: bool,
}

/// What a search of one node returns to its parent.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeResult {
    pub pn: PnDn,
    pub dn: PnDn,
    pub len: u16,
    pub hand: Hand,
    /// As `Child::loop_ply`.
    pub loop_ply: u32,
}

#[inline(always)]
fn add(a: PnDn, b: PnDn) -> PnDn {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(PN_MAX)
    }
}

impl<'a> Dfpn<'a> {
    /// A search of `pos` (a `problem_position`, whose defender has a king) over the table `tt`.
    pub(super) fn new(
        tt: &'a mut Table,
        pos: Position,
        limits: &'a SearchLimits,
        stop: &'a AtomicBool,
        on_info: &'a mut dyn FnMut(&SearchInfo),
    ) -> Dfpn<'a> {
        let attacker = pos.side_to_move();
        let salt = problem_salt(&pos, attacker);
        Dfpn {
            tt,
            pos,
            attacker,
            limits,
            stop,
            on_info,
            start: Instant::now(),
            next_info: limits.info_interval.unwrap_or(Duration::MAX),
            nodes: 0,
            next_poll: POLL_INTERVAL,
            aborted: false,
            depth_limited: false,
            path: PathMap::default(),
            salt,
            root_path: ROOT_PATH,
            children: Vec::with_capacity(1 << 16),
            buf: Box::new([MoveList::new(), MoveList::new()]),
        }
    }
}

/// The state of one solve.
pub(super) struct Dfpn<'a> {
    pub tt: &'a mut Table,
    pub pos: Position,
    pub attacker: Color,
    limits: &'a SearchLimits,
    stop: &'a AtomicBool,
    on_info: &'a mut dyn FnMut(&SearchInfo),
    start: Instant,
    next_info: Duration,
    pub nodes: u64,
    next_poll: u64,
    pub aborted: bool,
    /// Some path reached `MAX_PLY`: a disproof may be an artefact, so "no mate" is never claimed.
    depth_limited: bool,
    /// Full keys of the positions on the current path (root included).
    pub path: PathMap,
    /// Mixed into every table key: the attacker's colour and the material of the whole problem.
    /// Superiority compares attacker hands on one board, which is sound only while the board and the
    /// attacker's hand determine the defender's hand — true within one problem, not across problems
    /// that share the table (a game position with other hands, or the other side attacking).
    pub salt: u64,
    /// The root's path key (see `next_path`).
    pub root_path: u64,
    /// Children of every node on the current path, each node owning a contiguous range.
    children: Vec<Child>,
    /// Scratch move lists: the node's moves and the frontier's look-ahead (boxed: off the stack).
    buf: Box<[MoveList; 2]>,
}

impl Dfpn<'_> {
    pub(super) fn run(&mut self) -> MateOutcome {
        let root_key = self.pos.key();
        self.path.insert(root_key, loop_mark(0));
        // Path keys start from the root's own key: repetition results never match another root.
        self.root_path = ROOT_PATH ^ root_key ^ self.salt;
        let mut stalls = 0;
        loop {
            let r = self.mid(PN_MAX, PN_MAX, 0, self.root_path);
            if r.pn == 0 {
                break;
            }
            if r.dn == 0 {
                return if self.depth_limited {
                    MateOutcome::Timeout
                } else {
                    MateOutcome::NoMate
                };
            }
            if self.aborted {
                return MateOutcome::Timeout;
            }
            // Only a saturated sum returns unsolved without a limit: give up rather than spin.
            stalls += 1;
            if stalls > 3 {
                return MateOutcome::Timeout;
            }
        }
        match self.extract_pv() {
            Some(line) if super::verify_mate_line(&self.pos, &line) => MateOutcome::Mate(line),
            Some(line) => {
                log::error!("internal: extracted mate line failed verification: {line:?}");
                MateOutcome::Timeout
            }
            None => MateOutcome::Timeout,
        }
    }

    /// The table key of the current position.
    #[inline(always)]
    pub fn tt_key(&self) -> u64 {
        self.pos.board_key() ^ self.salt
    }

    #[inline(always)]
    pub fn is_or_node(&self) -> bool {
        self.pos.side_to_move() == self.attacker
    }

    /// Polls the limits and reports progress; sets `aborted` when a limit is reached.
    fn poll(&mut self) {
        self.next_poll = self.nodes + POLL_INTERVAL;
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.aborted = true;
        }
        let elapsed = self.start.elapsed();
        if let Some(t) = self.limits.time
            && elapsed >= t
        {
            self.aborted = true;
        }
        if elapsed >= self.next_info
            && let Some(iv) = self.limits.info_interval
        {
            self.next_info = elapsed + iv;
            let info = SearchInfo {
                nodes: self.nodes,
                elapsed,
                hashfull: self.tt.hashfull(),
                pv: self.quick_pv(),
            };
            (self.on_info)(&info);
        }
    }

    /// Whether `m` belongs to the `max` group of SNDA-lite aggregation.
    fn in_group(attacker: Color, m: Move, or_node: bool, gap: Bitboard) -> bool {
        if or_node {
            if m.is_drop() {
                return matches!(m.drop_kind(), PieceKind::Bishop | PieceKind::Rook);
            }
            let k = m.piece().kind();
            !m.is_promotion()
                && matches!(k, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook)
                && (Bitboard::promotion_zone(attacker).contains(m.to())
                    || Bitboard::promotion_zone(attacker).contains(m.from()))
        } else {
            frontier::is_interposition(m, gap)
        }
    }

    /// Generates the node's moves and pushes one `Child` per move onto `children`, with values from
    /// the table or from the frontier look-ahead for new children.
    #[inline(never)]
    fn expand(&mut self, or_node: bool, ply: u32, path: u64) {
        let [moves, la] = &mut *self.buf;
        moves.clear();
        if or_node {
            generate_checks(&self.pos, moves);
        } else {
            generate_evasions(&self.pos, moves);
        }
        // The checking line, for spotting interpositions.
        let gap = if or_node {
            Bitboard::EMPTY
        } else {
            frontier::check_gap(&self.pos, self.attacker)
        };
        for i in 0..moves.len() {
            let m = moves[i];
            let group = Self::in_group(self.attacker, m, or_node, gap);
            self.pos.do_move(m);
            self.nodes += 1;
            let child_hand = self.pos.hand(self.attacker);
            let mut c = Child {
                mv: m,
                pn: PN_UNIT,
                dn: PN_UNIT,
                len: 0,
                hand: child_hand,
                loop_ply: NO_LOOP,
                group,
            };
            if let Some(&at) = self.path.get(&self.pos.key()) {
                // A repetition: lost for the attacker on this path.
                (c.pn, c.dn, c.loop_ply) = (INF, 0, at);
            } else if ply + 1 >= MAX_PLY {
                // Cut by the depth limit: unsolved on every path through the root.
                self.depth_limited = true;
                (c.pn, c.dn, c.loop_ply) = (INF, 0, DEPTH_CUT);
            } else {
                let child_path = next_path(path, m);
                let key = self.pos.board_key() ^ self.salt;
                let p = self.tt.probe(key, child_hand, child_path);
                c.pn = p.pn;
                c.dn = p.dn;
                c.len = p.len;
                c.loop_ply = p.loop_ply.map_or(NO_LOOP, u32::from);
                if p.is_proven() || p.is_disproven() {
                    c.hand = p.hand;
                } else if !p.found {
                    if or_node {
                        match frontier::look_and(&self.pos, self.attacker, la) {
                            AndLook::Mated(proof) => {
                                self.tt.store(key, proof, 0, INF, 0, 0, 1, None);
                                (c.pn, c.dn, c.len, c.hand) = (0, INF, 0, proof);
                            }
                            AndLook::Evasions(n) => c.pn = c.pn.max(n as PnDn * PN_UNIT),
                        }
                    } else {
                        match frontier::look_or(&mut self.pos, self.attacker, la) {
                            (OrLook::Mate(mv, proof), tried) => {
                                self.nodes += tried;
                                self.tt.store(key, proof, 0, INF, 1, mv.to_u16(), 1, None);
                                (c.pn, c.dn, c.len, c.hand) = (0, INF, 1, proof);
                            }
                            (OrLook::Checks(0), _) => {
                                let d =
                                    hands::cap_or_disproof(&self.pos, self.attacker, Hand::FULL);
                                self.tt.store(key, d, INF, 0, 0, 0, 1, None);
                                (c.pn, c.dn, c.hand) = (INF, 0, d);
                            }
                            (OrLook::Checks(n), tried) => {
                                self.nodes += tried;
                                c.dn = c.dn.max(n as PnDn * PN_UNIT);
                            }
                        }
                    }
                }
            }
            self.pos.undo_move(m);
            self.children.push(c);
        }
    }

    /// Searches the current node until its proof number reaches `thpn` or its disproof number `thdn`
    /// (or it is solved, or a limit is hit), stores the result and returns it.
    pub fn mid(&mut self, thpn: PnDn, thdn: PnDn, ply: u32, path: u64) -> NodeResult {
        if self.nodes >= self.next_poll {
            self.poll();
        }
        let or_node = self.is_or_node();
        let key = self.tt_key();
        let hand = self.pos.hand(self.attacker);
        let nodes_before = self.nodes;
        let base = self.children.len();
        self.expand(or_node, ply, path);
        let end = self.children.len();

        let (mut pn, mut dn);
        loop {
            // Aggregate: `lo` is the side taking the minimum (pn at OR nodes), `hi` the summed side.
            let mut lo = INF;
            let mut second = INF;
            let mut best = base;
            let mut sum_plain: PnDn = 0;
            let mut group_max: PnDn = 0;
            for i in base..end {
                let c = &self.children[i];
                let (l, h) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
                let l = if l == 0 || l == INF {
                    l
                } else {
                    add(l, EDGE_COST)
                };
                if l < lo {
                    second = lo;
                    lo = l;
                    best = i;
                } else if l < second {
                    second = l;
                }
                if c.group {
                    group_max = group_max.max(h);
                } else {
                    sum_plain = add(sum_plain, h);
                }
            }
            let hi = if end == base {
                0
            } else {
                add(sum_plain, group_max)
            };
            let (th_lo, th_hi) = if or_node { (thpn, thdn) } else { (thdn, thpn) };
            (pn, dn) = if or_node { (lo, hi) } else { (hi, lo) };
            if end == base {
                // No moves: an OR node without checks is disproven, an AND node without evasions mated.
                (pn, dn) = if or_node { (INF, 0) } else { (0, INF) };
                break;
            }
            if lo == 0 || hi == INF || lo >= th_lo || hi >= th_hi || self.aborted {
                break;
            }
            // Thresholds for the best child (1+ε on the minimum side, ε = 1/4).
            let c = self.children[best];
            let ch = if or_node { c.dn } else { c.pn };
            let child_lo = if second == INF {
                th_lo
            } else {
                th_lo.min(add(second, second / 4 + 1))
            }
            .saturating_sub(EDGE_COST);
            let others = if c.group {
                sum_plain
            } else {
                add(sum_plain - ch.min(sum_plain), group_max)
            };
            let child_hi = th_hi.saturating_sub(others).max(ch + 1);
            let (cthpn, cthdn) = if or_node {
                (child_lo, child_hi)
            } else {
                (child_hi, child_lo)
            };

            let m = c.mv;
            self.pos.do_move(m);
            let child_key = self.pos.key();
            self.path.insert(child_key, loop_mark(ply + 1));
            let r = self.mid(cthpn, cthdn, ply + 1, next_path(path, m));
            self.path.remove(&child_key);
            self.pos.undo_move(m);
            let c = &mut self.children[best];
            c.pn = r.pn;
            c.dn = r.dn;
            c.len = r.len;
            c.hand = r.hand;
            c.loop_ply = r.loop_ply;
        }

        let amount = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        let r = self.finish(or_node, base..end, (pn, dn), hand, ply);
        let best = self.best_move_bits(or_node, base, end, &r);
        let dep = (r.loop_ply != NO_LOOP).then(|| Dependence {
            path,
            loop_ply: r.loop_ply.min(u16::MAX as u32) as u16,
        });
        self.tt
            .store(key, r.hand, r.pn, r.dn, r.len, best, amount, dep);
        self.children.truncate(base);
        r
    }

    /// The node's result from its children: proof/disproof hands, mate length, path dependence.
    fn finish(
        &self,
        or_node: bool,
        kids: std::ops::Range<usize>,
        (pn, dn): (PnDn, PnDn),
        hand: Hand,
        ply: u32,
    ) -> NodeResult {
        let kids = &self.children[kids];
        let mut r = NodeResult {
            pn,
            dn,
            len: 0,
            hand,
            loop_ply: NO_LOOP,
        };
        if pn == 0 {
            if or_node {
                // The proven check with the shortest known mate.
                let c = kids
                    .iter()
                    .filter(|c| c.pn == 0)
                    .min_by_key(|c| c.len)
                    .expect("a proven OR node has a proven child");
                r.len = c.len.saturating_add(1);
                r.hand = hands::before_proof(&self.pos, c.mv, c.hand);
            } else {
                let mut proof = hands::and_proof_extra(&self.pos, self.attacker);
                let mut len = 0;
                for c in kids {
                    proof = proof.max(c.hand);
                    len = len.max(c.len);
                }
                r.hand = proof;
                r.len = if kids.is_empty() {
                    0
                } else {
                    len.saturating_add(1)
                };
            }
            debug_assert!(hand.covers(r.hand), "proof hand exceeds the hand");
        } else if dn == 0 {
            if or_node {
                let mut d = Hand::FULL;
                for c in kids {
                    r.loop_ply = r.loop_ply.min(c.loop_ply);
                    d = d.min(hands::before_disproof(&self.pos, c.mv, c.hand));
                }
                r.hand = hands::cap_or_disproof(&self.pos, self.attacker, d);
            } else {
                // Prefer the refutation that depends least on the path.
                let c = kids
                    .iter()
                    .filter(|c| c.dn == 0)
                    .max_by_key(|c| c.loop_ply)
                    .expect("a disproven AND node has a disproven child");
                r.loop_ply = c.loop_ply;
                r.hand = c.hand;
            }
            if r.loop_ply >= loop_mark(ply) {
                // Every repetition it rests on lies at or below this node: whatever path reaches the
                // node, the same loops close inside its subtree, so the disproof holds on every path
                // (and, with the same moves, for every inferior hand).
                r.loop_ply = NO_LOOP;
            } else {
                r.hand = hand;
            }
            debug_assert!(r.hand.covers(hand), "disproof hand below the hand");
        }
        r
    }

    /// The move to remember for this node: the proving/refuting child, or the most promising one.
    fn best_move_bits(&self, or_node: bool, base: usize, end: usize, r: &NodeResult) -> u16 {
        let kids = &self.children[base..end];
        let pick = if r.pn == 0 && or_node {
            kids.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len)
        } else if r.pn == 0 {
            kids.iter().max_by_key(|c| c.len)
        } else if or_node {
            kids.iter().min_by_key(|c| c.pn)
        } else {
            kids.iter().min_by_key(|c| c.dn)
        };
        pick.map_or(0, |c| c.mv.to_u16())
    }

    /// Up to 16 plies following the table's best moves, for progress reports.
    fn quick_pv(&self) -> Vec<Move> {
        let mut pos = self.pos.clone();
        let mut line = vec![];
        let mut path = self.root_path;
        for _ in 0..16 {
            let p = self
                .tt
                .probe(pos.board_key() ^ self.salt, pos.hand(self.attacker), path);
            if !p.found || p.best == 0 {
                break;
            }
            let Some(m) = pos.move_from_u16(p.best) else {
                break;
            };
            line.push(m);
            path = next_path(path, m);
            pos.do_move(m);
        }
        line
    }
}
