//! The description of each thread's last failed call, which `MPIX_Info_last_failure` reads: the
//! function, and what was wrong with which argument ("MPI_Info_set: key longer than 255
//! characters"), where an error class alone says only what kind of thing was wrong.
//!
//! Two steps. The argument check that fails [`note`]s a [`Detail`] as it returns its error;
//! the call's boundary, seeing the error, [`record`]s the description: the function's name and
//! the detail, or the class's message when no detail of that class was noted. Only failures
//! write: a call that succeeds leaves the last failure's description as it was, as `errno` is
//! left.
//!
//! Both are thread-local, initialised by constants and without destructors, like the panic
//! boundary's flag (`crate::panics`): no allocation, and no thread-local destructor registered
//! (docs/design.md, Unloading).

use std::cell::RefCell;
use std::ffi::c_int;
use std::fmt::{self, Write};

use crate::error::{message, Error};
use crate::hints::text::MessageBuf;

/// The longest description, in bytes: a function name and a detail fit with room to spare.
pub(crate) const MAX_DESCRIPTION: usize = 255;

/// What one argument check found wrong, with the numbers that say why.
///
/// The `...OfLength` and `...WithNul` variants are the Fortran routines', whose strings have a
/// known length and may hold a NUL; the `abi` build has no Fortran routines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "abi", allow(dead_code))]
pub(crate) enum Detail {
    /// A pointer argument, named, is NULL.
    Null(&'static str),
    /// A length, index or count argument, named, is negative.
    Negative(&'static str, c_int),
    /// `MPI_Info_get_nthkey`'s position is not below the number of keys.
    PastLastKey { position: usize, keys: usize },
    /// The key is NULL.
    NullKey,
    /// The key is empty (in Fortran: empty or all blanks).
    EmptyKey,
    /// A C key with no NUL within the longest key's length plus one: its length is not read.
    KeyTooLong,
    /// A key of known length (Fortran's, blanks stripped) over the limit.
    KeyOfLength(usize),
    /// A key of known length holding a NUL byte (Fortran's).
    KeyWithNul,
    /// The value is NULL.
    NullValue,
    /// A C value with no NUL within the longest value's length plus one.
    ValueTooLong,
    /// A value of known length (Fortran's, blanks stripped) over the limit.
    ValueOfLength(usize),
    /// A value of known length holding a NUL byte (Fortran's).
    ValueWithNul,
    /// The handle is `MPI_INFO_NULL`.
    InfoNull,
    /// The handle is `MPI_INFO_ENV`, where a call would change the object.
    InfoEnvReadOnly,
    /// The handle names no live object: never created, or freed. Its bits, as an address (the
    /// standard ABI build's handles are pointers) or as an `unsigned int`.
    DeadHandle(usize),
}

impl Detail {
    /// The error class this detail explains.
    fn class(self) -> Error {
        match self {
            Detail::Null(_) | Detail::Negative(..) | Detail::PastLastKey { .. } => Error::Arg,
            Detail::NullKey | Detail::EmptyKey | Detail::KeyTooLong | Detail::KeyOfLength(_) | Detail::KeyWithNul => {
                Error::InfoKey
            }
            Detail::NullValue | Detail::ValueTooLong | Detail::ValueOfLength(_) | Detail::ValueWithNul => {
                Error::InfoValue
            }
            Detail::InfoNull | Detail::InfoEnvReadOnly | Detail::DeadHandle(_) => Error::Info,
        }
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::info::{MAX_KEY_LEN, MAX_VALUE_LEN};
        match *self {
            Detail::Null(name) => write!(f, "{name} is NULL"),
            Detail::Negative(name, n) => write!(f, "{name} is {n}, which is negative"),
            Detail::PastLastKey { position, keys: 1 } => write!(f, "n is {position}, and the object has 1 key"),
            Detail::PastLastKey { position, keys } => write!(f, "n is {position}, and the object has {keys} keys"),
            Detail::NullKey => f.write_str("the key is NULL"),
            Detail::EmptyKey => f.write_str("the key is empty"),
            Detail::KeyTooLong => write!(f, "the key is longer than {MAX_KEY_LEN} characters, the most a key has"),
            Detail::KeyOfLength(n) => write!(f, "a key of {n} characters; the longest is {MAX_KEY_LEN}"),
            Detail::KeyWithNul => f.write_str("the key holds a NUL character"),
            Detail::ValueTooLong => {
                write!(f, "the value is longer than {MAX_VALUE_LEN} characters, the most a value has")
            }
            Detail::ValueOfLength(n) => write!(f, "a value of {n} characters; the longest is {MAX_VALUE_LEN}"),
            Detail::NullValue => f.write_str("the value is NULL"),
            Detail::ValueWithNul => f.write_str("the value holds a NUL character"),
            Detail::InfoNull => f.write_str("the info handle is MPI_INFO_NULL"),
            Detail::InfoEnvReadOnly => f.write_str("the info handle is MPI_INFO_ENV, which is read-only"),
            Detail::DeadHandle(handle) => {
                write!(f, "the info handle {handle:#x} names no live object (never created, or freed)")
            }
        }
    }
}

/// A description: up to [`MAX_DESCRIPTION`] bytes, anything longer cut off.
type Description = MessageBuf<MAX_DESCRIPTION>;

thread_local! {
    /// What the failing argument check of the call under way noted: the class it explains and
    /// the detail, written out.
    static NOTED: RefCell<Option<(Error, Description)>> = const { RefCell::new(None) };
    /// The description of this thread's last failed call; empty before the first.
    static LAST: RefCell<Description> = const { RefCell::new(Description::new()) };
}

/// Notes why an argument check fails. Called only where the error it explains is returned,
/// on its way to the call's boundary: every error passes through `?` to it, so what is noted
/// is always the call's own.
#[cold]
pub(crate) fn note(detail: Detail) {
    note_text(detail.class(), format_args!("{detail}"));
}

/// Notes why an argument check fails in words of the caller's own: what was wrong with which
/// argument, for an error of `class` (a vocabulary's first error, a target's name).
#[cold]
pub(crate) fn note_text(class: Error, detail: fmt::Arguments<'_>) {
    NOTED.with(|noted| {
        let Ok(mut noted) = noted.try_borrow_mut() else { return };
        let mut text = Description::new();
        let _ = text.write_fmt(detail);
        *noted = Some((class, text));
    });
}

/// Notes `detail` and gives its class: `Err(failed(Detail::EmptyKey))`.
#[cold]
pub(crate) fn failed(detail: Detail) -> Error {
    note(detail);
    detail.class()
}

/// [`note_text`], giving the class: `Err(failed_with(Error::Arg, format_args!(...)))`.
#[cold]
pub(crate) fn failed_with(class: Error, detail: fmt::Arguments<'_>) -> Error {
    note_text(class, detail);
    class
}

/// What was noted, taken (nothing is left noted).
fn take_noted() -> Option<(Error, Description)> {
    NOTED.with(|noted| noted.try_borrow_mut().ok().and_then(|mut noted| noted.take()))
}

/// Records the description of a call of `function` that failed with `error`: the noted
/// detail if it explains this class, otherwise the class's message.
#[cold]
pub(crate) fn record(function: &str, error: Error) {
    let detail = take_noted().filter(|(class, _)| *class == error);
    // A thread already writing its description (only a signal handler's call could meet it)
    // keeps the one under way.
    LAST.with(|last| {
        let Ok(mut last) = last.try_borrow_mut() else { return };
        *last = Description::new();
        let _ = match detail {
            Some((_, detail)) => write!(last, "{function}: {}", detail.as_str()),
            None => write!(last, "{function}: {}", class_text(error)),
        };
    });
}

/// The class's message without its name: "invalid info key" of "MPI_ERR_INFO_KEY: invalid info
/// key".
fn class_text(error: Error) -> &'static str {
    let text = message(error.code()).unwrap_or("unknown error");
    text.split_once(": ").map_or(text, |(_, text)| text)
}

/// Drops what was noted, for a failure that is not recorded (`record` takes it otherwise).
pub(crate) fn forget() {
    take_noted();
}

/// Runs `read` on this thread's last description (empty before the first failure).
pub(crate) fn last<R>(read: impl FnOnce(&[u8]) -> R) -> R {
    LAST.with(|last| match last.try_borrow() {
        Ok(last) => read(last.as_str().as_bytes()),
        Err(_) => read(&[]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described() -> String {
        last(|text| String::from_utf8(text.to_vec()).unwrap())
    }

    #[test]
    fn a_noted_detail_of_the_class_is_described_and_used_once() {
        record("MPI_Info_set", failed(Detail::KeyOfLength(300)));
        assert_eq!(described(), "MPI_Info_set: a key of 300 characters; the longest is 255");
        // Nothing noted: the class's message.
        record("MPI_Info_delete", Error::InfoNoKey);
        assert_eq!(described(), "MPI_Info_delete: key not in the info object");
    }

    #[test]
    fn a_detail_in_words_is_described_with_its_class_only() {
        record("MPIX_Info_check", failed_with(Error::Arg, format_args!("targets names 'nosuch'")));
        assert_eq!(described(), "MPIX_Info_check: targets names 'nosuch'");
        note_text(Error::Arg, format_args!("targets names 'nosuch'"));
        record("MPIX_Info_check", Error::NoMem);
        assert_eq!(described(), "MPIX_Info_check: out of memory");
        // A detail past the description's room is cut at a character boundary.
        record("MPIX_Info_check_with_vocab", failed_with(Error::Arg, format_args!("{}", "é".repeat(300))));
        assert!(described().len() <= MAX_DESCRIPTION && described().ends_with('é'));
    }

    #[test]
    fn a_detail_of_another_class_is_not_used() {
        note(Detail::Null("flag"));
        record("MPI_Info_get", Error::InfoKey);
        assert_eq!(described(), "MPI_Info_get: invalid info key");
    }

    #[test]
    fn every_detail_fits_with_the_longest_name_and_a_long_one_is_cut() {
        let details = [
            Detail::Null("newinfo"),
            Detail::Negative("valuelen", c_int::MIN),
            Detail::PastLastKey { position: usize::MAX, keys: usize::MAX },
            Detail::NullKey,
            Detail::EmptyKey,
            Detail::KeyTooLong,
            Detail::KeyOfLength(usize::MAX),
            Detail::KeyWithNul,
            Detail::NullValue,
            Detail::ValueTooLong,
            Detail::ValueOfLength(usize::MAX),
            Detail::ValueWithNul,
            Detail::InfoNull,
            Detail::InfoEnvReadOnly,
            Detail::DeadHandle(usize::MAX),
        ];
        for detail in details {
            record("MPIX_Info_check_with_vocab", failed(detail));
            let text = described();
            assert!(text.len() < 128, "{text}");
            assert_eq!(text, format!("MPIX_Info_check_with_vocab: {detail}"));
        }
        record(&"x".repeat(400), Error::Arg);
        assert_eq!(described().len(), MAX_DESCRIPTION);
    }

    #[test]
    fn each_thread_has_its_own() {
        record("MPI_Info_free", failed(Detail::InfoNull));
        std::thread::spawn(|| {
            assert_eq!(described(), "");
            record("MPI_Info_dup", Error::NoMem);
            assert_eq!(described(), "MPI_Info_dup: out of memory");
        })
        .join()
        .unwrap();
        assert_eq!(described(), "MPI_Info_free: the info handle is MPI_INFO_NULL");
    }
}
