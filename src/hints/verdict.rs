//! One reader's verdict on one value: what its parser reads the value *as*
//! ([`parsers::read`]), compared with what the user evidently meant ([`meant`]).
//!
//! - read otherwise than meant, or not at all: an error (`bad-value`, `unit-suffix`), or
//!   outside the reader's range (`out-of-range`);
//! - read as meant, in a spelling of the reader's own that is not the hint's usual one (`yes`
//!   for true, `truely` for Open MPI 5.0, `disabled` read as `disable`): a note
//!   (`unusual-spelling`);
//! - read as meant: nothing.

use std::fmt::Write as _;

use super::finding::{Code, Severity};
use super::parsers::{self, c_space, Parser, Reading};
use super::text::{distance, try_format, try_string, MessageBuf, Quoted};
use super::vocab::{Entry, Invalid, Kind, Reader};
use crate::error::Error;

/// What one reader makes of a value, when that is not simply the value as meant.
pub(crate) struct Verdict {
    pub code: Code,
    pub severity: Severity,
    pub outcome: MessageBuf,
    pub suggestion: Option<String>,
}

/// What the user evidently meant by a value, from the hint's type alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Meant<'v> {
    /// A number; the unit suffix it was written with, if any (`16M`: 16 MiB).
    Number(i128, Option<&'v [u8]>),
    Bool(bool),
    /// One of the hint's words (its values, or the reader's words), as the vocabulary spells it.
    Word(&'v str),
    /// One of the reader's sentinels, by position, in any case.
    Sentinel(usize),
    /// Nothing that can be told (a list, a name, a word of no known meaning).
    Unknown,
}

const TRUE: [&str; 6] = ["true", "yes", "on", "1", "enable", "enabled"];
const FALSE: [&str; 6] = ["false", "no", "off", "0", "disable", "disabled"];

/// What `value` evidently means as a value of `entry` read by `reader`.
fn meant<'v>(entry: &'v Entry, reader: &'v Reader, value: &'v [u8]) -> Meant<'v> {
    let text = trim(value);
    let is = |word: &str| text.eq_ignore_ascii_case(word.as_bytes());
    if let Some(n) = reader.sentinels.iter().position(|s| is(&s.value)) {
        return Meant::Sentinel(n);
    }
    match entry.kind {
        Kind::Bool if TRUE.iter().any(|w| is(w)) => Meant::Bool(true),
        Kind::Bool if FALSE.iter().any(|w| is(w)) => Meant::Bool(false),
        Kind::Bool => match number(text) {
            Some((n, None)) => Meant::Bool(n != 0),
            _ => Meant::Unknown,
        },
        Kind::Int | Kind::Size => match number(text) {
            Some((n, suffix)) => Meant::Number(n, suffix),
            None => Meant::Unknown,
        },
        Kind::Enum => {
            let words = entry.values.iter().chain(&reader.accepts);
            words.clone().find(|w| is(w)).map_or(Meant::Unknown, |w| Meant::Word(w))
        }
        Kind::List | Kind::NodeList | Kind::Tuple | Kind::Text => Meant::Unknown,
    }
}

/// A number as people write one: decimal with a sign, `0x` hex, or decimal with a unit suffix
/// (k, m, g, t, p with an optional `b` or `ib`, any case, powers of 1024).
fn number(text: &[u8]) -> Option<(i128, Option<&[u8]>)> {
    let unsigned = text.strip_prefix(b"-").or_else(|| text.strip_prefix(b"+")).unwrap_or(text);
    let hex = unsigned.len() > 2 && unsigned[..2].eq_ignore_ascii_case(b"0x");
    let parsed = parsers::strtol(text, if hex { 0 } else { 10 }, false);
    if parsed.digits == 0 || parsed.overflow {
        return None;
    }
    let rest = trim(&text[parsed.end..]);
    if rest.is_empty() {
        return Some((parsed.value, None));
    }
    if hex {
        return None;
    }
    let mut lower = [0u8; 3];
    let lower = lower.get_mut(..rest.len())?;
    lower.copy_from_slice(rest);
    lower.make_ascii_lowercase();
    let unit = match lower {
        [u] | [u, b'b'] | [u, b'i', b'b'] => *u,
        _ => return None,
    };
    let power = b"kmgtp".iter().position(|&p| p == unit)? as u32 + 1;
    Some((parsed.value.checked_mul(1i128 << (10 * power))?, Some(rest)))
}

/// The value without C blanks around it.
fn trim(value: &[u8]) -> &[u8] {
    let start = value.iter().take_while(|&&b| c_space(b)).count();
    let end = value.len() - value[start..].iter().rev().take_while(|&&b| c_space(b)).count();
    &value[start..end]
}

/// What `reader` makes of `value` for `entry`, when that is not the value as meant.
pub(crate) fn judge(entry: &Entry, reader: &Reader, value: &[u8]) -> Result<Option<Verdict>, Error> {
    let words = &reader.accepts;
    // Sentinels first, then the parser; a boolean's words as true or false.
    let reading = reader.parse(entry, value);
    // A value it cannot read, which it then takes as 0, false or true.
    let fallback = match (reading, reader.invalid) {
        (Reading::Invalid, Some(Invalid::Zero | Invalid::False | Invalid::True)) => Some(reader.read(entry, value)),
        _ => None,
    };
    let meant = meant(entry, reader, value);
    // A value it cannot read leaves its default: that is what was meant if the value means the
    // default ("anything but inherit is auto" meets "automatic").
    if reading == Reading::Invalid && reader.invalid == Some(Invalid::Default) {
        if let Some(default) = &reader.default {
            let same = match (meant, self::meant(entry, reader, default.as_bytes())) {
                (Meant::Bool(a), Meant::Bool(b)) => a == b,
                (Meant::Number(a, _), Meant::Number(b, _)) => a == b,
                _ => same_word(trim(value), default.as_bytes()),
            };
            if same && !reader.inverted {
                return Ok(None);
            }
        }
    }
    let shown = Quoted(value);
    let mut outcome = MessageBuf::new();
    let verdict = |code, severity, outcome, suggestion| Ok(Some(Verdict { code, severity, outcome, suggestion }));
    let error = |code, outcome, suggestion| verdict(code, Severity::Error, outcome, suggestion);
    let otherwise = |outcome: &mut MessageBuf| {
        if let Some(otherwise) = &reader.otherwise {
            let _ = write!(outcome, "; otherwise it is {otherwise}");
        }
    };

    if let Meant::Sentinel(n) = meant {
        let sentinel = &reader.sentinels[n];
        let as_meant = match fallback.unwrap_or(reading) {
            Reading::Sentinel(m) => m == n,
            Reading::Number(read) => number(sentinel.value.as_bytes()).is_some_and(|(s, _)| s == read),
            _ => false,
        };
        if as_meant {
            return Ok(None);
        }
        match reading {
            Reading::Number(n) => {
                let _ = write!(outcome, "'{shown}' is read as {n}, not as '{}' ({})", sentinel.value, sentinel.means);
            }
            _ => {
                let _ = write!(outcome, "'{shown}' is not read as '{}' ({})", sentinel.value, sentinel.means);
                otherwise(&mut outcome);
            }
        }
        let _ = write!(outcome, "; it takes '{}' spelled exactly", sentinel.value);
        return error(Code::BadValue, outcome, Some(try_string(&sentinel.value)?));
    }

    match (fallback.unwrap_or(reading), meant) {
        (Reading::Sentinel(_) | Reading::Text | Reading::List, _) => Ok(None),
        (Reading::Number(read), Meant::Number(number, _)) if fallback.is_none() && read == number => {
            let exempt =
                reader.sentinels.iter().any(|s| self::number(s.value.as_bytes()).is_some_and(|(s, _)| s == read));
            if exempt || !out_of_range(reader, read, &mut outcome) {
                return Ok(None);
            }
            error(Code::OutOfRange, outcome, None)
        }
        (Reading::Number(read), Meant::Number(number, Some(suffix))) => {
            let plain = try_format(format_args!("{number}"))?;
            match fallback {
                None => {
                    let _ = write!(outcome, "'{shown}' is read as {read}: the '{}' is dropped", Quoted(suffix));
                }
                Some(_) => {
                    not_read(&mut outcome, shown, reader);
                    otherwise(&mut outcome);
                }
            }
            let _ = write!(outcome, "; {} is {plain}", Quoted(trim(value)));
            error(Code::UnitSuffix, outcome, Some(plain))
        }
        (Reading::Number(read), _) if fallback.is_none() && number(trim(value)) == Some((read, None)) => {
            // A number read as written, for a key whose values are words of digits.
            if out_of_range(reader, read, &mut outcome) {
                return error(Code::OutOfRange, outcome, None);
            }
            Ok(None)
        }
        (Reading::Number(read), Meant::Number(number, None)) if fallback.is_none() && outside(reader, number) => {
            // A number past what the parser keeps (atoi's 32 bits).
            out_of_range(reader, number, &mut outcome);
            let _ = write!(outcome, "; it is read as {read}");
            error(Code::OutOfRange, outcome, None)
        }
        (Reading::Number(read), _) => {
            match fallback {
                None if parsers::strtol(value, 10, false).digits > 0 => {
                    let rest = trim(&value[parsers::strtol(value, 10, false).end..]);
                    let _ = write!(outcome, "'{shown}' is read as {read}: '{}' is dropped", Quoted(rest));
                    if outside(reader, read) {
                        let _ = write!(outcome, ", and {read} is out of its range");
                    }
                    return error(Code::BadValue, outcome, Some(try_format(format_args!("{read}"))?));
                }
                None => {
                    let _ = write!(outcome, "'{shown}' is read as {read}: it takes {}", Takes(reader));
                }
                Some(_) => {
                    not_read(&mut outcome, shown, reader);
                    otherwise(&mut outcome);
                }
            }
            error(Code::BadValue, outcome, None)
        }
        (Reading::Bool(read), meant) => {
            let effect = read != reader.inverted;
            let spelled = |b: bool| spelling(reader, b);
            match (meant, fallback) {
                (Meant::Bool(wanted), _) if effect != wanted => {
                    if reader.inverted {
                        let _ = write!(
                            outcome,
                            "'{shown}' turns it {}, the opposite of what it says: this reader takes the hint inverted",
                            if effect { "on" } else { "off" }
                        );
                    } else if fallback.is_some() {
                        not_read(&mut outcome, shown, reader);
                        otherwise(&mut outcome);
                    } else {
                        let _ = write!(outcome, "'{shown}' is read as {read}");
                    }
                    let suggestion = if reader.inverted { None } else { spelled(wanted) };
                    error(Code::BadValue, outcome, suggestion.map(try_string).transpose()?)
                }
                (Meant::Bool(_), Some(_)) if value == b"true" || value == b"false" => Ok(None),
                (Meant::Bool(wanted), Some(_)) => {
                    let _ = write!(
                        outcome,
                        "'{shown}' is not a spelling it reads, and is {wanted} only because anything it cannot read is"
                    );
                    verdict(
                        Code::UnusualSpelling,
                        Severity::Note,
                        outcome,
                        spelled(wanted).map(try_string).transpose()?,
                    )
                }
                (Meant::Bool(wanted), None) => {
                    // The standard's spelling, or a word the reader itself compares with.
                    if value == b"true" || value == b"false" || words.iter().any(|w| w.as_bytes() == value) {
                        return Ok(None);
                    }
                    let _ =
                        write!(outcome, "'{shown}' is read as {read}, a spelling other implementations may not take");
                    verdict(
                        Code::UnusualSpelling,
                        Severity::Note,
                        outcome,
                        Some(try_string(if wanted { "true" } else { "false" })?),
                    )
                }
                (_, Some(_)) => {
                    not_read(&mut outcome, shown, reader);
                    otherwise(&mut outcome);
                    error(Code::BadValue, outcome, None)
                }
                (_, None) => {
                    let _ = write!(outcome, "'{shown}' is read as {read}");
                    verdict(
                        Code::UnusualSpelling,
                        Severity::Note,
                        outcome,
                        Some(try_string(if read { "true" } else { "false" })?),
                    )
                }
            }
        }
        (Reading::Word(n), meant) => {
            // A word that has the effect of another value of the key reads as that value.
            let effect = reader.effect_of(&words[n]);
            if effect != words[n] && !same_word(trim(value), effect.as_bytes()) {
                let _ = write!(outcome, "'{shown}' has the effect of '{}'", Quoted(effect.as_bytes()));
                return error(Code::BadValue, outcome, None);
            }
            // A reader that compares without case reads any case as its word.
            let word = &words[n];
            if word.as_bytes().eq_ignore_ascii_case(value) {
                return Ok(None);
            }
            match meant {
                Meant::Word(wanted) if !wanted.eq_ignore_ascii_case(word) => {
                    let _ = write!(outcome, "'{shown}' is read as '{}'", Quoted(word.as_bytes()));
                    error(Code::BadValue, outcome, Some(try_string(wanted)?))
                }
                _ => {
                    let _ = write!(outcome, "'{shown}' is read as '{}'", Quoted(word.as_bytes()));
                    verdict(Code::UnusualSpelling, Severity::Note, outcome, Some(try_string(word)?))
                }
            }
        }
        (Reading::BadElement { start, end }, _) => {
            let element = &value[start..end];
            let _ = write!(
                outcome,
                "the element '{}' of '{shown}' is not read: it takes {}",
                Quoted(element),
                Takes(reader)
            );
            otherwise(&mut outcome);
            let accepts = reader.elements.as_ref().map_or(words, |e| &e.accepts);
            let suggestion = nearest_word(accepts, trim(element));
            error(Code::BadValue, outcome, suggestion.map(|w| try_string(w)).transpose()?)
        }
        (Reading::NotAlone { start, end }, _) => {
            let _ = write!(
                outcome,
                "'{}' stands alone, and '{shown}' gives it with other elements",
                Quoted(&value[start..end])
            );
            otherwise(&mut outcome);
            error(Code::BadValue, outcome, None)
        }
        (Reading::Invalid, meant) => {
            let text = trim(value);
            let suggestion = match meant {
                Meant::Bool(wanted) => spelling(reader, wanted).map(try_string).transpose()?,
                Meant::Number(number, Some(_)) => Some(try_format(format_args!("{number}"))?),
                _ => None,
            };
            let near = if words.iter().any(|w| w.as_bytes() == text) {
                let _ = write!(outcome, "'{shown}' is not taken with blanks around it");
                words.iter().find(|w| w.as_bytes() == text)
            } else {
                not_read(&mut outcome, shown, reader);
                nearest_word(words, text)
            };
            if let (Meant::Number(number, Some(suffix)), false) = (meant, reader.parser == Parser::SizeSuffix) {
                let _ = write!(outcome, ", without the '{}'", Quoted(suffix));
                otherwise(&mut outcome);
                let _ = write!(outcome, "; {} is {number}", Quoted(text));
            } else {
                otherwise(&mut outcome);
            }
            // A unit suffix where the reader takes none; a reader of suffixes that does not
            // take this one reads a bad value.
            let suffixed = matches!(meant, Meant::Number(_, Some(_)));
            let code = if suffixed && reader.parser != Parser::SizeSuffix { Code::UnitSuffix } else { Code::BadValue };
            let suggestion = match suggestion {
                Some(suggestion) => Some(suggestion),
                None => near.map(|word| try_string(word)).transpose()?,
            };
            error(code, outcome, suggestion)
        }
    }
}

/// "'v' is not one of ..." for a reader of words, "'v' is not read: it takes ..." for others.
fn not_read(outcome: &mut MessageBuf, shown: Quoted<'_>, reader: &Reader) {
    let takes = Takes(reader);
    match reader.parser {
        Parser::RomioEnabled
        | Parser::RomioTrueFalse
        | Parser::Strcmp
        | Parser::Strcasecmp
        | Parser::McaBaseVarEnum => {
            let _ = write!(outcome, "'{shown}' is not {takes}");
        }
        _ => {
            let _ = write!(outcome, "'{shown}' is not read: it takes {takes}");
        }
    }
}

/// Whether `n` is outside the reader's range.
fn outside(reader: &Reader, n: i128) -> bool {
    reader.min.is_some_and(|min| n < i128::from(min)) || reader.max.is_some_and(|max| n > i128::from(max))
}

/// Writes why `n` is outside the reader's range, if it is.
fn out_of_range(reader: &Reader, n: i128, outcome: &mut MessageBuf) -> bool {
    if let Some(min) = reader.min.filter(|&min| n < i128::from(min)) {
        let _ = write!(outcome, "{n} is below the least value it takes, {min}");
        true
    } else if let Some(max) = reader.max.filter(|&max| n > i128::from(max)) {
        let _ = write!(outcome, "{n} is above the greatest value it takes, {max}");
        true
    } else {
        false
    }
}

/// The reader's own spelling of true or false, if its words say.
fn spelling(reader: &Reader, value: bool) -> Option<&str> {
    let words = if value { &reader.true_words } else { &reader.false_words };
    match words.first() {
        Some(word) => Some(word),
        None if reader.parser.numeric() => None,
        None => Some(if value { "true" } else { "false" }),
    }
}

/// Whether two words mean the same: equal without case, or one the other's start of three
/// letters or more (`auto` and `automatic`, `disable` and `disabled`).
fn same_word(a: &[u8], b: &[u8]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 3
        && long[..short.len()].eq_ignore_ascii_case(short)
        && (short.len() == long.len() || short.len() >= 4)
}

/// The accepted word nearest to `text`: the same without case, or at most two edits away.
fn nearest_word<'w>(accepts: &'w [String], text: &[u8]) -> Option<&'w String> {
    accepts
        .iter()
        .filter_map(|word| distance(text, word.as_bytes(), 2).map(|d| (d, word)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, word)| word)
}

/// What a reader takes, in words: "an integer", "one of enable, disable (spelled exactly)".
pub struct Takes<'r>(pub &'r Reader);

impl std::fmt::Display for Takes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let reader = self.0;
        let words = Joined(reader.accepts.iter(), ", ");
        match reader.parser {
            Parser::Integer => f.write_str("a plain integer"),
            Parser::Atoi | Parser::Atol | Parser::SscanfD => f.write_str("an integer"),
            Parser::Strtol10 | Parser::Strtol0 | Parser::Strtoul | Parser::Strtoul10 if reader.whole => {
                f.write_str("an integer and nothing after it")
            }
            Parser::Strtol10 | Parser::Strtol0 | Parser::Strtoul | Parser::Strtoul10 => f.write_str("an integer"),
            Parser::SizeSuffix => write!(f, "an integer with an optional suffix ({words})"),
            Parser::OpalStrToBool41 => f.write_str("true, yes, false or no (any case), or a number"),
            Parser::OpalStrToBool50 => {
                f.write_str("a word starting with true, yes, false or no (any case), or a number")
            }
            Parser::OpalInfoValueToBool => f.write_str("true, false or a whole number"),
            Parser::MpichParseStringValue => f.write_str("true, false or a number"),
            Parser::RomioTrueFalse => f.write_str("one of true, TRUE, false, FALSE (spelled exactly)"),
            Parser::RomioEnabled | Parser::Strcmp => write!(f, "one of {words} (spelled exactly)"),
            Parser::Strcasecmp | Parser::McaBaseVarEnum => write!(f, "one of {words} (any case)"),
            Parser::StrncmpPrefix => write!(f, "a value starting with one of {words}"),
            Parser::StrncasecmpPrefix => write!(f, "a value starting with one of {words} (any case)"),
            Parser::MpirHwtopoGetObjByName => write!(f, "a device, bindset, or one of {words}"),
            Parser::RomioCbConfigList => f.write_str("name, name:count, *:count or *:* elements"),
            Parser::ParseInfoAccuOpsStr => match &reader.elements {
                Some(elements) => write!(
                    f,
                    "a value starting with {}, or comma-separated elements, each one of {}",
                    Joined(reader.accepts.iter(), " or "),
                    Joined(elements.accepts.iter(), ", ")
                ),
                None => write!(f, "a value starting with {}", Joined(reader.accepts.iter(), " or ")),
            },
            _ => match &reader.elements {
                Some(elements) if !elements.accepts.is_empty() => {
                    write!(f, "comma-separated elements, each one of {}", Joined(elements.accepts.iter(), ", "))?;
                    if !elements.exclusive.is_empty() {
                        write!(f, ", or {} alone", Joined(elements.exclusive.iter(), ", "))?;
                    }
                    Ok(())
                }
                Some(elements) => write!(f, "comma-separated elements read by {}", elements.parser.as_str()),
                None if !reader.accepts.is_empty() => write!(f, "comma-separated elements, each one of {words}"),
                None => f.write_str("a comma-separated list"),
            },
        }
    }
}

/// Items joined by a separator, formatted without collecting them.
pub(crate) struct Joined<'s, I>(pub I, pub &'s str);

impl<I> std::fmt::Display for Joined<'_, I>
where
    I: Iterator + Clone,
    I::Item: std::fmt::Display,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (n, item) in self.0.clone().enumerate() {
            if n > 0 {
                f.write_str(self.1)?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    }
}
