//! The C handle type `MPI_Info`: the one thing in which the two libraries built from this crate
//! differ. `libmpi_info` (`include/mpi_info.h`) hands out `int` handles; `libmpi_info_abi`
//! (`include/mpi_info_abi.h`, cargo feature `abi`) hands out the MPI-5.0 standard ABI's
//! `struct MPI_ABI_Info *`. Both name the same handle table: a pointer handle's address is the
//! table's integer handle, so `MPI_INFO_NULL` is 0x130 and `MPI_INFO_ENV` 0x131 in both, every
//! object's handle is at least 2^20 (far above the standard's predefined handles, all below
//! 0x1000), and converting to and from `int` is exact.
//!
//! The C functions reach the table only through the wrappers below, which convert once at the
//! boundary. A pointer handle is never dereferenced: it is a number, checked like any `int`.

use std::ffi::c_int;

use crate::error::Error;
use crate::handles::{self, Shared, Writer};
use crate::info::InfoMap;

// The `cfg(mpi_h = ...)` attributes are always true for rustc: they tell cbindgen to write
// these names only where no `mpi.h` included first has them (cbindgen.toml, `[defines]`).
// `MPI_INFO_NULL` stands for the whole info object: an `mpi.h` that defines it has
// `MPI_Info` too. The type comes before `MPI_INFO_NULL` in the header.

/// An info object handle.
#[cfg(all(not(feature = "abi"), not(mpi_h = "MPI_INFO_NULL")))]
pub type MPI_Info = c_int;

/// What an ABI handle points to, for the C compiler's type checks only: an incomplete type
/// there, and never dereferenced here.
#[cfg(feature = "abi")]
pub struct MPI_ABI_Info {
    _opaque: [u8; 0],
}

/// An info object handle (MPI-5.0 standard ABI).
#[cfg(all(feature = "abi", not(mpi_h = "MPI_INFO_NULL")))]
pub type MPI_Info = *mut MPI_ABI_Info;

/// The null handle: no object. A constant expression.
#[cfg(all(not(feature = "abi"), not(mpi_h = "MPI_INFO_NULL")))]
pub const MPI_INFO_NULL: MPI_Info = 304;
/// The predefined, read-only info object describing how the process was started.
#[cfg(all(not(feature = "abi"), not(mpi_h = "MPI_INFO_ENV")))]
#[allow(dead_code)] // for the header: the code names it by the table's value, handles::INFO_ENV
pub const MPI_INFO_ENV: MPI_Info = 305;

/// The null handle: no object. A constant expression.
#[cfg(all(feature = "abi", not(mpi_h = "MPI_INFO_NULL")))]
pub const MPI_INFO_NULL: MPI_Info = 0x130 as MPI_Info;
/// The predefined, read-only info object describing how the process was started.
#[cfg(all(feature = "abi", not(mpi_h = "MPI_INFO_ENV")))]
#[allow(dead_code)] // for the header: the code names it by the table's value, handles::INFO_ENV
pub const MPI_INFO_ENV: MPI_Info = 0x131 as MPI_Info;

/// What a program compiled with `include/mpi_info.h` refers to (the header's link check,
/// cbindgen.toml): defined only here, so linking that program with another library than
/// `libmpi_info` fails with "undefined reference to `mpi_info_h_requires_libmpi_info'".
#[cfg(not(feature = "abi"))]
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpi_info_h_requires_libmpi_info: c_int = 0;

/// What a program compiled with `include/mpi_info_abi.h` refers to (the header's link check,
/// cbindgen.toml): defined only here, so linking that program with another library than
/// `libmpi_info_abi` fails with "undefined reference to
/// `mpi_info_abi_h_requires_libmpi_info_abi'".
#[cfg(feature = "abi")]
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpi_info_abi_h_requires_libmpi_info_abi: c_int = 0;

/// The handle table's integer for a C handle.
#[cfg(not(feature = "abi"))]
#[inline(always)]
pub(super) fn to_int(info: MPI_Info) -> c_int {
    info
}

/// The handle table's integer for a C handle: the address, when it is one. Any other address
/// (with bits set above the 31 an `int` holds) becomes -1, which no object has.
#[cfg(feature = "abi")]
#[inline(always)]
pub(super) fn to_int(info: MPI_Info) -> c_int {
    c_int::try_from(info as usize).unwrap_or(-1)
}

/// The C handle for one of the table's integers.
#[cfg(not(feature = "abi"))]
#[inline(always)]
pub(super) fn from_int(handle: c_int) -> MPI_Info {
    handle
}

/// The C handle for one of the table's integers: the address that is the integer. A negative
/// integer, which no object has, gives an address with the high bits set, which no object has.
#[cfg(feature = "abi")]
#[inline(always)]
pub(super) fn from_int(handle: c_int) -> MPI_Info {
    handle as isize as MPI_Info
}

/// A result of the table for `info`, as is: every handle of the `int` library is a table integer.
#[cfg(not(feature = "abi"))]
#[inline(always)]
fn described<R>(_info: MPI_Info, result: Result<R, Error>) -> Result<R, Error> {
    result
}

/// A result of the table for `info`: a pointer handle that is no table integer at all (an
/// address past the 31 bits of an `int`, such as a stack address) failed as -1, and its
/// failure is described by its own address rather than by that -1.
#[cfg(feature = "abi")]
#[inline(always)]
fn described<R>(info: MPI_Info, result: Result<R, Error>) -> Result<R, Error> {
    #[cold]
    fn by_address(info: MPI_Info, error: Error) -> Error {
        if error == Error::Info && to_int(info) == -1 {
            crate::failure::failed(crate::failure::Detail::DeadHandle(info as usize))
        } else {
            error
        }
    }
    result.map_err(|error| by_address(info, error))
}

/// [`handles::read`] on the object a C handle names.
#[inline(always)]
pub(super) fn read<R>(info: MPI_Info, use_pairs: impl FnOnce(&InfoMap) -> Result<R, Error>) -> Result<R, Error> {
    described(info, handles::read(to_int(info), use_pairs))
}

/// [`handles::share`] on the object a C handle names.
pub(super) fn share(info: MPI_Info) -> Result<Shared, Error> {
    described(info, handles::share(to_int(info)))
}

/// [`handles::write`] on the object a C handle names.
#[inline(always)]
pub(super) fn write<R>(info: MPI_Info, change: impl FnOnce(Writer<'_>) -> Result<R, Error>) -> Result<R, Error> {
    described(info, handles::write(to_int(info), change))
}

/// [`handles::create`], giving the C handle.
pub(super) fn create(map: Shared) -> Result<MPI_Info, Error> {
    handles::create(map).map(from_int)
}

/// [`handles::free`] on the object a C handle names.
pub(super) fn free(info: MPI_Info) -> Result<(), Error> {
    described(info, handles::free(to_int(info)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_handles_are_the_tables_values() {
        assert_eq!(to_int(MPI_INFO_NULL), handles::INFO_NULL);
        assert_eq!(to_int(MPI_INFO_ENV), handles::INFO_ENV);
    }

    /// Every integer a handle can be comes back exactly; a negative one, which no object has,
    /// comes back negative.
    #[test]
    fn integers_round_trip_and_no_other_handle_becomes_one() {
        for handle in [0, 1, 304, 305, 1 << 20, (2047 << 20) | 0xFFFFF, c_int::MAX] {
            assert_eq!(to_int(from_int(handle)), handle);
        }
        for negative in [-1, -305, c_int::MIN] {
            assert!(to_int(from_int(negative)) < 0, "{negative}");
        }
        #[cfg(feature = "abi")]
        for address in [1_usize << 32 | 305, usize::MAX, 1 << 63 | 1 << 20, 0x8000_0000] {
            assert_eq!(to_int(address as MPI_Info), -1, "{address:#x}");
        }
    }
}
