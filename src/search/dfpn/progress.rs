//! Progress reports of a search: the `info` a front end prints while it runs (nodes, time, table
//! fill, the root's numbers, a line from the root) and the mates the line phases find.

use super::Searcher;
use crate::position::Move;
use crate::search::loops::next_path;
use crate::search::outcome::SearchInfo;
use crate::search::path::Path;
use crate::search::tt::UNBOUNDED;

impl Searcher<'_> {
    /// Reports a mate of `n` plies found by the PV search, with a line of that length (or none), when
    /// progress reports are wanted.
    pub fn report_mate(&mut self, n: u32, line: &[Move]) {
        if !self.report.wanted() {
            return;
        }
        let mut info = self.info();
        info.score_mate = Some(n);
        info.pv = line.to_vec();
        self.report.send(&info);
    }

    /// A progress report.
    pub fn info(&self) -> SearchInfo {
        SearchInfo {
            nodes: self.total_nodes(),
            elapsed: self.shared.start.elapsed(),
            hashfull: self.tt().hashfull(),
            pv: self.quick_pv(),
            root_pn: self.report.root_numbers.0,
            root_dn: self.report.root_numbers.1,
            max_ply: self.depth.max_ply,
            gc_count: self.tt().gc_count(),
            gc_freed: self.tt().gc_freed(),
            score_mate: None,
        }
    }

    /// Up to 16 plies from the root, for progress reports. In the main search (df-pn always descends
    /// into the most promising child) the line from the root to the node being searched: the moves
    /// `mid` played, used only when they lead from the root to the current position (a nested search
    /// — a futile-interposition test, a re-proof deep in a line — starts from another node, with moves
    /// played outside `mid`). Otherwise the main game's best moves in the table, walked from the root
    /// with the main salt and the root's own path key. Every move is checked legal (`move_from_u16`).
    /// Reports are made deep in the tree, so the walk starts from the root, never from the current
    /// node: the best moves walked from the current node are a line from there, and printed as a
    /// line from the root they would be illegal.
    fn quick_pv(&self) -> Vec<Move> {
        let root = &self.shared.problem.root;
        if self.game.unbounded_strict() {
            let mut pos = root.clone();
            let from_root = self.path.moves.iter().all(|&m| {
                let legal = pos.move_from_u16(m.to_u16()) == Some(m);
                if legal {
                    pos.do_move(m);
                }
                legal
            });
            if from_root && pos.key() == self.pos.key() {
                return self.path.moves.iter().take(16).copied().collect();
            }
        }
        let mut pos = root.clone();
        let mut line = vec![];
        let salt = self.main_salt();
        let mut path = Path::root_key(pos.key(), salt);
        for _ in 0..16 {
            let p = self.tt().probe(
                pos.board_key() ^ salt,
                pos.hand(self.attacker()),
                path,
                UNBOUNDED,
            );
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
