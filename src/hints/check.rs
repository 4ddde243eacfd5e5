//! The checker: one pass over the pairs, a constant-time look-up of each key, the value read
//! the way each named target reads it in each release named (src/hints/verdict.rs). Edit
//! distances are computed only for unknown keys.

use std::fmt::{self, Write as _};

use super::finding::{Code, Finding, Severity};
use super::parsers::{self, Reading};
use super::release::ReleaseSet;
use super::targets::{Label, Targets};
use super::text::{distance, try_format, try_lossy, try_string, MessageBuf, Quoted};
use super::verdict::{judge, Joined, Verdict};
use super::vocab::{Entry, Target, Vocabulary, MAX_TARGETS};
use crate::error::Error;
use crate::typed::strip;

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
    let mut selected = Vec::new();
    selected.try_reserve_exact(MAX_TARGETS)?;
    selected.extend(targets.selected(vocabulary));
    let checker = Checker { vocabulary, selected, object, pairs };
    for (n, &(key, value)) in pairs.iter().enumerate() {
        checker.pair(n, key, value, &mut findings)?;
    }
    Ok(findings)
}

struct Checker<'a> {
    vocabulary: &'a Vocabulary,
    /// The named targets, each with its releases and whether they were named.
    selected: Vec<(&'a Target, ReleaseSet, bool)>,
    object: Option<&'a str>,
    pairs: &'a [(&'a [u8], &'a [u8])],
}

/// The findings being gathered for one pair.
struct Found<'f> {
    findings: &'f mut Vec<Finding>,
    pair: usize,
    key: &'f [u8],
    value: &'f [u8],
}

impl Found<'_> {
    fn add(&mut self, code: Code, severity: Severity, message: &str, suggestion: Option<String>) -> Result<(), Error> {
        self.findings.try_reserve(1)?;
        self.findings.push(Finding {
            code,
            severity,
            pair: self.pair,
            key: try_lossy(self.key)?,
            value: try_lossy(self.value)?,
            message: try_string(message)?,
            suggestion,
        });
        Ok(())
    }
}

/// How one named target reads a key, over the releases selected for it.
struct Coverage<'v> {
    label: Label<'v>,
    /// Releases where a reader of it holds (under any condition).
    covered: ReleaseSet,
    /// Releases where a reader that uses the value holds.
    used: ReleaseSet,
    /// Releases where any reader of it holds, selected or not.
    anywhere: ReleaseSet,
}

impl Checker<'_> {
    fn pair(&self, n: usize, key: &[u8], value: &[u8], findings: &mut Vec<Finding>) -> Result<(), Error> {
        let found = &mut Found { findings, pair: n, key, value };
        let quoted = Quoted(key);
        let vocabulary = self.vocabulary;

        let Some(entry) = vocabulary.entry(key) else {
            let (message, suggestion) = self.unknown(key)?;
            found.add(Code::UnknownKey, Severity::Warning, message.as_str(), suggestion)?;
            return self.lengths(key, value, found);
        };
        if let Some(object) = self.object {
            if !entry.objects.iter().any(|o| o == object) {
                let mut message: MessageBuf = MessageBuf::new();
                let _ = write!(
                    message,
                    "'{quoted}' is a hint of {} objects, not read for a {object}",
                    Joined(entry.objects.iter(), " and ")
                );
                found.add(Code::NotReadByTarget, Severity::Warning, message.as_str(), None)?;
                return self.lengths(key, value, found);
            }
        }
        // What each reader of each named target makes of the value in the releases named;
        // readers with the same verdict share one finding.
        let mut verdicts: Vec<(Verdict, Vec<Label<'_>>)> = Vec::new();
        let mut coverage: Vec<Coverage<'_>> = Vec::new();
        coverage.try_reserve_exact(self.selected.len())?;
        coverage.extend(self.selected.iter().map(|&(target, releases, named)| Coverage {
            label: Label { target, releases, show: named, only_under: None },
            covered: 0,
            used: 0,
            anywhere: 0,
        }));
        for reader in vocabulary.readers(entry) {
            let Some(seen) = coverage.iter_mut().find(|c| c.label.target.name == reader.target) else { continue };
            let (target, selected, named) = (seen.label.target, seen.label.releases, seen.label.show);
            seen.anywhere |= reader.releases;
            let releases = reader.releases & selected;
            if releases == 0 {
                continue;
            }
            seen.covered |= releases;
            if !reader.unread {
                seen.used |= releases;
            }
            let Some(verdict) = judge(entry, reader, value)? else { continue };
            // A reader whose result nothing uses matters only where the value fails.
            if reader.unread && verdict.severity != Severity::Error {
                continue;
            }
            let label = Label {
                target,
                releases,
                show: named || releases != selected,
                only_under: reader.only_under.as_deref(),
            };
            let same = verdicts.iter_mut().find(|(seen, _)| {
                seen.code == verdict.code
                    && seen.severity == verdict.severity
                    && seen.outcome.as_str() == verdict.outcome.as_str()
            });
            match same {
                Some((_, labels)) => {
                    labels.try_reserve(1)?;
                    labels.push(label);
                }
                None => {
                    verdicts.try_reserve(1)?;
                    let mut labels = Vec::new();
                    labels.try_reserve(1)?;
                    labels.push(label);
                    verdicts.push((verdict, labels));
                }
            }
        }

        // In the order of checking: not read, length, value, conflict.
        if coverage.iter().all(|c| c.covered == 0) {
            self.not_read(entry, &coverage, found)?;
        } else {
            self.partly_read(entry, &coverage, found)?;
        }
        self.lengths(key, value, found)?;
        for (verdict, labels) in verdicts {
            let message = try_format(format_args!("for {}: {}", Labels(&labels), verdict.outcome.as_str()))?;
            found.add(verdict.code, verdict.severity, &message, verdict.suggestion)?;
        }
        self.conflicts(entry, key, value, found)
    }

    /// No named target reads the key in the releases named: a warning where one of them reads
    /// it in other releases or under another spelling (the hint has no effect there, and what
    /// does is known), else a note (it is another implementation's, or a library's above; and
    /// see `passed_on`).
    fn not_read(&self, entry: &Entry, coverage: &[Coverage<'_>], found: &mut Found<'_>) -> Result<(), Error> {
        let vocabulary = self.vocabulary;
        let quoted = Quoted(entry.key.as_bytes());
        let named = Joined(coverage.iter().map(|c| &c.label), ", ");
        let mut message: MessageBuf = MessageBuf::new();
        let _ = write!(message, "'{quoted}' is not read by {named}");
        if let Some((spelling, target)) = self.other_spelling(entry, coverage) {
            let _ = write!(message, "; {target} reads it as '{}'", spelling.key);
            return found.add(
                Code::NotReadByTarget,
                Severity::Warning,
                message.as_str(),
                Some(try_string(&spelling.key)?),
            );
        }
        // An MPI that reads it in other releases first: its own hint, with no effect here.
        let elsewhere = coverage.iter().filter(|c| c.anywhere != 0);
        if let Some(elsewhere) = elsewhere.min_by_key(|c| c.label.target.passes_hints_to_mpi.is_some()) {
            let other = Label { releases: elsewhere.anywhere, show: true, ..elsewhere.label };
            let _ = write!(message, "; it is read by {other}");
            let severity = self.passed_on(elsewhere.label.target, entry, &mut message);
            return found.add(Code::NotReadByTarget, severity, message.as_str(), None);
        }
        let readers = reader_targets(vocabulary, entry).map(|target| &target.name);
        let _ = write!(message, "; it is read by {}", Joined(readers, ", "));
        found.add(Code::NotReadByTarget, Severity::Note, message.as_str(), None)
    }

    /// The severity of a hint `target` does not read in the releases checked but reads in
    /// others: a warning, but a note where `target` is a library above the MPI, which passes it
    /// on, and an MPI reads it; the message then says so.
    fn passed_on(&self, target: &Target, entry: &Entry, message: &mut MessageBuf) -> Severity {
        let mut mpis = reader_targets(self.vocabulary, entry)
            .filter(|reader| reader.passes_hints_to_mpi.is_none())
            .map(|reader| &reader.name)
            .peekable();
        if target.passes_hints_to_mpi.is_none() || mpis.peek().is_none() {
            return Severity::Warning;
        }
        let _ = write!(message, "; {} passes it on to the MPI, and it is read by {}", target.name, Joined(mpis, ", "));
        Severity::Note
    }

    /// Named targets that read the key in some releases named but not in others (when no other
    /// named target reads it), or store it without using it: a warning for those releases (but see
    /// `passed_on`).
    fn partly_read(&self, entry: &Entry, coverage: &[Coverage<'_>], found: &mut Found<'_>) -> Result<(), Error> {
        let quoted = Quoted(entry.key.as_bytes());
        for (n, seen) in coverage.iter().enumerate() {
            let selected = seen.label.releases;
            let missing = selected & !seen.covered;
            let read_by_another = coverage.iter().enumerate().any(|(m, other)| m != n && other.covered != 0);
            if missing != 0 && seen.anywhere != 0 && !read_by_another {
                let without = Label { releases: missing, show: true, ..seen.label };
                let with = Label { releases: seen.anywhere, show: true, ..seen.label };
                let mut message: MessageBuf = MessageBuf::new();
                let _ = write!(message, "'{quoted}' is not read by {without}; it is read by {with}");
                let spelling = self.other_spelling(entry, std::slice::from_ref(seen));
                if let Some((spelling, _)) = spelling {
                    let _ = write!(message, "; {without} reads it as '{}'", spelling.key);
                }
                let suggestion = spelling.map(|(s, _)| try_string(&s.key)).transpose()?;
                let severity = self.passed_on(seen.label.target, entry, &mut message);
                found.add(Code::NotReadByTarget, severity, message.as_str(), suggestion)?;
            }
            let unused = seen.covered & !seen.used;
            if unused != 0 {
                let label = Label { releases: unused, show: seen.label.show || unused != selected, ..seen.label };
                let mut message: MessageBuf = MessageBuf::new();
                let _ = write!(message, "for {label}: '{quoted}' is taken but nothing uses it: it has no effect");
                found.add(Code::NotReadByTarget, Severity::Warning, message.as_str(), None)?;
            }
        }
        Ok(())
    }

    /// Another spelling of the same hint (an alias, or what it is an alias of) that one of the
    /// targets of `coverage` reads in the releases selected for it.
    fn other_spelling<'v>(&'v self, entry: &Entry, coverage: &[Coverage<'v>]) -> Option<(&'v Entry, Label<'v>)> {
        let canonical = entry.alias_of.as_deref().unwrap_or(&entry.key);
        let vocabulary = self.vocabulary;
        if !vocabulary.has_other_spellings(entry) {
            return None;
        }
        vocabulary
            .entries()
            .filter(|other| {
                other.key != entry.key && (other.key == canonical || other.alias_of.as_deref() == Some(canonical))
            })
            .find_map(|other| {
                let reads = |c: &&Coverage<'_>| {
                    vocabulary
                        .readers(other)
                        .any(|r| r.target == c.label.target.name && r.releases & c.label.releases != 0 && !r.unread)
                };
                coverage.iter().find(reads).map(|c| (other, c.label))
            })
    }

    /// Conflicts reported on this key whose conditions hold, for the named targets and
    /// releases they hold for.
    fn conflicts(&self, entry: &Entry, key: &[u8], value: &[u8], found: &mut Found<'_>) -> Result<(), Error> {
        let vocabulary = self.vocabulary;
        if let Some(canonical) = &entry.alias_of {
            if let Some(other) = self.value_of(canonical.as_bytes()) {
                if strip(other) != strip(value) {
                    let message = try_format(format_args!(
                        "'{}' is another name of '{canonical}', which is set to '{}'; the two differ",
                        Quoted(key),
                        Quoted(other)
                    ))?;
                    found.add(Code::Conflict, Severity::Warning, &message, None)?;
                }
            }
        }
        for conflict in vocabulary.conflicts() {
            if conflict.report.as_bytes() != key {
                continue;
            }
            let holds = conflict.when.iter().all(|condition| match self.value_of(condition.key.as_bytes()) {
                None => false,
                Some(set) => {
                    condition.values.is_empty()
                        || condition.values.iter().any(|v| strip(set).eq_ignore_ascii_case(v.as_bytes()))
                }
            });
            if !holds {
                continue;
            }
            let mut labels: MessageBuf = MessageBuf::new();
            let mut any = false;
            for &(target, selected, named) in
                self.selected.iter().filter(|(t, _, _)| conflict.targets.contains(&t.name))
            {
                let releases = conflict.releases & selected;
                if releases == 0 || conflict.differ && !self.values_differ(conflict, &target.name, releases) {
                    continue;
                }
                let label = Label { target, releases, show: named || releases != selected, only_under: None };
                let _ = write!(labels, "{}{label}", if any { ", " } else { "" });
                any = true;
            }
            if any {
                let message = try_format(format_args!("for {}: {}", labels.as_str(), conflict.message))?;
                found.add(Code::Conflict, Severity::Warning, &message, None)?;
            }
        }
        Ok(())
    }

    /// Whether the values of a conflict's keys, as `target` reads them in `releases`, differ
    /// (text compared where a key has no reader there).
    fn values_differ(&self, conflict: &super::vocab::Conflict, target: &str, releases: ReleaseSet) -> bool {
        let vocabulary = self.vocabulary;
        let read = |key: &str| -> Option<(Reading, &[u8])> {
            let value = self.value_of(key.as_bytes())?;
            let entry = vocabulary.entry(key.as_bytes())?;
            let reader = vocabulary.readers(entry).find(|r| r.target == target && r.releases & releases != 0);
            let reading = reader.map_or(Reading::Text, |r| parsers::read(&r.grammar(entry.kind), value));
            Some((reading, strip(value)))
        };
        let mut readings = conflict.when.iter().filter_map(|condition| read(&condition.key));
        let Some(first) = readings.next() else { return false };
        readings.any(|other| match (first.0, other.0) {
            (Reading::Number(a), Reading::Number(b)) => a != b,
            (Reading::Bool(a), Reading::Bool(b)) => a != b,
            _ => first.1 != other.1,
        })
    }

    /// The value of `key` among the pairs (its last, as setting them in turn leaves it).
    fn value_of(&self, key: &[u8]) -> Option<&[u8]> {
        self.pairs.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// Findings for a key or value longer than a named target allows.
    fn lengths(&self, key: &[u8], value: &[u8], found: &mut Found<'_>) -> Result<(), Error> {
        let key_chars = chars(key);
        let value_chars = chars(value);
        for &(target, _, _) in &self.selected {
            let name = &target.name;
            if let Some(max) = target.key_max.filter(|&max| key_chars > max) {
                let message = try_format(format_args!(
                    "for {name}: a key has at most {max} characters, this one has {key_chars}; {name}'s MPI_Info_set refuses it"
                ))?;
                found.add(Code::TooLongForTarget, Severity::Error, &message, None)?;
            }
            if let Some(max) = target.value_max.filter(|&max| value_chars > max) {
                let message = try_format(format_args!(
                    "for {name}: a value has at most {max} characters, this one has {value_chars}; {name}'s MPI_Info_set refuses it"
                ))?;
                found.add(Code::TooLongForTarget, Severity::Error, &message, None)?;
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
}

/// The readers a verdict holds for, each target and releases once, with the conditions under
/// which they read the key: `openmpi 4.1.0 to 4.1.8 (osc/rdma, osc/pt2pt), mpich`.
struct Labels<'l, 'v>(&'l [Label<'v>]);

impl fmt::Display for Labels<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let labels = self.0;
        let same = |a: &Label<'_>, b: &Label<'_>| {
            std::ptr::eq(a.target, b.target) && a.releases == b.releases && a.show == b.show
        };
        let mut first = true;
        for (n, label) in labels.iter().enumerate() {
            if labels[..n].iter().any(|earlier| same(earlier, label)) {
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{}", Label { only_under: None, ..*label })?;
            let group = labels[n..].iter().filter(|other| same(other, label));
            // Conditions are shown only when every reader of the group has one.
            if group.clone().all(|other| other.only_under.is_some()) {
                write!(f, " ({})", Joined(group.filter_map(|other| other.only_under), ", "))?;
            }
        }
        Ok(())
    }
}

/// The characters of a key or value as an implementation counts them: UTF-8 characters, an
/// invalid byte counting as one.
fn chars(text: &[u8]) -> usize {
    text.utf8_chunks().map(|chunk| chunk.valid().chars().count() + chunk.invalid().len()).sum()
}

/// The targets that read an entry, each once, in the vocabulary's order.
fn reader_targets<'v>(vocabulary: &'v Vocabulary, entry: &'v Entry) -> impl Iterator<Item = &'v Target> + Clone {
    vocabulary.targets().filter(move |target| vocabulary.readers(entry).any(|reader| reader.target == target.name))
}
