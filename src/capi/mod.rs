//! The C API: the exported `MPI_*` functions, their `PMPI_*` twins, and the constants and
//! types of `include/mpi_info.h`.
//!
//! Each function's body runs inside [`boundary`], which turns `Err` into its error class and a
//! panic into `MPI_ERR_INTERN` (silently: `crate::panics`), and describes a failure for
//! `MPIX_Info_last_failure` (`crate::failure`). Arguments are checked left to right by one
//! helper per argument kind (docs/reference.md, "Rules every function follows", written once):
//! the input helpers below, the output ones in `crate::cstr`; the first `?` that fails decides
//! the class, and no output is written before every argument has passed.
//!
//! The functions are safe to call in Rust's sense only because this module is private: C
//! callers promise what the MPI standard asks (a non-NULL string is NUL-terminated or at least
//! as long as the limit, a non-NULL output points to as many writable bytes as the call
//! writes); `crate::cstr` relies on exactly that and nothing more. The helpers that read an
//! argument through a pointer are `unsafe fn`, and each call says why the caller's promise
//! covers it.
//!
//! Why the work is in `PMPI_*` and `MPI_*` only forwards: a profiling tool replaces `MPI_*` and
//! calls `PMPI_*` (docs/reference.md, "Profiling names"). If `PMPI_*` called `MPI_*`, a tool linked
//! statically would call itself back through it.

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

use crate::cstr::read_bounded;
use crate::error::Error;
use crate::failure::{self, failed, Detail};
use crate::info::{MAX_KEY_LEN, MAX_VALUE_LEN};
use crate::panics::quietly;
use crate::setup::set_up;

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
#[allow(dead_code)] // for the header: no Rust code needs it
pub const MPI_MAX_ERROR_STRING: c_int = 512;
/// The thread level this library supports: any function, from any thread, at any time.
#[cfg(not(any(mpi_h = "MPI-2", mpi_h = "MPI_THREAD_MULTIPLE")))]
#[allow(dead_code)] // for the header: no Rust code needs it
pub const MPI_THREAD_MULTIPLE: c_int = 4096;

// The header's numbers are literals (plain `#define`s for C); these keep them in step with
// the limits the code enforces.
const _: () = assert!(MPI_MAX_INFO_KEY as usize == MAX_KEY_LEN + 1);
const _: () = assert!(MPI_MAX_INFO_VAL as usize == MAX_VALUE_LEN + 1);

/// Runs one C call of `function` (its `MPI_` name): `Ok` is `MPI_SUCCESS`, `Err` its class, a
/// panic `MPI_ERR_INTERN` (and silent: the thread is inside the library while `call` runs,
/// `crate::panics`). A failure is described for `MPIX_Info_last_failure` (`crate::failure`).
///
/// Not `#[inline(always)]`: inlined everywhere, it makes the bodies too large for each `MPI_*`
/// function to inline its `PMPI_*` twin, whose call would then go through the symbol table, to
/// another copy's `PMPI_*` when two copies of the library are loaded (`tests-c/abi_handles.c`).
fn boundary(function: &'static str, call: impl FnOnce() -> Result<(), Error>) -> c_int {
    match run(call) {
        Ok(()) => crate::error::MPI_SUCCESS,
        Err(error) => {
            failure::record(function, error);
            error.code()
        }
    }
}

/// [`boundary`] for the functions that read an error's message, class or description: their
/// own failure replaces no description, so that reading one never loses it.
fn boundary_keeping_failure(call: impl FnOnce() -> Result<(), Error>) -> c_int {
    match run(call) {
        Ok(()) => crate::error::MPI_SUCCESS,
        Err(error) => {
            failure::forget();
            error.code()
        }
    }
}

/// The set-up, then `call` with the thread inside the library; a panic is `MPI_ERR_INTERN`.
#[inline(always)]
fn run(call: impl FnOnce() -> Result<(), Error>) -> Result<(), Error> {
    set_up();
    quietly(call).unwrap_or(Err(Error::Intern))
}

/// An input key: NULL, empty or longer than 255 characters is `MPI_ERR_INFO_KEY`.
/// Never reads more than `MPI_MAX_INFO_KEY` bytes. What it returns passes `info::check_key`
/// (a C string holds no NUL), so the map need not check it again.
///
/// # Safety
/// `key` is NULL or a C string (readable up to its NUL or `MPI_MAX_INFO_KEY` bytes), not
/// written while `'a` lasts: what the entry points promise of their key.
#[inline(always)]
unsafe fn key_arg<'a>(key: *const c_char) -> Result<&'a [u8], Error> {
    // SAFETY: the caller's promise is `read_bounded`'s, with this bound.
    match unsafe { read_bounded(key, MAX_KEY_LEN + 1) } {
        Some(key) if !key.is_empty() && key.len() <= MAX_KEY_LEN => Ok(key),
        None => Err(failed(Detail::NullKey)),
        Some([]) => Err(failed(Detail::EmptyKey)),
        Some(_) => Err(failed(Detail::KeyTooLong)),
    }
}

/// An input value: NULL or longer than 1023 characters is `MPI_ERR_INFO_VALUE`.
/// Never reads more than `MPI_MAX_INFO_VAL` bytes. What it returns passes `info::check_value`.
///
/// # Safety
/// `value` is NULL or a C string (readable up to its NUL or `MPI_MAX_INFO_VAL` bytes), not
/// written while `'a` lasts: what the entry points promise of their value.
unsafe fn value_arg<'a>(value: *const c_char) -> Result<&'a [u8], Error> {
    // SAFETY: the caller's promise is `read_bounded`'s, with this bound.
    match unsafe { read_bounded(value, MAX_VALUE_LEN + 1) } {
        Some(value) if value.len() <= MAX_VALUE_LEN => Ok(value),
        None => Err(failed(Detail::NullValue)),
        Some(_) => Err(failed(Detail::ValueTooLong)),
    }
}

/// A length or index, named `name`: negative is `MPI_ERR_ARG`.
fn count_arg(n: c_int, name: &'static str) -> Result<usize, Error> {
    usize::try_from(n).map_err(|_| failed(Detail::Negative(name, n)))
}

/// A count that goes back to C. Every count here is bounded far below `c_int::MAX`
/// (lengths by the value limit, key counts by `info::MAX_PAIRS`).
fn to_c_int(n: usize) -> Result<c_int, Error> {
    c_int::try_from(n).map_err(|_| Error::Intern)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Set in the copy of the test program that [`panic_hook_sees_only_panics_outside_calls`]
    /// runs, whose first call of the library this test is.
    const CHILD: &str = "MPI_INFO_TEST_PANIC_CHILD";

    /// The hook is installed once per process, so the test runs in a process of its own: this
    /// test program again, running only `panic_hook_child`.
    #[test]
    fn panic_hook_sees_only_panics_outside_calls() {
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "capi::tests::panic_hook_child", "--test-threads=1", "--nocapture"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&child.stdout) + String::from_utf8_lossy(&child.stderr);
        assert!(child.status.success(), "the child test failed ({}):\n{said}", child.status);
        assert!(said.contains("1 passed"), "the child test did not run:\n{said}");
    }

    /// A program's own hook, installed before the library's first call, sees every panic
    /// raised outside a call (on any thread, before and after calls), and none raised inside
    /// one, which is `MPI_ERR_INTERN`.
    #[test]
    fn panic_hook_child() {
        if std::env::var_os(CHILD).is_none() {
            return;
        }
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        std::panic::set_hook(Box::new(|_| {
            SEEN.fetch_add(1, Ordering::SeqCst);
        }));
        let outside = || std::thread::spawn(|| panic!("outside")).join().is_err();

        assert_eq!(boundary("test", || Ok(())), crate::error::MPI_SUCCESS);
        assert!(outside());
        assert_eq!(SEEN.load(Ordering::SeqCst), 1, "a panic outside a call was hidden");

        assert_eq!(boundary("test", || panic!("inside")), crate::error::MPI_ERR_INTERN);
        // Nested, as when a host passes a code back: the outer call is still inside after the
        // inner one returns.
        let nested = boundary("test", || {
            assert_eq!(boundary("test", || Ok(())), crate::error::MPI_SUCCESS);
            panic!("inside, after a nested call")
        });
        assert_eq!(nested, crate::error::MPI_ERR_INTERN);
        let on_a_thread = std::thread::spawn(|| boundary("test", || panic!("inside, on another thread")));
        assert_eq!(on_a_thread.join().unwrap(), crate::error::MPI_ERR_INTERN);
        assert_eq!(SEEN.load(Ordering::SeqCst), 1, "a panic inside a call reached the hook");

        // After a call that panicked, the thread is outside again.
        assert!(std::panic::catch_unwind(|| panic!("outside, after")).is_err());
        assert_eq!(SEEN.load(Ordering::SeqCst), 2, "a panic after a call was hidden");
        assert!(outside());
        assert_eq!(SEEN.load(Ordering::SeqCst), 3);
    }
}
