//! Handle conversion between C, Fortran and the standard ABI's integer form. Handles are plain
//! integers here, so every conversion is the identity (`MPI_INFO_NULL` stays `MPI_INFO_NULL`);
//! a dead handle converts to the same dead value and is rejected where it is used.
//!
//! Each exported function's doc comment is also its man page: tools/manpages.py reads it from
//! the header and describes the form it takes (summary, description, Parameters, Errors in
//! checking order, Notes, See also).

use std::ffi::c_int;

use super::{MPI_Fint, MPI_Info};

/// Converts a C info handle to a Fortran handle.
///
/// Returns the Fortran (`MPI_Fint`) handle for the C handle `info`: `info` itself, as handles
/// are the same integers in C and Fortran. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a dead handle
/// stays the same dead value, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): a C handle, any value.
///
/// Errors: none. The result is the handle, never an error class.
///
/// See also: `MPI_Info_f2c`, `MPI_Info_toint`.
#[no_mangle]
pub extern "C" fn MPI_Info_c2f(info: MPI_Info) -> MPI_Fint {
    PMPI_Info_c2f(info)
}

/// Profiling name of `MPI_Info_c2f`.
#[no_mangle]
pub extern "C" fn PMPI_Info_c2f(info: MPI_Info) -> MPI_Fint {
    info
}

/// Converts a Fortran info handle to a C handle.
///
/// Returns the C handle for the Fortran (`MPI_Fint`) handle `info`: `info` itself, as handles
/// are the same integers in C and Fortran. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a dead handle
/// stays the same dead value, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): a Fortran handle, any value.
///
/// Errors: none. The result is the handle, never an error class.
///
/// See also: `MPI_Info_c2f`, `MPI_Info_fromint`.
#[no_mangle]
pub extern "C" fn MPI_Info_f2c(info: MPI_Fint) -> MPI_Info {
    PMPI_Info_f2c(info)
}

/// Profiling name of `MPI_Info_f2c`.
#[no_mangle]
pub extern "C" fn PMPI_Info_f2c(info: MPI_Fint) -> MPI_Info {
    info
}

/// Converts an info handle to its integer form (MPI-5.0 standard ABI).
///
/// Returns the integer form of the handle `info`: `info` itself, as handles are plain integers
/// here. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a dead handle stays the same dead value, which
/// is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): a handle, any value.
///
/// Errors: none. The result is the integer, never an error class.
///
/// See also: `MPI_Info_fromint`, `MPI_Info_c2f`.
#[no_mangle]
pub extern "C" fn MPI_Info_toint(info: MPI_Info) -> c_int {
    PMPI_Info_toint(info)
}

/// Profiling name of `MPI_Info_toint`.
#[no_mangle]
pub extern "C" fn PMPI_Info_toint(info: MPI_Info) -> c_int {
    info
}

/// Converts the integer form of an info handle (MPI-5.0 standard ABI) to the handle.
///
/// Returns the handle whose integer form is `info`: `info` itself, as handles are plain
/// integers here. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a dead handle stays the same dead
/// value, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): an integer form, any value.
///
/// Errors: none. The result is the handle, never an error class.
///
/// See also: `MPI_Info_toint`, `MPI_Info_f2c`.
#[no_mangle]
pub extern "C" fn MPI_Info_fromint(info: c_int) -> MPI_Info {
    PMPI_Info_fromint(info)
}

/// Profiling name of `MPI_Info_fromint`.
#[no_mangle]
pub extern "C" fn PMPI_Info_fromint(info: c_int) -> MPI_Info {
    info
}
