//! The fixed positions of `stackchess bench` and the search-speed benches: the start position
//! (not listed) plus a few middlegame positions per variant, reached by engine play from the start
//! after two random plies. Changing this list changes the bench signature.

/// The bench positions of a variant besides its start position (empty for an unknown name).
#[must_use]
pub fn bench_positions(variant: &str) -> &'static [&'static str] {
    match variant {
        "malka" => &[
            "8/8/8/8/6n1/8/PPPPPPPP/R1B1KB2|8/8/2p5/3n4/8/1N1N4/3Q4/8|r1bqkb1r/pp1ppppp/8/8/8/7R/8/8 w Qkq - 8 6",
            "8/8/8/8/5b2/8/PPPPPPPP/R1B1KB1R|8/4n3/1np5/3p4/8/5N2/8/3Q4|r1bqk2r/pp3ppp/4p3/3N4/8/8/8/8 w KQkq - 0 10",
            "8/8/3b4/8/8/8/PPPPPPPP/R3K3|8/7r/1p2np1p/8/4N3/3Q4/8/8|r1b1k3/p1ppp1p1/3q4/8/8/2BB3R/8/8 w Qq - 0 14",
            "8/8/8/8/8/2P5/rP1PPPPP/2B1K3|8/3q1p2/4p3/4n3/4R3/2N5/3Q4/8|2b1k2r/p3b1pp/1pp5/2n5/4B3/8/8/4R3 w k - 0 18",
        ],
        "traditional" => &[
            "8/3p4/8/8/4P3/2N5/1P1P1PPP/R1BQKB1R|8/8/1n4n1/8/8/6N1/8/8|r1bqkb1r/1pp1p1pp/8/p4p2/2P5/8/P7/8 w KQkq 3a6 0 6",
            "8/3p4/8/8/2P5/8/P2PPPPP/R2QKB1R|1q6/8/6n1/8/8/3N4/1P6/8|2r1kb1r/ppp1pppp/8/5n2/8/4B3/8/8 w KQk - 1 10",
            "8/8/8/8/P2PP3/5N2/1P4PP/R2QK2R|8/8/1r1p2n1/1B6/1p6/2P5/3BN3/8|4kb1r/4pppp/1q6/p1p2n2/5Pb1/8/8/8 w KQk - 4 14",
            "8/8/8/P2P4/7P/2P2N2/4PP2/R3KB1R|8/6p1/8/5QP1/2p5/8/1P6/8|2rqk2r/4ppbp/8/pp1p4/4n3/4B3/4n3/8 w KQk - 1 18",
        ],
        "fide" => &[
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bqkb1r/1pp1n1p1/2n1p3/p4pPp/P2PN2P/5N2/1PP2P2/R1BQKB1R w KQkq - 0 10",
            "r3kb1r/pp6/2n2p1p/2pqp2P/P7/5N1R/1PPP1P2/R1BQK3 w Qkq - 0 14",
            "r1b1kr2/2p5/p3qn1p/1p2pp2/PP4pP/8/3NN1P1/1R1QKB1R w Kq - 0 18",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ],
        "air-attack" => &[
            "r1bqkb1r/2pppppp/5n2/p7/P7/2N2N2/1PPPPPPP/R1B1KB1R|8/1p6/8/8/1n6/8/8/1Q6 w KQkq 1a6 0 6",
            "3qk2r/p1pp1pp1/b1n2n2/1p2p2p/4P3/P1P2N2/5PPP/R1B1KB1R|8/8/8/r7/8/2PP4/4Q3/8 w KQk 1h6 0 10",
            "r2qk2r/p2b1ppp/2p5/3pP3/1p1P3P/4B3/PPP1P1P1/3QKB1R|8/3n4/7b/8/3N4/2N5/8/8 w Kkq - 1 14",
            "r2q3r/1pp3kp/2n3p1/p7/P2p4/3P1NN1/1P1BQPPP/R2K4|8/3b4/5p2/2b5/1nB1P3/6R1/8/8 w - - 9 18",
        ],
        _ => &[],
    }
}

/// The fixed depth each bench position is searched to.
#[must_use]
pub fn bench_depth(variant: &str) -> u32 {
    match variant {
        "fide" => 10,
        _ => 7,
    }
}
