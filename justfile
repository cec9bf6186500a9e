# Porcelain over cargo: one line a recipe. `just --list` shows them.

# The main job: self-play each variant and compare their balance (writes balance-out/).
balance *ARGS:
    cargo run --release -p stackchess -- balance {{ARGS}}

# The test suite, as CI runs it.
test:
    cargo test --workspace

# Everything CI checks: fmt, clippy, tests.
ci:
    bash .ci/run

# Criterion benchmarks (perft against cozy-chess and shakmaty, search, self-play).
bench *ARGS:
    cargo bench -p stackchess-benches {{ARGS}}

# Deep perft counts the test run skips (fide start position depth 6, the full golden files).
perft-deep:
    cargo xtask perft-deep

# Recompute the golden perft files from data/perft/*.positions, cross-checked by the reference generator.
bless-perft *VARIANTS:
    cargo xtask bless-perft {{VARIANTS}}

# The HTML report rendered in headless Chromium, its screenshot checked.
report-check:
    cargo xtask report-check
