//! `MPI_Error_string` and `MPI_Error_class`.
//!
//! Each exported function's doc comment is also its man page: tools/manpages.py reads it from
//! the header and describes the form it takes (summary, description, Parameters, Errors in
//! checking order, Notes, See also).

use std::ffi::{c_char, c_int};

use super::{boundary, to_c_int};
use crate::cstr::{Out, OutStr};
use crate::error::{message, Error};

/// Gives the message for an error code.
///
/// Writes the message for `errorcode` and a NUL to `string`, and the message's length, the NUL
/// not counted, to `*resultlen`. Every message starts with the name of its class
/// (`MPI_ERR_INFO_KEY: invalid info key ...`) and is shorter than `MPI_MAX_ERROR_STRING`
/// bytes with its NUL. Knows every code this library returns, `MPI_SUCCESS` included.
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
/// Notes:
/// In Fortran, `STRING` is blank-padded to its declared length, and `RESULTLEN` is the number
/// of the message's characters written.
///
/// See also: `MPI_Error_class`.
#[no_mangle]
pub extern "C" fn MPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int {
    PMPI_Error_string(errorcode, string, resultlen)
}

/// Profiling name of `MPI_Error_string`.
#[no_mangle]
pub extern "C" fn PMPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int {
    boundary(|| {
        let text = message(errorcode).ok_or(Error::Arg)?.as_bytes();
        let string = OutStr::new(string)?;
        let resultlen = Out::new(resultlen)?;
        string.put(text, text.len());
        resultlen.put(to_c_int(text.len())?);
        Ok(())
    })
}

/// Gives the error class of an error code.
///
/// Stores the error class of `errorcode` in `*errorclass`. Every code this library returns is
/// its own class, so `*errorclass` is `errorcode`.
///
/// Parameters:
/// - `errorcode` (in): an error code this library returns;
/// - `errorclass` (out): its class.
///
/// Errors, in checking order (on error `*errorclass` is not written):
/// - `MPI_ERR_ARG`: `errorcode` is not a code this library returns;
/// - `MPI_ERR_ARG`: `errorclass` is NULL.
///
/// See also: `MPI_Error_string`.
#[no_mangle]
pub extern "C" fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    PMPI_Error_class(errorcode, errorclass)
}

/// Profiling name of `MPI_Error_class`.
#[no_mangle]
pub extern "C" fn PMPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    boundary(|| {
        message(errorcode).ok_or(Error::Arg)?;
        Out::new(errorclass)?.put(errorcode);
        Ok(())
    })
}
