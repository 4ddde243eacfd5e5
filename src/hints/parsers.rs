//! The upstream parsers: one small function for each function the implementations read a hint
//! value with, named after it, saying what that function reads the value *as*. The checker
//! compares that reading with what the user evidently meant (docs/hints.md, "How a verdict is
//! made"); a reader of the vocabulary names its parser (`"parser": "opal_str_to_bool_5_0"`).
//!
//! Each function models the upstream code's rules, not its code: facts from the sources the
//! vocabulary cites per reader. C's `isspace` in the C locale is [`c_space`]; C's `strtol`
//! family is [`strtol`].

named_enum! {
    /// The upstream function a target reads a value with (src/hints/parsers.rs models each one,
    /// under the same name).
    Parser {
        /// The standard's "integer": a whole decimal number.
        Integer = "integer",
        Atoi = "atoi",
        Atol = "atol",
        /// `strtol(value, &end, 10)`.
        Strtol10 = "strtol10",
        /// `strtol(value, &end, 0)`: hex after `0x`, octal after `0`.
        Strtol0 = "strtol0",
        /// `strtoul(value, &end, 10)`.
        Strtoul = "strtoul",
        /// `strtoul(value, NULL, 10)` stored in 32 bits.
        Strtoul10 = "strtoul10",
        /// `sscanf(value, "%d", &n)`.
        SscanfD = "sscanf_d",
        /// A number with one of the reader's unit suffixes.
        SizeSuffix = "size_suffix",
        OpalStrToBool41 = "opal_str_to_bool_4_1",
        OpalStrToBool50 = "opal_str_to_bool_5_0",
        OpalInfoValueToBool = "opal_info_value_to_bool",
        McaBaseVarEnum = "mca_base_var_enum",
        McaBaseVarEnumFlag = "mca_base_var_enum_flag",
        MpichParseStringValue = "mpich_parse_string_value",
        RomioEnabled = "romio_enabled",
        RomioTrueFalse = "romio_true_false",
        Strcmp = "strcmp",
        Strcasecmp = "strcasecmp",
        StrncmpPrefix = "strncmp_prefix",
        StrncasecmpPrefix = "strncasecmp_prefix",
        MpirHwtopoGetObjByName = "mpir_hwtopo_get_obj_by_name",
        MemcmpList = "memcmp_list",
        StrtokList = "strtok_list",
        /// MPICH ch4's `which_accumulate_ops` list (`parse_info_accu_ops_str`).
        ParseInfoAccuOpsStr = "parse_info_accu_ops_str",
        XhcParseCsv = "xhc_parse_csv",
        XhcParseHierarchy = "xhc_parse_hierarchy",
        MpirGetSupportedMemoryKinds = "mpir_get_supported_memory_kinds",
        OmpiInfoMemkindExtract = "ompi_info_memkind_extract",
        MpieParseSoftspec = "mpie_parse_softspec",
        RomioCbConfigList = "romio_cb_config_list",
        HyduProcessMfileToken = "hydu_process_mfile_token",
        /// Version 1's `list`: comma-separated elements, trimmed.
        CommaList = "list",
        /// Any text, used as is.
        String = "string",
        /// Handed to the DAOS library, whose class names this vocabulary does not list.
        DaosOclassName2id = "daos_oclass_name2id",
        /// Handed to the PVFS library.
        PvfsDebugEventlogToMask = "pvfs_debug_eventlog_to_mask",
    }
}

impl Parser {
    /// Whether it reads a number (a range applies).
    pub fn numeric(self) -> bool {
        matches!(
            self,
            Parser::Integer
                | Parser::Atoi
                | Parser::Atol
                | Parser::Strtol10
                | Parser::Strtol0
                | Parser::Strtoul
                | Parser::Strtoul10
                | Parser::SscanfD
                | Parser::SizeSuffix
        )
    }

    /// Whether it reads a list of elements.
    pub fn list(self) -> bool {
        matches!(
            self,
            Parser::McaBaseVarEnumFlag
                | Parser::MemcmpList
                | Parser::StrtokList
                | Parser::ParseInfoAccuOpsStr
                | Parser::XhcParseCsv
                | Parser::XhcParseHierarchy
                | Parser::MpirGetSupportedMemoryKinds
                | Parser::OmpiInfoMemkindExtract
                | Parser::MpieParseSoftspec
                | Parser::RomioCbConfigList
                | Parser::CommaList
        )
    }
}

/// What a parser makes of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A number (wide enough for any `unsigned long`).
    Number(i128),
    Bool(bool),
    /// One of the words it compares with (the reader's `accepts`), by position.
    Word(usize),
    /// A value the code compares with before parsing (a reader's `sentinels`), by position.
    Sentinel(usize),
    /// Any text, used as is (or handed to a library this vocabulary cannot read for).
    Text,
    /// A list whose every element reads.
    List,
    /// A list element (bytes `start..end` of the value) its element parser does not read.
    BadElement {
        start: usize,
        end: usize,
    },
    /// A list element that must stand alone (`none`), beside others.
    NotAlone {
        start: usize,
        end: usize,
    },
    /// Not read: the reader's `invalid` says what follows (ignored, an error, zero, false...).
    Invalid,
}

/// What a parser is given besides the value: the words it compares with, and how a list's
/// elements are read.
#[derive(Debug, Clone, Copy)]
pub struct Grammar<'v> {
    pub parser: Parser,
    pub accepts: &'v [String],
    /// The caller uses a number only when the parser consumed the whole value.
    pub whole: bool,
    /// The key is a boolean (MPICH's `parse_string_value` reads numbers then as true or false).
    pub boolean: bool,
    /// A list's elements: their parser and words, and the words that must stand alone.
    pub elements: Option<(Parser, &'v [String], &'v [String])>,
}

/// Reads `value` with the grammar's parser.
pub fn read(grammar: &Grammar<'_>, value: &[u8]) -> Reading {
    let words = grammar.accepts;
    let number = |parsed: Strtol| {
        if parsed.digits == 0 || grammar.whole && parsed.end != value.len() {
            Reading::Invalid
        } else {
            Reading::Number(parsed.value)
        }
    };
    match grammar.parser {
        Parser::Integer => integer(value),
        Parser::Atoi => atoi(value),
        Parser::Atol => atol(value),
        Parser::Strtol10 => number(strtol(value, 10, false)),
        Parser::Strtol0 => number(strtol(value, 0, false)),
        Parser::Strtoul => number(strtoul(value)),
        Parser::Strtoul10 => match number(strtoul(value)) {
            Reading::Number(n) => Reading::Number(i128::from(n as u32)),
            other => other,
        },
        Parser::SscanfD => sscanf_d(value),
        Parser::SizeSuffix => size_suffix(value, words),
        Parser::OpalStrToBool41 => opal_str_to_bool_4_1(value),
        Parser::OpalStrToBool50 => opal_str_to_bool_5_0(value),
        Parser::OpalInfoValueToBool => opal_info_value_to_bool(value),
        Parser::McaBaseVarEnum => mca_base_var_enum(value, words),
        Parser::MpichParseStringValue => mpich_parse_string_value(value, grammar.boolean),
        Parser::RomioEnabled => romio_enabled(value, words),
        Parser::Strcmp => strcmp(value, words),
        Parser::RomioTrueFalse => romio_true_false(value),
        Parser::Strcasecmp => strcasecmp(value, words),
        Parser::StrncmpPrefix => strncmp_prefix(value, words, false),
        Parser::StrncasecmpPrefix => strncmp_prefix(value, words, true),
        Parser::MpirHwtopoGetObjByName => mpir_hwtopo_get_obj_by_name(value, words),
        Parser::McaBaseVarEnumFlag => mca_base_var_enum_flag(value, grammar),
        Parser::MemcmpList => memcmp_list(value, grammar),
        Parser::StrtokList => strtok_list(value, grammar),
        Parser::ParseInfoAccuOpsStr => parse_info_accu_ops_str(value, grammar),
        Parser::XhcParseCsv => xhc_parse_csv(value, grammar),
        Parser::XhcParseHierarchy => xhc_parse_hierarchy(value, grammar),
        Parser::MpirGetSupportedMemoryKinds | Parser::OmpiInfoMemkindExtract => {
            mpir_get_supported_memory_kinds(value, grammar)
        }
        Parser::MpieParseSoftspec => mpie_parse_softspec(value),
        Parser::RomioCbConfigList => romio_cb_config_list(value),
        Parser::HyduProcessMfileToken => hydu_process_mfile_token(value),
        Parser::CommaList => comma_list(value, grammar),
        Parser::String | Parser::DaosOclassName2id | Parser::PvfsDebugEventlogToMask => Reading::Text,
    }
}

/// C's `isspace` in the C locale.
pub fn c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// What C's `strtol`/`strtoul` read: the number, where the parse ended, the digits read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strtol {
    pub value: i128,
    /// The byte after the number (`*endptr`); 0 when there are no digits.
    pub end: usize,
    pub digits: usize,
    /// Out of range: the value is the bound (`ERANGE`).
    pub overflow: bool,
}

/// C's `strtol(value, &end, base)` on an LP64 system, for base 10 or 0 (0: `0x` is hex, a
/// leading 0 octal, else decimal): blanks (`isspace`), a sign, digits; saturated at the bounds
/// of `long` with `ERANGE`; no digits reads 0 with `end` at the start. `unsigned` is `strtoul`:
/// the bound is `ULONG_MAX`, and a minus sign negates modulo 2^64.
pub fn strtol(value: &[u8], base: u32, unsigned: bool) -> Strtol {
    let mut at = value.iter().take_while(|&&b| c_space(b)).count();
    let negative = value.get(at) == Some(&b'-');
    if matches!(value.get(at), Some(b'-' | b'+')) {
        at += 1;
    }
    let hex_prefix = matches!(value.get(at..at + 2), Some([b'0', b'x' | b'X']))
        && value.get(at + 2).is_some_and(u8::is_ascii_hexdigit);
    let radix = match base {
        0 if hex_prefix => 16,
        0 if value.get(at) == Some(&b'0') => 8,
        0 => 10,
        other => other,
    };
    if radix == 16 && hex_prefix {
        at += 2;
    }
    let digits = value[at.min(value.len())..].iter().take_while(|b| (**b as char).is_digit(radix)).count();
    if digits == 0 {
        return Strtol { value: 0, end: 0, digits: 0, overflow: false };
    }
    let (limit, overflow_value): (i128, i128) = match (unsigned, negative) {
        (true, _) => (i128::from(u64::MAX), i128::from(u64::MAX)),
        (false, false) => (i128::from(i64::MAX), i128::from(i64::MAX)),
        (false, true) => (i128::from(i64::MAX) + 1, i128::from(i64::MIN)),
    };
    let mut magnitude: i128 = 0;
    let mut overflow = false;
    for &digit in &value[at..at + digits] {
        magnitude = magnitude * i128::from(radix) + i128::from((digit as char).to_digit(radix).unwrap_or(0));
        if magnitude > limit {
            overflow = true;
            magnitude = limit;
        }
    }
    let number = match (overflow, unsigned, negative) {
        (true, _, _) => overflow_value,
        (false, true, true) => (i128::from(u64::MAX) + 1 - magnitude) % (i128::from(u64::MAX) + 1),
        (false, _, true) => -magnitude,
        (false, _, false) => magnitude,
    };
    Strtol { value: number, end: at + digits, digits, overflow }
}

/// `strtoul(value, &end, 10)`: see [`strtol`].
pub fn strtoul(value: &[u8]) -> Strtol {
    strtol(value, 10, true)
}

/// C's `atoi` as glibc defines it, `(int) strtol(value, NULL, 10)`: a leading integer, the rest
/// dropped in silence, no digits read as 0; a `long` past `int` keeps its low 32 bits.
pub fn atoi(value: &[u8]) -> Reading {
    Reading::Number(i128::from(strtol(value, 10, false).value as i64 as i32))
}

/// C's `atol`/`atoll`, `strtol(value, NULL, 10)`: as [`atoi`], in 64 bits (saturated).
pub fn atol(value: &[u8]) -> Reading {
    Reading::Number(strtol(value, 10, false).value)
}

/// `sscanf(value, "%d", &n)`: as [`atoi`], but with no digits nothing is assigned (the
/// caller's variable keeps its value: [`Reading::Invalid`]).
pub fn sscanf_d(value: &[u8]) -> Reading {
    let parsed = strtol(value, 10, false);
    if parsed.digits == 0 {
        Reading::Invalid
    } else {
        Reading::Number(i128::from(parsed.value as i64 as i32))
    }
}

/// The standard's "integer": a whole decimal number, blanks around it allowed (this library's
/// own typed reading, `MPIX_Info_get_int`).
pub fn integer(value: &[u8]) -> Reading {
    match crate::typed::parse_i64(value) {
        Ok(n) => Reading::Number(i128::from(n)),
        Err(_) => Reading::Invalid,
    }
}

/// A number with a unit suffix, as Open MPI's coll/xhc `conv_num_size` reads it: digits, then
/// optionally one of `suffixes` (compared exactly: the reader lists each case it takes), k, m,
/// g (and t, p, with `b` or `ib` after them, for a version-1 reader) multiplying by powers of
/// 1024; nothing else may follow.
pub fn size_suffix(value: &[u8], suffixes: &[String]) -> Reading {
    let parsed = strtol(value, 10, false);
    if parsed.digits == 0 {
        return Reading::Invalid;
    }
    let suffix = &value[parsed.end..];
    if suffix.is_empty() {
        return Reading::Number(parsed.value);
    }
    if !suffixes.iter().any(|s| s.as_bytes() == suffix) {
        return Reading::Invalid;
    }
    match suffix.to_ascii_lowercase().as_slice() {
        b"k" | b"kb" | b"kib" => Reading::Number(parsed.value << 10),
        b"m" | b"mb" | b"mib" => Reading::Number(parsed.value << 20),
        b"g" | b"gb" | b"gib" => Reading::Number(parsed.value << 30),
        b"t" | b"tb" | b"tib" => Reading::Number(parsed.value << 40),
        b"p" | b"pb" | b"pib" => Reading::Number(parsed.value << 50),
        _ => Reading::Invalid,
    }
}

/// The value without C blanks at its start, and at both ends.
fn skip_space(value: &[u8]) -> &[u8] {
    &value[value.iter().take_while(|&&b| c_space(b)).count()..]
}

fn trim_space(value: &[u8]) -> &[u8] {
    let value = skip_space(value);
    &value[..value.len() - value.iter().rev().take_while(|&&b| c_space(b)).count()]
}

/// Open MPI 4.1's `opal_str_to_bool` (opal/util/info.c): blanks trimmed at both ends; a leading
/// digit is read with `atoi`, non-zero true (`2` is true, `0x1` false); else the whole word
/// without case: `true`/`yes` true, `false`/`no` false; anything else false, without an error
/// (here [`Reading::Invalid`], which the reader's `invalid: "false"` completes).
pub fn opal_str_to_bool_4_1(value: &[u8]) -> Reading {
    let text = trim_space(value);
    if text.first().is_some_and(u8::is_ascii_digit) {
        return Reading::Bool(strtol(text, 10, false).value as i64 as i32 != 0);
    }
    let word = |w: &[u8]| text.eq_ignore_ascii_case(w);
    if word(b"true") || word(b"yes") {
        Reading::Bool(true)
    } else if word(b"false") || word(b"no") {
        Reading::Bool(false)
    } else {
        Reading::Invalid
    }
}

/// Open MPI 5.0's `opal_str_to_bool` (opal/class/opal_cstring.c): leading blanks skipped; a
/// leading digit is read with `atoi`, non-zero true; else a prefix without case of `yes` or
/// `true` (true: `TRUE`, `yesplease`, `truely`) or `no` or `false` (false: `nope`); anything
/// else is `OPAL_ERR_BAD_PARAM` with false, which its callers may ignore.
pub fn opal_str_to_bool_5_0(value: &[u8]) -> Reading {
    let text = skip_space(value);
    if text.first().is_some_and(u8::is_ascii_digit) {
        return Reading::Bool(strtol(text, 10, false).value as i64 as i32 != 0);
    }
    let prefix = |w: &[u8]| text.len() >= w.len() && text[..w.len()].eq_ignore_ascii_case(w);
    if prefix(b"yes") || prefix(b"true") {
        Reading::Bool(true)
    } else if prefix(b"no") || prefix(b"false") {
        Reading::Bool(false)
    } else {
        Reading::Invalid
    }
}

/// Open MPI 4.1's `opal_info_value_to_bool`: exactly `true` or `false`; else an integer that
/// fills the whole value (`strtol` base 10, blanks and a sign before it), non-zero true; else
/// `OPAL_ERR_BAD_PARAM`.
pub fn opal_info_value_to_bool(value: &[u8]) -> Reading {
    match value {
        b"true" => Reading::Bool(true),
        b"false" => Reading::Bool(false),
        _ => {
            let parsed = strtol(value, 10, false);
            if parsed.digits > 0 && parsed.end == value.len() {
                Reading::Bool(parsed.value != 0)
            } else {
                Reading::Invalid
            }
        }
    }
}

/// Open MPI's `mca_base_var_enum` (`enum_value_from_string`): an integer that fills the whole
/// value (`strtol` base 0: ` 1` and `0x1` are 1, `1 ` is not), or one of the enum's names
/// without case; else `OPAL_ERR_VALUE_OUT_OF_BOUNDS`.
pub fn mca_base_var_enum(value: &[u8], names: &[String]) -> Reading {
    let parsed = strtol(value, 0, false);
    if parsed.digits > 0 && parsed.end == value.len() {
        return Reading::Number(parsed.value);
    }
    strcasecmp(value, names)
}

/// MPICH's `parse_string_value` (src/mpi/comm/commutil.c): exactly `true` or `false`, else
/// `atoi`; for a boolean, non-zero is true.
pub fn mpich_parse_string_value(value: &[u8], boolean: bool) -> Reading {
    match (value, boolean) {
        (b"true", true) => Reading::Bool(true),
        (b"false", true) => Reading::Bool(false),
        (_, true) => Reading::Bool(strtol(value, 10, false).value as i64 as i32 != 0),
        (_, false) => atoi(value),
    }
}

/// ROMIO's `ADIOI_Info_check_and_install_true`: `true`/`TRUE` or `false`/`FALSE`, exactly.
pub fn romio_true_false(value: &[u8]) -> Reading {
    match value {
        b"true" | b"TRUE" => Reading::Bool(true),
        b"false" | b"FALSE" => Reading::Bool(false),
        _ => Reading::Invalid,
    }
}

/// ROMIO's `ADIOI_Info_check_and_install_enabled`: `strcmp` with enable/ENABLE,
/// disable/DISABLE, automatic/AUTOMATIC and, from MPICH 4.0.0, requested/REQUESTED (the
/// reader's `accepts`, as its release has them); any other spelling is ignored.
pub fn romio_enabled(value: &[u8], words: &[String]) -> Reading {
    strcmp(value, words)
}

/// `strcmp` with each of `words`: the first equal word.
pub fn strcmp(value: &[u8], words: &[String]) -> Reading {
    words.iter().position(|w| w.as_bytes() == value).map_or(Reading::Invalid, Reading::Word)
}

/// `strcasecmp` with each of `words`.
pub fn strcasecmp(value: &[u8], words: &[String]) -> Reading {
    words.iter().position(|w| w.as_bytes().eq_ignore_ascii_case(value)).map_or(Reading::Invalid, Reading::Word)
}

/// `strncmp(value, word, strlen(word))` (or `strncasecmp`) with each of `words`: a value that
/// starts with a word is that word (`rawx` is `raw`).
pub fn strncmp_prefix(value: &[u8], words: &[String], any_case: bool) -> Reading {
    let starts = |w: &String| {
        let w = w.as_bytes();
        value.len() >= w.len()
            && if any_case { value[..w.len()].eq_ignore_ascii_case(w) } else { &value[..w.len()] == w }
    };
    words.iter().position(starts).map_or(Reading::Invalid, Reading::Word)
}

/// MPICH's `MPIR_hwtopo_get_obj_by_name`: a hwloc bus id (`pci:...`), an OS device (`hfi`,
/// `ib`, `eth`, `en`, `gpu` and what follows), `bindset`, else one of the level names `words`
/// (the reader's `accepts`, its release's list), compared without case as from MPICH 4.0.0
/// (3.4.x compares them exactly); anything else is the whole machine, no split.
pub fn mpir_hwtopo_get_obj_by_name(value: &[u8], words: &[String]) -> Reading {
    let devices: [&[u8]; 6] = [b"pci:", b"hfi", b"ib", b"eth", b"en", b"gpu"];
    if value == b"bindset" || devices.iter().any(|d| value.starts_with(d)) {
        return Reading::Text;
    }
    strcasecmp(value, words)
}

/// The elements of a list: `strtok` on `,` (empty elements skipped, none trimmed), or every
/// piece (`keep_empty`, as `strsep` and coll/xhc's `parse_csv` do), with their byte ranges.
fn elements(value: &[u8], keep_empty: bool) -> impl Iterator<Item = (usize, &[u8])> + Clone {
    let mut at = 0;
    value
        .split(|&b| b == b',')
        .map(move |piece| {
            let start = at;
            at += piece.len() + 1;
            (start, piece)
        })
        .filter(move |(_, piece)| keep_empty || !piece.is_empty())
}

/// Whether an element parser compares its words without case.
fn any_case(parser: Parser) -> bool {
    matches!(parser, Parser::Strcasecmp | Parser::StrncasecmpPrefix | Parser::McaBaseVarEnum)
}

/// Reads each element with the grammar's element parser: the first that does not read, or a
/// word that must stand alone beside another element. Words that stand alone are compared as
/// the element parser compares its words (without case only for a parser that does); the
/// same word twice (`none,none`) is not another element. A value without elements (`,`)
/// reads as a list of none: the reader keeps what it had (its `otherwise` says).
fn read_elements<'v>(grammar: &Grammar<'_>, pieces: impl Iterator<Item = (usize, &'v [u8])> + Clone) -> Reading {
    let Some((parser, accepts, alone)) = grammar.elements else {
        return Reading::List;
    };
    let element = Grammar { parser, accepts, whole: true, boolean: false, elements: None };
    let same = |a: &[u8], b: &[u8]| if any_case(parser) { a.eq_ignore_ascii_case(b) } else { a == b };
    for (start, piece) in pieces.clone() {
        let end = start + piece.len();
        if let Some(word) = alone.iter().find(|w| same(w.as_bytes(), piece)) {
            if pieces.clone().any(|(_, other)| !same(word.as_bytes(), other)) {
                return Reading::NotAlone { start, end };
            }
            continue;
        }
        if read(&element, piece) == Reading::Invalid {
            return Reading::BadElement { start, end };
        }
    }
    Reading::List
}

/// A list split with `strtok_r(value, ",")` (MPICH's window and Hydra lists) or Open MPI's
/// `opal_argv_split`: empty elements skipped, blanks kept; each element read by the element
/// parser.
pub fn strtok_list(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    read_elements(grammar, elements(value, false))
}

/// MPICH's `accumulate_ordering` list (win_set_info): exactly a word that stands alone
/// (`none`, `strcmp`), or `strtok_r` on `,` with each element compared by
/// `memcmp(element, word, 3)`, a prefix (the element parser); `NONE` or `none,rar` is an
/// element it does not read.
pub fn memcmp_list(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    let Some((parser, accepts, alone)) = grammar.elements else { return Reading::List };
    if alone.iter().any(|w| w.as_bytes() == value) {
        return Reading::List;
    }
    let element = Grammar { parser, accepts, whole: true, boolean: false, elements: None };
    for (start, piece) in elements(value, false) {
        let end = start + piece.len();
        if alone.iter().any(|w| w.as_bytes() == piece) {
            return Reading::NotAlone { start, end };
        }
        if read(&element, piece) == Reading::Invalid {
            return Reading::BadElement { start, end };
        }
    }
    Reading::List
}

/// MPICH ch4's `parse_info_accu_ops_str` (`which_accumulate_ops`): a value starting with one
/// of the reader's `accepts` (`none`, `any_op`; `strncmp`) is that word, whatever follows
/// (`none,max` is none); otherwise `strtok_r` on `,`, each element `cswap` or
/// `compare_and_swap` or what starts with them, else an operation's short name exactly (the
/// element parser, `strcmp` in `MPIR_Op_builtin_search_by_shortname`).
pub fn parse_info_accu_ops_str(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    if let Reading::Word(n) = strncmp_prefix(value, grammar.accepts, false) {
        return Reading::Word(n);
    }
    let Some((parser, accepts, _)) = grammar.elements else { return Reading::List };
    let element = Grammar { parser, accepts, whole: true, boolean: false, elements: None };
    for (start, piece) in elements(value, false) {
        let swap = [&b"cswap"[..], b"compare_and_swap"].iter().any(|w| piece.starts_with(w));
        if !swap && read(&element, piece) == Reading::Invalid {
            return Reading::BadElement { start, end: start + piece.len() };
        }
    }
    Reading::List
}

/// Open MPI's `enum_value_from_string_flag`: `opal_argv_split` on `,` (an all-empty value is
/// an error), each element a flag name without case or a bit mask; `none` with another is an
/// error.
pub fn mca_base_var_enum_flag(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    if elements(value, false).next().is_none() {
        return Reading::Invalid;
    }
    strtok_list(value, grammar)
}

/// Open MPI coll/xhc's `parse_csv`: split on `,`, empty elements passed on to the element
/// parser (which does not read them).
pub fn xhc_parse_csv(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    read_elements(grammar, elements(value, true))
}

/// Open MPI coll/xhc's `mca_coll_xhc_component_parse_hierarchy`: locality names separated by
/// `,`, levels grouped in brackets; each name read by the element parser.
pub fn xhc_parse_hierarchy(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    let unbracketed = elements(value, true).map(|(start, piece)| {
        let lead = piece.iter().take_while(|&&b| b == b'[').count();
        let trail = piece[lead..].iter().rev().take_while(|&&b| b == b']').count();
        (start + lead, &piece[lead..piece.len() - trail])
    });
    read_elements(grammar, unbracketed)
}

/// MPICH's `MPIR_get_supported_memory_kinds`: `strsep` on `,` (empty elements kept), each
/// element `kind[:restrictor...]` whose kind is compared without case; an unsupported kind is
/// dropped without an error.
pub fn mpir_get_supported_memory_kinds(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    let Some((parser, accepts, _)) = grammar.elements else { return Reading::List };
    let element = Grammar { parser, accepts, whole: true, boolean: false, elements: None };
    for (start, piece) in elements(value, true) {
        let kind = piece.split(|&b| b == b':').next().unwrap_or_default();
        if read(&element, kind) == Reading::Invalid {
            return Reading::BadElement { start, end: start + piece.len() };
        }
    }
    Reading::List
}

/// MPICH gforker's `MPIE_ParseSoftspec`: elements `a`, `a:b` or `a:b:c` separated by `,`, each
/// character added as a digit without a check: an element of anything but digits and up to two
/// colons reads as nonsense.
pub fn mpie_parse_softspec(value: &[u8]) -> Reading {
    for (start, piece) in elements(value, true) {
        let fields = piece.split(|&b| b == b':');
        let good = piece.iter().filter(|&&b| b == b':').count() <= 2
            && fields.clone().all(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit));
        if !good {
            return Reading::BadElement { start, end: start + piece.len() };
        }
    }
    Reading::List
}

/// Hydra's `HYDU_process_mfile_token`: `host[:n[:...]]`, `n` read with `atoi`.
pub fn hydu_process_mfile_token(value: &[u8]) -> Reading {
    if value.is_empty() || value[0] == b':' {
        Reading::Invalid
    } else {
        Reading::Text
    }
}

/// ROMIO's `cb_config_list` grammar (`ADIOI_cb_config_list_parse`): elements `name`, `name:n`,
/// `name:*`, `*`, `*:n`, `*:*`, separated by `,` (one after the last is allowed); a token that
/// starts with `*` and goes on is an error, and so is an empty element or a missing count after
/// `:`; a count that is not a whole number is taken as 1. A name with a blank is a name no host
/// has.
pub fn romio_cb_config_list(value: &[u8]) -> Reading {
    let last = elements(value, true).count().saturating_sub(1);
    for (n, (start, piece)) in elements(value, true).enumerate() {
        if piece.is_empty() && n == last && n > 0 {
            continue;
        }
        let (name, count) = match piece.iter().position(|&b| b == b':') {
            Some(colon) => (&piece[..colon], Some(&piece[colon + 1..])),
            None => (piece, None),
        };
        let name_ok =
            !name.is_empty() && (name == b"*" || !name.starts_with(b"*")) && !name.iter().any(|&b| c_space(b));
        let count_ok = match count {
            None | Some(b"*") => true,
            Some(count) => {
                let parsed = strtol(count, 10, false);
                parsed.digits > 0 && parsed.end == count.len()
            }
        };
        if !(name_ok && count_ok) {
            return Reading::BadElement { start, end: start + piece.len() };
        }
    }
    Reading::List
}

/// The version-1 `list`: comma-separated elements, blanks around each trimmed, each one of the
/// element words if any are given.
pub fn comma_list(value: &[u8], grammar: &Grammar<'_>) -> Reading {
    for (start, piece) in elements(value, true) {
        let trimmed = trim_space(piece);
        let lead = piece.len() - skip_space(piece).len();
        let (start, end) = (start + lead, start + lead + trimmed.len());
        if trimmed.is_empty() && !trim_space(value).is_empty() {
            return Reading::BadElement { start, end };
        }
        let words = grammar.elements.map_or(grammar.accepts, |(_, accepts, _)| accepts);
        if !trimmed.is_empty() && !words.is_empty() && strcmp(trimmed, words) == Reading::Invalid {
            let any_case = grammar.parser == Parser::Strcasecmp;
            if !(any_case && strcasecmp(trimmed, words) != Reading::Invalid) {
                return Reading::BadElement { start, end };
            }
        }
    }
    Reading::List
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    const ORDERS: [&str; 4] = ["rar", "raw", "war", "waw"];

    /// MPICH's `accumulate_ordering`: a comma list of orders compared by prefix, or `none` alone.
    fn order_list<'v>(orders: &'v [String], none: &'v [String]) -> Grammar<'v> {
        Grammar {
            parser: Parser::MemcmpList,
            accepts: &[],
            whole: false,
            boolean: false,
            elements: Some((Parser::StrncmpPrefix, orders, none)),
        }
    }

    #[test]
    fn strtol_in_base_10_and_0_with_its_errno_rules() {
        let r = |v: &str, base| strtol(v.as_bytes(), base, false);
        assert_eq!(r("  -42xyz", 10), Strtol { value: -42, end: 5, digits: 2, overflow: false });
        assert_eq!(r("abc", 10), Strtol { value: 0, end: 0, digits: 0, overflow: false });
        assert_eq!(r("+", 10).digits, 0);
        assert_eq!(r("0x1A", 0).value, 26);
        assert_eq!(r("0x1A", 10), Strtol { value: 0, end: 1, digits: 1, overflow: false });
        assert_eq!(r("0xg", 0), Strtol { value: 0, end: 1, digits: 1, overflow: false }, "0x without hex: the 0");
        assert_eq!(r("017", 0).value, 15);
        assert_eq!(r("089", 0), Strtol { value: 0, end: 1, digits: 1, overflow: false }, "octal stops at 8");
        assert_eq!(
            r("99999999999999999999", 10),
            Strtol { value: i64::MAX.into(), end: 20, digits: 20, overflow: true }
        );
        assert_eq!(r("-99999999999999999999", 10).value, i64::MIN.into());
        assert_eq!(r("\x0b\x0c\r\n 7", 10).value, 7, "every C blank");
        assert_eq!(strtoul(b"-1").value, i128::from(u64::MAX), "strtoul wraps a negative");
        assert_eq!(strtoul(b"99999999999999999999").value, i128::from(u64::MAX));
    }

    #[test]
    fn atoi_and_friends() {
        assert_eq!(atoi(b"16M"), Reading::Number(16));
        assert_eq!(atoi(b"abc"), Reading::Number(0));
        assert_eq!(atoi(b" -5"), Reading::Number(-5));
        assert_eq!(atoi(b"4294967297"), Reading::Number(1), "glibc: the long's low 32 bits");
        assert_eq!(atol(b"4294967297"), Reading::Number(4294967297));
        assert_eq!(sscanf_d(b"2abc"), Reading::Number(2));
        assert_eq!(sscanf_d(b"abc"), Reading::Invalid, "no assignment");
        assert_eq!(integer(b" 12 "), Reading::Number(12));
        assert_eq!(integer(b"12k"), Reading::Invalid);
    }

    #[test]
    fn whole_values_and_unsigned_32_bits() {
        let g = |parser, whole| Grammar { parser, accepts: &[], whole, boolean: false, elements: None };
        assert_eq!(read(&g(Parser::Strtol10, false), b"1m"), Reading::Number(1));
        assert_eq!(read(&g(Parser::Strtol10, true), b"1m"), Reading::Invalid);
        assert_eq!(read(&g(Parser::Strtol10, true), b"1 "), Reading::Invalid, "a blank after is not the end");
        assert_eq!(read(&g(Parser::Strtol0, true), b"0x10"), Reading::Number(16));
        assert_eq!(read(&g(Parser::Strtoul10, false), b"-1"), Reading::Number(u32::MAX.into()));
    }

    #[test]
    fn size_suffixes_are_the_readers_own() {
        let suffixes = words(&["k", "K", "m", "M", "g", "G"]);
        assert_eq!(size_suffix(b"4k", &suffixes), Reading::Number(4096));
        assert_eq!(size_suffix(b"2M", &suffixes), Reading::Number(2 << 20));
        assert_eq!(size_suffix(b"7", &suffixes), Reading::Number(7));
        assert_eq!(size_suffix(b"4kb", &suffixes), Reading::Invalid);
        assert_eq!(size_suffix(b"k", &suffixes), Reading::Invalid);
    }

    #[test]
    fn open_mpi_booleans_4_1_and_5_0() {
        for (value, v41, v50) in [
            ("true", Reading::Bool(true), Reading::Bool(true)),
            (" TRUE ", Reading::Bool(true), Reading::Bool(true)),
            ("yes", Reading::Bool(true), Reading::Bool(true)),
            ("2", Reading::Bool(true), Reading::Bool(true)),
            ("10", Reading::Bool(true), Reading::Bool(true)),
            ("0x1", Reading::Bool(false), Reading::Bool(false)),
            ("truely", Reading::Invalid, Reading::Bool(true)),
            ("yesplease", Reading::Invalid, Reading::Bool(true)),
            ("nope", Reading::Invalid, Reading::Bool(false)),
            ("maybe", Reading::Invalid, Reading::Invalid),
            ("-1", Reading::Invalid, Reading::Invalid),
            ("", Reading::Invalid, Reading::Invalid),
        ] {
            assert_eq!(opal_str_to_bool_4_1(value.as_bytes()), v41, "4.1 {value:?}");
            assert_eq!(opal_str_to_bool_5_0(value.as_bytes()), v50, "5.0 {value:?}");
        }
        assert_eq!(opal_info_value_to_bool(b"TRUE"), Reading::Invalid);
        assert_eq!(opal_info_value_to_bool(b" 3"), Reading::Bool(true));
        assert_eq!(opal_info_value_to_bool(b"1 "), Reading::Invalid);
    }

    #[test]
    fn enums_by_name_or_integer() {
        let names = words(&["none", "sum", "same_op"]);
        assert_eq!(mca_base_var_enum(b"SUM", &names), Reading::Word(1));
        assert_eq!(mca_base_var_enum(b"0x1", &names), Reading::Number(1));
        assert_eq!(mca_base_var_enum(b"1 ", &names), Reading::Invalid);
        assert_eq!(mca_base_var_enum(b"max", &names), Reading::Invalid);
    }

    #[test]
    fn mpich_and_romio_words() {
        assert_eq!(mpich_parse_string_value(b"true", true), Reading::Bool(true));
        assert_eq!(mpich_parse_string_value(b"TRUE", true), Reading::Bool(false), "atoi(\"TRUE\") is 0");
        assert_eq!(mpich_parse_string_value(b"2", true), Reading::Bool(true));
        assert_eq!(mpich_parse_string_value(b"16k", false), Reading::Number(16));
        let enabled = words(&["enable", "ENABLE", "disable", "DISABLE", "automatic", "AUTOMATIC"]);
        assert_eq!(strcmp(b"ENABLE", &enabled), Reading::Word(1));
        assert_eq!(strcmp(b"Enable", &enabled), Reading::Invalid);
        assert_eq!(strcmp(b"enable ", &enabled), Reading::Invalid);
        assert_eq!(romio_true_false(b"TRUE"), Reading::Bool(true));
        assert_eq!(romio_true_false(b"True"), Reading::Invalid);
        assert_eq!(strcasecmp(b"Enable", &enabled), Reading::Word(0));
    }

    #[test]
    fn prefixes() {
        let orders = words(&ORDERS);
        assert_eq!(strncmp_prefix(b"rawx", &orders, false), Reading::Word(1));
        assert_eq!(strncmp_prefix(b"RAW", &orders, false), Reading::Invalid);
        assert_eq!(strncmp_prefix(b"RAW", &orders, true), Reading::Word(1));
        assert_eq!(strncmp_prefix(b"ra", &orders, false), Reading::Invalid);
    }

    #[test]
    fn lists_with_typed_elements() {
        let (orders, none) = (words(&ORDERS), words(&["none"]));
        let g = order_list(&orders, &none);
        assert_eq!(strtok_list(b"rar,raw", &g), Reading::List);
        assert_eq!(strtok_list(b"rar,,raw,", &g), Reading::List, "strtok skips empty elements");
        assert_eq!(strtok_list(b"rar, raw", &g), Reading::BadElement { start: 4, end: 8 }, "no trimming");
        assert_eq!(strtok_list(b"none", &g), Reading::List);
        assert_eq!(strtok_list(b"none,rar", &g), Reading::NotAlone { start: 0, end: 4 });
        assert_eq!(
            xhc_parse_csv(b"rar,,raw", &g),
            Reading::BadElement { start: 4, end: 4 },
            "parse_csv passes empties"
        );
        let flags = Grammar {
            parser: Parser::McaBaseVarEnumFlag,
            elements: Some((Parser::McaBaseVarEnum, &orders, &none)),
            ..g
        };
        assert_eq!(mca_base_var_enum_flag(b",", &flags), Reading::Invalid);
        assert_eq!(mca_base_var_enum_flag(b"RAR,6", &flags), Reading::List);
        // Open MPI compares flag names without case, and none twice is one flag.
        assert_eq!(mca_base_var_enum_flag(b"NONE", &flags), Reading::List);
        assert_eq!(mca_base_var_enum_flag(b"none,none", &flags), Reading::List);
        assert_eq!(mca_base_var_enum_flag(b"None,rar", &flags), Reading::NotAlone { start: 0, end: 4 });
        // A word that stands alone is compared as the element parser compares: exactly here.
        assert_eq!(strtok_list(b"NONE", &g), Reading::BadElement { start: 0, end: 4 });
        assert_eq!(strtok_list(b",", &g), Reading::List, "no element: the reader keeps its setting");
    }

    #[test]
    fn mpich_accumulate_ordering_takes_none_exactly() {
        let (orders, none) = (words(&ORDERS), words(&["none"]));
        let g = order_list(&orders, &none);
        assert_eq!(memcmp_list(b"none", &g), Reading::List);
        assert_eq!(memcmp_list(b"rawx,war", &g), Reading::List, "memcmp of 3 bytes: a prefix");
        assert_eq!(memcmp_list(b"NONE", &g), Reading::BadElement { start: 0, end: 4 });
        assert_eq!(memcmp_list(b"none,none", &g), Reading::NotAlone { start: 0, end: 4 });
        assert_eq!(memcmp_list(b"rar,none", &g), Reading::NotAlone { start: 4, end: 8 });
        assert_eq!(memcmp_list(b",", &g), Reading::List, "no element: the previous setting stays");
    }

    #[test]
    fn mpich_accumulate_ops_by_prefix_then_by_name() {
        let special = words(&["none", "any_op"]);
        let ops = words(&["max", "min", "sum", "cswap", "compare_and_swap"]);
        let g = Grammar {
            parser: Parser::ParseInfoAccuOpsStr,
            accepts: &special,
            whole: false,
            boolean: false,
            elements: Some((Parser::Strcmp, &ops, &[])),
        };
        assert_eq!(parse_info_accu_ops_str(b"none", &g), Reading::Word(0));
        assert_eq!(parse_info_accu_ops_str(b"none,max", &g), Reading::Word(0), "what follows none is dropped");
        assert_eq!(parse_info_accu_ops_str(b"any_opx", &g), Reading::Word(1));
        assert_eq!(parse_info_accu_ops_str(b"max,sum", &g), Reading::List);
        assert_eq!(parse_info_accu_ops_str(b"cswapx,compare_and_swap2", &g), Reading::List, "cswap by prefix");
        assert_eq!(parse_info_accu_ops_str(b"max,,sum", &g), Reading::List);
        assert_eq!(parse_info_accu_ops_str(b"max,SUM", &g), Reading::BadElement { start: 4, end: 7 });
        assert_eq!(parse_info_accu_ops_str(b"Any_op", &g), Reading::BadElement { start: 0, end: 6 });
        assert_eq!(parse_info_accu_ops_str(b"maxx", &g), Reading::BadElement { start: 0, end: 4 });
    }

    #[test]
    fn cb_config_list_grammar() {
        for good in ["*:1", "*:*", "node01:2,*:1", "ccn*", "*", "host", "*:-1", "*:1,"] {
            assert_eq!(romio_cb_config_list(good.as_bytes()), Reading::List, "{good}");
        }
        for bad in ["*x:1", "*:abc", ":2", "host:", "a,,b", ",a", "host 1:2"] {
            assert!(matches!(romio_cb_config_list(bad.as_bytes()), Reading::BadElement { .. }), "{bad}");
        }
    }

    #[test]
    fn softspecs_and_memory_kinds() {
        assert_eq!(mpie_parse_softspec(b"1:4,8"), Reading::List);
        assert_eq!(mpie_parse_softspec(b"1:4:2:1"), Reading::BadElement { start: 0, end: 7 });
        assert_eq!(mpie_parse_softspec(b"a"), Reading::BadElement { start: 0, end: 1 });
        let kinds = words(&["mpi", "system", "cuda"]);
        let g = Grammar {
            parser: Parser::MpirGetSupportedMemoryKinds,
            accepts: &[],
            whole: false,
            boolean: false,
            elements: Some((Parser::Strcasecmp, &kinds, &[])),
        };
        assert_eq!(mpir_get_supported_memory_kinds(b"MPI,cuda:device", &g), Reading::List);
        assert_eq!(mpir_get_supported_memory_kinds(b"mpi,rocm", &g), Reading::BadElement { start: 4, end: 8 });
    }
}
