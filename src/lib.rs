//! kanju: a tsume-shogi (mate problem) engine.
//!
//! Layers, with data flowing one way: `usi` (protocol and command line) → `search` (df-pn, table,
//! PV) → `position` (board, move generation).

pub mod position;
pub mod search;
pub mod usi;
