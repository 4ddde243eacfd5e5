//! The vocabulary: which hint keys exist, what their values are, and who reads them how, read
//! from a document in the form docs/hints.md describes (`data/hints.json` is the built-in one).
//!
//! Every field is checked when the document is read, so the checker never meets a reader
//! without a source or an enumeration without values. Every allocation can fail
//! ([`VocabularyError::NoMem`]), as everywhere a C call can reach.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;

use super::json::{self, try_push, JsonError, Value};
use super::parsers::{self, Grammar, Parser, Reading};
use super::release::{self, ReleaseSet, Version, MAX_RELEASES};
use super::text::{try_string, MessageBuf};

/// The built-in vocabulary's text: `data/hints.json` without the prose of its readers' `how`
/// and `reports_how`, which no check uses (build.rs makes it; mpi-info-lint embeds the whole
/// document, for `--explain`).
pub const BUILTIN_TEXT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/hints.json"));

/// The most targets a vocabulary may have (a `Targets` of the checker is a 64-bit set).
pub const MAX_TARGETS: usize = 64;

named_enum! {
    /// The type of a hint's value.
    Kind {
        Bool = "bool",
        Int = "int",
        /// A size in bytes.
        Size = "size",
        Enum = "enum",
        List = "list",
        /// ROMIO's `cb_config_list`: `host:n` elements.
        NodeList = "nodelist",
        Tuple = "tuple",
        Text = "string",
    }
}

named_enum! {
    /// What follows when a reader's parser does not read a value (a reader's `invalid`).
    Invalid {
        /// The previous or default setting stays.
        Ignored = "ignored",
        /// The call fails, or the implementation reports an error.
        Error = "error",
        /// Read as 0.
        Zero = "zero",
        /// Read as false.
        False = "false",
        /// Read as true.
        True = "true",
        /// The reader's default applies.
        Default = "default",
    }
}

/// A value with a meaning of its own to a reader, compared before its parser reads it (`-1`:
/// automatic; `unlimited`).
#[derive(Debug)]
pub struct Sentinel {
    pub value: String,
    pub means: String,
}

/// How a list reader reads each element.
#[derive(Debug)]
pub struct Elements {
    pub parser: Parser,
    pub accepts: Vec<String>,
    /// Words that must stand alone (`none`).
    pub exclusive: Vec<String>,
}

/// An implementation (or the standard, or a layered library) whose hints are described.
#[derive(Debug)]
pub struct Target {
    pub name: String,
    pub title: String,
    /// What was read to describe it: repository, tag and commit, or document and version.
    pub read: String,
    /// The longest key its `MPI_Info_set` takes, in characters.
    pub key_max: Option<usize>,
    /// The longest value, in characters.
    pub value_max: Option<usize>,
    pub limits_source: Option<String>,
    /// For a library above the MPI (PnetCDF): where it hands the info it is given to the MPI
    /// (`MPI_File_open`). A hint it does not read still reaches the MPI, so it is the MPI's
    /// hint there, not a mistake.
    pub passes_hints_to_mpi: Option<String>,
    /// Its releases, oldest first (`main` last, if listed); empty for a target described
    /// without releases.
    pub releases: Vec<Version>,
}

impl Target {
    /// How many releases it has: one, for a target described without releases.
    pub fn release_count(&self) -> usize {
        self.releases.len().max(1)
    }

    /// Its newest numbered release (not `main`), by position.
    pub fn newest(&self) -> usize {
        self.releases.iter().rposition(|r| !r.is_main()).unwrap_or(0)
    }
}

/// A hint text a target reads from the environment.
#[derive(Debug)]
pub struct Syntax {
    pub name: String,
    pub variable: Option<String>,
    pub target: Option<String>,
    /// Bytes the reader reads at most.
    pub read_max: Option<usize>,
    /// Of a key given twice, the reader uses the first value (`true`) or the last.
    pub keeps_first: bool,
    pub how: String,
    pub source: String,
}

/// How one target reads one key, in a range of its releases.
#[derive(Debug)]
pub struct Reader {
    pub target: String,
    pub parser: Parser,
    pub accepts: Vec<String>,
    pub true_words: Vec<String>,
    pub false_words: Vec<String>,
    pub sentinels: Vec<Sentinel>,
    /// Words of `accepts` that have the effect of another value of the key (ROMIO's
    /// `romio_synchronized_flush=disable` turns the barrier on, as `enable` does): the word,
    /// and that value.
    pub means: Vec<(String, String)>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub default: Option<String>,
    /// The caller uses a number only when the whole value was read.
    pub whole: bool,
    /// What the target does with a value it cannot read, in words ("ignored", "read as false").
    pub otherwise: Option<String>,
    /// The same, for the checker.
    pub invalid: Option<Invalid>,
    /// A value read as true turns the behaviour off.
    pub inverted: bool,
    /// The condition under which the key is read at all ("ch4 device", "Lustre file system").
    pub only_under: Option<String>,
    /// Stored, reported or accepted, but used by nothing: it has no effect.
    pub unread: bool,
    pub elements: Option<Elements>,
    /// How the target's `*_get_info` reports the key afterwards: given, read,
    /// default-when-invalid, not.
    pub reports: Option<String>,
    pub reports_how: Option<String>,
    pub how: Option<String>,
    /// The upstream file (or document) where the key is read.
    pub source: String,
    pub version: Option<String>,
    /// The first release it holds for, and the first it no longer does (as written).
    pub since: Option<Version>,
    pub until: Option<Version>,
    /// The releases it holds for, of its target's list.
    pub releases: ReleaseSet,
}

impl Reader {
    /// The value of the key that `word` (one of `accepts`) has the effect of.
    pub fn effect_of<'w>(&'w self, word: &'w str) -> &'w str {
        self.means.iter().find(|(w, _)| w == word).map_or(word, |(_, value)| value)
    }

    /// The grammar its parser reads a value with.
    pub fn grammar(&self, kind: Kind) -> Grammar<'_> {
        Grammar {
            parser: self.parser,
            accepts: &self.accepts,
            whole: self.whole,
            boolean: kind == Kind::Bool,
            elements: self.elements.as_ref().map(|e| (e.parser, &e.accepts[..], &e.exclusive[..])),
        }
    }

    /// What it reads `value` of `entry` as, before its `invalid` applies: one of its sentinels
    /// (compared exactly, before the parser, as the code does), else what its parser reads; of a
    /// boolean, a word of its `true` or `false` is that boolean.
    pub fn parse(&self, entry: &Entry, value: &[u8]) -> Reading {
        if let Some(n) = self.sentinels.iter().position(|s| s.value.as_bytes() == value) {
            return Reading::Sentinel(n);
        }
        match parsers::read(&self.grammar(entry.kind), value) {
            Reading::Word(n) if entry.kind == Kind::Bool && self.true_words.contains(&self.accepts[n]) => {
                Reading::Bool(true)
            }
            Reading::Word(n) if entry.kind == Kind::Bool && self.false_words.contains(&self.accepts[n]) => {
                Reading::Bool(false)
            }
            reading => reading,
        }
    }

    /// What it takes `value` of `entry` as: [`Reader::parse`], and a value that does not parse
    /// as its `invalid` says: 0, false or true; its `default` as it parses it; otherwise (ignored,
    /// an error, or nothing said) [`Reading::Invalid`].
    pub fn read(&self, entry: &Entry, value: &[u8]) -> Reading {
        match (self.parse(entry, value), self.invalid) {
            (Reading::Invalid, Some(Invalid::Zero)) => Reading::Number(0),
            (Reading::Invalid, Some(Invalid::False)) => Reading::Bool(false),
            (Reading::Invalid, Some(Invalid::True)) => Reading::Bool(true),
            (Reading::Invalid, Some(Invalid::Default)) => match &self.default {
                Some(default) => self.parse(entry, default.as_bytes()),
                None => Reading::Invalid,
            },
            (reading, _) => reading,
        }
    }
}

/// One hint key.
#[derive(Debug)]
pub struct Entry {
    pub key: String,
    pub objects: Vec<String>,
    pub kind: Kind,
    pub values: Vec<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub default: Option<String>,
    pub summary: String,
    /// This key is another spelling of that one.
    pub alias_of: Option<String>,
    /// Another key of this vocabulary is an alias of this one.
    pub aliased: bool,
    pub readers: Vec<Reader>,
}

/// One condition of a conflict: the key is set (to one of `values`, if any).
#[derive(Debug)]
pub struct Condition {
    pub key: String,
    pub values: Vec<String>,
}

/// A combination a target documents as overriding or contradicting.
#[derive(Debug)]
pub struct Conflict {
    pub targets: Vec<String>,
    pub when: Vec<Condition>,
    /// The key the finding is reported on: one of `when`'s.
    pub report: String,
    pub message: String,
    pub source: String,
    /// It fires only when the keys' values, as the target reads them, differ.
    pub differ: bool,
    pub since: Option<Version>,
    pub until: Option<Version>,
    /// The releases of its target it holds for (every release: no `since` or `until`).
    pub releases: ReleaseSet,
}

/// A vocabulary: a document's targets, syntaxes, keys and conflicts, over an optional base
/// vocabulary (a layered library's own over the built-in one). Its own entries come first: a
/// key it describes is described by it (type, objects, summary), and read by its readers and
/// the base's.
pub struct Vocabulary {
    targets: Vec<Target>,
    syntaxes: Vec<Syntax>,
    entries: Vec<Entry>,
    conflicts: Vec<Conflict>,
    index: HashMap<String, usize>,
    base: Option<&'static Vocabulary>,
}

impl fmt::Debug for Vocabulary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vocabulary").field("targets", &self.targets.len()).field("keys", &self.entries.len()).finish()
    }
}

/// Why a vocabulary document was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum VocabularyError {
    NoMem,
    /// Not JSON (line and column), or JSON that is not a vocabulary (where, and what is wrong).
    Invalid(String),
}

impl fmt::Display for VocabularyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VocabularyError::NoMem => f.write_str("out of memory"),
            VocabularyError::Invalid(what) => f.write_str(what),
        }
    }
}

impl From<JsonError> for VocabularyError {
    fn from(error: JsonError) -> Self {
        match error {
            JsonError::NoMem => VocabularyError::NoMem,
            syntax => invalid(format_args!("not JSON: {syntax}")),
        }
    }
}

impl From<crate::Error> for VocabularyError {
    fn from(_: crate::Error) -> Self {
        VocabularyError::NoMem
    }
}

/// An `Invalid` error with a formatted message (or `NoMem` if the message cannot be kept).
fn invalid(what: fmt::Arguments<'_>) -> VocabularyError {
    let mut buf: MessageBuf = MessageBuf::new();
    let _ = buf.write_fmt(what);
    match try_string(buf.as_str()) {
        Ok(text) => VocabularyError::Invalid(text),
        Err(_) => VocabularyError::NoMem,
    }
}

/// The largest vocabulary document read (the built-in one is far smaller).
pub const MAX_DOCUMENT: usize = 4 << 20;

impl Vocabulary {
    /// Reads a vocabulary document, whole and checked. `base`, if given, is consulted for every
    /// key and target this document does not describe.
    pub fn from_json(text: &[u8], base: Option<&'static Vocabulary>) -> Result<Vocabulary, VocabularyError> {
        if text.len() > MAX_DOCUMENT {
            return Err(invalid(format_args!("longer than {MAX_DOCUMENT} bytes")));
        }
        if base.is_some_and(|base| base.base.is_some()) {
            return Err(invalid(format_args!("a base vocabulary cannot have a base of its own")));
        }
        let document = json::parse(text)?;
        let root = Fields::new(&document, "the document")?;
        let format = root.string("format")?;
        if format != "mpi-info-hints" {
            return Err(invalid(format_args!("\"format\" is \"{format}\", not \"mpi-info-hints\"")));
        }
        let version = root.int("version")?;
        if version != 1 && version != 2 {
            return Err(invalid(format_args!("\"version\" is {version}; this library reads versions 1 and 2")));
        }
        let v2 = version == 2;
        root.only(&["format", "version", "targets", "syntaxes", "keys", "conflicts"])?;
        let mut vocabulary = Vocabulary {
            targets: Vec::new(),
            syntaxes: Vec::new(),
            entries: Vec::new(),
            conflicts: Vec::new(),
            index: HashMap::new(),
            base,
        };
        for (n, item) in root.array("targets")?.iter().enumerate() {
            let target = read_target(item, n, v2)?;
            if vocabulary.targets.iter().any(|seen| seen.name == target.name) {
                return Err(invalid(format_args!("targets[{n}]: target \"{}\" given twice", target.name)));
            }
            try_push(&mut vocabulary.targets, target)?;
        }
        for (n, item) in root.optional_array("syntaxes")?.iter().enumerate() {
            let syntax = read_syntax(item, n)?;
            try_push(&mut vocabulary.syntaxes, syntax)?;
        }
        let keys = root.array("keys")?;
        vocabulary.index.try_reserve(keys.len()).map_err(|_| VocabularyError::NoMem)?;
        for (n, item) in keys.iter().enumerate() {
            let entry = read_entry(item, n, v2)?;
            if vocabulary.index.contains_key(&entry.key) {
                return Err(invalid(format_args!("keys[{n}]: key \"{}\" given twice", entry.key)));
            }
            // Room was reserved for every key, so this insert does not allocate but for the key.
            vocabulary.index.insert(try_string(&entry.key)?, vocabulary.entries.len());
            try_push(&mut vocabulary.entries, entry)?;
        }
        for (n, item) in root.optional_array("conflicts")?.iter().enumerate() {
            let conflict = read_conflict(item, n, v2)?;
            try_push(&mut vocabulary.conflicts, conflict)?;
        }
        if vocabulary.targets().count() > MAX_TARGETS {
            return Err(invalid(format_args!("more than {MAX_TARGETS} targets, with the base's")));
        }
        vocabulary.check_references()?;
        for n in 0..vocabulary.entries.len() {
            let canonical = vocabulary.entries[n].alias_of.as_ref().and_then(|key| vocabulary.index.get(key)).copied();
            if let Some(canonical) = canonical {
                vocabulary.entries[canonical].aliased = true;
            }
        }
        vocabulary.resolve_releases(v2)?;
        Ok(vocabulary)
    }

    /// Each reader's and conflict's `since` and `until` as a set of its target's releases: each
    /// must be one of the target's releases. In a version-2 document, no two readers of one key
    /// and target (under the same condition) hold for one release.
    fn resolve_releases(&mut self, v2: bool) -> Result<(), VocabularyError> {
        let base = self.base;
        let own: &[Target] = &self.targets;
        let target_of = |name: &str| own.iter().find(|t| t.name == name).or_else(|| base.and_then(|b| b.target(name)));
        let resolve = |target: &Target, since: Option<Version>, until: Option<Version>, what: fmt::Arguments<'_>| {
            let position = |version: Option<Version>| -> Result<Option<usize>, VocabularyError> {
                let Some(version) = version else { return Ok(None) };
                match target.releases.iter().position(|r| *r == version) {
                    Some(n) => Ok(Some(n)),
                    None => {
                        Err(invalid(format_args!("{what}: \"{version}\" is not one of {}'s releases", target.name)))
                    }
                }
            };
            let (since, until) = (position(since)?, position(until)?);
            let set = release::range(target.release_count(), since, until);
            if set == 0 {
                return Err(invalid(format_args!("{what}: since and until leave no release")));
            }
            Ok(set)
        };
        for entry in &mut self.entries {
            for (r, reader) in entry.readers.iter_mut().enumerate() {
                let target = target_of(&reader.target).ok_or(VocabularyError::NoMem)?;
                reader.releases =
                    resolve(target, reader.since, reader.until, format_args!("key \"{}\", readers[{r}]", entry.key))?;
            }
            if !v2 {
                continue;
            }
            for (r, reader) in entry.readers.iter().enumerate() {
                let overlap = entry.readers[..r].iter().position(|other| {
                    other.target == reader.target
                        && other.only_under == reader.only_under
                        && other.releases & reader.releases != 0
                });
                if let Some(other) = overlap {
                    return Err(invalid(format_args!(
                        "key \"{}\": readers[{other}] and readers[{r}] of {} hold for the same releases",
                        entry.key, reader.target
                    )));
                }
            }
        }
        for (n, conflict) in self.conflicts.iter_mut().enumerate() {
            conflict.releases = match (&conflict.targets[..], conflict.since.is_some() || conflict.until.is_some()) {
                (_, false) => ReleaseSet::MAX,
                ([one], true) => {
                    let target = target_of(one).ok_or(VocabularyError::NoMem)?;
                    resolve(target, conflict.since, conflict.until, format_args!("conflicts[{n}]"))?
                }
                _ => return Err(invalid(format_args!("conflicts[{n}]: since and until need exactly one target"))),
            };
        }
        Ok(())
    }

    /// Every target a reader, syntax or conflict names exists; every `alias_of` and `report`
    /// names a key; enumerations have values.
    fn check_references(&self) -> Result<(), VocabularyError> {
        for entry in &self.entries {
            for reader in &entry.readers {
                if self.target(&reader.target).is_none() {
                    return Err(invalid(format_args!(
                        "key \"{}\": reader target \"{}\" is not a target",
                        entry.key, reader.target
                    )));
                }
            }
            if let Some(alias) = &entry.alias_of {
                let Some(canonical) = self.entry(alias.as_bytes()) else {
                    return Err(invalid(format_args!("key \"{}\": alias_of \"{alias}\" is not a key", entry.key)));
                };
                if *alias == entry.key {
                    return Err(invalid(format_args!("key \"{}\": an alias of itself", entry.key)));
                }
                // An alias names the key's one canonical spelling, never another alias: so no
                // chain, and no cycle.
                if let Some(further) = &canonical.alias_of {
                    let what = if *further == entry.key { "aliases in a cycle" } else { "an alias of an alias" };
                    return Err(invalid(format_args!(
                        "key \"{}\": {what}: \"{alias}\" is itself an alias of \"{further}\"",
                        entry.key
                    )));
                }
            }
        }
        for syntax in &self.syntaxes {
            if let Some(target) = &syntax.target {
                if self.target(target).is_none() {
                    return Err(invalid(format_args!(
                        "syntax \"{}\": target \"{target}\" is not a target",
                        syntax.name
                    )));
                }
            }
        }
        for (n, conflict) in self.conflicts.iter().enumerate() {
            for target in &conflict.targets {
                if self.target(target).is_none() {
                    return Err(invalid(format_args!("conflicts[{n}]: target \"{target}\" is not a target")));
                }
            }
            for (c, condition) in conflict.when.iter().enumerate() {
                if self.entry(condition.key.as_bytes()).is_none() {
                    return Err(invalid(format_args!(
                        "conflicts[{n}].when[{c}]: key \"{}\" is not a key",
                        condition.key
                    )));
                }
            }
        }
        Ok(())
    }

    /// The built-in vocabulary, `data/hints.json`, read on first use. Reading it can run out
    /// of memory, and then a later call tries again; a built-in text that does not read is a
    /// bug (`Error::Intern`), which the unit tests rule out.
    pub fn builtin() -> Result<&'static Vocabulary, crate::Error> {
        static BUILTIN: OnceLock<Vocabulary> = OnceLock::new();
        if let Some(vocabulary) = BUILTIN.get() {
            return Ok(vocabulary);
        }
        let vocabulary = Vocabulary::from_json(BUILTIN_TEXT, None).map_err(|error| match error {
            VocabularyError::NoMem => crate::Error::NoMem,
            VocabularyError::Invalid(_) => crate::Error::Intern,
        })?;
        // Two threads may both have read it; one copy is kept, the other dropped.
        Ok(BUILTIN.get_or_init(|| vocabulary))
    }

    /// The entry for a key, this vocabulary's own first, then its base's.
    pub fn entry(&self, key: &[u8]) -> Option<&Entry> {
        let key = std::str::from_utf8(key).ok()?;
        let own = self.index.get(key).map(|&n| &self.entries[n]);
        own.or_else(|| self.base.and_then(|base| base.index.get(key).map(|&n| &base.entries[n])))
    }

    /// Every reader of an entry of this vocabulary: its own, then, when the base describes the
    /// same key, the base's. A layered library that describes a key the built-in vocabulary
    /// has adds itself as a reader, and the implementations' readers still apply.
    pub fn readers<'a>(&'a self, entry: &'a Entry) -> impl Iterator<Item = &'a Reader> + Clone {
        // Only a vocabulary with a base has more readers to add (the built-in one has none).
        let base =
            self.base.filter(|_| self.index.get(&entry.key).is_some_and(|&n| std::ptr::eq(&self.entries[n], entry)));
        let base = base.and_then(|base| base.index.get(&entry.key).map(|&n| &base.entries[n]));
        entry.readers.iter().chain(base.into_iter().flat_map(|base| base.readers.iter()))
    }

    /// Whether the entry has other spellings: it is an alias, another key is one of it, or a
    /// layered vocabulary may add one (the base's entries cannot say).
    pub fn has_other_spellings(&self, entry: &Entry) -> bool {
        entry.alias_of.is_some() || entry.aliased || self.base.is_some()
    }

    /// The base's part of a list, or nothing.
    fn base_part<T>(&self, part: impl FnOnce(&'static Vocabulary) -> &'static [T]) -> &'static [T] {
        self.base.map_or(&[], part)
    }

    /// Every entry: this vocabulary's own, then its base's that it does not hide.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> + Clone {
        let base = self.base_part(|base| &base.entries);
        self.entries.iter().chain(base.iter().filter(|entry| !self.index.contains_key(&entry.key)))
    }

    /// Every target: this vocabulary's own, then its base's that it does not hide.
    pub fn targets(&self) -> impl Iterator<Item = &Target> + Clone {
        let base = self.base_part(|base| &base.targets);
        self.targets.iter().chain(base.iter().filter(|target| !self.targets.iter().any(|own| own.name == target.name)))
    }

    /// The target of that name.
    pub fn target(&self, name: &str) -> Option<&Target> {
        self.targets().find(|target| target.name == name)
    }

    /// Every syntax, this vocabulary's own first.
    pub fn syntaxes(&self) -> impl Iterator<Item = &Syntax> + Clone {
        self.syntaxes.iter().chain(self.base_part(|base| &base.syntaxes))
    }

    /// Every conflict, this vocabulary's own first.
    pub fn conflicts(&self) -> impl Iterator<Item = &Conflict> + Clone {
        self.conflicts.iter().chain(self.base_part(|base| &base.conflicts))
    }
}

// ---------------------------------------------------------------- reading the document

/// An object's members, with the path that names it in error messages.
struct Fields<'v> {
    members: &'v [(String, Value)],
    path: MessageBuf,
}

/// What a JSON value is, for messages.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Int(_) => "a number",
        Value::Str(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'v> Fields<'v> {
    fn new(value: &'v Value, path: &str) -> Result<Self, VocabularyError> {
        Self::at(value, format_args!("{path}"))
    }

    fn at(value: &'v Value, path: fmt::Arguments<'_>) -> Result<Self, VocabularyError> {
        let mut buf = MessageBuf::new();
        let _ = buf.write_fmt(path);
        match value {
            Value::Object(members) => Ok(Fields { members, path: buf }),
            other => Err(invalid(format_args!("{}: is {}, not an object", buf.as_str(), kind_of(other)))),
        }
    }

    fn get(&self, name: &str) -> Option<&'v Value> {
        self.members.iter().find(|(member, _)| member == name).map(|(_, value)| value)
    }

    /// Refuses members other than `known` (a misspelled field must not pass for an absent one).
    fn only(&self, known: &[&str]) -> Result<(), VocabularyError> {
        match self.members.iter().find(|(name, _)| !known.contains(&name.as_str())) {
            Some((name, _)) => Err(invalid(format_args!("{}: unknown field \"{name}\"", self.path.as_str()))),
            None => Ok(()),
        }
    }

    fn string(&self, name: &str) -> Result<&'v str, VocabularyError> {
        self.optional_string(name)?
            .ok_or_else(|| invalid(format_args!("{}: \"{name}\" is missing", self.path.as_str())))
    }

    fn optional_string(&self, name: &str) -> Result<Option<&'v str>, VocabularyError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Str(text)) if !text.is_empty() => Ok(Some(text)),
            Some(Value::Str(_)) => Err(invalid(format_args!("{}: \"{name}\" is empty", self.path.as_str()))),
            Some(other) => {
                Err(invalid(format_args!("{}: \"{name}\" is {}, not a string", self.path.as_str(), kind_of(other))))
            }
        }
    }

    fn owned(&self, name: &str) -> Result<String, VocabularyError> {
        Ok(try_string(self.string(name)?)?)
    }

    /// A text shown as one line of a diagnostic or a listing: no line break, no other control
    /// character.
    fn line(&self, name: &str) -> Result<String, VocabularyError> {
        let text = self.string(name)?;
        if let Some(at) = text.find(char::is_control) {
            return Err(invalid(format_args!(
                "{}: \"{name}\" holds a line break or another control character (at byte {at}); it is one line",
                self.path.as_str()
            )));
        }
        Ok(try_string(text)?)
    }

    fn optional_owned(&self, name: &str) -> Result<Option<String>, VocabularyError> {
        match self.optional_string(name)? {
            Some(text) => Ok(Some(try_string(text)?)),
            None => Ok(None),
        }
    }

    fn int(&self, name: &str) -> Result<i64, VocabularyError> {
        self.optional_int(name)?.ok_or_else(|| invalid(format_args!("{}: \"{name}\" is missing", self.path.as_str())))
    }

    fn optional_int(&self, name: &str) -> Result<Option<i64>, VocabularyError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(other) => {
                Err(invalid(format_args!("{}: \"{name}\" is {}, not an integer", self.path.as_str(), kind_of(other))))
            }
        }
    }

    /// A boolean; absent is false.
    fn optional_bool(&self, name: &str) -> Result<bool, VocabularyError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(value)) => Ok(*value),
            Some(other) => {
                Err(invalid(format_args!("{}: \"{name}\" is {}, not a boolean", self.path.as_str(), kind_of(other))))
            }
        }
    }

    /// A length limit: a positive integer.
    fn optional_limit(&self, name: &str) -> Result<Option<usize>, VocabularyError> {
        match self.optional_int(name)? {
            None => Ok(None),
            Some(n) if n > 0 => usize::try_from(n).map(Some).map_err(|_| VocabularyError::NoMem),
            Some(n) => Err(invalid(format_args!("{}: \"{name}\" is {n}; a limit is positive", self.path.as_str()))),
        }
    }

    fn array(&self, name: &str) -> Result<&'v [Value], VocabularyError> {
        match self.get(name) {
            Some(Value::Array(items)) => Ok(items),
            None => Err(invalid(format_args!("{}: \"{name}\" is missing", self.path.as_str()))),
            Some(other) => {
                Err(invalid(format_args!("{}: \"{name}\" is {}, not an array", self.path.as_str(), kind_of(other))))
            }
        }
    }

    fn optional_array(&self, name: &str) -> Result<&'v [Value], VocabularyError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(&[]),
            Some(_) => self.array(name),
        }
    }

    /// An array of non-empty strings.
    fn strings(&self, name: &str) -> Result<Vec<String>, VocabularyError> {
        let mut out = Vec::new();
        for item in self.optional_array(name)? {
            match item {
                Value::Str(text) if !text.is_empty() => try_push(&mut out, try_string(text)?)?,
                other => {
                    return Err(invalid(format_args!(
                        "{}: \"{name}\" holds {}, not a non-empty string",
                        self.path.as_str(),
                        kind_of(other)
                    )))
                }
            }
        }
        Ok(out)
    }

    /// A name from a fixed list.
    fn choice<T: Copy>(&self, name: &str, choices: &[(&str, T)]) -> Result<T, VocabularyError> {
        let text = self.string(name)?;
        match choices.iter().find(|(choice, _)| *choice == text) {
            Some((_, value)) => Ok(*value),
            None => Err(invalid(format_args!(
                "{}: \"{name}\" is \"{text}\", not one of the known ones",
                self.path.as_str()
            ))),
        }
    }
}

fn read_target(item: &Value, n: usize, v2: bool) -> Result<Target, VocabularyError> {
    let fields = Fields::at(item, format_args!("targets[{n}]"))?;
    let known: &[&str] = if v2 {
        &["name", "title", "read", "key_max", "value_max", "limits_source", "releases", "passes_hints_to_mpi"]
    } else {
        &["name", "title", "read", "key_max", "value_max", "limits_source"]
    };
    fields.only(known)?;
    let mut releases: Vec<Version> = Vec::new();
    for release in fields.strings("releases")? {
        let version = match Version::parse(&release) {
            Some(version) if !version.is_series() => version,
            _ => {
                return Err(invalid(format_args!(
                    "targets[{n}]: release \"{release}\" is not three numbers (4.1.0) or main"
                )))
            }
        };
        if releases.last().is_some_and(|last| *last >= version) {
            return Err(invalid(format_args!("targets[{n}]: releases are not in order at \"{release}\"")));
        }
        try_push(&mut releases, version)?;
    }
    if releases.len() > MAX_RELEASES {
        return Err(invalid(format_args!("targets[{n}]: more than {MAX_RELEASES} releases")));
    }
    let target = Target {
        name: fields.owned("name")?,
        title: fields.line("title")?,
        read: fields.owned("read")?,
        key_max: fields.optional_limit("key_max")?,
        value_max: fields.optional_limit("value_max")?,
        limits_source: fields.optional_owned("limits_source")?,
        passes_hints_to_mpi: fields.optional_owned("passes_hints_to_mpi")?,
        releases,
    };
    if (target.key_max.is_some() || target.value_max.is_some()) && target.limits_source.is_none() {
        return Err(invalid(format_args!("targets[{n}]: limits without \"limits_source\"")));
    }
    if !target.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(invalid(format_args!(
            "targets[{n}]: name \"{}\" is not letters, digits, '-' and '_'",
            target.name
        )));
    }
    Ok(target)
}

fn read_syntax(item: &Value, n: usize) -> Result<Syntax, VocabularyError> {
    let fields = Fields::at(item, format_args!("syntaxes[{n}]"))?;
    fields.only(&["name", "variable", "target", "read_max", "duplicates", "how", "source"])?;
    let keeps_first = match fields.optional_string("duplicates")? {
        None | Some("last") => false,
        Some("first") => true,
        Some(other) => {
            return Err(invalid(format_args!("syntaxes[{n}]: \"duplicates\" is \"{other}\", not first or last")))
        }
    };
    Ok(Syntax {
        keeps_first,
        name: fields.owned("name")?,
        variable: fields.optional_owned("variable")?,
        target: fields.optional_owned("target")?,
        read_max: fields.optional_limit("read_max")?,
        how: fields.owned("how")?,
        source: fields.owned("source")?,
    })
}

const OBJECTS: [&str; 6] = ["file", "communicator", "window", "session", "spawn", "env"];

fn read_entry(item: &Value, n: usize, v2: bool) -> Result<Entry, VocabularyError> {
    // The key, for messages about the rest of the entry.
    let key = match item {
        Value::Object(members) => members.iter().find_map(|(name, value)| match (name.as_str(), value) {
            ("key", Value::Str(key)) => Some(key.as_str()),
            _ => None,
        }),
        _ => None,
    };
    let key = key.unwrap_or("?");
    let fields = Fields::at(item, format_args!("keys[{n}] (\"{key}\")"))?;
    fields.only(&["key", "objects", "type", "values", "min", "max", "default", "summary", "alias_of", "readers"])?;
    let key = fields.owned("key")?;
    if key.len() > crate::info::MAX_KEY_LEN || key.bytes().any(|b| b.is_ascii_whitespace()) {
        return Err(invalid(format_args!("keys[{n}]: \"{key}\" is not a key (blanks, or over 255 bytes)")));
    }
    let objects = fields.strings("objects")?;
    if objects.is_empty() {
        return Err(invalid(format_args!("keys[{n}] (\"{key}\"): \"objects\" is empty")));
    }
    if let Some(object) = objects.iter().find(|object| !OBJECTS.contains(&object.as_str())) {
        return Err(invalid(format_args!("keys[{n}] (\"{key}\"): object \"{object}\" is not one of {OBJECTS:?}")));
    }
    let kind = fields.choice("type", Kind::NAMES)?;
    let values = fields.strings("values")?;
    if kind == Kind::Enum && values.is_empty() {
        return Err(invalid(format_args!("keys[{n}] (\"{key}\"): an enum needs \"values\"")));
    }
    let mut readers = Vec::new();
    for (r, reader) in fields.array("readers")?.iter().enumerate() {
        try_push(&mut readers, read_reader(reader, &key, r, v2)?)?;
    }
    if readers.is_empty() {
        return Err(invalid(format_args!("keys[{n}] (\"{key}\"): no reader")));
    }
    // In version 1, the entry's range is the one its document's readers of numbers read, unless
    // a reader states its own; in version 2 every reader states its own range, and the entry's
    // describes the hint (another document's readers of the key are never held to it).
    let (min, max) = (fields.optional_int("min")?, fields.optional_int("max")?);
    for reader in readers.iter_mut().filter(|_| !v2) {
        if reader.parser.numeric() && reader.min.is_none() && reader.max.is_none() {
            (reader.min, reader.max) = (min, max);
        }
    }
    Ok(Entry {
        objects,
        kind,
        values,
        min,
        max,
        default: fields.optional_owned("default")?,
        summary: fields.line("summary")?,
        alias_of: fields.optional_owned("alias_of")?,
        aliased: false,
        readers,
        key,
    })
}

/// The fields of a version-1 reader, and those version 2 adds.
const READER_V1: [&str; 14] = [
    "target",
    "parse",
    "accepts",
    "case",
    "true",
    "false",
    "suffixes",
    "min",
    "max",
    "default",
    "otherwise",
    "how",
    "source",
    "version",
];
const READER_V2: [&str; 24] = [
    "target",
    "parser",
    "accepts",
    "true",
    "false",
    "sentinels",
    "means",
    "min",
    "max",
    "default",
    "whole",
    "otherwise",
    "invalid",
    "inverted",
    "only_under",
    "unread",
    "elements",
    "reports",
    "reports_how",
    "how",
    "source",
    "version",
    "since",
    "until",
];

fn read_reader(item: &Value, key: &str, r: usize, v2: bool) -> Result<Reader, VocabularyError> {
    let fields = Fields::at(item, format_args!("key \"{key}\", readers[{r}]"))?;
    fields.only(if v2 { &READER_V2 } else { &READER_V1 })?;
    let any_case = match fields.optional_string("case")? {
        None | Some("exact") => false,
        Some("any") => true,
        Some(other) => {
            return Err(invalid(format_args!("key \"{key}\", readers[{r}]: \"case\" is \"{other}\", not exact or any")))
        }
    };
    let mut accepts = fields.strings("accepts")?;
    let parser = if v2 { fields.choice("parser", Parser::NAMES)? } else { version_1_parser(&fields, any_case)? };
    if !v2 && parser == Parser::SizeSuffix {
        // Version 1's suffixes, in both cases when it says any.
        for suffix in fields.strings("suffixes")? {
            if any_case {
                try_push(&mut accepts, suffix.to_ascii_uppercase())?;
                try_push(&mut accepts, suffix.to_ascii_lowercase())?;
            } else {
                try_push(&mut accepts, suffix)?;
            }
        }
    }
    let version = |name: &str| -> Result<Option<Version>, VocabularyError> {
        match fields.optional_string(name)? {
            None => Ok(None),
            Some(text) => match Version::parse(text) {
                Some(version) if !version.is_series() => Ok(Some(version)),
                _ => Err(invalid(format_args!("key \"{key}\", readers[{r}]: \"{name}\" is \"{text}\", not a release"))),
            },
        }
    };
    let mut sentinels = Vec::new();
    for (s, item) in fields.optional_array("sentinels")?.iter().enumerate() {
        let sentinel = Fields::at(item, format_args!("key \"{key}\", readers[{r}].sentinels[{s}]"))?;
        sentinel.only(&["value", "means"])?;
        try_push(&mut sentinels, Sentinel { value: sentinel.owned("value")?, means: sentinel.line("means")? })?;
    }
    let mut means = Vec::new();
    match fields.get("means") {
        None | Some(Value::Null) => {}
        Some(Value::Object(members)) => {
            for (word, value) in members {
                let Value::Str(value) = value else {
                    return Err(invalid(format_args!(
                        "key \"{key}\", readers[{r}]: \"means\" of \"{word}\" is not a string"
                    )));
                };
                try_push(&mut means, (try_string(word)?, try_string(value)?))?;
            }
        }
        Some(_) => return Err(invalid(format_args!("key \"{key}\", readers[{r}]: \"means\" is not an object"))),
    }
    let elements = match fields.get("elements") {
        None | Some(Value::Null) => None,
        Some(item) => {
            let elements = Fields::at(item, format_args!("key \"{key}\", readers[{r}].elements"))?;
            elements.only(&["parser", "accepts", "exclusive"])?;
            Some(Elements {
                parser: elements.choice("parser", Parser::NAMES)?,
                accepts: elements.strings("accepts")?,
                exclusive: elements.strings("exclusive")?,
            })
        }
    };
    let reader = Reader {
        target: fields.owned("target")?,
        parser,
        accepts,
        true_words: fields.strings("true")?,
        false_words: fields.strings("false")?,
        sentinels,
        means,
        min: fields.optional_int("min")?,
        max: fields.optional_int("max")?,
        default: fields.optional_owned("default")?,
        whole: fields.optional_bool("whole")?,
        otherwise: fields.optional_owned("otherwise")?,
        invalid: match fields.optional_string("invalid")? {
            None => None,
            Some(_) => Some(fields.choice("invalid", Invalid::NAMES)?),
        },
        inverted: fields.optional_bool("inverted")?,
        only_under: fields.optional_owned("only_under")?,
        unread: fields.optional_bool("unread")?,
        elements,
        reports: fields.optional_owned("reports")?,
        reports_how: fields.optional_owned("reports_how")?,
        how: fields.optional_owned("how")?,
        source: fields.owned("source")?,
        version: fields.optional_owned("version")?,
        since: version("since")?,
        until: version("until")?,
        releases: ReleaseSet::MAX,
    };
    let words = matches!(
        parser,
        Parser::RomioEnabled
            | Parser::Strcmp
            | Parser::Strcasecmp
            | Parser::StrncmpPrefix
            | Parser::StrncasecmpPrefix
            | Parser::ParseInfoAccuOpsStr
    );
    if words && reader.accepts.is_empty() {
        return Err(invalid(format_args!("key \"{key}\", readers[{r}]: \"{}\" needs \"accepts\"", parser.as_str())));
    }
    if parser == Parser::SizeSuffix && reader.accepts.is_empty() {
        return Err(invalid(format_args!("key \"{key}\", readers[{r}]: \"size_suffix\" needs its suffixes")));
    }
    if let Some((word, _)) = reader.means.iter().find(|(word, _)| !reader.accepts.contains(word)) {
        return Err(invalid(format_args!(
            "key \"{key}\", readers[{r}]: \"means\" of \"{word}\", which it does not accept"
        )));
    }
    if let Some(word) = reader.true_words.iter().chain(&reader.false_words).find(|w| !reader.accepts.contains(w)) {
        return Err(invalid(format_args!("key \"{key}\", readers[{r}]: \"{word}\" of true/false is not accepted")));
    }
    Ok(reader)
}

/// A version-1 reader's `parse` as a parser: its words compared exactly or without case.
fn version_1_parser(fields: &Fields<'_>, any_case: bool) -> Result<Parser, VocabularyError> {
    const PARSE: [(&str, Parser); 7] = [
        ("integer", Parser::Integer),
        ("atoi", Parser::Atoi),
        ("size-suffix", Parser::SizeSuffix),
        ("words", Parser::Strcmp),
        ("list", Parser::CommaList),
        ("nodelist", Parser::RomioCbConfigList),
        ("string", Parser::String),
    ];
    Ok(match fields.choice("parse", &PARSE)? {
        Parser::Strcmp if any_case => Parser::Strcasecmp,
        parser => parser,
    })
}

fn read_conflict(item: &Value, n: usize, v2: bool) -> Result<Conflict, VocabularyError> {
    let fields = Fields::at(item, format_args!("conflicts[{n}]"))?;
    if v2 {
        fields.only(&["targets", "when", "report", "message", "source", "differ", "since", "until"])?;
    } else {
        fields.only(&["targets", "when", "report", "message", "source"])?;
    }
    let mut when = Vec::new();
    for (c, condition) in fields.array("when")?.iter().enumerate() {
        let condition = Fields::at(condition, format_args!("conflicts[{n}].when[{c}]"))?;
        condition.only(&["key", "values"])?;
        try_push(&mut when, Condition { key: condition.owned("key")?, values: condition.strings("values")? })?;
    }
    if when.len() < 2 {
        return Err(invalid(format_args!("conflicts[{n}]: \"when\" needs two conditions or more")));
    }
    let report = match fields.optional_owned("report")? {
        Some(report) => report,
        None => try_string(&when[when.len() - 1].key)?,
    };
    if !when.iter().any(|condition| condition.key == report) {
        return Err(invalid(format_args!("conflicts[{n}]: \"report\" is \"{report}\", which no condition names")));
    }
    let targets = fields.strings("targets")?;
    if targets.is_empty() {
        return Err(invalid(format_args!("conflicts[{n}]: \"targets\" is empty")));
    }
    let version = |name: &str| -> Result<Option<Version>, VocabularyError> {
        match fields.optional_string(name)? {
            None => Ok(None),
            Some(text) => match Version::parse(text) {
                Some(version) if !version.is_series() => Ok(Some(version)),
                _ => Err(invalid(format_args!("conflicts[{n}]: \"{name}\" is \"{text}\", not a release"))),
            },
        }
    };
    Ok(Conflict {
        targets,
        when,
        report,
        message: fields.line("message")?,
        source: fields.owned("source")?,
        differ: fields.optional_bool("differ")?,
        since: version("since")?,
        until: version("until")?,
        releases: ReleaseSet::MAX,
    })
}
