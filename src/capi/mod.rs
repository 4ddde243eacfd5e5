//! The C API: the exported `MPI_*` functions, their `PMPI_*` twins, and the constants and
//! types of `include/mpi_info.h`.
//!
//! Each function's body runs inside [`boundary`], which turns `Err` into its error class and a
//! panic into `MPI_ERR_INTERN`. Arguments are checked left to right by the helpers below, one
//! per argument kind (SPEC §4's rules, written once); the first `?` that fails decides the
//! class, and no output is written before every argument has passed.
//!
//! The functions are safe to call in Rust's sense only because this module is private: C
//! callers promise what the MPI standard asks (a non-NULL string is NUL-terminated or at least
//! as long as the limit, a non-NULL output points to as many writable bytes as the call
//! writes); `crate::cstr` relies on exactly that and nothing more.
//!
//! Why the work is in `PMPI_*` and `MPI_*` only forwards: a profiling tool replaces `MPI_*`
//! and calls `PMPI_*` (SPEC §8). If `PMPI_*` called `MPI_*`, a tool linked statically would
//! call itself back through it.

#![allow(non_camel_case_types, non_snake_case)]

// Declared in the order the header lists them.
mod handle;
mod object;
mod conversion;
mod errors;
/// The old-style Fortran routines (`mpi_info_set_`, ...): not part of the C header, and only in
/// the integer-handle library, whose handles are Fortran's.
/// cbindgen:ignore
#[cfg(not(feature = "abi"))]
mod fortran;
// The MPIX_ toolkit for layered libraries, last: its section closes the header.
mod mpix;

use std::ffi::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use crate::cstr::{read_bounded, read_bounded_short};
use crate::error::Error;
use crate::info::{MAX_KEY_LEN, MAX_VALUE_LEN};

pub use handle::{MPI_Info, MPI_INFO_ENV, MPI_INFO_NULL};

// The `cfg(mpi_h = ...)` attributes below are always true for rustc (`mpi_h` is never set):
// they tell cbindgen the C condition each name is written under (cbindgen.toml, `[defines]`;
// docs/embedding.md): a name an `mpi.h` included first may have defined already.

/// A Fortran `INTEGER`, as used for handles by the Fortran bindings.
#[cfg(all(not(feature = "abi"), not(mpi_h = "MPI_VERSION")))]
pub type MPI_Fint = c_int;

/// Size of a buffer that holds the longest key and its terminating NUL (keys: 1..=255 chars).
#[cfg(not(mpi_h = "MPI_MAX_INFO_KEY"))]
pub const MPI_MAX_INFO_KEY: c_int = 256;
/// Size of a buffer that holds the longest value and its terminating NUL (values: 0..=1023 chars).
#[cfg(not(mpi_h = "MPI_MAX_INFO_VAL"))]
pub const MPI_MAX_INFO_VAL: c_int = 1024;
/// Size of a buffer that holds any error message and its terminating NUL.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_MAX_ERROR_STRING")))]
pub const MPI_MAX_ERROR_STRING: c_int = 512;
/// The thread level this library supports: any function, from any thread, at any time.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_THREAD_MULTIPLE")))]
pub const MPI_THREAD_MULTIPLE: c_int = 4096;

// The header's numbers are literals (plain `#define`s for C); these keep them in step with
// the limits the code enforces.
const _: () = assert!(MPI_MAX_INFO_KEY as usize == MAX_KEY_LEN + 1);
const _: () = assert!(MPI_MAX_INFO_VAL as usize == MAX_VALUE_LEN + 1);

/// Runs one C call: `Ok` is `MPI_SUCCESS`, `Err` its class, a panic `MPI_ERR_INTERN`.
fn boundary(call: impl FnOnce() -> Result<(), Error>) -> c_int {
    set_up();
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(())) => crate::error::MPI_SUCCESS,
        Ok(Err(error)) => error.code(),
        Err(_) => crate::error::MPI_ERR_INTERN,
    }
}

/// What the first call of the process does, once: keeps the library's own panics quiet and
/// registers the `fork` handlers (`crate::fork`).
///
/// A library called from C must not print (SPEC §4), not even for its own bug, which the caller
/// sees as `MPI_ERR_INTERN`. The hook keeps quiet about panics raised in this crate's source and
/// passes every other panic to the hook that was there before. It captures nothing, so boxing
/// it allocates nothing: installing it cannot run out of memory (the previous hook's box
/// already exists and is only moved into `PREVIOUS_HOOK`).
pub(crate) fn set_up() {
    static SET_UP: Once = Once::new();
    // `set_hook` panics on a thread that is unwinding (a call from a destructor during a Rust
    // panic); such a call sets up nothing, and a later one will.
    if SET_UP.is_completed() || std::thread::panicking() {
        return;
    }
    SET_UP.call_once(|| {
        crate::fork::register();
        let _ = PREVIOUS_HOOK.set(std::panic::take_hook());
        std::panic::set_hook(Box::new(|info| {
            let this_file = file!();
            let source_dir = &this_file[..this_file.len() - "capi/mod.rs".len()];
            let ours = info.location().is_some_and(|at| at.file().starts_with(source_dir));
            if !ours {
                if let Some(previous) = PREVIOUS_HOOK.get() {
                    previous(info);
                }
            }
        }));
    });
}

type PanicHook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;
static PREVIOUS_HOOK: OnceLock<PanicHook> = OnceLock::new();

/// An input key: NULL, empty or longer than 255 characters is `MPI_ERR_INFO_KEY`.
/// Never reads more than `MPI_MAX_INFO_KEY` bytes. What it returns passes `info::check_key`
/// (a C string holds no NUL), so the map need not check it again.
#[inline(always)]
fn key_arg<'a>(key: *const c_char) -> Result<&'a [u8], Error> {
    match read_bounded_short(key, MAX_KEY_LEN + 1) {
        Some(key) if !key.is_empty() && key.len() <= MAX_KEY_LEN => Ok(key),
        _ => Err(Error::InfoKey),
    }
}

/// An input value: NULL or longer than 1023 characters is `MPI_ERR_INFO_VALUE`.
/// Never reads more than `MPI_MAX_INFO_VAL` bytes. What it returns passes `info::check_value`.
fn value_arg<'a>(value: *const c_char) -> Result<&'a [u8], Error> {
    match read_bounded(value, MAX_VALUE_LEN + 1) {
        Some(value) if value.len() <= MAX_VALUE_LEN => Ok(value),
        _ => Err(Error::InfoValue),
    }
}

/// A length or index: negative is `MPI_ERR_ARG`.
fn count_arg(n: c_int) -> Result<usize, Error> {
    usize::try_from(n).map_err(|_| Error::Arg)
}

/// A count that goes back to C. Every count here is bounded far below `c_int::MAX`
/// (lengths by the value limit, key counts by `info::MAX_PAIRS`).
fn to_c_int(n: usize) -> Result<c_int, Error> {
    c_int::try_from(n).map_err(|_| Error::Intern)
}
