//! The rule file as written: every key optional, with its place in the text for errors.

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// A rule file's top level.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct File {
    pub name: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub base: Option<Spanned<String>>,
    pub castling: Option<Spanned<bool>>,
    pub board: Option<BoardFile>,
    pub pieces: Option<PiecesFile>,
    pub pawn: Option<PawnFile>,
    pub draws: Option<DrawsFile>,
    pub transfer: Option<TransferFile>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct BoardFile {
    pub levels: Option<Spanned<i64>>,
    pub white_home: Option<Spanned<i64>>,
    pub black_home: Option<Spanned<i64>>,
    pub white: Option<Spanned<Vec<String>>>,
    pub black: Option<Spanned<Army>>,
}

/// Black's army: placements, or White's mirrored.
#[derive(Debug, Clone)]
pub(crate) enum Army {
    Mirror,
    Levels(Vec<String>),
}

impl<'de> Deserialize<'de> for Army {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Army, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Army;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"mirror\" or an array of placements, one per level")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Army, E> {
                if s == "mirror" {
                    Ok(Army::Mirror)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(s), &self))
                }
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Army, A::Error> {
                let mut v = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    v.push(s);
                }
                Ok(Army::Levels(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A movement as written: group name to range.
pub(crate) type MovementFile = Spanned<BTreeMap<String, RangeFile>>;

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PiecesFile {
    pub king: Option<MovementFile>,
    pub queen: Option<MovementFile>,
    pub rook: Option<MovementFile>,
    pub bishop: Option<MovementFile>,
    pub knight: Option<MovementFile>,
}

/// A range as written: `"slide"`, `"step"` or a number.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RangeFile {
    Slide,
    Step,
    Count(i64),
}

impl<'de> Deserialize<'de> for RangeFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RangeFile, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RangeFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"slide\", \"step\" or a positive integer")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RangeFile, E> {
                match s {
                    "slide" => Ok(RangeFile::Slide),
                    "step" => Ok(RangeFile::Step),
                    _ => Err(E::invalid_value(de::Unexpected::Str(s), &self)),
                }
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<RangeFile, E> {
                Ok(RangeFile::Count(n))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<RangeFile, E> {
                Ok(RangeFile::Count(i64::try_from(n).unwrap_or(i64::MAX)))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct PawnFile {
    pub steps: Option<Spanned<Vec<[i64; 3]>>>,
    pub captures: Option<Spanned<Vec<[i64; 3]>>>,
    pub double_step: Option<Spanned<bool>>,
    pub en_passant: Option<Spanned<bool>>,
    pub promotion_zone: Option<Spanned<ZoneFile>>,
    pub promotion: Option<Spanned<PromotionFile>>,
}

#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ZoneFile {
    EnemyHome,
    EveryLevel,
}

#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum PromotionFile {
    Any,
    Lost,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct DrawsFile {
    pub fifty_moves: Option<Spanned<i64>>,
    pub repetition: Option<Spanned<i64>>,
    pub stalemate: Option<Spanned<StalemateFile>>,
    pub insufficient_material: Option<Spanned<bool>>,
}

#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum StalemateFile {
    Draw,
    Win,
    Loss,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct TransferFile {
    pub enabled: Option<Spanned<bool>>,
    pub range: Option<Spanned<i64>>,
    pub capture_ends_move: Option<Spanned<bool>>,
    pub knight_over_occupied: Option<Spanned<bool>>,
}
