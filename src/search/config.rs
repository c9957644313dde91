//! The search's internal switches: each technique can be turned off so that its effect can be measured
//! (`kanju bench --config …` runs the ablation). `SearchConfig::default()` is the best combination
//! measured; the README's ablation table says by how much.

use super::numbers::{Aggregation, Grade, PnDn, Ties, UNIT};
use std::fmt;

/// How a new child (never searched, not in the table) gets its first numbers in the main search
/// (length-bounded searches always use `Unit`, see `Dfpn::expand`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// One unit each; a check's pn grows with its distance from the king when `distance` is on. The
    /// child's real numbers come when it is first searched (lazy one-ply expansion).
    Unit,
    /// Look one ply ahead at every new child when its parent is expanded: a check's pn is its number of
    /// evasions (a mate is proven at once), an evasion's dn its number of checks (a mate in one is
    /// proven at once).
    Look,
}

/// Internal switches of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// How a node combines its children's numbers (`agg=sum|weak`; with weak, `gradeshift=S` and
    /// `gradecap=C`: each other child adds its number / 2^S, between 1 and C units; `gradecap=1` is the
    /// paper's flat weak number).
    pub aggregation: Aggregation,
    /// The 1+ε trick: the best child may grow to (1 + 1/`eps_den`) × the second best before the search
    /// switches; 0 turns it off (second + 1).
    pub eps_den: u32,
    /// df-pn+ edge cost on the minimised side of every unsolved child, in units of `UNIT`/16: a
    /// line's numbers grow with its depth, so that the search prefers shallow proofs and leaves a
    /// set of siblings of equal numbers sooner (`edge_plies` bounds where it counts). Counted in
    /// unbounded searches of the ordinary game: the main search and the futile-interposition tests'
    /// strict mate searches (their plies from their own root); the length-bounded searches of the
    /// line phases and the spare and canonical games keep their own numbers. Off by default: README, *Ablation* (Kotobuki pays for every ply of its
    /// forced line) and `edge_plies`.
    pub edge_cost: u32,
    /// The edge cost counts at nodes fewer than this many plies from the root; 0: at every node.
    /// Beyond the horizon a line's cost stays what it was there, so a long forced line does not pay
    /// a cost per ply all the way down. Measured, not kept (`--pv none`, nodes, `edge=2,
    /// edgeplies=64` against no edge cost, 30 s): Zukou #8 43.3 M nodes instead of 143 M with
    /// 256 MiB, but 92 M with 1 GiB or 2 GiB, 138 M with 512 MiB, 146 M with 128 MiB (without the
    /// cost 143–149 M at every size): the circles it breaks come back with another table; Zukou's
    /// other 102 at 256 MiB 62.6 M vs 63.8 M (geometric mean of the ratios 0.87), Shogi Musou
    /// 131.9 M vs 115.4 M (1.04), Kotobuki 1.13 M vs 1.01 M, Microcosmos (2 GiB) 78.1 M vs 63.4 M.
    pub edge_plies: u32,
    /// Sequential chains of defender drop interpositions: tried one after the other (nearest square,
    /// cheapest piece first).
    pub chains: bool,
    /// The ladder cost of a drop chain (`chains.rs`, `link_drops`), in units of `UNIT`/16: the head
    /// of a chain counts this much more on its pn for each further square its waiting members drop
    /// on (drops of other pieces on the head's own square count nothing). In the main search only
    /// (`Dfpn::in_ordinary_unbounded_search`), at nodes fewer than `ladder_plies` plies from the
    /// root; 0 turns it off.
    pub ladder_cost: u32,
    /// The ladder cost counts at AND nodes fewer than this many plies from the root; 0: at every
    /// node. Like the edge cost, it adds up along a line (at each AND node whose critical defence
    /// is a drop chain's head): near the root it steers the choice between checks, deep in a long
    /// forced line of distant checks it only taxes the line's length.
    pub ladder_plies: u32,
    /// A drop chain whose head has taken more than this many nodes (over all its searches, as the
    /// table counts them) without being decided is split before its next square (`chains.rs`,
    /// `split_stalled_drops`); 0 never splits.
    pub stall_nodes: u32,
    /// A defender's non-promotion is tried only after the promotion of the same move is proven.
    pub promo_chains: bool,
    /// Sequential chains of alike board-move defences (`chains.rs`, `link_moves`): interpositions on
    /// one square by long-range pieces, or by tokins; captures of the checker by tokins.
    pub move_chains: bool,
    /// Under a check from three or more squares away, a drop interposition on a square the defender
    /// does not guard waits behind another unsolved defence (shtsume's merge of undefended middle
    /// interpositions; `chains.rs`, `defer_unguarded_drop`).
    pub defer_drops: bool,
    /// A drop that `defer_drops` would defer stays when its dn is the smallest of the node's open
    /// defences (strictly: the search would try it first).
    pub defer_keeps_best: bool,
    /// The pn mark of shtsume's merges of blown-up children at AND nodes (`chains.rs`,
    /// `merge_blown_up`), in units of `UNIT`; 0 turns them off.
    pub blowup_mark: u32,
    /// Mate in one at every new OR node before generating its checks.
    pub mate1: bool,
    /// A 3-ply search (check, every evasion, mate in one) at every new OR node of the main search
    /// where mate in one fails.
    pub mate3: bool,
    /// The same 3-ply search in length-bounded searches (the PV phase), at OR nodes with at most 4
    /// plies left, where it answers "mate within 3?" exactly (needs `mate1`).
    pub pv_mate3: bool,
    /// The line phase's questions jump below the bound (`pv::tighten`): the gap doubles after each
    /// yes, a no halves what is left; off, each question asks two plies less than the last answer.
    pub pv_jumps: bool,
    pub init: Init,
    /// Inferior repetitions (`loops.rs`): an ancestor's board where the attacker held at least as
    /// much is cut like a repetition.
    pub inferior: bool,
    /// Pump cost (`loops.rs`, *Pumps*): a child that is a superior repetition (an ancestor's board,
    /// the attacker holding more) counts this much more on its pn, in units of `UNIT`/16 — a
    /// defender's reply, or a check too with `pump_checks`; 0 turns it off.
    pub pump_cost: u32,
    /// The pump cost counts on the attacker's checks too, not only on the defender's replies.
    pub pump_checks: bool,
    /// Where equal children are ordered by their other number (`numbers::Pick`).
    pub ties: Ties,
    /// Initial pn of a check grows with its distance from the king (with `Init::Unit`).
    pub distance: bool,
    /// The first depth limit (plies from the root). Raised when the search rests on it.
    pub max_ply: u32,
    /// Node budget of one step of a phase after the proof (one "mate within U − 2?" of the exact or
    /// the canonical line), in percent of the nodes spent before the phase (at least
    /// `PHASE_STEP_MIN_NODES`, or `PHASE_STEP_MIN_NODES_UNLIMITED` in an open-ended search); a phase
    /// as a whole (the alternatives check and the composers' ranking too) gets `PHASE_STEPS` times
    /// that. 0: no budget of its own, only the search's time and node limits.
    pub phase_budget_pct: u32,
    /// The node cap of one spare test in the canonical game (`spare.rs`: is a reply answered by a mate
    /// with pieces to spare?); 0: no spare tests, only the futile-drop rule.
    pub spare_test_nodes: u64,
    /// The spare game reads the ordinary game's proofs at every node it searches: a position proven
    /// there with a proof hand its hand exceeds is a spare mate (`spare::surplus_proof`).
    pub surplus: bool,
    /// The canonical game reads the strict game's proofs: a position proven there within a node's
    /// length budget is a canonical mate within it (`Dfpn::with_strict_proof`, `futile.rs`).
    pub strict_proofs: bool,
    /// The futile-interposition rule of the canonical game (`futile.rs`): 0, the narrow rule (the
    /// checker captures and only drops are left); otherwise the composers' rule (the checker captures
    /// and the attacker mates without the captured piece), each test a strict mate search capped at
    /// this many nodes.
    pub futile_test_nodes: u64,
    /// The composers' ranking on the canonical line (`pv/ranking.rs`): the node cap of each spare test
    /// it asks ("does the attacker force a mate with pieces to spare after this reply?"); 0: the
    /// canonical line is printed as the canonical game's minimax gives it.
    pub ranking_test_nodes: u64,
    /// With `PvLevel::MinLength`: the node cap of the shortest-first search before the proof
    /// (`deepen.rs`: "mate within 1? 3? 5? …" from the root); 0: prove first, then shorten.
    pub deepen_nodes: u64,
    /// **Unsound, for tests only** (not settable by `apply`): a length-bounded result that rests on a
    /// repetition is stored as if it held on every path: the naive position → length cache komori-n's
    /// PV article warns against. Tests turn it on to show that a position needs the loop-aware cache
    /// (`tests/differential`, `perpetual_check_inside_the_net`; the same positions over USI in
    /// `tests/usi/session.rs`).
    pub naive_loop_cache: bool,
}

/// The smallest node budget of one step of a phase after the proof (`SearchConfig::phase_budget_pct`).
pub const PHASE_STEP_MIN_NODES: u64 = 200_000;

/// The smallest step when the user set no limit at all (`SearchLimits::open_ended`: `go mate
/// infinite`, `solve --time-ms 0`): whoever waits for the answer without a limit wants the exact
/// line more than a quick one. About 2 s of search; the phase as a whole gets twice that (a floor of
/// 1 M nodes made 42 of Shogi Musou's 97 lines exact, 5 M 73: README, *The mating line*).
pub const PHASE_STEP_MIN_NODES_UNLIMITED: u64 = 5_000_000;

/// A phase after the proof as a whole gets this many steps' budgets (`SearchConfig::phase_budget`).
pub const PHASE_STEPS: u64 = 2;

/// The default grade of the weak numbers (`numbers::Grade`): an eighth of each other child's
/// number, between 1 and 8 units.
pub const DEFAULT_GRADE: Grade = Grade::new(3, 8);

/// The default node cap of one spare test of the composers' ranking
/// (`SearchConfig::ranking_test_nodes`).
pub const RANKING_TEST_NODES: u64 = 30_000;

/// The default node cap of the shortest-first search (`SearchConfig::deepen_nodes`).
pub const DEEPEN_NODES: u64 = 10_000;

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            // Graded weak numbers (`numbers::Grade`): an eighth of each other child's number,
            // between 1 and 8 units. Measured (`--pv none`, nodes, against the flat weak numbers,
            // `gradecap=1`): README, *Ablation*.
            aggregation: Aggregation::Weak(DEFAULT_GRADE),
            eps_den: 4,
            edge_cost: 0,
            edge_plies: 0,
            chains: true,
            // Measured (`--pv none`, nodes, ½ unit within 64 plies vs none; 10 s, 256 MiB): Zukou's
            // 101 mates 39.0 M vs 40.9 M (geometric mean of the per-problem ratios 0.90), Shogi
            // Musou's 97 (a classic set not in the repository) 65.0 M vs 72.1 M (0.97); the short
            // sets 0.33 M vs 0.40 M; Kotobuki 1.01 M, the same; Zukou #8 107 M vs 143 M; a strict
            // mate in 9 whose first proof dived into a far rook drop's ladder of interpositions 46 k
            // vs 274 k; long problems not in the repository (1–2 GiB): 乱 275 M vs 303 M, shtsume's
            // test problem 7 16.8 M vs 59.4 M. Against it: Microcosmos (2 GiB) 77.2 M vs 63.4 M.
            // At every ply (`ladderplies=0`) the long problems pay: 乱 444 M, problem 7 77.8 M,
            // Microcosmos 68.3 M; within 32 plies, Musou 75.4 M. ¼ unit at every ply: Zukou 0.90,
            // Microcosmos 80.2 M, Zukou #8 unchanged; 1 unit: Zukou 0.97, Musou 1.09.
            ladder_cost: 8,
            ladder_plies: 64,
            // Measured (`--pv none`, nodes, 10 s, 256 MiB, against 0, 300, 1 000 and 2 000, one run
            // each; Zukou #8 within 30 s with 256 MiB and 1 GiB, which 1 000 and 2 000 miss):
            // README, *Ablation*.
            stall_nodes: 3000,
            surplus: true,
            strict_proofs: true,
            promo_chains: true,
            // Measured side by side (one search per core, 30 s, 256 MiB, `--pv none`): Zukou's 101
            // solved 19.3 s vs 19.6 s, 142.8 M vs 144.3 M nodes, Kotobuki 0.82 M vs 1.00 M nodes,
            // Microcosmos and the short sets unchanged, but Zukou #8 past 90 s (213 M nodes) instead
            // of 57 s: no clear gain, so off.
            move_chains: false,
            // Measured (`--pv none`, nodes, `deferdrops=on` vs off, the rest of the search as at 5604d4e): Zukou's 101
            // mates 43.3 M vs 45.2 M (geometric mean of the per-problem ratios 0.94; 256 MiB), Shogi
            // Musou's 93 solved by both 35.4 M vs 37.0 M (0.95), the short sets 0.40 M vs 0.40 M;
            // Microcosmos 64.1 M vs 74.5 M (2 GiB), Starship Trooper (a long classic not in the
            // repository) 14.4 M vs 32.7 M, Zukou #8 179 M vs 245 M (1 GiB), 1980 and Kotobuki the
            // same. Against it: Musou #6 25.4 M vs 4.5 M, Zukou #67 5.5 M vs 0.67 M.
            defer_drops: true,
            // Measured (`--pv none`, nodes, on vs off): Zukou + Shogi Musou (203, 30 M nodes,
            // 256 MiB) 138.1 M vs 157.6 M on the 201 both decide (geometric mean 1.01): Musou #6
            // 5.4 M vs 25.5 M, Zukou #67 0.68 M vs 5.5 M, Musou #30 0.46 M vs 2.8 M, Musou #73's
            // disproof 37.9 M vs 59.7 M (1 GiB); 33 long problems (30 M nodes, 1 GiB): the 17 both
            // decide 188.2 M vs 185.3 M (geometric mean 0.98), but one (117 plies) past the cap
            // (26.7 M before).
            defer_keeps_best: true,
            // shtsume's marks (240 units) never fire with kanju's numbers (Zukou node for node the
            // same); lower marks serialise too much: 16 units, Zukou's 94 solved by both at 10 s
            // 63.1 M vs 35.8 M nodes and 7 fewer solved; 48 units, 45.6 M vs 45.2 M. Off.
            blowup_mark: 0,
            mate1: true,
            mate3: false,
            pv_mate3: true,
            pv_jumps: true,
            // Measured side by side (README "Ablation"): the look-ahead's tree is less than half
            // the lazy one's on Zukou (15 M vs 37 M entries), 0.71× the time there, 0.63× on
            // Microcosmos, 0.44× on Kotobuki, the same on the short sets.
            init: Init::Look,
            inferior: true,
            // Measured (30 s, 256 MiB, `--pv none`, nodes, 0 vs ½ unit): Shogi Musou #6 (a classic
            // not in the repository) 100 M (50 s) vs 8.8 M (3.6 s; KomoringHeights 6.8 s); Zukou and
            // Musou otherwise the same but Zukou #86 (2.0 M vs 0.63 M); tanuki 0.44 M vs 0.19 M;
            // Kotobuki unchanged; Microcosmos 69.9 M vs 72.3 M. Musou #6 needs ¼ unit or more (⅛:
            // no proof in 30 s); Zukou #71, whose mate pumps, stands ¾ unit, not 1 (1.9 M vs 36.6 M).
            pump_cost: 8,
            // Measured (`--pv none`, 1 GiB, nodes, `pumpchecks=on` vs off): 1980 (a 693-ply first
            // line, a classic long problem not in the repository) no proof in 60 s (90 M) vs
            // 18.3 M; Starship Trooper 33.7 M vs 32.7 M; Zukou, Shogi Musou and the short sets
            // the same but for noise (10 s, 256 MiB, totals: 86.7 M vs 80.1 M, 95.2 M vs 96.1 M).
            // The price (at 5604d4e, 2 GiB): Microcosmos 67.9 M vs 74.5 M; Zukou #8 (1 GiB) 238 M
            // vs 245 M. Neither cost on checks in between pays: ⅛ unit, Microcosmos 79.5 M and 1980
            // 28.5 M; ¼ unit, 69.5 M and 101 M.
            pump_checks: false,
            // Measured (`--pv none`, nodes, `ties=off` vs the default): Zukou's 102 decided 73.3 M
            // vs 63.6 M (30 s, 256 MiB), Shogi Musou's 99 (a classic set not in the repository)
            // 85.9 M vs 79.0 M, Musou #73's disproof 46.1 M vs 40.4 M, Microcosmos 72.3 M vs
            // 67.9 M; the short sets and Kotobuki the same. At OR nodes too (`both`): Microcosmos
            // 54.1 M and Kotobuki 0.67 M instead of 1.00 M, but Musou #6 and #17 unsolved in 30 s
            // (8.8 M and 1.6 M nodes with `off`), Zukou #71 35 M instead of 2 M with `or`. One
            // problem goes the other way: Zukou #8 (1 GiB, at 5604d4e) 130 M with `off`, 245 M by
            // default, unsolved in 150 s with `both`; Starship Trooper (a long classic not in the
            // repository) 26.3 M with `off`, 32.7 M by default.
            ties: Ties::And,
            distance: true,
            max_ply: 4000,
            phase_budget_pct: 20,
            spare_test_nodes: 0,
            // The narrow rule. The composers' rule (`futiletest=5000`) brings Zukou's printed
            // lengths closer to the recorded ones (61 of 101 equal instead of 57, `--futile skip`,
            // 30 s, about the same time) but reads edge-47 differently from its source (3 plies
            // for 5): README, *Futile interpositions*.
            futile_test_nodes: 0,
            ranking_test_nodes: RANKING_TEST_NODES,
            deepen_nodes: DEEPEN_NODES,
            naive_loop_cache: false,
        }
    }
}

impl SearchConfig {
    /// Plain df-pn: sums, no frontier, no chains, unit initial numbers.
    pub fn plain() -> SearchConfig {
        SearchConfig {
            aggregation: Aggregation::Sum,
            eps_den: 0,
            edge_cost: 0,
            edge_plies: 0,
            chains: false,
            ladder_cost: 0,
            ladder_plies: 0,
            stall_nodes: 0,
            surplus: false,
            strict_proofs: false,
            promo_chains: false,
            move_chains: false,
            defer_drops: false,
            defer_keeps_best: false,
            blowup_mark: 0,
            mate1: false,
            mate3: false,
            pv_mate3: false,
            pv_jumps: false,
            init: Init::Unit,
            inferior: false,
            pump_cost: 0,
            pump_checks: false,
            ties: Ties::Off,
            distance: false,
            max_ply: 4000,
            phase_budget_pct: 20,
            spare_test_nodes: 0,
            futile_test_nodes: 0,
            ranking_test_nodes: 0,
            deepen_nodes: 0,
            naive_loop_cache: false,
        }
    }

    /// The node budget of one step of a phase after the proof begun at `nodes` (`phase_budget_pct`),
    /// at least `floor` (`PHASE_STEP_MIN_NODES`, or `PHASE_STEP_MIN_NODES_UNLIMITED` for an
    /// open-ended search, `SearchLimits::open_ended`).
    pub fn phase_step(&self, nodes: u64, floor: u64) -> Option<u64> {
        (self.phase_budget_pct > 0).then(|| {
            let share = nodes / 100 * u64::from(self.phase_budget_pct);
            share.max(floor)
        })
    }

    /// The node count at which a phase after the proof, begun at `nodes` after `spent` nodes of work
    /// on the root (`nodes` and what earlier solves on the same table spent), stops: `PHASE_STEPS`
    /// steps' budgets after `nodes`.
    pub fn phase_budget(&self, nodes: u64, spent: u64, floor: u64) -> Option<u64> {
        self.phase_step(spent, floor)
            .map(|step| nodes.saturating_add(step.saturating_mul(PHASE_STEPS)))
    }

    /// The edge cost in pn/dn units at a node `ply` plies from the root of the main search
    /// (`edge_plies`).
    pub fn edge_at(&self, ply: u32) -> u32 {
        if self.edge_plies == 0 || ply < self.edge_plies {
            self.edge_cost.saturating_mul(UNIT) / 16
        } else {
            0
        }
    }

    /// The blow-up mark in pn/dn units (0: no merges).
    pub fn blowup(&self) -> PnDn {
        self.blowup_mark.saturating_mul(UNIT)
    }

    /// The ladder cost of one further square of a drop chain, in pn/dn units, at an AND node `ply`
    /// plies from the root of the main search (`ladder_plies`).
    pub fn ladder_at(&self, ply: u32) -> PnDn {
        if self.ladder_plies == 0 || ply < self.ladder_plies {
            self.ladder_cost.saturating_mul(UNIT) / 16
        } else {
            0
        }
    }

    /// The pump cost in pn/dn units.
    pub fn pump(&self) -> u32 {
        self.pump_cost.saturating_mul(UNIT) / 16
    }

    /// Applies `name=value` settings separated by commas (e.g. `agg=sum,eps=0,chains=off`), on top of
    /// `self`. The names are those `Display` prints.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item == "plain" {
                *self = SearchConfig::plain();
                continue;
            }
            if item == "default" {
                *self = SearchConfig::default();
                continue;
            }
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}': expected name=value"))?;
            let flag = || match value {
                "on" | "1" | "true" => Ok(true),
                "off" | "0" | "false" => Ok(false),
                _ => Err(format!("'{item}': expected on or off")),
            };
            let number = || {
                value
                    .parse::<u32>()
                    .map_err(|_| format!("'{item}': expected a number"))
            };
            match name {
                "agg" => {
                    self.aggregation = match (value, self.aggregation) {
                        ("sum", _) => Aggregation::Sum,
                        ("weak", Aggregation::Weak(g)) => Aggregation::Weak(g),
                        ("weak", Aggregation::Sum) => Aggregation::Weak(DEFAULT_GRADE),
                        _ => return Err(format!("'{item}': expected sum or weak")),
                    }
                }
                "gradeshift" | "gradecap" => {
                    let Aggregation::Weak(g) = self.aggregation else {
                        return Err(format!("'{item}': only with agg=weak"));
                    };
                    let n = number()?;
                    self.aggregation = Aggregation::Weak(if name == "gradeshift" {
                        Grade::new(n, g.cap_units())
                    } else {
                        Grade::new(g.shift(), n)
                    });
                }
                "eps" => self.eps_den = number()?,
                "edge" => self.edge_cost = number()?,
                "edgeplies" => self.edge_plies = number()?,
                "chains" => self.chains = flag()?,
                "ladder" => self.ladder_cost = number()?,
                "ladderplies" => self.ladder_plies = number()?,
                "stall" => self.stall_nodes = number()?,
                "surplus" => self.surplus = flag()?,
                "strictproofs" => self.strict_proofs = flag()?,
                "promochains" => self.promo_chains = flag()?,
                "movechains" => self.move_chains = flag()?,
                "deferdrops" => self.defer_drops = flag()?,
                "deferkeep" => self.defer_keeps_best = flag()?,
                "blowup" => self.blowup_mark = number()?,
                "mate1" => self.mate1 = flag()?,
                "mate3" => self.mate3 = flag()?,
                "pvmate3" => self.pv_mate3 = flag()?,
                "pvjumps" => self.pv_jumps = flag()?,
                "init" => {
                    self.init = match value {
                        "unit" => Init::Unit,
                        "look" => Init::Look,
                        _ => return Err(format!("'{item}': expected unit or look")),
                    }
                }
                "distance" => self.distance = flag()?,
                "inferior" => self.inferior = flag()?,
                "pump" => self.pump_cost = number()?,
                "pumpchecks" => self.pump_checks = flag()?,
                "ties" => {
                    self.ties = match value {
                        "off" => Ties::Off,
                        "and" => Ties::And,
                        "or" => Ties::Or,
                        "both" => Ties::Both,
                        _ => return Err(format!("'{item}': expected off, and, or or both")),
                    }
                }
                "maxply" => self.max_ply = number()?.max(2),
                "phasebudget" => self.phase_budget_pct = number()?,
                "sparetest" => self.spare_test_nodes = u64::from(number()?),
                "futiletest" => self.futile_test_nodes = u64::from(number()?),
                "ranktest" => self.ranking_test_nodes = u64::from(number()?),
                "deepen" => self.deepen_nodes = u64::from(number()?),
                _ => return Err(format!("'{item}': unknown setting")),
            }
        }
        Ok(())
    }
}

impl fmt::Display for SearchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        write!(
            f,
            "agg={},eps={},edge={},edgeplies={},chains={},ladder={},ladderplies={},stall={},promochains={},movechains={},deferdrops={},deferkeep={},blowup={},mate1={},mate3={},pvmate3={},pvjumps={},init={},distance={},inferior={},pump={},pumpchecks={},ties={},maxply={},phasebudget={},sparetest={},surplus={},strictproofs={},futiletest={},ranktest={},deepen={}",
            match self.aggregation {
                Aggregation::Sum => "sum".to_string(),
                Aggregation::Weak(g) =>
                    format!("weak,gradeshift={},gradecap={}", g.shift(), g.cap_units()),
            },
            self.eps_den,
            self.edge_cost,
            self.edge_plies,
            on(self.chains),
            self.ladder_cost,
            self.ladder_plies,
            self.stall_nodes,
            on(self.promo_chains),
            on(self.move_chains),
            on(self.defer_drops),
            on(self.defer_keeps_best),
            self.blowup_mark,
            on(self.mate1),
            on(self.mate3),
            on(self.pv_mate3),
            on(self.pv_jumps),
            match self.init {
                Init::Unit => "unit",
                Init::Look => "look",
            },
            on(self.distance),
            on(self.inferior),
            self.pump_cost,
            on(self.pump_checks),
            match self.ties {
                Ties::Off => "off",
                Ties::And => "and",
                Ties::Or => "or",
                Ties::Both => "both",
            },
            self.max_ply,
            self.phase_budget_pct,
            self.spare_test_nodes,
            on(self.surplus),
            on(self.strict_proofs),
            self.futile_test_nodes,
            self.ranking_test_nodes,
            self.deepen_nodes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_apply_round_trip() {
        for c in [SearchConfig::default(), SearchConfig::plain()] {
            let mut d = SearchConfig::plain();
            d.apply(&c.to_string()).unwrap();
            assert_eq!(c, d);
        }
        let mut c = SearchConfig::default();
        c.apply("agg=sum,chains=off,eps=0").unwrap();
        assert_eq!(c.aggregation, Aggregation::Sum);
        assert!(!c.chains);
        assert!(c.apply("bogus=1").is_err());
        assert!(c.apply("chains=maybe").is_err());
        c.apply("edge=4,edgeplies=0").unwrap();
        assert_eq!((c.edge_at(0), c.edge_at(10_000)), (UNIT / 4, UNIT / 4));
        c.apply("edgeplies=8").unwrap();
        assert_eq!((c.edge_at(7), c.edge_at(8)), (UNIT / 4, 0));
        c.apply("ladder=8,ladderplies=4").unwrap();
        assert_eq!((c.ladder_at(3), c.ladder_at(4)), (UNIT / 2, 0));
        c.apply("ladderplies=0").unwrap();
        assert_eq!(c.ladder_at(10_000), UNIT / 2);
        c.apply("ties=or").unwrap();
        assert_eq!(c.ties, Ties::Or);
        assert!(c.apply("ties=sometimes").is_err());
    }

    #[test]
    fn phase_budgets_are_by_steps() {
        let c = SearchConfig::default();
        // A small proof: the floor.
        assert_eq!(
            c.phase_step(10_000, PHASE_STEP_MIN_NODES),
            Some(PHASE_STEP_MIN_NODES)
        );
        assert_eq!(
            c.phase_budget(10_000, 10_000, PHASE_STEP_MIN_NODES),
            Some(10_000 + PHASE_STEPS * PHASE_STEP_MIN_NODES)
        );
        // A long one: its share (a fifth of 5 M nodes per step, two steps' worth for the phase).
        assert_eq!(
            c.phase_step(5_000_000, PHASE_STEP_MIN_NODES),
            Some(1_000_000)
        );
        assert_eq!(
            c.phase_budget(5_000_000, 5_000_000, PHASE_STEP_MIN_NODES),
            Some(7_000_000)
        );
        // Asked again on the same table (the proof found there at once): the share of all the work
        // on the root, counted from where this solve stands.
        assert_eq!(
            c.phase_budget(10_000, 5_010_000, PHASE_STEP_MIN_NODES),
            Some(10_000 + PHASE_STEPS * 1_002_000)
        );
        // Without limits, the larger floor; a long proof's share stays the same.
        let unlimited = PHASE_STEP_MIN_NODES_UNLIMITED;
        assert_eq!(c.phase_step(10_000, unlimited), Some(unlimited));
        assert_eq!(
            c.phase_budget(10_000, 10_000, unlimited),
            Some(10_000 + PHASE_STEPS * unlimited)
        );
        assert_eq!(c.phase_step(50_000_000, unlimited), Some(10_000_000));
        let mut c = c;
        c.apply("phasebudget=0").unwrap();
        assert_eq!(
            (
                c.phase_step(5_000_000, PHASE_STEP_MIN_NODES),
                c.phase_budget(5_000_000, 5_000_000, PHASE_STEP_MIN_NODES)
            ),
            (None, None)
        );
    }
}
