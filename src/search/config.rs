//! The search's switches (`kanju bench --config name=value,…`): each technique that ships can be
//! turned off to measure what it brings, and a few choices are the user's. `SearchConfig::default()`
//! is the best combination measured; `plain` is df-pn without any of them. docs/config.md lists every
//! key; docs/benchmarks.md has the ablations.

use super::numbers::{Aggregation, Grade, PnDn, UNIT};
use std::fmt;

/// How a new child (never searched, not in the table) gets its first numbers in the main search
/// and in shortest-first deepening (the line phases' bounded searches always use `Unit`:
/// `Game::looks_ahead`).
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

/// The mate-in-one and mate-in-three shortcuts at OR nodes (`dfpn/leaves.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontier {
    /// Neither: every OR node is expanded.
    Off,
    /// Mate in one at every new OR node, before its checks are generated.
    Mate1,
    /// Mate in one, and in length-bounded searches the 3-ply search at OR nodes with at most 4 plies
    /// left, where it answers "mate within 3?" exactly.
    Mate3,
}

impl Frontier {
    pub fn mate1(self) -> bool {
        self != Frontier::Off
    }

    pub fn mate3(self) -> bool {
        self == Frontier::Mate3
    }
}

/// The chains of defences that wait for each other (`node/chains.rs`), each part on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chains {
    /// Drop interpositions in one chain, nearest square first, cheapest piece first.
    pub drops: bool,
    /// A defender's non-promotion waits behind the promotion of the same move.
    pub promotions: bool,
    /// The ladder cost: a drop chain's head counts `LADDER_COST` more on its pn for each further
    /// square its waiting members drop on, at AND nodes of the main search fewer than `LADDER_PLIES`
    /// plies from the root.
    pub ladder: bool,
    /// A drop chain whose head has stalled (more than `STALL_NODES` nodes, undecided) is split before
    /// its next square.
    pub stall: bool,
    /// A drop chain at an AND node that has itself stalled (more than `NODE_STALL_NODES` nodes,
    /// undecided) is split before every square, whatever its head has cost.
    pub node_stall: bool,
    /// Under a check from three or more squares away, a drop on a square the defender does not guard
    /// waits behind another defence (shtsume's merge of undefended middle interpositions)...
    pub defer: bool,
    /// ... unless its dn is the smallest of the node's open defences.
    pub keep_best: bool,
    /// A deferred drop heading a chain split off a stalled head first releases the first member
    /// behind it on a square the defender guards, as a chain head of its own.
    pub release: bool,
}

impl Chains {
    pub const ALL: Chains = Chains {
        drops: true,
        promotions: true,
        ladder: true,
        stall: true,
        node_stall: true,
        defer: true,
        keep_best: true,
        release: true,
    };

    pub const NONE: Chains = Chains {
        drops: false,
        promotions: false,
        ladder: false,
        stall: false,
        node_stall: false,
        defer: false,
        keep_best: false,
        release: false,
    };

    /// The parts by name, in the order `Display` writes them.
    const PARTS: [&'static str; 8] = [
        "drops",
        "promotions",
        "ladder",
        "stall",
        "nodestall",
        "defer",
        "keepbest",
        "release",
    ];

    fn part(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "drops" => &mut self.drops,
            "promotions" => &mut self.promotions,
            "ladder" => &mut self.ladder,
            "stall" => &mut self.stall,
            "nodestall" => &mut self.node_stall,
            "defer" => &mut self.defer,
            "keepbest" => &mut self.keep_best,
            "release" => &mut self.release,
            _ => return None,
        })
    }

    /// `all`, `none`, the parts that are on joined by `+` (`drops+promotions`), or parts to take off
    /// the current set, each after a `-` (`-ladder-stall`).
    fn parse(&self, value: &str) -> Option<Chains> {
        match value {
            "all" => return Some(Chains::ALL),
            "none" => return Some(Chains::NONE),
            _ => {}
        }
        if let Some(rest) = value.strip_prefix('-') {
            let mut c = *self;
            for name in rest.split('-') {
                *c.part(name)? = false;
            }
            return Some(c);
        }
        let mut c = Chains::NONE;
        for name in value.split('+') {
            *c.part(name)? = true;
        }
        Some(c)
    }

    /// The ladder cost of one further square of a drop chain, in pn units, at an AND node `ply`
    /// plies from the root of the main search.
    pub fn ladder_at(&self, ply: u32) -> PnDn {
        if self.ladder && ply < LADDER_PLIES {
            LADDER_COST
        } else {
            0
        }
    }
}

impl fmt::Display for Chains {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Chains::ALL => return f.write_str("all"),
            Chains::NONE => return f.write_str("none"),
            _ => {}
        }
        let mut c = *self;
        let on: Vec<&str> = Chains::PARTS
            .into_iter()
            .filter(|&p| *c.part(p).expect("a part"))
            .collect();
        f.write_str(&on.join("+"))
    }
}

/// The ladder cost of one further square (`Chains::ladder`): half a unit.
pub const LADDER_COST: PnDn = UNIT / 2;

/// The ladder cost counts at AND nodes fewer than this many plies from the root: near the root it
/// steers the choice between checks; deep in a long forced line of distant checks it would only tax
/// the line's length.
pub const LADDER_PLIES: u32 = 64;

/// A drop chain's head that has taken more than this many nodes (over all its searches, as the table
/// counts them) without being decided is split before its next square (`Chains::stall`).
pub const STALL_NODES: u32 = 3000;

/// An AND node that has taken more than this many nodes (over all its searches, as the table counts
/// them) without being decided has its drop chains split before every square (`Chains::node_stall`).
pub const NODE_STALL_NODES: u32 = 100_000;

/// The search's switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// How a node combines its children's numbers (`agg=graded|weak|sum`): graded weak numbers
    /// (`DEFAULT_GRADE`), the paper's flat weak numbers, or sums with SNDA-lite groups.
    pub aggregation: Aggregation,
    /// The 1+ε trick: the best child may grow to (1 + 1/`eps_den`) × the second best before the
    /// search switches; 0 turns it off (second + 1).
    pub eps_den: u32,
    /// The defence chains (`chains=all|none|drops+promotions+…|-ladder-…`).
    pub chains: Chains,
    /// Mate in one and mate in three (`frontier=on|mate1|off`).
    pub frontier: Frontier,
    /// The line phase's questions jump below the bound (`pv::tighten`): the gap doubles after each
    /// yes, a no halves what is left; off, each question asks two plies less than the last answer.
    pub pv_jumps: bool,
    pub init: Init,
    /// Inferior repetitions (`loops.rs`): an ancestor's board where the attacker held at least as
    /// much is cut like a repetition.
    pub inferior: bool,
    /// Pump cost (`loops.rs`, *Pumps*): a defender's reply that is a superior repetition (an
    /// ancestor's board, the attacker holding more) counts this much more on its pn, in sixteenths
    /// of a unit; 0 turns it off.
    pub pump_cost: u32,
    /// Among children equal on the minimised side, an AND node searches the one largest on the other
    /// side first (`numbers::Pick`).
    pub ties: bool,
    /// With lazy initial numbers (`Init::Unit`, always in the line phases' bounded searches) a
    /// check's pn grows with its distance from the king.
    pub distance: bool,
    /// The first depth limit (plies from the root). Raised when the search rests on it.
    pub max_ply: u32,
    /// Node budget of one step of a phase after the proof (one "mate within U − 2?" of the exact or
    /// the canonical line), in percent of the nodes spent before the phase (at least
    /// `PHASE_STEP_MIN_NODES`, or `PHASE_STEP_MIN_NODES_UNLIMITED` in an open-ended search); a phase
    /// as a whole gets `PHASE_STEPS` times that. 0: no budget of its own, only the search's limits.
    pub phase_budget_pct: u32,
    /// The canonical and spare games read the ordinary game's proofs (`Game::complete_probe`).
    pub strict_proofs: bool,
    /// The composers' ranking on the canonical line (`canonical/ranking.rs`): the node cap of each
    /// spare test it asks; 0: the canonical line is printed as the canonical game's minimax gives it.
    pub ranking_test_nodes: u64,
    /// With `PvLevel::MinLength`: the node cap of the shortest-first search before the proof
    /// (`deepen.rs`: "mate within 1? 3? 5? …" from the root); 0: prove first, then shorten.
    pub deepen_nodes: u64,
    /// **Unsound, for tests only**: a length-bounded result that rests on a repetition is stored as
    /// if it held on every path, the naive position → length cache komori-n's PV article warns
    /// against (`pv/tests.rs` shows a position where it prints a wrong length).
    #[cfg(test)]
    pub naive_loop_cache: bool,
    /// For tests only: the nodes a search runs alone before helpers join it (`parallel.rs`,
    /// `SOLO_NODES` outside tests), so that short problems exercise the parallel search too.
    #[cfg(test)]
    pub solo_nodes: u64,
}

/// The smallest node budget of one step of a phase after the proof (`SearchConfig::phase_budget_pct`).
pub const PHASE_STEP_MIN_NODES: u64 = 200_000;

/// The smallest step when the user set no limit at all (`SearchLimits::open_ended`: `go mate
/// infinite`, `solve --time-ms 0`): whoever waits for the answer without a limit wants the exact
/// line more than a quick one. A few seconds of search; the phase as a whole gets twice that.
pub const PHASE_STEP_MIN_NODES_UNLIMITED: u64 = 5_000_000;

/// A phase after the proof as a whole gets this many steps' budgets (`SearchConfig::phase_budget`).
pub const PHASE_STEPS: u64 = 2;

/// The graded weak numbers (`numbers::Grade`): an eighth of each other child's number, between 1 and
/// 8 units.
pub const DEFAULT_GRADE: Grade = Grade::new(3, 8);

/// The default node cap of one spare test of the composers' ranking
/// (`SearchConfig::ranking_test_nodes`).
pub const RANKING_TEST_NODES: u64 = 30_000;

/// The default node cap of the shortest-first search (`SearchConfig::deepen_nodes`).
pub const DEEPEN_NODES: u64 = 10_000;

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            aggregation: Aggregation::Weak(DEFAULT_GRADE),
            eps_den: 4,
            chains: Chains::ALL,
            frontier: Frontier::Mate3,
            pv_jumps: true,
            init: Init::Look,
            inferior: true,
            pump_cost: 8,
            ties: true,
            distance: true,
            max_ply: 4000,
            phase_budget_pct: 20,
            strict_proofs: true,
            ranking_test_nodes: RANKING_TEST_NODES,
            deepen_nodes: DEEPEN_NODES,
            #[cfg(test)]
            naive_loop_cache: false,
            #[cfg(test)]
            solo_nodes: crate::search::parallel::SOLO_NODES,
        }
    }
}

impl SearchConfig {
    /// Plain df-pn: sums, no frontier, no chains, unit initial numbers.
    pub fn plain() -> SearchConfig {
        SearchConfig {
            aggregation: Aggregation::Sum,
            eps_den: 0,
            chains: Chains::NONE,
            frontier: Frontier::Off,
            pv_jumps: false,
            init: Init::Unit,
            inferior: false,
            pump_cost: 0,
            ties: false,
            distance: false,
            max_ply: 4000,
            phase_budget_pct: 20,
            strict_proofs: false,
            ranking_test_nodes: 0,
            deepen_nodes: 0,
            #[cfg(test)]
            naive_loop_cache: false,
            #[cfg(test)]
            solo_nodes: crate::search::parallel::SOLO_NODES,
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

    /// The pump cost in pn/dn units.
    pub fn pump(&self) -> u32 {
        self.pump_cost.saturating_mul(UNIT) / 16
    }

    /// Applies `name=value` settings separated by commas (e.g. `agg=sum,eps=0,chains=none`), on top of
    /// `self`; `default` and `plain` reset every switch. The names are those `Display` prints.
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
                    self.aggregation = match value {
                        "graded" => Aggregation::Weak(DEFAULT_GRADE),
                        "weak" => Aggregation::Weak(Grade::FLAT),
                        "sum" => Aggregation::Sum,
                        _ => return Err(format!("'{item}': expected graded, weak or sum")),
                    }
                }
                "eps" => self.eps_den = number()?,
                "chains" => {
                    self.chains = self.chains.parse(value).ok_or_else(|| {
                        format!(
                            "'{item}': expected all, none, parts joined by + or parts each after a - ({})",
                            Chains::PARTS.join(", ")
                        )
                    })?
                }
                "frontier" => {
                    self.frontier = match value {
                        "on" => Frontier::Mate3,
                        "mate1" => Frontier::Mate1,
                        "off" => Frontier::Off,
                        _ => return Err(format!("'{item}': expected on, mate1 or off")),
                    }
                }
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
                "ties" => self.ties = flag()?,
                "maxply" => self.max_ply = number()?.max(2),
                "phasebudget" => self.phase_budget_pct = number()?,
                "strictproofs" => self.strict_proofs = flag()?,
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
        let agg = match self.aggregation {
            Aggregation::Sum => "sum",
            Aggregation::Weak(g) if g == Grade::FLAT => "weak",
            Aggregation::Weak(_) => "graded",
        };
        let frontier = match self.frontier {
            Frontier::Mate3 => "on",
            Frontier::Mate1 => "mate1",
            Frontier::Off => "off",
        };
        let init = match self.init {
            Init::Unit => "unit",
            Init::Look => "look",
        };
        write!(
            f,
            "agg={agg},eps={},chains={},frontier={frontier},pvjumps={},init={init},distance={},inferior={},pump={},ties={},maxply={},phasebudget={},strictproofs={},ranktest={},deepen={}",
            self.eps_den,
            self.chains,
            on(self.pv_jumps),
            on(self.distance),
            on(self.inferior),
            self.pump_cost,
            on(self.ties),
            self.max_ply,
            self.phase_budget_pct,
            on(self.strict_proofs),
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
        let mut partial = SearchConfig::default();
        partial.apply("chains=drops+ladder,agg=weak").unwrap();
        for c in [SearchConfig::default(), SearchConfig::plain(), partial] {
            let mut d = SearchConfig::plain();
            d.apply(&c.to_string()).unwrap();
            assert_eq!(c, d, "{c}");
        }
        let mut c = SearchConfig::default();
        c.apply("agg=sum,chains=none,eps=0").unwrap();
        assert_eq!(c.aggregation, Aggregation::Sum);
        assert_eq!(c.chains, Chains::NONE);
        assert!(c.apply("bogus=1").is_err());
        assert!(c.apply("inferior=maybe").is_err());
        assert!(c.apply("chains=drops+ladders").is_err());
        c.apply("chains=all,chains=-ladder-stall").unwrap();
        assert!(c.chains.drops && !c.chains.ladder && !c.chains.stall && c.chains.defer);
        assert_eq!((c.chains.ladder_at(0), c.chains.ladder_at(10_000)), (0, 0));
        c.apply("chains=all").unwrap();
        assert_eq!(
            (
                c.chains.ladder_at(LADDER_PLIES - 1),
                c.chains.ladder_at(LADDER_PLIES)
            ),
            (UNIT / 2, 0)
        );
        c.apply("frontier=mate1").unwrap();
        assert!(c.frontier.mate1() && !c.frontier.mate3());
        assert!(c.apply("frontier=sometimes").is_err());
    }

    /// No more keys than a reader can hold in mind: each ablates a technique that ships or is a
    /// user's choice (docs/config.md lists them).
    #[test]
    fn the_keys_are_few() {
        let keys = SearchConfig::default().to_string().split(',').count();
        assert!(keys <= 15, "{keys} keys");
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
