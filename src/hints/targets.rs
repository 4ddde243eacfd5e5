//! The targets a check is for, and their releases: `mpich` (its newest release), `mpich@4.0.2`
//! (one release), `openmpi@4.1` (every 4.1.x release), `openmpi@main`.

use std::fmt;

use super::release::{ReleaseSet, Spans, Version};
use super::text::{try_format, try_string, Quoted};
use super::vocab::{Target, Vocabulary, MAX_TARGETS};
use crate::error::Error;

/// The targets a check is for: a set of the vocabulary's targets, each with a set of its
/// releases, and notes on how the releases named were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets {
    /// By the target's position in the vocabulary: the releases selected (none: not a target).
    releases: [ReleaseSet; MAX_TARGETS],
    /// The targets whose releases were named (`mpich@4.0.2`): findings for them always say
    /// which releases they hold for.
    named: u64,
    /// What was assumed of a release the vocabulary does not list (newer than its newest, older
    /// than its oldest, or between two): one sentence each.
    pub notes: Vec<String>,
}

/// Why a list of targets was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    NoMem,
    /// A name (blanks around it removed) that no target of the vocabulary has.
    Unknown(String),
    /// An empty name: an empty list, or two commas in a row.
    Empty,
    /// `name@release` where the release is not `main` or one to three numbers (`mpich@four`).
    BadRelease(String),
    /// `name@release` for a target the vocabulary describes without releases.
    NoReleases(String),
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::NoMem => f.write_str("out of memory"),
            TargetError::Unknown(name) => write!(f, "no target is named '{}'", Quoted(name.as_bytes())),
            TargetError::Empty => f.write_str("an empty target name"),
            TargetError::BadRelease(target) => {
                write!(f, "'{}': a release is main or numbers (4.1, 4.0.2)", Quoted(target.as_bytes()))
            }
            TargetError::NoReleases(name) => {
                write!(f, "'{}' is described without releases; name it alone", Quoted(name.as_bytes()))
            }
        }
    }
}

impl From<TargetError> for Error {
    fn from(error: TargetError) -> Error {
        match error {
            TargetError::NoMem => Error::NoMem,
            _ => Error::Arg,
        }
    }
}

impl Targets {
    /// `list` is comma-separated targets (blanks around each ignored), each a name or
    /// `name@release`; `None` is every target of the vocabulary. A bare name is the target's
    /// newest numbered release; a release of three numbers is that release, and fewer numbers
    /// a series (`4.1`: every 4.1.x); `main` is the development branch. A release the
    /// vocabulary does not list is read as the nearest it does, with a note. The first bad
    /// name or release is the error.
    pub fn parse(vocabulary: &Vocabulary, list: Option<&str>) -> Result<Targets, TargetError> {
        let mut targets = Targets { releases: [0; MAX_TARGETS], named: 0, notes: Vec::new() };
        let Some(list) = list else {
            for (n, target) in vocabulary.targets().enumerate() {
                targets.releases[n] = newest(target);
            }
            return Ok(targets);
        };
        for item in list.split(',') {
            let item = item.trim_matches(|c| c == ' ' || c == '\t');
            let (name, release) = match item.split_once('@') {
                Some((name, release)) => (name, Some(release)),
                None => (item, None),
            };
            if name.is_empty() {
                return Err(TargetError::Empty);
            }
            let copy = |text: &str| try_string(text).map_err(|_| TargetError::NoMem);
            let Some((n, target)) = vocabulary.targets().enumerate().find(|(_, t)| t.name == name) else {
                return Err(TargetError::Unknown(copy(name)?));
            };
            let set = match release {
                None => newest(target),
                Some(release) => {
                    let Some(version) = Version::parse(release) else {
                        return Err(TargetError::BadRelease(copy(item)?));
                    };
                    if target.releases.is_empty() {
                        return Err(TargetError::NoReleases(copy(name)?));
                    }
                    targets.named |= 1 << n;
                    targets.select(target, version)?
                }
            };
            targets.releases[n] |= set;
        }
        Ok(targets)
    }

    /// The releases of `target` that `version` names, or the nearest with a note.
    fn select(&mut self, target: &Target, version: Version) -> Result<ReleaseSet, TargetError> {
        let releases = &target.releases;
        let held: ReleaseSet =
            releases.iter().enumerate().filter(|(_, r)| version.holds(r)).fold(0, |set, (n, _)| set | 1 << n);
        if held != 0 {
            return Ok(held);
        }
        let numbered = releases.iter().filter(|r| !r.is_main()).count();
        let (n, why) = if version.is_main() {
            (target.newest(), "it has no main: its newest release is used")
        } else if releases[..numbered].last().is_some_and(|newest| version > *newest) {
            (target.newest(), "newer than its newest release known here, which is used")
        } else if releases.first().is_some_and(|oldest| version < *oldest) {
            (0, "older than its oldest release known here, which is used")
        } else {
            let below = releases.iter().rposition(|r| *r < version).unwrap_or(0);
            (below, "not a release known here: the one before it is used")
        };
        let note = try_format(format_args!("{}@{version} is {why} ({})", target.name, Spans { releases, set: 1 << n }))
            .map_err(|_| TargetError::NoMem)?;
        self.notes.try_reserve(1).map_err(|_| TargetError::NoMem)?;
        self.notes.push(note);
        Ok(1 << n)
    }

    /// Whether the target named `name` is in the set.
    pub fn contains(&self, vocabulary: &Vocabulary, name: &str) -> bool {
        self.position(vocabulary, name).is_some_and(|n| self.releases[n] != 0)
    }

    /// The releases of the target named `name` in the set (none: not in it).
    pub fn releases(&self, vocabulary: &Vocabulary, name: &str) -> ReleaseSet {
        self.position(vocabulary, name).map_or(0, |n| self.releases[n])
    }

    fn position(&self, vocabulary: &Vocabulary, name: &str) -> Option<usize> {
        vocabulary.targets().position(|target| target.name == name)
    }

    /// The targets in the set, in the vocabulary's order, each with its releases in the set and
    /// whether they were named.
    pub fn selected<'v>(&self, vocabulary: &'v Vocabulary) -> impl Iterator<Item = (&'v Target, ReleaseSet, bool)> {
        let (releases, named) = (self.releases, self.named);
        vocabulary
            .targets()
            .enumerate()
            .filter(move |(n, _)| releases[*n] != 0)
            .map(move |(n, target)| (target, releases[n], named & (1 << n) != 0))
    }

    /// The targets in the set, in the vocabulary's order.
    pub fn of<'v>(&self, vocabulary: &'v Vocabulary) -> impl Iterator<Item = &'v Target> + Clone {
        let releases = self.releases;
        vocabulary.targets().enumerate().filter(move |(n, _)| releases[*n] != 0).map(|(_, target)| target)
    }

    /// The names in the set, in the vocabulary's order.
    pub fn names<'v>(&self, vocabulary: &'v Vocabulary) -> impl Iterator<Item = &'v str> + Clone {
        self.of(vocabulary).map(|target| target.name.as_str())
    }
}

/// A target's newest numbered release, as a set (a target without releases: its one).
fn newest(target: &Target) -> ReleaseSet {
    1 << target.newest()
}

/// A target in a message, with the releases a finding holds for when they are not simply the
/// ones asked for without naming any (`openmpi 4.1.0 to 5.0.9`), and the condition under which
/// its reader reads the key (`mpich (ch4 device)`).
#[derive(Clone, Copy)]
pub struct Label<'a> {
    pub target: &'a Target,
    pub releases: ReleaseSet,
    /// Whether the releases are shown: named by the user, or only some of those selected.
    pub show: bool,
    pub only_under: Option<&'a str>,
}

impl fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.target.name)?;
        if self.show && !self.target.releases.is_empty() {
            write!(f, " {}", Spans { releases: &self.target.releases, set: self.releases })?;
        }
        if let Some(condition) = self.only_under {
            write!(f, " ({condition})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOCUMENT: &str = r#"{"format": "mpi-info-hints", "version": 2,
      "targets": [{"name": "std", "title": "S", "read": "r"},
                  {"name": "impl", "title": "I", "read": "r", "releases": ["4.0.0", "4.0.2", "4.1.0", "4.1.1", "5.0.0", "main"]}],
      "keys": []}"#;

    /// Each target's releases, and the notes.
    type Parsed = (Vec<(String, ReleaseSet)>, Vec<String>);

    fn parsed(list: &str) -> Result<Parsed, TargetError> {
        let vocabulary = Vocabulary::from_json(DOCUMENT.as_bytes(), None).unwrap();
        let targets = Targets::parse(&vocabulary, Some(list))?;
        let sets = targets.of(&vocabulary).map(|t| (t.name.clone(), targets.releases(&vocabulary, &t.name))).collect();
        Ok((sets, targets.notes))
    }

    fn sets(list: &str) -> Vec<(String, ReleaseSet)> {
        parsed(list).unwrap().0
    }

    #[test]
    fn names_releases_and_series() {
        assert_eq!(sets("impl"), [("impl".into(), 0b010000)], "a bare name: the newest numbered release");
        assert_eq!(sets("impl@4.0.2"), [("impl".into(), 0b000010)]);
        assert_eq!(sets("impl@4.1"), [("impl".into(), 0b001100)]);
        assert_eq!(sets("impl@4"), [("impl".into(), 0b001111)]);
        assert_eq!(sets("impl@main"), [("impl".into(), 0b100000)]);
        assert_eq!(sets(" std , impl@4.0.0,impl@5.0.0"), [("std".into(), 1), ("impl".into(), 0b010001)]);
        assert!(parsed("impl@4.0.2").unwrap().1.is_empty());
    }

    #[test]
    fn releases_not_listed_are_the_nearest_with_a_note() {
        let (set, notes) = parsed("impl@6.1.2").unwrap();
        assert_eq!(set, [("impl".into(), 0b010000)]);
        assert_eq!(notes, ["impl@6.1.2 is newer than its newest release known here, which is used (5.0.0)"]);
        let (set, notes) = parsed("impl@3.4").unwrap();
        assert_eq!(set, [("impl".into(), 0b000001)]);
        assert_eq!(notes, ["impl@3.4 is older than its oldest release known here, which is used (4.0.0)"]);
        let (set, notes) = parsed("impl@4.0.1").unwrap();
        assert_eq!(set, [("impl".into(), 0b000001)]);
        assert_eq!(notes, ["impl@4.0.1 is not a release known here: the one before it is used (4.0.0)"]);
    }

    #[test]
    fn bad_names_and_releases_are_errors() {
        assert_eq!(parsed("impl@four"), Err(TargetError::BadRelease("impl@four".into())));
        assert_eq!(parsed("impl@"), Err(TargetError::BadRelease("impl@".into())));
        assert_eq!(parsed("impl@4.1.0.1"), Err(TargetError::BadRelease("impl@4.1.0.1".into())));
        assert_eq!(parsed("std@1.0"), Err(TargetError::NoReleases("std".into())));
        assert_eq!(parsed("@4.0"), Err(TargetError::Empty));
        assert_eq!(parsed("impl,,std"), Err(TargetError::Empty));
        assert_eq!(parsed("nobody@4.0"), Err(TargetError::Unknown("nobody".into())));
    }
}
