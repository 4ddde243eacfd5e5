//! What the checker reports: a finding's code, its severity, and the finding.

use std::fmt;

/// What is wrong with a hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// No vocabulary knows the key.
    UnknownKey,
    /// The value is read otherwise than meant, or not at all.
    BadValue,
    /// A number with a unit suffix where a target reads plain integers.
    UnitSuffix,
    /// A number outside the range a target takes.
    OutOfRange,
    /// A known key that a named target does not read (for that object, in those releases),
    /// or stores without using.
    NotReadByTarget,
    /// A key or value longer than a target allows.
    TooLongForTarget,
    /// A combination a target documents as overriding or contradicting another.
    Conflict,
    /// A value read as meant, in a spelling of the target's own.
    UnusualSpelling,
}

impl Code {
    /// Every code, in the order docs/hints.md lists them.
    pub const ALL: [Code; 8] = [
        Code::UnknownKey,
        Code::BadValue,
        Code::UnitSuffix,
        Code::OutOfRange,
        Code::NotReadByTarget,
        Code::TooLongForTarget,
        Code::Conflict,
        Code::UnusualSpelling,
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
            Code::UnusualSpelling => "unusual-spelling",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The value is read otherwise than meant, or the call fails.
    Error,
    /// The hint has no effect on a named target.
    Warning,
    /// The hint is for another implementation or a library above the MPI, or is read as meant
    /// in an unusual spelling.
    Note,
}

impl Severity {
    /// Every severity, the gravest first.
    pub const ALL: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Note];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing wrong with one pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    pub severity: Severity,
    /// The position of the pair in the pairs checked.
    pub pair: usize,
    /// The key and value as given (invalid UTF-8 replaced).
    pub key: String,
    pub value: String,
    /// One line, naming the targets (and releases) concerned.
    pub message: String,
    /// What to write instead, where there is one thing to write: a key or a value.
    pub suggestion: Option<String>,
}
