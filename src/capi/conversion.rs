//! Handle conversion between C, Fortran and the standard ABI's integer form. In `libmpi_info`
//! handles are integers, so every conversion is the identity; in `libmpi_info_abi` a handle is
//! a pointer whose address is that integer (`super::handle`). Either way `MPI_INFO_NULL` stays
//! `MPI_INFO_NULL`, and a dead handle converts to a dead value, rejected where it is used.
//!
//! The standard ABI has no `MPI_Info_c2f`/`MPI_Info_f2c` (its `mpi_fortran.h` makes them
//! macros for `MPI_Info_toint`/`MPI_Info_fromint`), so only `libmpi_info` exports them. They
//! are declared with `int`, which `MPI_Fint` is, so that the header's prototypes need no
//! `MPI_Fint` from a host's `mpi.h` (docs/embedding.md).
//!
//! Each exported function's doc comment is also its man page: tools/manpages.py reads it from
//! the header and describes the form it takes (summary, description, Parameters, Errors in
//! checking order, Notes, See also).

use std::ffi::c_int;

use super::handle::{from_int, to_int, MPI_Info};

/// Converts a C info handle to a Fortran handle.
///
/// Returns the Fortran (`MPI_Fint`, an `int`) handle for the C handle `info`: `info` itself, as
/// handles are the same integers in C and Fortran. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a dead
/// handle stays the same dead value, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): a C handle, any value.
///
/// Errors: none. The result is the handle, never an error class.
///
/// Notes:
/// Not in `libmpi_info_abi`: the standard ABI's `mpi_fortran.h` defines `MPI_Info_c2f` as
/// `MPI_Info_toint`.
///
/// See also: `MPI_Info_f2c`, `MPI_Info_toint`.
#[cfg(not(feature = "abi"))]
#[no_mangle]
pub extern "C" fn MPI_Info_c2f(info: MPI_Info) -> c_int {
    PMPI_Info_c2f(info)
}

/// Profiling name of `MPI_Info_c2f`.
#[cfg(not(feature = "abi"))]
#[no_mangle]
pub extern "C" fn PMPI_Info_c2f(info: MPI_Info) -> c_int {
    info
}

/// Converts a Fortran info handle to a C handle.
///
/// Returns the C handle for the Fortran (`MPI_Fint`, an `int`) handle `info`: `info` itself, as
/// handles are the same integers in C and Fortran. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a dead
/// handle stays the same dead value, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): a Fortran handle, any value.
///
/// Errors: none. The result is the handle, never an error class.
///
/// Notes:
/// Not in `libmpi_info_abi`: the standard ABI's `mpi_fortran.h` defines `MPI_Info_f2c` as
/// `MPI_Info_fromint`.
///
/// See also: `MPI_Info_c2f`, `MPI_Info_fromint`.
#[cfg(not(feature = "abi"))]
#[no_mangle]
pub extern "C" fn MPI_Info_f2c(info: c_int) -> MPI_Info {
    PMPI_Info_f2c(info)
}

/// Profiling name of `MPI_Info_f2c`.
#[cfg(not(feature = "abi"))]
#[no_mangle]
pub extern "C" fn PMPI_Info_f2c(info: c_int) -> MPI_Info {
    info
}

/// Converts an info handle to its integer form (MPI-5.0 standard ABI).
///
/// Returns the integer form of the handle `info`. In `libmpi_info`, whose handles are integers,
/// that is `info` itself. In `libmpi_info_abi` it is the handle's address, which fits an `int`
/// for every handle the library gives out, for `MPI_INFO_NULL` (304) and for `MPI_INFO_ENV`
/// (305), so that `MPI_Info_fromint` gives the same handle back; any other address gives -1.
/// A dead handle gives a dead value, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): a handle, any value.
///
/// Errors: none. The result is the integer, never an error class.
///
/// See also: `MPI_Info_fromint`.
#[no_mangle]
pub extern "C" fn MPI_Info_toint(info: MPI_Info) -> c_int {
    PMPI_Info_toint(info)
}

/// Profiling name of `MPI_Info_toint`.
#[no_mangle]
pub extern "C" fn PMPI_Info_toint(info: MPI_Info) -> c_int {
    to_int(info)
}

/// Converts the integer form of an info handle (MPI-5.0 standard ABI) to the handle.
///
/// Returns the handle whose integer form is `info`: `info` itself in `libmpi_info`, the handle
/// at that address in `libmpi_info_abi`. `MPI_INFO_NULL` stays `MPI_INFO_NULL`; a value that
/// names no object gives a handle that names none, which is `MPI_ERR_INFO` where it is used.
///
/// Parameters:
/// - `info` (in): an integer form, any value.
///
/// Errors: none. The result is the handle, never an error class.
///
/// See also: `MPI_Info_toint`.
#[no_mangle]
pub extern "C" fn MPI_Info_fromint(info: c_int) -> MPI_Info {
    PMPI_Info_fromint(info)
}

/// Profiling name of `MPI_Info_fromint`.
#[no_mangle]
pub extern "C" fn PMPI_Info_fromint(info: c_int) -> MPI_Info {
    from_int(info)
}
