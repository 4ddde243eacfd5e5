//! The old-style Fortran routines (docs/reference.md, "Fortran"): `MPI_INFO_CREATE(INFO, IERROR)`,
//! ... as called through `mpi_infof.h` and the `mpi_info` module, under the linker names gfortran
//! and flang give them on Linux (lower case, one trailing underscore: `mpi_info_set_`), each with
//! its `pmpi_` twin. The `mpi_info_f08` module calls the `pmpi_` routines (`fortran/`).
//!
//! Calling convention: every argument by reference; after all of them, one hidden `size_t` per
//! `CHARACTER*(*)` argument, its declared length, in argument order. `IERROR` receives the
//! class the C function would return; `LOGICAL` outputs are written as `.TRUE.`/`.FALSE.`
//! (`crate::fstr`).
//!
//! The rules are those of the C functions (docs/reference.md, "Rules every function follows":
//! arguments checked left to right; on error no output is written and no object changes), with the
//! Fortran string rules: input keys and values are stripped of leading and trailing blanks before
//! the C rules apply (an all-blank key is `MPI_ERR_INFO_KEY`, the limits apply to the stripped
//! text); output strings are blank-padded to their declared length and never written past it.
//! `VALUELEN` of `MPI_INFO_GET` and `BUFLEN` of `MPI_INFO_GET_STRING` count characters with no
//! terminator (docs/fortran.md quotes the standard).
//!
//! Each routine reads its arguments the Fortran way, in the C function's order, and then runs the
//! C function's own body (`capi::object`), with the Fortran [`Face`]: one body per operation,
//! and every handle through `capi::handle`. Like the C functions, the work is in the `pmpi_`
//! name, and the plain name only forwards.
//!
//! `MPI_ERROR_STRING` and `MPI_ERROR_CLASS` run the C functions (`capi::errors`), which answer
//! for this library's codes and pass any other code to a host MPI's C `MPI_Error_string` /
//! `MPI_Error_class` (`crate::host`): a program that reaches these routines rather than its
//! host's own Fortran ones (the shared `libmpi_info` first in the lookup order) still gets the
//! host's answer for the host's codes (docs/embedding.md, Fortran). The message is then
//! written the Fortran way.

use std::ffi::{c_char, c_int};

use super::errors::{PMPI_Error_class, PMPI_Error_string};
use super::handle::{self, MPI_Info};
use super::object::{self, Face, TextOut};
use super::{boundary, count_arg, to_c_int, MPI_Fint};
use crate::cstr::Out;
use crate::error::{Error, MPI_ERR_INTERN, MPI_SUCCESS};
use crate::failure::{self, failed, Detail};
use crate::fstr::{read_in, read_stripped, FortranOut, FALSE, TRUE};
use crate::info::{check_key, check_value, MAX_KEY_LEN, MAX_VALUE_LEN};
use crate::panics::quietly;
use crate::setup::set_up;
use crate::shared::SharedMap;

/// The Fortran face: `.TRUE.` and `.FALSE.`, and lengths with no terminator.
const FORTRAN: Face = Face { truth: TRUE, falsehood: FALSE, terminator: 0 };

impl TextOut for FortranOut {
    fn put_text(self, text: &[u8], room: usize) {
        self.put(text, room);
    }
}

/// Runs a routine's body (as the C functions do, panics included) and stores its class in
/// `IERROR`. A NULL `IERROR`, which no Fortran caller passes, receives nothing.
fn run(ierror: *mut MPI_Fint, function: &'static str, body: impl FnOnce() -> Result<(), Error>) {
    put_ierror(ierror, boundary(function, body));
}

/// [`run`] for a body that returns a code itself: the error routines, which return what a
/// host's function returned, and replace no failure's description (`capi::errors`). A panic is
/// `MPI_ERR_INTERN`.
fn run_code(ierror: *mut MPI_Fint, body: impl FnOnce() -> c_int) {
    set_up();
    let code = quietly(body).unwrap_or(MPI_ERR_INTERN);
    failure::forget();
    put_ierror(ierror, code);
}

/// Stores a routine's class in `IERROR`.
fn put_ierror(ierror: *mut MPI_Fint, code: c_int) {
    match Out::new(ierror, "IERROR") {
        Ok(ierror) => ierror.put(code),
        // Not a failure of the call, whose description is recorded already.
        Err(_) => failure::forget(),
    }
}

/// An input handle, passed by reference. A NULL reference names no object: `MPI_ERR_INFO`.
///
/// # Safety
/// As for `read_in`: `info` is NULL or points to an `INTEGER`.
unsafe fn handle_arg(info: *const MPI_Fint) -> Result<MPI_Info, Error> {
    // SAFETY: the caller's promise is `read_in`'s.
    unsafe { read_in(info) }.ok_or(Error::Info)
}

/// An input integer (a length, an index, an error code), passed by reference. NULL is
/// `MPI_ERR_ARG`.
///
/// # Safety
/// As for `read_in`: `n` is NULL or points to an `INTEGER`.
unsafe fn int_arg(n: *const MPI_Fint, name: &'static str) -> Result<c_int, Error> {
    // SAFETY: the caller's promise is `read_in`'s.
    unsafe { read_in(n) }.ok_or_else(|| failed(Detail::Null(name)))
}

/// An input key: blanks stripped, then empty, longer than 255 characters or holding a NUL
/// is `MPI_ERR_INFO_KEY`.
///
/// # Safety
/// As for `read_stripped`: `key` with its declared length `len` is a `CHARACTER` argument,
/// not written while `'a` lasts.
unsafe fn key_arg<'a>(key: *const c_char, len: usize) -> Result<&'a [u8], Error> {
    // SAFETY: the caller's promise is `read_stripped`'s.
    let key = unsafe { read_stripped(key, len) }.ok_or_else(|| failed(Detail::NullKey))?;
    check_key(key).map_err(|_| {
        failed(match key.len() {
            0 => Detail::EmptyKey,
            n if n > MAX_KEY_LEN => Detail::KeyOfLength(n),
            _ => Detail::KeyWithNul,
        })
    })?;
    Ok(key)
}

/// An input value: blanks stripped, then longer than 1023 characters or holding a NUL is
/// `MPI_ERR_INFO_VALUE`. An all-blank value is the empty value.
///
/// # Safety
/// As for `read_stripped`: `value` with its declared length `len` is a `CHARACTER` argument,
/// not written while `'a` lasts.
unsafe fn value_arg<'a>(value: *const c_char, len: usize) -> Result<&'a [u8], Error> {
    // SAFETY: the caller's promise is `read_stripped`'s.
    let value = unsafe { read_stripped(value, len) }.ok_or_else(|| failed(Detail::NullValue))?;
    check_value(value).map_err(|_| {
        failed(match value.len() {
            n if n > MAX_VALUE_LEN => Detail::ValueOfLength(n),
            _ => Detail::ValueWithNul,
        })
    })?;
    Ok(value)
}

/// `MPI_INFO_CREATE(INFO, IERROR)`: a new empty object.
#[no_mangle]
pub extern "C" fn mpi_info_create_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    pmpi_info_create_(info, ierror)
}

/// Profiling name of `mpi_info_create_`.
#[no_mangle]
pub extern "C" fn pmpi_info_create_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    run(ierror, "MPI_INFO_CREATE", || object::create(info))
}

/// `MPI_INFO_SET(INFO, KEY, VALUE, IERROR)`: adds the pair, or replaces the key's value.
#[no_mangle]
pub extern "C" fn mpi_info_set_(
    info: *const MPI_Fint,
    key: *const c_char,
    value: *const c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    pmpi_info_set_(info, key, value, ierror, key_len, value_len)
}

/// Profiling name of `mpi_info_set_`.
#[no_mangle]
pub extern "C" fn pmpi_info_set_(
    info: *const MPI_Fint,
    key: *const c_char,
    value: *const c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    run(ierror, "MPI_INFO_SET", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::write(unsafe { handle_arg(info) }?, |object| {
            // SAFETY: `key` and `key_len` come straight from the Fortran caller: a `CHARACTER`
            // argument and its declared length.
            let key = unsafe { key_arg(key, key_len) }?;
            // SAFETY: as for `key`.
            let value = unsafe { value_arg(value, value_len) }?;
            object::set(object, key, value)
        })
    })
}

/// `MPI_INFO_DELETE(INFO, KEY, IERROR)`: removes the pair; a missing key is
/// `MPI_ERR_INFO_NOKEY`.
#[no_mangle]
pub extern "C" fn mpi_info_delete_(info: *const MPI_Fint, key: *const c_char, ierror: *mut MPI_Fint, key_len: usize) {
    pmpi_info_delete_(info, key, ierror, key_len)
}

/// Profiling name of `mpi_info_delete_`.
#[no_mangle]
pub extern "C" fn pmpi_info_delete_(info: *const MPI_Fint, key: *const c_char, ierror: *mut MPI_Fint, key_len: usize) {
    run(ierror, "MPI_INFO_DELETE", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::write(unsafe { handle_arg(info) }?, |object| {
            // SAFETY: `key` and `key_len` come straight from the Fortran caller: a `CHARACTER`
            // argument and its declared length.
            let key = unsafe { key_arg(key, key_len) }?;
            object::delete(object, key)
        })
    })
}

/// `MPI_INFO_GET(INFO, KEY, VALUELEN, VALUE, FLAG, IERROR)`: if the key is there, `FLAG` is
/// `.TRUE.` and `VALUE` receives its first `VALUELEN` characters (the standard's Fortran
/// meaning: the number of characters offered), never more than `VALUE`'s declared length,
/// blank-padded to that length; if not, `FLAG` is `.FALSE.` and `VALUE` is not touched.
/// A negative `VALUELEN` is `MPI_ERR_ARG`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn mpi_info_get_(
    info: *const MPI_Fint,
    key: *const c_char,
    valuelen: *const MPI_Fint,
    value: *mut c_char,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    pmpi_info_get_(info, key, valuelen, value, flag, ierror, key_len, value_len)
}

/// Profiling name of `mpi_info_get_`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pmpi_info_get_(
    info: *const MPI_Fint,
    key: *const c_char,
    valuelen: *const MPI_Fint,
    value: *mut c_char,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    run(ierror, "MPI_INFO_GET", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::read(unsafe { handle_arg(info) }?, |map| {
            // SAFETY: `key` and `key_len` come straight from the Fortran caller: a `CHARACTER`
            // argument and its declared length.
            let key = unsafe { key_arg(key, key_len) }?;
            // SAFETY: `valuelen` comes straight from the Fortran caller: a reference to an
            // `INTEGER`.
            let room = count_arg(unsafe { int_arg(valuelen, "VALUELEN") }?, "VALUELEN")?;
            let value = FortranOut::new(value, value_len, "VALUE")?;
            let flag = Out::new(flag, "FLAG")?;
            object::get(&FORTRAN, map, key, room, value, flag);
            Ok(())
        })
    })
}

/// `MPI_INFO_GET_VALUELEN(INFO, KEY, VALUELEN, FLAG, IERROR)`: if the key is there, `FLAG` is
/// `.TRUE.` and `VALUELEN` its length in characters; if not, `FLAG` is `.FALSE.` and
/// `VALUELEN` is not touched.
#[no_mangle]
pub extern "C" fn mpi_info_get_valuelen_(
    info: *const MPI_Fint,
    key: *const c_char,
    valuelen: *mut MPI_Fint,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    pmpi_info_get_valuelen_(info, key, valuelen, flag, ierror, key_len)
}

/// Profiling name of `mpi_info_get_valuelen_`.
#[no_mangle]
pub extern "C" fn pmpi_info_get_valuelen_(
    info: *const MPI_Fint,
    key: *const c_char,
    valuelen: *mut MPI_Fint,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    run(ierror, "MPI_INFO_GET_VALUELEN", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::read(unsafe { handle_arg(info) }?, |map| {
            // SAFETY: `key` and `key_len` come straight from the Fortran caller: a `CHARACTER`
            // argument and its declared length.
            let key = unsafe { key_arg(key, key_len) }?;
            let valuelen = Out::new(valuelen, "VALUELEN")?;
            let flag = Out::new(flag, "FLAG")?;
            object::get_valuelen(&FORTRAN, map, key, valuelen, flag)
        })
    })
}

/// `MPI_INFO_GET_STRING(INFO, KEY, BUFLEN, VALUE, FLAG, IERROR)` (MPI-4), with the standard's
/// Fortran meaning of `BUFLEN`, which counts no terminator: if the key is there, `FLAG` is
/// `.TRUE.`; if `BUFLEN > 0`, `VALUE` receives the value's first `BUFLEN` characters, never
/// more than its declared length, blank-padded to that length (with `BUFLEN = 0` it is not
/// changed); then `BUFLEN` is set to the value's length. If the key is not there, `FLAG` is
/// `.FALSE.` and `BUFLEN` and `VALUE` are not touched. A negative `BUFLEN` is `MPI_ERR_ARG`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn mpi_info_get_string_(
    info: *const MPI_Fint,
    key: *const c_char,
    buflen: *mut MPI_Fint,
    value: *mut c_char,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    pmpi_info_get_string_(info, key, buflen, value, flag, ierror, key_len, value_len)
}

/// Profiling name of `mpi_info_get_string_`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pmpi_info_get_string_(
    info: *const MPI_Fint,
    key: *const c_char,
    buflen: *mut MPI_Fint,
    value: *mut c_char,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    run(ierror, "MPI_INFO_GET_STRING", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::read(unsafe { handle_arg(info) }?, |map| {
            // SAFETY: `key` and `key_len` come straight from the Fortran caller: a `CHARACTER`
            // argument and its declared length.
            let key = unsafe { key_arg(key, key_len) }?;
            let buflen = Out::new(buflen, "BUFLEN")?;
            let room = count_arg(buflen.get(), "BUFLEN")?;
            let value = if room > 0 { Some(FortranOut::new(value, value_len, "VALUE")?) } else { None };
            let flag = Out::new(flag, "FLAG")?;
            object::get_string(&FORTRAN, map, key, room, buflen, value, flag)
        })
    })
}

/// `MPI_INFO_GET_NKEYS(INFO, NKEYS, IERROR)`: the number of pairs.
#[no_mangle]
pub extern "C" fn mpi_info_get_nkeys_(info: *const MPI_Fint, nkeys: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    pmpi_info_get_nkeys_(info, nkeys, ierror)
}

/// Profiling name of `mpi_info_get_nkeys_`.
#[no_mangle]
pub extern "C" fn pmpi_info_get_nkeys_(info: *const MPI_Fint, nkeys: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    run(ierror, "MPI_INFO_GET_NKEYS", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::read(unsafe { handle_arg(info) }?, |map| object::get_nkeys(map, nkeys))
    })
}

/// `MPI_INFO_GET_NTHKEY(INFO, N, KEY, IERROR)`: the `N`-th key (0-based), blank-padded to
/// `KEY`'s declared length and cut to it if longer. `N` negative or not below the number of
/// keys is `MPI_ERR_ARG`.
#[no_mangle]
pub extern "C" fn mpi_info_get_nthkey_(
    info: *const MPI_Fint,
    n: *const MPI_Fint,
    key: *mut c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    pmpi_info_get_nthkey_(info, n, key, ierror, key_len)
}

/// Profiling name of `mpi_info_get_nthkey_`.
#[no_mangle]
pub extern "C" fn pmpi_info_get_nthkey_(
    info: *const MPI_Fint,
    n: *const MPI_Fint,
    key: *mut c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    run(ierror, "MPI_INFO_GET_NTHKEY", || {
        // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
        handle::read(unsafe { handle_arg(info) }?, |map| {
            // SAFETY: `n` comes straight from the Fortran caller: a reference to an `INTEGER`.
            let position = count_arg(unsafe { int_arg(n, "N") }?, "N")?;
            let key = FortranOut::new(key, key_len, "KEY")?;
            object::get_nthkey(map, position, key)
        })
    })
}

/// `MPI_INFO_DUP(INFO, NEWINFO, IERROR)`: a new object with the same pairs in the same order
/// (of `MPI_INFO_ENV` too, which gives an ordinary writable object).
#[no_mangle]
pub extern "C" fn mpi_info_dup_(info: *const MPI_Fint, newinfo: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    pmpi_info_dup_(info, newinfo, ierror)
}

/// Profiling name of `mpi_info_dup_`.
#[no_mangle]
pub extern "C" fn pmpi_info_dup_(info: *const MPI_Fint, newinfo: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: `info` comes straight from the Fortran caller: a reference to an `INTEGER`.
    run(ierror, "MPI_INFO_DUP", || object::dup(unsafe { handle_arg(info) }?, newinfo))
}

/// `MPI_INFO_FREE(INFO, IERROR)`: frees the object and sets `INFO` to `MPI_INFO_NULL`. A dead
/// handle, `MPI_INFO_NULL` or `MPI_INFO_ENV` is `MPI_ERR_INFO`, and `INFO` is not changed.
#[no_mangle]
pub extern "C" fn mpi_info_free_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    pmpi_info_free_(info, ierror)
}

/// Profiling name of `mpi_info_free_`.
#[no_mangle]
pub extern "C" fn pmpi_info_free_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    run(ierror, "MPI_INFO_FREE", || object::free(info))
}

/// `MPI_INFO_CREATE_ENV(INFO, IERROR)`: a new object holding what `MPI_INFO_ENV` holds, built
/// from the process's own command line (the Fortran binding has no `argc`/`argv`), with
/// `wdir` the working directory now.
#[no_mangle]
pub extern "C" fn mpi_info_create_env_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    pmpi_info_create_env_(info, ierror)
}

/// Profiling name of `mpi_info_create_env_`.
#[no_mangle]
pub extern "C" fn pmpi_info_create_env_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    run(ierror, "MPI_INFO_CREATE_ENV", || {
        let info = Out::new(info, "INFO")?;
        let pairs = crate::env::build_own()?;
        info.put(handle::create(Some(SharedMap::try_new(pairs)?))?);
        Ok(())
    })
}

/// `MPI_ERROR_STRING(ERRORCODE, STRING, RESULTLEN, IERROR)`: the message for the code,
/// blank-padded to `STRING`'s declared length (cut to it if longer; declared as
/// `CHARACTER*(MPI_MAX_ERROR_STRING)` every message fits), and in `RESULTLEN` the number of
/// its characters written. A code this library does not own goes to the host MPI's C
/// `MPI_Error_string`, as the C function passes it on (`capi::errors`): its message is written
/// the same way and its return code is `IERROR`. A code nobody owns is `MPI_ERR_ARG`.
#[no_mangle]
pub extern "C" fn mpi_error_string_(
    errorcode: *const MPI_Fint,
    string: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    string_len: usize,
) {
    pmpi_error_string_(errorcode, string, resultlen, ierror, string_len)
}

/// Profiling name of `mpi_error_string_`.
#[no_mangle]
pub extern "C" fn pmpi_error_string_(
    errorcode: *const MPI_Fint,
    string: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    string_len: usize,
) {
    run_code(ierror, || {
        // SAFETY: `errorcode` comes straight from the Fortran caller: a reference to an
        // `INTEGER`.
        let code = match unsafe { int_arg(errorcode, "ERRORCODE") } {
            Ok(code) => code,
            Err(error) => return error.code(),
        };
        let (Ok(string), Ok(resultlen)) =
            (FortranOut::new(string, string_len, "STRING"), Out::new(resultlen, "RESULTLEN"))
        else {
            return Error::Arg.code();
        };
        // The C function's message, this library's or a host's, then written the Fortran way.
        let mut buffer = [0u8; MESSAGE_ROOM];
        let mut length: c_int = -1;
        match PMPI_Error_string(code, buffer.as_mut_ptr().cast(), &mut length) {
            MPI_SUCCESS => {
                let end = buffer.iter().position(|&byte| byte == 0).unwrap_or(buffer.len());
                let written = string.put(&buffer[..end], end);
                match to_c_int(written) {
                    Ok(written) => {
                        resultlen.put(written);
                        MPI_SUCCESS
                    }
                    Err(error) => error.code(),
                }
            }
            failure => failure,
        }
    })
}

/// Room for a message: more than any MPI's `MPI_MAX_ERROR_STRING` (MPICH's is 1024, Open
/// MPI's 256, the standard ABI's 512), which bounds what a host's `MPI_Error_string` writes.
const MESSAGE_ROOM: usize = 4096;

/// `MPI_ERROR_CLASS(ERRORCODE, ERRORCLASS, IERROR)`: every code this library returns is its
/// own class. A code this library does not own goes to the host MPI's C `MPI_Error_class`,
/// whose class is written and whose return code is `IERROR`. A code nobody owns is
/// `MPI_ERR_ARG`.
#[no_mangle]
pub extern "C" fn mpi_error_class_(errorcode: *const MPI_Fint, errorclass: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    pmpi_error_class_(errorcode, errorclass, ierror)
}

/// Profiling name of `mpi_error_class_`.
#[no_mangle]
pub extern "C" fn pmpi_error_class_(errorcode: *const MPI_Fint, errorclass: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    run_code(ierror, || {
        // SAFETY: `errorcode` comes straight from the Fortran caller: a reference to an
        // `INTEGER`.
        match unsafe { int_arg(errorcode, "ERRORCODE") } {
            // The C function: `ERRORCLASS` is an `INTEGER`, the C `int` it writes.
            Ok(code) => PMPI_Error_class(code, errorclass),
            Err(error) => error.code(),
        }
    })
}
