#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| stackchess_checks::specs::uci(data));
