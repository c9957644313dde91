//! The current path of a searcher: the positions from its root to the node being searched, for
//! repetitions (`loops.rs`), and the moves that lead there, for progress reports.

use super::loops::{PathBoards, PathMap, ROOT_PATH};
use crate::position::{Hand, Move};

/// The path from the search's root to the current node. A nested search (a test from a node deep in
/// the tree) starts a path of its own and gets the outer one back when it returns
/// (`Searcher::nested`).
#[derive(Clone, Default)]
pub struct Path {
    /// Full keys of the positions on the path (root included) → ply.
    pub keys: PathMap,
    /// The boards of the path with the attacker's hands, for inferior repetitions (`loops.rs`): kept
    /// by the main loop of `mid` and the root only (a path without them only cuts less).
    pub boards: PathBoards,
    /// The moves `mid` played from the root to the current node.
    pub moves: Vec<Move>,
    /// The root's path key (see `loops::next_path`).
    pub root: u64,
}

impl Path {
    /// The path key of a root with full position key `key` searched in the game of table salt
    /// `salt`: path-dependent results found from one root never match another's.
    pub fn root_key(key: u64, salt: u64) -> u64 {
        ROOT_PATH ^ key ^ salt
    }

    /// A path holding only a root: its full key at ply 0, and its path key (`root_key`).
    pub fn at_root(full_key: u64, root: u64) -> Path {
        let mut p = Path {
            root,
            ..Path::default()
        };
        p.keys.insert(full_key, 0);
        p
    }

    /// Enters a child at `ply` by `m`: its full key, board key and the attacker's hand there.
    #[inline(always)]
    pub fn enter(&mut self, m: Move, key: u64, board: u64, hand: Hand, ply: u32) {
        self.keys.insert(key, ply);
        self.boards.push(board, hand, ply);
        self.moves.push(m);
    }

    /// Leaves the child `enter` entered last.
    #[inline(always)]
    pub fn leave(&mut self, key: u64, board: u64) {
        self.moves.pop();
        self.boards.pop(board);
        self.keys.remove(&key);
    }
}
