//! kanju: a tsume-shogi (mate problem) engine.
//!
//! Layers, with data flowing one way: the front ends (`usi`: the protocol for GUIs; `cli`: `solve`,
//! `bench`, `check`, `perft` and the output formats) → `composer` (the composer's report from a
//! checked answer) → `checked` (the solver as front ends use it) → `search` (df-pn, table, PV) →
//! `position` (board, move generation). `pipe` tells both front ends whether their reader is still
//! there.

pub mod checked;
pub mod cli;
pub mod composer;
pub mod pipe;
pub mod position;
pub mod search;
pub mod usi;
