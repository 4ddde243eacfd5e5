//! `MPI_Error_string` and `MPI_Error_class`.

use std::ffi::{c_char, c_int};

use super::{boundary, to_c_int};
use crate::cstr::{Out, OutStr};
use crate::error::{message, Error};

/// Writes the message for `errorcode` and a NUL to `string` (which must hold
/// `MPI_MAX_ERROR_STRING` bytes) and its length, without the NUL, to `*resultlen`. Knows every
/// code this library returns, `MPI_SUCCESS` included.
///
/// Errors: `MPI_ERR_ARG` for an unknown code, a NULL `string` or a NULL `resultlen`.
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

/// Stores the error class of `errorcode` in `*errorclass`. Every code this library returns is
/// its own class.
///
/// Errors: `MPI_ERR_ARG` for an unknown code or a NULL `errorclass`.
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
