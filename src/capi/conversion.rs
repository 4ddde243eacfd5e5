//! Handle conversion between C, Fortran and the standard ABI's integer form. Handles are plain
//! integers here, so every conversion is the identity (`MPI_INFO_NULL` stays `MPI_INFO_NULL`);
//! a dead handle converts to the same dead value and is rejected where it is used.

use std::ffi::c_int;

use super::{MPI_Fint, MPI_Info};

/// The Fortran handle for the C handle `info`.
#[no_mangle]
pub extern "C" fn MPI_Info_c2f(info: MPI_Info) -> MPI_Fint {
    PMPI_Info_c2f(info)
}

/// Profiling name of `MPI_Info_c2f`.
#[no_mangle]
pub extern "C" fn PMPI_Info_c2f(info: MPI_Info) -> MPI_Fint {
    info
}

/// The C handle for the Fortran handle `info`.
#[no_mangle]
pub extern "C" fn MPI_Info_f2c(info: MPI_Fint) -> MPI_Info {
    PMPI_Info_f2c(info)
}

/// Profiling name of `MPI_Info_f2c`.
#[no_mangle]
pub extern "C" fn PMPI_Info_f2c(info: MPI_Fint) -> MPI_Info {
    info
}

/// The integer form of `info` (MPI-5.0 standard ABI).
#[no_mangle]
pub extern "C" fn MPI_Info_toint(info: MPI_Info) -> c_int {
    PMPI_Info_toint(info)
}

/// Profiling name of `MPI_Info_toint`.
#[no_mangle]
pub extern "C" fn PMPI_Info_toint(info: MPI_Info) -> c_int {
    info
}

/// The handle for the integer form `info` (MPI-5.0 standard ABI).
#[no_mangle]
pub extern "C" fn MPI_Info_fromint(info: c_int) -> MPI_Info {
    PMPI_Info_fromint(info)
}

/// Profiling name of `MPI_Info_fromint`.
#[no_mangle]
pub extern "C" fn PMPI_Info_fromint(info: c_int) -> MPI_Info {
    info
}
