//! `kanju check --kif`: the composer's report as a KIF record, the variations as branches.

use crate::checked::Answer;
use crate::cli::kif::{Branch, kif_record, kif_record_with_branches};
use crate::composer::{CheckReport, Flaw, Verdict, flaw_text, futile_drop_text};

/// The report as a KIF: the line, the summary and every flaw and undecided question as
/// comments before the first move, each variation as a branch with its length (and its flaws)
/// under its first move, and each 余詰 as a branch of its first move. Without a mate, the
/// record shows the diagram with the summary.
pub fn report_kif(report: &CheckReport) -> String {
    let Some(root) = &report.root else {
        return format!("# kanju: {}: {}\n", report.name, report.summary());
    };
    if report.verdict != Verdict::Mate {
        let answer = match &report.verdict {
            Verdict::NoMate => Answer::NoMate,
            Verdict::Error(e) => Answer::Error(e.clone()),
            _ => Answer::Timeout,
        };
        return kif_record(&report.name, root, &answer);
    }
    let mut notes = vec![format!("kanju check: {}", report.summary())];
    notes.extend(report.flaws.iter().map(flaw_text));
    notes.extend(report.futile_drops.iter().map(futile_drop_text));
    notes.extend(report.undecided.iter().map(|u| format!("undecided: {u}")));
    let mut branches = vec![];
    for v in &report.variations {
        let mut comment = if v.exact {
            format!("変化 {}手詰", v.mate)
        } else {
            format!("変化 {}手以内で詰", v.mate)
        };
        let flaws = report.flaws.iter().filter(|f| match f {
            Flaw::LongerVariation { ply, reply, .. }
            | Flaw::VariationAlternative { ply, reply, .. } => *ply == v.ply && *reply == v.reply,
            _ => false,
        });
        for f in flaws {
            comment.push_str("; ");
            comment.push_str(&flaw_text(f));
        }
        let futile = report.futile_drops.iter();
        for d in futile.filter(|d| d.ply == v.ply && d.reply == v.reply) {
            comment.push_str("; ");
            comment.push_str(&futile_drop_text(d));
        }
        let mut moves = vec![v.reply];
        moves.extend(&v.line);
        branches.push(Branch {
            ply: v.ply as usize,
            moves,
            mates: true,
            comment,
        });
    }
    for f in &report.flaws {
        if let Flaw::Alternative { ply, mv, mate, .. } = f {
            branches.push(Branch {
                ply: *ply as usize,
                moves: vec![*mv],
                mates: *mate == 1,
                comment: flaw_text(f),
            });
        }
    }
    kif_record_with_branches(&report.name, root, &report.line, &notes, &branches)
}
