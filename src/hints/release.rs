//! Releases: a target's releases in the vocabulary (`"releases": ["4.0.0", ..., "main"]`), the
//! range of releases a reader holds for (`since`, `until`), and the release a user names in a
//! target string (`mpich@4.0.2`, `openmpi@4.1`, `openmpi@main`).
//!
//! A release is up to three numbers (`4`, `4.1`, `4.1.0`), or `main`, which follows every
//! numbered release. A target string names one release with three numbers, and a series with
//! fewer (`4.1` is every `4.1.x`); `main` is the development branch.

use std::fmt;

/// A release's numbers, compared in order; `main` is above every numbered release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    numbers: [u32; 3],
    /// How many numbers were written (1 to 3); 3 for `main`.
    written: u8,
}

impl Version {
    /// The development branch.
    pub const MAIN: Version = Version { numbers: [u32::MAX; 3], written: 3 };

    /// `main`, or one to three decimal numbers separated by dots. `None` for anything else.
    pub fn parse(text: &str) -> Option<Version> {
        if text == "main" {
            return Some(Version::MAIN);
        }
        let mut numbers = [0u32; 3];
        let mut written = 0;
        for part in text.split('.') {
            if written == 3 || part.is_empty() || part.len() > 9 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            numbers[written] = part.parse().ok()?;
            written += 1;
        }
        Some(Version { numbers, written: written as u8 })
    }

    pub fn is_main(&self) -> bool {
        *self == Version::MAIN
    }

    /// Whether this is a series (fewer than three numbers written): `4.1` holds `4.1.0`, `4.1.7`.
    pub fn is_series(&self) -> bool {
        self.written < 3
    }

    /// Whether `release` (a release of a target's list) is this version, or in this series.
    pub fn holds(&self, release: &Version) -> bool {
        let n = usize::from(self.written);
        !release.is_main() && !self.is_main() && self.numbers[..n] == release.numbers[..n]
            || self.is_main() && release.is_main()
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_main() {
            return f.write_str("main");
        }
        for (n, number) in self.numbers[..usize::from(self.written)].iter().enumerate() {
            if n > 0 {
                f.write_str(".")?;
            }
            write!(f, "{number}")?;
        }
        Ok(())
    }
}

/// A set of a target's releases: bit `n` is its `n`-th release (oldest first). A target
/// without releases has one, bit 0.
pub type ReleaseSet = u64;

/// The most releases a target may list.
pub const MAX_RELEASES: usize = ReleaseSet::BITS as usize;

/// The first `n` releases.
fn first(n: usize) -> ReleaseSet {
    if n >= MAX_RELEASES {
        ReleaseSet::MAX
    } else {
        (1 << n) - 1
    }
}

/// Every release of a target with `count` releases (one, for a target without releases).
pub fn all(count: usize) -> ReleaseSet {
    first(count.max(1))
}

/// The releases from `since` (inclusive, `None`: the first) to `until` (exclusive, `None`: past
/// the last) of a target with `count` releases, given as positions in its list.
pub fn range(count: usize, since: Option<usize>, until: Option<usize>) -> ReleaseSet {
    let until = until.map_or(all(count), first);
    until & !first(since.unwrap_or(0))
}

/// The releases of `set` written as runs of a target's list: "4.1.0 to 5.0.9, main".
pub struct Spans<'r> {
    pub releases: &'r [Version],
    pub set: ReleaseSet,
}

impl fmt::Display for Spans<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut n = 0;
        let mut first = true;
        while n < self.releases.len() {
            if self.set & (1 << n) == 0 {
                n += 1;
                continue;
            }
            let start = n;
            while n + 1 < self.releases.len() && self.set & (1 << (n + 1)) != 0 {
                n += 1;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            match n - start {
                0 => write!(f, "{}", self.releases[start])?,
                _ => write!(f, "{} to {}", self.releases[start], self.releases[n])?,
            }
            n += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    #[test]
    fn versions_read_and_order() {
        assert!(v("4.0.2") < v("4.0.10") && v("4.0.10") < v("4.1.0") && v("5.0.1") < v("main"));
        assert_eq!(v("4.1").to_string(), "4.1");
        assert!(v("4.1").is_series() && !v("4.1.0").is_series() && !v("main").is_series());
        for bad in ["", "four", "4.", ".4", "4..1", "4.1.2.3", "-1", "4.1a", "v4.1", " 4.1", "9999999999"] {
            assert_eq!(Version::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_series_holds_its_releases_only() {
        assert!(v("4.1").holds(&v("4.1.0")) && v("4.1").holds(&v("4.1.8")));
        assert!(!v("4.1").holds(&v("4.10.0")) && !v("4.1").holds(&v("5.1.0")) && !v("4.1").holds(&v("main")));
        assert!(v("4").holds(&v("4.3.2")) && v("4.0.2").holds(&v("4.0.2")) && !v("4.0.2").holds(&v("4.0.3")));
        assert!(v("main").holds(&v("main")) && !v("main").holds(&v("5.0.1")));
    }

    #[test]
    fn ranges_and_spans() {
        assert_eq!(range(5, None, None), 0b11111);
        assert_eq!(range(5, Some(2), None), 0b11100);
        assert_eq!(range(5, None, Some(2)), 0b00011);
        assert_eq!(range(5, Some(1), Some(3)), 0b00110);
        assert_eq!(range(0, None, None), 1);
        assert_eq!(range(64, Some(63), None), 1 << 63);
        assert_eq!(range(5, None, Some(0)), 0);
        let releases: Vec<Version> = ["4.1.0", "4.1.1", "5.0.0", "5.0.1", "main"].iter().map(|r| v(r)).collect();
        let spans = |set| Spans { releases: &releases, set }.to_string();
        assert_eq!(spans(0b01111), "4.1.0 to 5.0.1");
        assert_eq!(spans(0b10101), "4.1.0, 5.0.0, main");
        assert_eq!(spans(0b11000), "5.0.1 to main");
    }
}
