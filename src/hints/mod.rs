//! Hints that are right: the field's hint vocabulary and a checker over it (docs/hints.md).
//!
//! The vocabulary, `data/hints.json`, says for every hint key that the MPI standard, MPICH
//! (ROMIO included), Open MPI (OMPIO included), PnetCDF and Cray MPICH read: the objects it
//! applies to, its type and range, and for each implementation how it reads the value and
//! where in its source. The checker reads a set of pairs the way each named implementation
//! would and reports what would go wrong in silence there.
//!
//! ```
//! use mpi_info::hints::{check, Code, Targets, Vocabulary};
//!
//! let vocabulary = Vocabulary::builtin().unwrap();
//! let targets = Targets::parse(vocabulary, Some("mpich")).unwrap();
//! let pairs: [(&[u8], &[u8]); 2] = [(b"cb_buffer_size", b"16M"), (b"cb_bufer_size", b"4")];
//! let findings = check(vocabulary, &targets, &pairs).unwrap();
//! assert_eq!(findings[0].code, Code::UnitSuffix);         // ROMIO reads "16M" as 16
//! assert_eq!(findings[0].suggestion.as_deref(), Some("16777216"));
//! assert_eq!(findings[1].code, Code::UnknownKey);
//! assert_eq!(findings[1].suggestion.as_deref(), Some("cb_buffer_size"));
//! ```
//!
//! A layered library describes its own hints in a document of the same form and checks
//! against both:
//!
//! ```
//! use mpi_info::hints::{check, Targets, Vocabulary};
//!
//! let ours = br#"{"format": "mpi-info-hints", "version": 1,
//!   "targets": [{"name": "mylib", "title": "My I/O library", "read": "mylib 1.0"}],
//!   "keys": [{"key": "mylib_cache", "objects": ["file"], "type": "bool", "summary": "cache writes",
//!             "readers": [{"target": "mylib", "parse": "words", "accepts": ["true", "false"],
//!                          "source": "src/open.c"}]}]}"#;
//! let vocabulary = Vocabulary::from_json(ours, Some(Vocabulary::builtin().unwrap())).unwrap();
//! let targets = Targets::parse(&vocabulary, Some("mylib,mpich")).unwrap();
//! let pairs: [(&[u8], &[u8]); 1] = [(b"mylib_cache", b"yes")];
//! let findings = check(&vocabulary, &targets, &pairs).unwrap();
//! assert_eq!(findings[0].code.as_str(), "bad-value");
//! ```

/// An enum whose variants are named in the vocabulary file: `NAMES` for reading, `as_str`
/// for writing.
macro_rules! named_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$variant_doc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[$variant_doc])* $variant,)*
        }

        impl $name {
            pub(crate) const NAMES: &'static [(&'static str, $name)] = &[$(($text, $name::$variant),)*];

            /// The name the vocabulary file uses.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }
    };
}

mod check;
mod finding;
mod json;
pub mod parsers;
pub mod release;
pub mod syntax;
mod targets;
pub(crate) mod text;
mod textcheck;
mod verdict;
mod vocab;

pub use check::{check, check_object};
pub use finding::{Code, Finding, Severity};
pub use parsers::Parser;
pub use parsers::Reading;
pub use release::Version;
pub use targets::{TargetError, Targets};
pub use text::{shown_escaped, Escaped, JsonText, Quoted};
pub use textcheck::{check_text, TextFinding};
pub use verdict::Takes;
pub use vocab::{
    Condition, Conflict, Elements, Entry, Invalid, Kind, Reader, Sentinel, Syntax, Target, Vocabulary, VocabularyError,
    BUILTIN_TEXT, MAX_TARGETS,
};

#[cfg(test)]
mod tests;
