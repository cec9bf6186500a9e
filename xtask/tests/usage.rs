//! `xtask` refuses what it does not know, saying what it takes. (This test also makes `cargo test
//! --workspace` build the `xtask` binary with the workspace's features, which `.ci/run` then runs
//! directly instead of building it again through `cargo xtask`.)

use std::process::Command;

fn xtask(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn no_task_or_an_unknown_one_prints_the_usage_and_fails() {
    for args in [&[][..], &["nosuch"][..]] {
        let (ok, err) = xtask(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains("usage: cargo xtask bless-perft") && err.contains("fuzz [--seconds S]"), "{err}");
    }
}

#[test]
fn a_bad_fuzz_flag_is_named_before_anything_is_built() {
    let (ok, err) = xtask(&["fuzz", "--seconds", "ten"]);
    assert!(!ok && err.contains("--seconds"), "{err}");
    let (ok, err) = xtask(&["fuzz", "--loud"]);
    assert!(!ok && err.contains("unknown --loud"), "{err}");
}
