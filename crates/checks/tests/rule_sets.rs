//! Random rule sets from the whole TOML space, each compiled or refused, every compiled one
//! cross-checked against the reference generator (`cargo xtask fuzz` runs 10,000).

use stackchess_checks::rules::random_rule_sets;

/// 300 rule sets: most draws compile (a generator of mostly refused files would test little),
/// and some are refused (the validation is exercised too).
#[test]
fn random_rule_sets_compile_or_are_refused_and_agree_with_the_reference() {
    let t = random_rule_sets(0x005e_ed0f_7e57, 0, 300, 40);
    eprintln!("{t:?}");
    assert_eq!(t.drawn, 300);
    assert!(t.agreed * 2 > t.drawn, "{t:?}");
    assert!(t.refused * 20 > t.drawn, "{t:?}");
    assert!(t.positions >= 40 * t.agreed, "{t:?}");
}
