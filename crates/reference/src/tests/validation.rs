//! The refusals of docs/rule-files.md "Validation": each names the key at fault (and the line
//! where the file gives it); malformed and mangled files are errors, never panics.

use super::*;

fn builtin_base(name: &str) -> Option<String> {
    rule_file::builtin_text(name).map(str::to_string)
}

fn load(text: &str) -> Result<Reference, String> {
    Reference::from_toml(text, &builtin_base)
}

/// Asserts that `text` is refused with an error naming `key`; returns the error.
#[track_caller]
fn refused(text: &str, key: &str) -> String {
    match load(text) {
        Ok(r) => panic!("accepted ({}):\n{text}", r.name()),
        Err(e) => {
            assert!(e.contains(&format!("`{key}`")), "error does not name `{key}`: {e}\n--- file:\n{text}");
            e
        }
    }
}

/// A user file over `base` with `body` appended.
fn over(base: &str, body: &str) -> String {
    format!("name = \"test\"\nbase = \"{base}\"\n{body}")
}

/// The built-in fide file renamed, with `from` replaced by `to` (which must occur).
fn fide_with(from: &str, to: &str) -> String {
    let text = rule_file::builtin_text("fide").unwrap();
    assert!(text.contains(from), "{from}");
    text.replace("name = \"fide\"", "name = \"test\"").replace(from, to)
}

#[test]
fn the_valid_files_load() {
    // The references for the refusals below: the same texts without the fault load.
    assert!(load(&over("fide", "")).is_ok());
    assert!(load(&fide_with("castling = true", "castling = true")).is_ok());
}

#[test]
fn unknown_mistyped_and_repeated_keys() {
    refused(&over("fide", "colour = \"blue\""), "colour");
    refused(&over("fide", "[board]\nsize = 8"), "board.size");
    refused(&over("fide", "[pieces]\nqueen = { diagonal = \"slide\" }"), "pieces.queen.diagonal");
    refused(&over("fide", "[pieces]\npawn = { planar-orthogonal = \"step\" }"), "pieces.pawn");
    refused(&over("fide", "[rules]\nx = 1"), "rules");
    // Wrong types.
    refused(&over("fide", "castling = \"yes\""), "castling");
    refused(&over("fide", "[board]\nlevels = \"1\""), "board.levels");
    refused(&over("fide", "[board]\nwhite = \"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\""), "board.white");
    refused(&over("fide", "[board]\nblack = \"flip\""), "board.black");
    refused(&over("fide", "[pawn]\nsteps = [[0, 1]]"), "pawn.steps");
    refused(&over("fide", "[pawn]\ncaptures = [[1, 1, \"up\"]]"), "pawn.captures");
    refused(&over("fide", "[pawn]\npromotion = \"queen\""), "pawn.promotion");
    refused(&over("fide", "[pawn]\npromotion-zone = \"everywhere\""), "pawn.promotion-zone");
    refused(&over("fide", "[draws]\nstalemate = \"maybe\""), "draws.stalemate");
    refused(&over("fide", "[transfer]\nenabled = 1"), "transfer.enabled");
    // A multi-line array: the key is on an earlier line than the bad value.
    refused(&over("fide", "[pawn]\nsteps = [\n  [0, 1, 0],\n  [0, 1, \"x\"],\n]"), "pawn.steps");
    // Given twice.
    refused(&over("fide", "castling = true\ncastling = false"), "castling");
    refused(&over("fide", "[draws]\nfifty-moves = 1\nfifty-moves = 2"), "draws.fifty-moves");
    refused(&over("fide", "[pieces]\nqueen = { vertical = 1, vertical = 2 }"), "pieces.queen.vertical");
    // The line is given.
    let e = refused(&over("fide", "\n[board]\nlevels = \"1\""), "board.levels");
    assert!(e.contains("line 5"), "{e}");
}

#[test]
fn name_and_base() {
    refused(&over("chess", ""), "base");
    assert!(Reference::from_toml(&over("malka", ""), &|_| None).unwrap_err().contains("`base`"));
    // No name: the fide file without its name line.
    let text = rule_file::builtin_text("fide").unwrap().replace("name = \"fide\"", "");
    refused(&text, "name");
    refused(&over("fide", "").replace("name = \"test\"", "name = \"my game\""), "name");
    refused(&over("fide", "").replace("name = \"test\"", "name = \"\""), "name");
    // A built-in's name on other rules is refused; on the built-in's own rules it is that
    // built-in (data/rules holds copies of the built-in files).
    refused(&over("malka", "[draws]\nfifty-moves = 75").replace("\"test\"", "\"malka\""), "name");
    assert!(load(&over("malka", "").replace("\"test\"", "\"malka\"")).is_ok());
    // A file without base must give every required key.
    let text = rule_file::builtin_text("fide").unwrap().replace("name = \"fide\"", "name = \"test\"");
    refused(&text.replace("promotion = \"any\"", ""), "pawn.promotion");
    refused(&text.replace("castling = true", ""), "castling");
    refused(&text.replace("levels = 1", ""), "board.levels");
}

#[test]
fn board_refusals() {
    refused(&over("fide", "[board]\nlevels = 0"), "board.levels");
    refused(&over("fide", "[board]\nlevels = 5"), "board.levels");
    // Two levels but a one-level army (the base's).
    refused(&over("fide", "[board]\nlevels = 2"), "board.white");
    refused(&over("malka", "[board]\nblack-home = 4"), "board.black-home");
    refused(&over("malka", "[board]\nwhite-home = 0"), "board.white-home");
    let malka_white =
        |placement: &str| format!("[board]\nwhite = [\"{placement}\", \"8/8/8/8/8/8/8/8\", \"8/8/8/8/8/8/8/8\"]");
    refused(&over("malka", "[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\"]"), "board.white");
    refused(&over("malka", &malka_white("8/8/8/8/8/8/PPPPPPPP/RNBQKBNRR")), "board.white");
    refused(&over("malka", &malka_white("8/8/8/8/8/8/PPPPPPPP/RNBQKBN")), "board.white");
    refused(&over("malka", &malka_white("8/8/8/8/8/PPPPPPPP/RNBQKBNR")), "board.white");
    refused(&over("malka", &malka_white("8/8/8/8/8/8/PPPPPPPP/RNBQKBNX")), "board.white");
    refused(&over("malka", &malka_white("8/8/8/8/8/8/PPPPPPPP/rNBQKBNR")), "board.white");
    refused(&over("fide", "[board]\nblack = [\"RNBQKBNR/pppppppp/8/8/8/8/8/8\"]"), "board.black");
    // Overlap: Black's king on e1, where White's stands.
    refused(&over("fide", "castling = false\n[board]\nblack = [\"8/8/8/8/8/8/8/4k3\"]"), "board.black");
    // No king, two kings.
    refused(&over("fide", "castling = false\n[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQ1BNR\"]"), "board.white");
    refused(&over("fide", "castling = false\n[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNK\"]"), "board.white");
    refused(
        &over(
            "fide",
            "[board]\nblack = [\"rnbqkbnr/pppppppp/8/8/8/8/8/8\"]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\"]",
        )
        .replace("rnbqkbnr/", "rnbq1bnr/"),
        "board.black",
    );
    // A pawn on its first rank, a pawn in its promotion zone.
    refused(&over("fide", "[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPP1/RNBQKBNP\"]"), "board.white");
    refused(
        &over(
            "fide",
            "[board]\nwhite = [\"P7/8/8/8/8/8/1PPPPPPP/RNBQKBNR\"]\nblack = [\"1nbqkbnr/pppppppp/8/8/8/8/8/8\"]",
        ),
        "board.white",
    );
    // A black pawn in its zone: rank 1 of White's home level.
    refused(
        &over(
            "fide",
            "[board]\nblack = [\"rnbqkbnr/ppppppp1/8/8/8/8/8/7p\"]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBN1\"]",
        ),
        "board.black",
    );
    // White, to move, could capture Black's king: a rook on e1 under the king on e8.
    let e = refused(
        &over("fide", "castling = false\n[board]\nwhite = [\"8/8/8/8/8/8/8/4RK2\"]\nblack = [\"4k3/8/8/8/8/8/8/8\"]"),
        "board.black",
    );
    assert!(e.contains("capture Black's king"), "{e}");
    // Castling on with a king off file e.
    refused(&over("fide", "[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBKQBNR\"]"), "castling");
}

#[test]
fn pieces_refusals() {
    refused(&over("traditional", "[pieces]\nqueen = {}"), "pieces.queen");
    for bad in ["\"fly\"", "0", "-2", "1.5", "true", "[1]"] {
        refused(&over("traditional", &format!("[pieces]\nqueen = {{ vertical = {bad} }}")), "pieces.queen.vertical");
    }
    // The dotted-table form names the same key.
    refused(&over("traditional", "[pieces.queen]\nvertical = \"fly\""), "pieces.queen.vertical");
}

#[test]
fn pawn_refusals() {
    refused(&over("fide", "[pawn]\nsteps = []"), "pawn.steps");
    refused(&over("fide", "[pawn]\ncaptures = [[0, 0, 0]]"), "pawn.captures");
    refused(&over("fide", "[pawn]\nsteps = [[0, 8, 0]]"), "pawn.steps");
    refused(&over("fide", "[pawn]\nsteps = [[-8, 1, 0]]"), "pawn.steps");
    refused(&over("fide", "[pawn]\nsteps = [[0, 1, 0], [0, 1, 0]]"), "pawn.steps");
    // An empty capture list is allowed (only a step vector is required).
    assert!(load(&over("fide", "[pawn]\ncaptures = []")).is_ok());
    // En passant needs the double step.
    refused(&over("fide", "[pawn]\ndouble-step = false"), "pawn.en-passant");
}

#[test]
fn draws_and_transfer_refusals() {
    refused(&over("fide", "[draws]\nrepetition = 1"), "draws.repetition");
    refused(&over("fide", "[draws]\nrepetition = -3"), "draws.repetition");
    refused(&over("fide", "[draws]\nfifty-moves = -1"), "draws.fifty-moves");
    assert!(load(&over("fide", "[draws]\nrepetition = 0\nfifty-moves = 0")).is_ok());
    refused(&over("air-attack", "[transfer]\nrange = 8"), "transfer.range");
    refused(&over("air-attack", "[transfer]\nrange = -1"), "transfer.range");
    // Transfers need two levels, and groups and pawn vectors that stay in the level.
    refused(&over("fide", "[transfer]\nenabled = true"), "transfer.enabled");
    let e = refused(&over("traditional", "[transfer]\nenabled = true"), "pieces.knight.vertical-knight");
    assert!(e.contains("leaves the level"), "{e}");
    refused(
        &over("air-attack", "[pieces]\nrook = { planar-orthogonal = \"slide\", vertical = 1 }"),
        "pieces.rook.vertical",
    );
    refused(&over("air-attack", "[pawn]\nsteps = [[0, 1, 0], [0, 1, 1]]"), "pawn.steps");
    refused(&over("air-attack", "[pawn]\ncaptures = [[1, 1, 0], [1, 1, -1]]"), "pawn.captures");
}

#[test]
fn malformed_toml_is_an_error() {
    for text in [
        "",
        "name = ",
        "[board",
        "name = \"x\"\n[board]\nlevels = 2\n[board]\nlevels = 3",
        "\u{0}",
        "name = \"x\" = 3",
        "[[pieces]]\nqueen = 1",
        "name = \"é\"",
        "castling = true\ncastling.x = 1",
        "[pieces]\nqueen = { planar-orthogonal = \"slide\"",
        "[board]\nlevels = 99999999999999999999",
        "[board]\nlevels = 2\nwhite-home = 9223372036854775807",
        "[pawn]\nsteps = [[9223372036854775807, 0, 0]]",
        "[pawn]\nsteps = [[-9223372036854775808, 0, 0]]",
    ] {
        assert!(load(text).is_err(), "{text:?}");
        assert!(text.is_empty() || load(&over("fide", text)).is_err(), "{text:?}");
    }
}

/// Mangled rule files (the built-ins with characters changed, dropped or inserted) are
/// accepted or refused, never a panic; those accepted give a start position that plays.
#[test]
fn no_panics_on_mangled_files() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let alphabet: Vec<char> = "[]{}=\",.0123456789-_ \nabcdefghijklmnopqrstuvwxyz/KQRBNPkqrbnp#é".chars().collect();
    let mut accepted = 0;
    for (_, text) in rule_file::BUILTINS {
        for _ in 0..150 {
            let mangled = rng.mangle(text, &alphabet);
            if let Ok(r) = load(&mangled) {
                accepted += 1;
                let start = r.start_lfen();
                let moves = r.legal_moves(&start).unwrap();
                if let Some(m) = moves.first() {
                    r.play(&start, m).unwrap();
                }
                r.outcome(&start).unwrap();
            }
        }
    }
    // Most mangled files are refused, some (changes inside comments) are not.
    assert!(accepted > 0);
}
