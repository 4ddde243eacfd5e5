//! `MPI_Error_string` and `MPI_Error_class`, the `MPIX_Info_error_*` pair a host MPI calls, and
//! `MPIX_Info_last_failure`, which reads the thread's description of its last failed call
//! (`crate::failure`). None of them changes that description.
//!
//! A host MPI library (docs/embedding.md) defines `MPI_Error_string` and `MPI_Error_class` too,
//! for its own codes. Whichever definition a program reaches, every code must get its owner's
//! answer:
//! - this library's functions answer for the codes it returns and pass any other code on to the
//!   host's definition of the name: the next one in the dynamic linker's lookup order
//!   (`dlsym(RTLD_NEXT)`), the host's when its shared library comes after this one; without
//!   one, the first among the other loaded objects, which finds a host opened with
//!   `dlopen(..., RTLD_LOCAL)` (`crate::host`). Without any, such a code is `MPI_ERR_ARG`.
//! - a host whose functions come first (or that is linked statically: the archive's error
//!   functions are weak, so the host's take their place) passes the codes it does not own to
//!   `MPIX_Info_error_string` and `MPIX_Info_error_class`, which answer for this library's codes
//!   and never pass anything on.
//!
//! A host that passes a code back to `MPI_Error_string` would send it round in a circle; a call
//! that arrives while this thread is already passing a code on is answered here, not passed on.
//!
//! Each exported function's doc comment is also its man page: tools/manpages.py reads it from
//! the header and describes the form it takes (summary, description, Parameters, Errors in
//! checking order, Notes, See also).

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void};

use super::{boundary_keeping_failure, count_arg, to_c_int};
use crate::cstr::{Out, OutStr};
use crate::error::{message, Error};
use crate::failure;
use crate::host::host_definition;
use crate::nocancel::NoCancel;

/// Gives the message for an error code.
///
/// Writes the message for `errorcode` and a NUL to `string`, and the message's length, the NUL
/// not counted, to `*resultlen`. Every message starts with the name of its class
/// (`MPI_ERR_INFO_KEY: invalid info key ...`) and is shorter than `MPI_MAX_ERROR_STRING`
/// bytes with its NUL. Knows every code this library returns, `MPI_SUCCESS` included.
///
/// Any other code goes to the host MPI library's `PMPI_Error_string` (or its `MPI_Error_string`)
/// when a shared library linked after this one defines it, and the call returns what that
/// returns (docs/embedding.md).
///
/// Parameters:
/// - `errorcode` (in): an error code;
/// - `string` (out): the message and a NUL; must hold `MPI_MAX_ERROR_STRING` bytes;
/// - `resultlen` (out): the message's length.
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_ARG`: `errorcode` is not a code this library returns, and no host library answers
///   for it;
/// - `MPI_ERR_ARG`: `string` is NULL, or `resultlen` is NULL.
///
/// Notes:
/// In Fortran, `STRING` is blank-padded to its declared length, and `RESULTLEN` is the number
/// of the message's characters written; the Fortran routine passes a code this library does
/// not own to the host's C function in the same way.
///
/// See also: `MPI_Error_class`, `MPIX_Info_error_string`.
#[no_mangle]
pub extern "C" fn MPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int {
    PMPI_Error_string(errorcode, string, resultlen)
}

/// Profiling name of `MPI_Error_string`.
#[no_mangle]
pub extern "C" fn PMPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int {
    if message(errorcode).is_none() {
        if let Some(code) = host_error_string(errorcode, string, resultlen) {
            return code;
        }
    }
    PMPIX_Info_error_string(errorcode, string, resultlen)
}

/// Gives the error class of an error code.
///
/// Stores the error class of `errorcode` in `*errorclass`. Every code this library returns is
/// its own class, so `*errorclass` is `errorcode`.
///
/// Any other code goes to the host MPI library's `PMPI_Error_class` (or its `MPI_Error_class`)
/// when a shared library linked after this one defines it, and the call returns what that
/// returns (docs/embedding.md).
///
/// Parameters:
/// - `errorcode` (in): an error code;
/// - `errorclass` (out): its class.
///
/// Errors, in checking order (on error `*errorclass` is not written):
/// - `MPI_ERR_ARG`: `errorcode` is not a code this library returns, and no host library answers
///   for it;
/// - `MPI_ERR_ARG`: `errorclass` is NULL.
///
/// See also: `MPI_Error_string`, `MPIX_Info_error_class`.
#[no_mangle]
pub extern "C" fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    PMPI_Error_class(errorcode, errorclass)
}

/// Profiling name of `MPI_Error_class`.
#[no_mangle]
pub extern "C" fn PMPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    if message(errorcode).is_none() {
        if let Some(code) = host_error_class(errorcode, errorclass) {
            return code;
        }
    }
    PMPIX_Info_error_class(errorcode, errorclass)
}

/// Gives the message for an error code of this library, for a host MPI's `MPI_Error_string`.
///
/// `MPI_Error_string` for the codes this library returns, `MPI_SUCCESS` included, and never
/// anything else: every other code is `MPI_ERR_ARG`. A host MPI library whose own
/// `MPI_Error_string` is the one programs reach passes it the codes it does not own
/// (docs/embedding.md).
///
/// Parameters:
/// - `errorcode` (in): an error code this library returns;
/// - `string` (out): the message and a NUL; must hold `MPI_MAX_ERROR_STRING` bytes;
/// - `resultlen` (out): the message's length.
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_ARG`: `errorcode` is not a code this library returns;
/// - `MPI_ERR_ARG`: `string` is NULL, or `resultlen` is NULL.
///
/// See also: `MPI_Error_string`, `MPIX_Info_error_class`.
#[no_mangle]
pub extern "C" fn MPIX_Info_error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int {
    PMPIX_Info_error_string(errorcode, string, resultlen)
}

/// Profiling name of `MPIX_Info_error_string`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int {
    boundary_keeping_failure(|| {
        let text = message(errorcode).ok_or(Error::Arg)?.as_bytes();
        let string = OutStr::new(string, "string")?;
        let resultlen = Out::new(resultlen, "resultlen")?;
        string.put(text, text.len());
        resultlen.put(to_c_int(text.len())?);
        Ok(())
    })
}

/// Gives the error class of an error code of this library, for a host MPI's `MPI_Error_class`.
///
/// `MPI_Error_class` for the codes this library returns, each its own class, and never
/// anything else: every other code is `MPI_ERR_ARG`. A host MPI library whose own
/// `MPI_Error_class` is the one programs reach passes it the codes it does not own
/// (docs/embedding.md).
///
/// Parameters:
/// - `errorcode` (in): an error code this library returns;
/// - `errorclass` (out): its class, which is `errorcode`.
///
/// Errors, in checking order (on error `*errorclass` is not written):
/// - `MPI_ERR_ARG`: `errorcode` is not a code this library returns;
/// - `MPI_ERR_ARG`: `errorclass` is NULL.
///
/// See also: `MPI_Error_class`, `MPIX_Info_error_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    PMPIX_Info_error_class(errorcode, errorclass)
}

/// Profiling name of `MPIX_Info_error_class`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    boundary_keeping_failure(|| {
        message(errorcode).ok_or(Error::Arg)?;
        Out::new(errorclass, "errorclass")?.put(errorcode);
        Ok(())
    })
}

/// Describes this thread's last failed call.
///
/// Gives what went wrong in the last call of this library that failed on the calling thread:
/// the function and, where an argument was wrong, which one and why, as in
/// `MPI_Info_set: the key is longer than 255 characters, the most a key has` or
/// `MPI_Info_get: flag is NULL`; for a failure no argument explains, the function and its
/// class's message (`MPI_Info_dup: out of memory`). Before any failure on the thread the
/// description is empty. A description is never longer than 255 characters.
///
/// If `*buflen > 0`, the description's first `min(length, *buflen - 1)` characters and a NUL
/// are written to `description`; then `*buflen` is set to the length plus one, the buffer size
/// the whole description needs. With `*buflen == 0` nothing is written to `description`,
/// which may then be NULL. A buffer of 256 bytes holds any description.
///
/// Only failures write the description: a call that succeeds leaves it as it was. The error
/// functions (`MPI_Error_string`, `MPI_Error_class`, `MPIX_Info_error_string`,
/// `MPIX_Info_error_class`) and this one never change it, so that reading a failure's message
/// does not lose its description. The Fortran routines record their failures too, under their
/// Fortran names (`MPI_INFO_SET: a key of 300 characters; the longest is 255`).
///
/// Parameters:
/// - `buflen` (in/out): in, the size of `description` in bytes; out, the description's length
///   plus one;
/// - `description` (out): the description (or its beginning) and a NUL, at most `*buflen`
///   bytes.
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_ARG`: `buflen` is NULL, `*buflen` is negative, or `description` is NULL while
///   `*buflen > 0`.
///
/// Notes:
/// The description is for people (a log line, an error report); programs decide on the
/// error class, which every function returns. Neither MPICH nor Open MPI has this function.
///
/// See also: `MPI_Error_string`, `MPIX_Info_error_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_last_failure(buflen: *mut c_int, description: *mut c_char) -> c_int {
    PMPIX_Info_last_failure(buflen, description)
}

/// Profiling name of `MPIX_Info_last_failure`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_last_failure(buflen: *mut c_int, description: *mut c_char) -> c_int {
    boundary_keeping_failure(|| {
        let buflen = Out::new(buflen, "buflen")?;
        let size = count_arg(buflen.get(), "*buflen")?;
        let description = if size > 0 { Some(OutStr::new(description, "description")?) } else { None };
        failure::last(|text| {
            if let Some(description) = description {
                description.put(text, size - 1);
            }
            buflen.put(to_c_int(text.len() + 1)?);
            Ok(())
        })
    })
}

type ErrorStringFn = unsafe extern "C" fn(c_int, *mut c_char, *mut c_int) -> c_int;
type ErrorClassFn = unsafe extern "C" fn(c_int, *mut c_int) -> c_int;

/// The host's `MPI_Error_string` on a code this library does not own; `None` where no host
/// library defines it (`crate::host`), or this thread is already passing a code on.
fn host_error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> Option<c_int> {
    pass_on(|| {
        let host = host_definition(c"PMPI_Error_string", c"MPI_Error_string")?;
        // SAFETY: the MPI standard fixes the C prototype of (P)MPI_Error_string, so a definition
        // of that name in another library of the process has this type.
        let function = unsafe { std::mem::transmute::<*mut c_void, ErrorStringFn>(host.address.as_ptr()) };
        // SAFETY: the arguments are the caller's, passed on unchanged under the same contract;
        // `host` keeps the function's object loaded until the call has returned.
        Some(unsafe { function(errorcode, string, resultlen) })
    })
}

/// [`host_error_string`] for `MPI_Error_class`.
fn host_error_class(errorcode: c_int, errorclass: *mut c_int) -> Option<c_int> {
    pass_on(|| {
        let host = host_definition(c"PMPI_Error_class", c"MPI_Error_class")?;
        // SAFETY: as in `host_error_string`, for the standard's prototype of (P)MPI_Error_class.
        let function = unsafe { std::mem::transmute::<*mut c_void, ErrorClassFn>(host.address.as_ptr()) };
        // SAFETY: as in `host_error_string`.
        Some(unsafe { function(errorcode, errorclass) })
    })
}

thread_local! {
    /// Whether this thread is inside a host's error function that this library called.
    static PASSING_ON: Cell<bool> = const { Cell::new(false) };
}

/// Runs `call`, which finds the host's function and passes a code on to it, unless this thread
/// is already doing so (the host passed the code back): then `None`, and this library answers.
/// The flag is set for the search too, so a code passed back costs no second search.
fn pass_on(call: impl FnOnce() -> Option<c_int>) -> Option<c_int> {
    if PASSING_ON.get() {
        return None;
    }
    // The host's function may reach a cancellation point (`crate::nocancel`): a forced unwind
    // from it would run through this library's frames and the object `call` holds open.
    let _no_cancel = NoCancel::hold();
    /// Clears the flag however `call` ends, a panic (caught by the call's boundary) included.
    struct Passing;
    impl Drop for Passing {
        fn drop(&mut self) {
            PASSING_ON.set(false);
        }
    }
    PASSING_ON.set(true);
    let _passing = Passing;
    call()
}
