//! The checker: one pass over the pairs, a constant-time look-up of each key, the value read
//! the way each named target reads it. Edit distances are computed only for unknown keys.

use std::fmt::{self, Write as _};

use super::text::{distance, try_format, try_lossy, try_string, MessageBuf, Quoted};
use super::vocab::{Entry, Parse, Reader, Target, Vocabulary, MAX_TARGETS};
use crate::error::Error;
use crate::typed::{is_blank, parse_i64, strip};

/// What is wrong with a hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// No vocabulary knows the key.
    UnknownKey,
    /// The value is not of the key's type, or not a value a target accepts (case included).
    BadValue,
    /// A number with a unit suffix where a target reads plain integers.
    UnitSuffix,
    /// A number outside the range a target takes.
    OutOfRange,
    /// A known key that none of the named targets reads (for that object).
    NotReadByTarget,
    /// A key or value longer than a target allows.
    TooLongForTarget,
    /// A combination a target documents as overriding or contradicting another.
    Conflict,
}

impl Code {
    /// Every code, in the order docs/hints.md lists them.
    pub const ALL: [Code; 7] = [
        Code::UnknownKey,
        Code::BadValue,
        Code::UnitSuffix,
        Code::OutOfRange,
        Code::NotReadByTarget,
        Code::TooLongForTarget,
        Code::Conflict,
    ];

    /// The code's name, as diagnostics and `mpi-info-lint` print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::UnknownKey => "unknown-key",
            Code::BadValue => "bad-value",
            Code::UnitSuffix => "unit-suffix",
            Code::OutOfRange => "out-of-range",
            Code::NotReadByTarget => "not-read-by-target",
            Code::TooLongForTarget => "too-long-for-target",
            Code::Conflict => "conflict",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing wrong with one pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    /// The position of the pair in the pairs checked.
    pub pair: usize,
    /// The key and value as given (invalid UTF-8 replaced).
    pub key: String,
    pub value: String,
    /// One line, naming the targets concerned.
    pub message: String,
    /// What to write instead, where there is one thing to write: a key or a value.
    pub suggestion: Option<String>,
}

/// The targets a check is for: a set of the vocabulary's targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Targets {
    mask: u64,
}

// One bit per target: the vocabulary refuses more targets than the mask has bits.
const _: () = assert!(MAX_TARGETS == u64::BITS as usize);

/// Why a list of targets was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    NoMem,
    /// A name (blanks around it removed) that no target of the vocabulary has.
    Unknown(String),
    /// An empty name: an empty list, or two commas in a row.
    Empty,
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::NoMem => f.write_str("out of memory"),
            TargetError::Unknown(name) => write!(f, "no target is named '{}'", Quoted(name.as_bytes())),
            TargetError::Empty => f.write_str("an empty target name"),
        }
    }
}

impl From<TargetError> for Error {
    fn from(error: TargetError) -> Error {
        match error {
            TargetError::NoMem => Error::NoMem,
            TargetError::Unknown(_) | TargetError::Empty => Error::Arg,
        }
    }
}

impl Targets {
    /// `list` is comma-separated target names (blanks around each ignored); `None` is every
    /// target of the vocabulary. The first unknown or empty name is the error.
    pub fn parse(vocabulary: &Vocabulary, list: Option<&str>) -> Result<Targets, TargetError> {
        let Some(list) = list else {
            let count = vocabulary.targets().count();
            return Ok(Targets { mask: if count >= MAX_TARGETS { u64::MAX } else { (1u64 << count) - 1 } });
        };
        let mut mask = 0;
        for name in list.split(',') {
            let name = name.trim_matches(|c| c == ' ' || c == '\t');
            if name.is_empty() {
                return Err(TargetError::Empty);
            }
            let Some(position) = vocabulary.targets().position(|target| target.name == name) else {
                return Err(TargetError::Unknown(try_string(name).map_err(|_| TargetError::NoMem)?));
            };
            mask |= 1 << position;
        }
        Ok(Targets { mask })
    }

    /// Whether the target named `name` is in the set.
    pub fn contains(&self, vocabulary: &Vocabulary, name: &str) -> bool {
        vocabulary.targets().position(|target| target.name == name).is_some_and(|n| self.mask & (1 << n) != 0)
    }

    /// The targets in the set, in the vocabulary's order.
    pub fn of<'v>(&self, vocabulary: &'v Vocabulary) -> impl Iterator<Item = &'v Target> + Clone {
        let mask = self.mask;
        vocabulary.targets().enumerate().filter(move |(n, _)| mask & (1 << n) != 0).map(|(_, target)| target)
    }

    /// The names in the set, in the vocabulary's order.
    pub fn names<'v>(&self, vocabulary: &'v Vocabulary) -> impl Iterator<Item = &'v str> + Clone {
        self.of(vocabulary).map(|target| target.name.as_str())
    }
}

/// Checks `pairs` against `vocabulary` for `targets`: the findings, in the order of the pairs,
/// with possibly several for one pair. Out of memory is `Error::NoMem`.
pub fn check(vocabulary: &Vocabulary, targets: &Targets, pairs: &[(&[u8], &[u8])]) -> Result<Vec<Finding>, Error> {
    check_object(vocabulary, targets, None, pairs)
}

/// [`check`] for hints given to one kind of object (`file`, `window`, `communicator`,
/// `session`, `spawn`, `env`): a known key that is not a hint of that object is reported as
/// not read.
pub fn check_object(
    vocabulary: &Vocabulary,
    targets: &Targets,
    object: Option<&str>,
    pairs: &[(&[u8], &[u8])],
) -> Result<Vec<Finding>, Error> {
    let mut findings = Vec::new();
    let checker = Checker { vocabulary, targets, object, pairs };
    for (n, &(key, value)) in pairs.iter().enumerate() {
        checker.pair(n, key, value, &mut findings)?;
    }
    Ok(findings)
}

struct Checker<'a> {
    vocabulary: &'a Vocabulary,
    targets: &'a Targets,
    object: Option<&'a str>,
    pairs: &'a [(&'a [u8], &'a [u8])],
}

/// What one reader makes of a value, when that is not what the user meant.
struct Verdict {
    code: Code,
    outcome: MessageBuf,
    suggestion: Option<String>,
}

impl Checker<'_> {
    fn pair(&self, n: usize, key: &[u8], value: &[u8], findings: &mut Vec<Finding>) -> Result<(), Error> {
        let mut add = |code: Code, message: &str, suggestion: Option<String>| -> Result<(), Error> {
            findings.try_reserve(1)?;
            findings.push(Finding {
                code,
                pair: n,
                key: try_lossy(key)?,
                value: try_lossy(value)?,
                message: try_string(message)?,
                suggestion,
            });
            Ok(())
        };
        let quoted = Quoted(key);

        let Some(entry) = self.vocabulary.entry(key) else {
            let (message, suggestion) = self.unknown(key)?;
            add(Code::UnknownKey, message.as_str(), suggestion)?;
            return self.lengths(key, value, &mut add);
        };
        if let Some(object) = self.object {
            if !entry.objects.iter().any(|o| o == object) {
                let mut message: MessageBuf = MessageBuf::new();
                let _ = write!(
                    message,
                    "'{quoted}' is a hint of {} objects, not read for a {object}",
                    Joined(entry.objects.iter(), " and ")
                );
                add(Code::NotReadByTarget, message.as_str(), None)?;
                return self.lengths(key, value, &mut add);
            }
        }
        let readers =
            || self.vocabulary.readers(entry).filter(|reader| self.targets.contains(self.vocabulary, &reader.target));
        if readers().next().is_none() {
            let mut message: MessageBuf = MessageBuf::new();
            let _ =
                write!(message, "'{quoted}' is not read by {}; ", Joined(self.targets.names(self.vocabulary), ", "));
            let _ = write!(message, "it is read by {}", Joined(reader_targets(self.vocabulary, entry), ", "));
            let spelling = self.spelling_read_by_targets(entry);
            if let Some(other) = spelling {
                let _ = write!(message, "; the named targets read it as '{}'", other.key);
            }
            add(Code::NotReadByTarget, message.as_str(), spelling.map(|e| try_string(&e.key)).transpose()?)?;
            return self.lengths(key, value, &mut add);
        }
        self.lengths(key, value, &mut add)?;

        // What each reader makes of the value; readers with the same verdict share one finding.
        let mut verdicts: Vec<(Verdict, MessageBuf)> = Vec::new();
        for reader in readers() {
            let Some(verdict) = judge(reader, value)? else { continue };
            let label = Label { entry, reader };
            match verdicts
                .iter_mut()
                .find(|(seen, _)| seen.code == verdict.code && seen.outcome.as_str() == verdict.outcome.as_str())
            {
                Some((_, names)) => {
                    let _ = write!(names, ", {label}");
                }
                None => {
                    let mut names = MessageBuf::new();
                    let _ = write!(names, "{label}");
                    verdicts.try_reserve(1)?;
                    verdicts.push((verdict, names));
                }
            }
        }
        for (verdict, names) in verdicts {
            let message = try_format(format_args!("for {}: {}", names.as_str(), verdict.outcome.as_str()))?;
            add(verdict.code, &message, verdict.suggestion)?;
        }

        if let Some(canonical) = &entry.alias_of {
            if let Some(other) = self.value_of(canonical.as_bytes()) {
                if strip(other) != strip(value) {
                    let message = try_format(format_args!(
                        "'{quoted}' is another name of '{canonical}', which is set to '{}'; the two differ",
                        Quoted(other)
                    ))?;
                    add(Code::Conflict, &message, None)?;
                }
            }
        }
        for conflict in self.vocabulary.conflicts() {
            if conflict.report.as_bytes() != key
                || !conflict.targets.iter().any(|t| self.targets.contains(self.vocabulary, t))
            {
                continue;
            }
            let holds = conflict.when.iter().all(|condition| match self.value_of(condition.key.as_bytes()) {
                None => false,
                Some(set) => {
                    condition.values.is_empty()
                        || condition.values.iter().any(|v| strip(set).eq_ignore_ascii_case(v.as_bytes()))
                }
            });
            if holds {
                let targets = conflict.targets.iter().filter(|t| self.targets.contains(self.vocabulary, t));
                let message = try_format(format_args!("for {}: {}", Joined(targets, ", "), conflict.message))?;
                add(Code::Conflict, &message, None)?;
            }
        }
        Ok(())
    }

    /// The value of `key` among the pairs (its last, as setting them in turn leaves it).
    fn value_of(&self, key: &[u8]) -> Option<&[u8]> {
        self.pairs.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// Findings for a key or value longer than a named target allows.
    fn lengths(
        &self,
        key: &[u8],
        value: &[u8],
        add: &mut impl FnMut(Code, &str, Option<String>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let key_chars = chars(key);
        let value_chars = chars(value);
        for target in self.targets.of(self.vocabulary) {
            let name = &target.name;
            if let Some(max) = target.key_max.filter(|&max| key_chars > max) {
                let message = try_format(format_args!(
                    "for {name}: a key has at most {max} characters, this one has {key_chars}; {name}'s MPI_Info_set refuses it"
                ))?;
                add(Code::TooLongForTarget, &message, None)?;
            }
            if let Some(max) = target.value_max.filter(|&max| value_chars > max) {
                let message = try_format(format_args!(
                    "for {name}: a value has at most {max} characters, this one has {value_chars}; {name}'s MPI_Info_set refuses it"
                ))?;
                add(Code::TooLongForTarget, &message, None)?;
            }
        }
        Ok(())
    }

    /// The message and suggestion for an unknown key: the nearest known keys, if any is close.
    fn unknown(&self, key: &[u8]) -> Result<(MessageBuf, Option<String>), Error> {
        // Up to three nearest keys, nearest first, ties in vocabulary order.
        let limit = (1 + key.len() / 5).min(3);
        let mut nearest: [Option<(usize, &str)>; 3] = [None; 3];
        for entry in self.vocabulary.entries() {
            let Some(d) = distance(key, entry.key.as_bytes(), limit) else { continue };
            let slot = nearest.iter().position(|slot| slot.map_or(true, |(seen, _)| d < seen));
            if let Some(slot) = slot {
                nearest[slot..].rotate_right(1);
                nearest[slot] = Some((d, &entry.key));
            }
        }
        let mut message = MessageBuf::new();
        let _ = write!(message, "unknown hint '{}'", Quoted(key));
        let found = nearest.iter().flatten().map(|(_, key)| *key);
        match found.clone().count() {
            0 => {
                let _ = write!(message, ": no vocabulary has it");
            }
            n => {
                let _ = write!(message, "; did you mean '{}", Joined(found.clone().take(n - 1), "', '"));
                if n > 1 {
                    let _ = write!(message, "' or '");
                }
                let _ = write!(message, "{}'?", found.clone().next_back().unwrap_or_default());
            }
        }
        let best = found.clone().next();
        Ok((message, best.map(try_string).transpose()?))
    }

    /// Another spelling of the same hint (an alias, or what it is an alias of) that a named
    /// target reads.
    fn spelling_read_by_targets(&self, entry: &Entry) -> Option<&Entry> {
        let canonical = entry.alias_of.as_deref().unwrap_or(&entry.key);
        self.vocabulary.entries().find(|other| {
            other.key != entry.key
                && (other.key == canonical || other.alias_of.as_deref() == Some(canonical))
                && self.vocabulary.readers(other).any(|reader| self.targets.contains(self.vocabulary, &reader.target))
        })
    }
}

/// The characters of a key or value as an implementation counts them: UTF-8 characters, an
/// invalid byte counting as one.
fn chars(text: &[u8]) -> usize {
    text.utf8_chunks().map(|chunk| chunk.valid().chars().count() + chunk.invalid().len()).sum()
}

/// The targets that read an entry, each once, in the order of its readers.
fn reader_targets<'v>(vocabulary: &'v Vocabulary, entry: &'v Entry) -> impl Iterator<Item = &'v String> + Clone {
    let readers = vocabulary.readers(entry);
    readers
        .clone()
        .enumerate()
        .filter(move |(n, reader)| !readers.clone().take(*n).any(|r| r.target == reader.target))
        .map(|(_, r)| &r.target)
}

/// A reader's name in a message: its target's, with the version it describes when the entry
/// has another reader for that target (a version that reads the key differently).
struct Label<'a> {
    entry: &'a Entry,
    reader: &'a Reader,
}

impl fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reader.target)?;
        let shared = self.entry.readers.iter().filter(|r| r.target == self.reader.target).count() > 1;
        match &self.reader.version {
            Some(version) if shared => write!(f, " ({version})"),
            _ => Ok(()),
        }
    }
}

/// Items joined by a separator, formatted without collecting them.
struct Joined<'s, I>(I, &'s str);

impl<I> fmt::Display for Joined<'_, I>
where
    I: Iterator + Clone,
    I::Item: fmt::Display,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, item) in self.0.clone().enumerate() {
            if n > 0 {
                f.write_str(self.1)?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    }
}

/// What `reader` makes of `value`, when that is not the value as written: `None` when the
/// target reads it as meant.
fn judge(reader: &Reader, value: &[u8]) -> Result<Option<Verdict>, Error> {
    let mut outcome = MessageBuf::new();
    let shown = Quoted(value);
    let otherwise = |outcome: &mut MessageBuf| {
        if let Some(otherwise) = &reader.otherwise {
            let _ = write!(outcome, "; otherwise it is {otherwise}");
        }
    };
    let verdict = |code, outcome, suggestion| Ok(Some(Verdict { code, outcome, suggestion }));
    // The reader's own range: an entry's range is what its documents state, and a target that
    // takes any number must not be held to another's.
    let range = |n: i64, outcome: &mut MessageBuf| -> bool {
        if let Some(min) = reader.min.filter(|&min| n < min) {
            let _ = write!(outcome, "{n} is below the least value it takes, {min}");
            true
        } else if let Some(max) = reader.max.filter(|&max| n > max) {
            let _ = write!(outcome, "{n} is above the greatest value it takes, {max}");
            true
        } else {
            false
        }
    };
    match reader.parse {
        Parse::Text => Ok(None),
        Parse::Integer => {
            let text = strip(value);
            if let Ok(n) = parse_i64(text) {
                return if range(n, &mut outcome) { verdict(Code::OutOfRange, outcome, None) } else { Ok(None) };
            }
            if let Some((n, suffix, bytes)) = unit_suffixed(text) {
                let _ = write!(
                    outcome,
                    "'{shown}' is not read: it takes a plain integer, without the '{}'",
                    Quoted(suffix)
                );
                otherwise(&mut outcome);
                let suggestion = scaled(&mut outcome, n, suffix, bytes)?;
                return verdict(Code::UnitSuffix, outcome, suggestion);
            }
            let _ = write!(outcome, "'{shown}' is not an integer");
            otherwise(&mut outcome);
            verdict(Code::BadValue, outcome, None)
        }
        Parse::Atoi => {
            let (number, rest) = leading_integer(value);
            let Some(n) = number else {
                let _ = write!(outcome, "'{shown}' is read as 0: it takes an integer");
                return verdict(Code::BadValue, outcome, None);
            };
            let rest_text = strip(rest);
            if rest_text.is_empty() {
                return if range(n, &mut outcome) { verdict(Code::OutOfRange, outcome, None) } else { Ok(None) };
            }
            if let Some((_, suffix, bytes)) = unit_suffixed(strip(value)) {
                let _ = write!(outcome, "'{shown}' is read as {n}: the '{}' is dropped", Quoted(suffix));
                let suggestion = scaled(&mut outcome, n, suffix, bytes)?;
                return verdict(Code::UnitSuffix, outcome, suggestion);
            }
            let _ = write!(outcome, "'{shown}' is read as {n}: '{}' is dropped", Quoted(rest_text));
            verdict(Code::BadValue, outcome, Some(try_format(format_args!("{n}"))?))
        }
        Parse::SizeSuffix => {
            let text = strip(value);
            let (digits, suffix) = text.split_at(text.iter().position(|b| !b.is_ascii_digit()).unwrap_or(text.len()));
            let accepted =
                suffix.is_empty() || reader.suffixes.iter().any(|s| same_word(s.as_bytes(), suffix, reader.any_case));
            match (parse_i64(digits), accepted) {
                (Ok(n), true) => {
                    let bytes = n.checked_mul(multiplier(suffix).unwrap_or(1)).unwrap_or(i64::MAX);
                    if range(bytes, &mut outcome) {
                        verdict(Code::OutOfRange, outcome, None)
                    } else {
                        Ok(None)
                    }
                }
                _ => {
                    let _ = write!(
                        outcome,
                        "'{shown}' is not a size: it takes an integer with an optional suffix ({})",
                        Joined(reader.suffixes.iter(), ", ")
                    );
                    otherwise(&mut outcome);
                    verdict(Code::BadValue, outcome, None)
                }
            }
        }
        Parse::Words => {
            if reader.accepts.iter().any(|word| same_word(word.as_bytes(), value, reader.any_case)) {
                return Ok(None);
            }
            let stripped = strip(value);
            let suggestion = if let Some(word) =
                reader.accepts.iter().find(|w| same_word(w.as_bytes(), stripped, reader.any_case))
            {
                let _ = write!(outcome, "'{shown}' is not taken with blanks around it");
                Some(word)
            } else {
                let _ = write!(outcome, "'{shown}' is not one of {}", Joined(reader.accepts.iter(), ", "));
                if !reader.any_case {
                    let _ = write!(outcome, " (spelled exactly)");
                }
                nearest_word(&reader.accepts, stripped)
            };
            otherwise(&mut outcome);
            verdict(Code::BadValue, outcome, suggestion.map(|w| try_string(w)).transpose()?)
        }
        Parse::List => {
            let text = strip(value);
            if text.is_empty() {
                return Ok(None);
            }
            for element in text.split(|&b| b == b',') {
                let element = strip(element);
                if element.is_empty() {
                    let _ = write!(outcome, "'{shown}' has an empty element");
                    otherwise(&mut outcome);
                    return verdict(Code::BadValue, outcome, None);
                }
                if !reader.accepts.is_empty()
                    && !reader.accepts.iter().any(|w| same_word(w.as_bytes(), element, reader.any_case))
                {
                    let _ =
                        write!(outcome, "'{}' is not one of {}", Quoted(element), Joined(reader.accepts.iter(), ", "));
                    otherwise(&mut outcome);
                    let suggestion = nearest_word(&reader.accepts, element).map(|w| try_string(w)).transpose()?;
                    return verdict(Code::BadValue, outcome, suggestion);
                }
            }
            Ok(None)
        }
        Parse::NodeList => {
            let text = strip(value);
            let bad = text.split(|&b| b == b',').find(|element| !node_element(strip(element)));
            match bad {
                None => Ok(None),
                Some(element) => {
                    let _ = write!(
                        outcome,
                        "'{}' is not a node list element (name, name:count, *:count or *:*)",
                        Quoted(strip(element))
                    );
                    otherwise(&mut outcome);
                    verdict(Code::BadValue, outcome, None)
                }
            }
        }
    }
}

/// Whether `word` (from the vocabulary) and `text` are the same, exactly or without case.
fn same_word(word: &[u8], text: &[u8], any_case: bool) -> bool {
    if any_case {
        word.eq_ignore_ascii_case(text)
    } else {
        word == text
    }
}

/// The accepted word nearest to `text`: the same without case, or at most two edits away.
fn nearest_word<'w>(accepts: &'w [String], text: &[u8]) -> Option<&'w String> {
    accepts
        .iter()
        .filter_map(|word| distance(text, word.as_bytes(), 2).map(|d| (d, word)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, word)| word)
}

/// `name`, `name:count`, `*:count` or `*:*`: ROMIO's `cb_config_list` element.
fn node_element(element: &[u8]) -> bool {
    let (name, count) = match element.iter().position(|&b| b == b':') {
        Some(colon) => (&element[..colon], Some(&element[colon + 1..])),
        None => (element, None),
    };
    let name_ok = !name.is_empty() && name.iter().all(|&b| !is_blank(b) && b != b':');
    let count_ok = match count {
        None => true,
        Some(b"*") => true,
        Some(count) => !count.is_empty() && count.iter().all(u8::is_ascii_digit),
    };
    name_ok && count_ok
}

/// What C's `strtol(value, &end, 10)` reads: blanks and a sign, then digits. The number (None
/// when there are no digits; saturated at the bounds of `i64`, as `strtol` does) and the rest.
fn leading_integer(value: &[u8]) -> (Option<i64>, &[u8]) {
    let mut at = value.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(value.len());
    let negative = value.get(at) == Some(&b'-');
    if matches!(value.get(at), Some(b'-' | b'+')) {
        at += 1;
    }
    let digits = value[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return (None, value);
    }
    let mut n: i64 = 0;
    for &digit in &value[at..at + digits] {
        let digit = i64::from(digit - b'0');
        n = n.saturating_mul(10);
        n = if negative { n.saturating_sub(digit) } else { n.saturating_add(digit) };
    }
    (Some(n), &value[at + digits..])
}

/// A number with a unit suffix (`16M`, `4 KiB`, `1gb`): the number, the suffix and its
/// multiplier in bytes. `None` for anything else.
fn unit_suffixed(text: &[u8]) -> Option<(i64, &[u8], i64)> {
    let split = text.iter().position(|b| !b.is_ascii_digit())?;
    let (digits, suffix) = text.split_at(split);
    let n = parse_i64(digits).ok()?;
    let suffix = strip(suffix);
    Some((n, suffix, multiplier(suffix)?))
}

/// The multiplier of a unit suffix, binary (as the implementations that take suffixes read
/// them): k, m, g, t, p, with an optional `b` or `ib`, any case.
fn multiplier(suffix: &[u8]) -> Option<i64> {
    let mut lower = [0u8; 3];
    let lower = lower.get_mut(..suffix.len())?;
    lower.copy_from_slice(suffix);
    lower.make_ascii_lowercase();
    let unit = match lower {
        [u] | [u, b'b'] | [u, b'i', b'b'] => *u,
        _ => return None,
    };
    let power = b"kmgtp".iter().position(|&p| p == unit)? as u32 + 1;
    Some(1i64 << (10 * power))
}

/// Adds "; 16 MiB is 16777216" to a unit-suffix outcome and returns the plain number.
fn scaled(outcome: &mut MessageBuf, n: i64, suffix: &[u8], bytes: i64) -> Result<Option<String>, Error> {
    match n.checked_mul(bytes) {
        Some(plain) => {
            let _ = write!(outcome, "; {n}{} is {plain}", Quoted(suffix));
            Ok(Some(try_format(format_args!("{plain}"))?))
        }
        None => Ok(None),
    }
}
