//! The mate search: df-pn over a transposition table of proof and disproof pieces, and the PV
//! extractor that writes the `checkmate` line.
//!
//! `Solver` (`solver.rs`) is the whole interface the front ends use; `outcome.rs` has what they give
//! it and get back, `verify.rs` the check every printed line passes. Inside, by layer:
//! * **the phases of a solve**: `deepen` (shortest first before the proof), the proof search
//!   (`dfpn`), `pv` (the mating line after the proof, and the alternatives check), `canonical` (the
//!   composers' games: futile interpositions, spare mates, the canonical line and its ranking);
//!   `bounded` holds the length-bounded questions they all ask;
//! * **the searcher**: `dfpn` — one searcher (`Searcher`), the loop of one node, expansion, chains'
//!   moves, first estimates, the frontier's shortcuts, a node's result, nested searches; `game` —
//!   the game being searched; `shared` — what every searcher of a solve shares; `path`, `budget`,
//!   `report`, `stats` — what one searcher owns;
//! * **the pieces**: `node` (the children of a node and their chains), `numbers` (proof numbers and
//!   how children combine), `hands` (proof and disproof hands), `loops` (repetitions and the depth
//!   limit), `tt` (the table), `mate1` and `frontier` (mate in one and three), `config` (the
//!   switches).
//!
//! Data flows one way: the phases drive searchers, searchers use the pieces, and no piece knows of
//! a searcher.

pub mod bounded;
pub mod budget;
pub mod canonical;
pub mod config;
pub mod deepen;
pub mod dfpn;
pub mod frontier;
pub mod game;
pub mod hands;
pub mod loops;
pub mod marks;
pub mod mate1;
pub mod node;
pub mod numbers;
pub mod outcome;
pub mod parallel;
pub mod path;
pub mod pv;
pub mod report;
pub mod roles;
pub mod shared;
pub mod solver;
pub mod stats;
pub mod tt;
pub mod verify;

pub use canonical::Futile;
pub use config::SearchConfig;
pub use outcome::{
    Alternative, Alternatives, Findings, MateOutcome, OtherLine, SearchInfo, SearchLimits,
    SolveError, SolveResult, Variation, Variations,
};
pub use pv::PvLevel;
pub use roles::{RootRole, root_role};
pub use solver::{Solver, SolverSettings};
pub use verify::{
    problem_position, verify_line_in_check, verify_line_in_check_by, verify_mate_line,
    verify_mate_line_by,
};

/// The stack a thread running `Solver::solve` needs: the search recurses once per ply (up to
/// `loops::HARD_MAX_PLY`), a few hundred bytes a frame. Only the pages touched are ever committed.
pub const SEARCH_STACK_BYTES: usize = 256 << 20;
