//! Hand superiority (`Hand::covers`) and hand round trips.

use super::*;

// ---- 3. hand superiority -----------------------------------------------------------------------------

fn random_hand(rng: &mut Rng) -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set_count(k, rng.below(usize::from(MAX_COUNT[k.index()]) + 1) as u8);
    }
    h
}

/// `a` with each kind nudged by -1, 0 or +1 (within range): close pairs, so that `covers` is true often
/// enough and the boundary cases (equal, one more, one less) are all hit.
fn nearby_hand(a: Hand, rng: &mut Rng) -> Hand {
    let mut b = a;
    for k in PieceKind::HAND {
        let n = match rng.below(4) {
            0 => a.count(k).saturating_sub(1),
            1 => (a.count(k) + 1).min(MAX_COUNT[k.index()]),
            _ => a.count(k),
        };
        b.set_count(k, n);
    }
    b
}

#[test]
fn hand_covers_is_kindwise_ge() {
    let mut rng = Rng::new(0x4a4d);
    let (mut yes, mut no) = (0, 0);
    for i in 0..200_000 {
        let a = random_hand(&mut rng);
        let b = if i % 2 == 0 {
            random_hand(&mut rng)
        } else {
            nearby_hand(a, &mut rng)
        };
        for (x, y) in [(a, b), (b, a)] {
            let expected = PieceKind::HAND.iter().all(|&k| x.count(k) >= y.count(k));
            assert_eq!(x.covers(y), expected, "{x:?} covers {y:?}");
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(
            a.covers(a) && a.covers(Hand::EMPTY) && Hand::FULL.covers(a),
            "{a:?}"
        );
    }
    // Both outcomes must be well represented, or the test says little about one of them.
    assert!(
        yes > 40_000 && no > 40_000,
        "unbalanced sample: {yes} / {no}"
    );
}

#[test]
fn hand_set_count_round_trips() {
    let mut rng = Rng::new(7);
    for _ in 0..10_000 {
        let h = random_hand(&mut rng);
        let mut rebuilt = Hand::EMPTY;
        for k in PieceKind::HAND {
            rebuilt.set_count(k, h.count(k));
            assert_eq!(h.has(k), h.count(k) > 0, "{h:?} {k:?}");
        }
        assert_eq!(rebuilt, h);
        let total: u32 = PieceKind::HAND.iter().map(|&k| u32::from(h.count(k))).sum();
        assert_eq!(h.total(), total, "{h:?}");
    }
}
