//! Error classes: the numbers C sees, and the messages behind them.
//!
//! The numbers are those of the MPI-5.0 standard ABI (docs/reference.md, "Types and
//! constants"); they never change.
//!
//! Every `mpi.h` defines these names too. Their `cfg` attributes are always true for rustc
//! (`mpi_h` is never set): they tell cbindgen the C condition each `#define` is written under
//! (cbindgen.toml, `[defines]`), here "no `mpi.h` of MPI-2 or later came first, and this name
//! is not a macro yet" (docs/embedding.md).

use std::ffi::c_int;
use std::fmt;

/// No error.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_SUCCESS")))]
pub const MPI_SUCCESS: c_int = 0;
/// Invalid argument: a NULL output pointer, a negative length or an index out of range.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_ARG")))]
pub const MPI_ERR_ARG: c_int = 13;
/// Known error not in this list.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_OTHER")))]
pub const MPI_ERR_OTHER: c_int = 16;
/// Internal error: a bug inside the library (a caught panic).
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_INTERN")))]
pub const MPI_ERR_INTERN: c_int = 17;
/// Invalid key: NULL, empty, or longer than `MPI_MAX_INFO_KEY - 1` characters.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_INFO_KEY")))]
pub const MPI_ERR_INFO_KEY: c_int = 31;
/// The key is not in the info object.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_INFO_NOKEY")))]
pub const MPI_ERR_INFO_NOKEY: c_int = 32;
/// Invalid value: NULL, or longer than `MPI_MAX_INFO_VAL - 1` characters; for the `MPIX_`
/// calls also a value not of the type a typed read asks for, or a malformed hint text entry.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_INFO_VALUE")))]
pub const MPI_ERR_INFO_VALUE: c_int = 33;
/// Invalid info handle: not a live object, or `MPI_INFO_ENV` where it would be changed.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_INFO")))]
pub const MPI_ERR_INFO: c_int = 34;
/// Out of memory.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_ERR_NO_MEM")))]
pub const MPI_ERR_NO_MEM: c_int = 39;

/// Why an operation failed. Each variant is one MPI error class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Error {
    Arg = MPI_ERR_ARG,
    Other = MPI_ERR_OTHER,
    Intern = MPI_ERR_INTERN,
    InfoKey = MPI_ERR_INFO_KEY,
    InfoNoKey = MPI_ERR_INFO_NOKEY,
    InfoValue = MPI_ERR_INFO_VALUE,
    Info = MPI_ERR_INFO,
    NoMem = MPI_ERR_NO_MEM,
}

/// Every error code this library knows, `MPI_SUCCESS` included, with its message: the class's
/// name and what it means, short enough for any MPI's `MPI_MAX_ERROR_STRING` (docs/embedding.md
/// states the longest). What was wrong in one failed call, and with which argument, is the
/// thread's failure description (`crate::failure`, `MPIX_Info_last_failure`).
const MESSAGES: [(c_int, &str); 9] = [
    (MPI_SUCCESS, "MPI_SUCCESS: no error"),
    (MPI_ERR_ARG, "MPI_ERR_ARG: invalid argument"),
    (MPI_ERR_OTHER, "MPI_ERR_OTHER: known error not in this list"),
    (MPI_ERR_INTERN, "MPI_ERR_INTERN: internal error in the info library"),
    (MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY: invalid info key"),
    (MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY: key not in the info object"),
    (MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE: invalid info value"),
    (MPI_ERR_INFO, "MPI_ERR_INFO: invalid info object"),
    (MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM: out of memory"),
];

/// The message for an error code, or `None` for a code this library does not know.
pub fn message(code: c_int) -> Option<&'static str> {
    MESSAGES.iter().find(|(c, _)| *c == code).map(|(_, m)| *m)
}

impl Error {
    /// The MPI error class, as returned to C.
    pub fn code(self) -> c_int {
        self as c_int
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(message(self.code()).unwrap_or("unknown error"))
    }
}

impl std::error::Error for Error {}

impl From<std::collections::TryReserveError> for Error {
    fn from(_: std::collections::TryReserveError) -> Self {
        Error::NoMem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The longest message's length in bytes, its NUL not counted (docs/embedding.md).
    const LONGEST_MESSAGE: usize = 50;

    #[test]
    fn every_class_has_a_short_message_naming_it() {
        for e in [
            Error::Arg,
            Error::Other,
            Error::Intern,
            Error::InfoKey,
            Error::InfoNoKey,
            Error::InfoValue,
            Error::Info,
            Error::NoMem,
        ] {
            let m = message(e.code()).expect("message");
            assert!(m.len() <= LONGEST_MESSAGE, "{m}");
            assert!(m.starts_with("MPI_ERR_"), "{m}");
        }
        assert!(message(MPI_SUCCESS).is_some());
        assert_eq!(MESSAGES.iter().map(|(_, m)| m.len()).max(), Some(LONGEST_MESSAGE));
        assert_eq!(message(-1), None);
        assert_eq!(message(1000), None);
    }
}
