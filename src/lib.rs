//! The MPI info object as a library: a C ABI (`include/mpi_info.h`) over a safe Rust core.
//!
//! The Rust API is the safe core ([`info`], [`error`], [`hints`], [`typed`], [`hinttext`],
//! [`serial`]), the same with every feature: the C handle type and constants belong to the C
//! libraries and their headers only (the `abi` feature changes them, not this API).
//!
//! Where things live:
//! - [`info`]: the object's contents, an insertion-ordered map of byte strings (safe Rust API);
//! - `handles`: integer handles to live objects, generation-checked, lock per object;
//! - `fork`: the `fork(2)` handlers that let a child process go on using every object;
//! - `panics`: the panic boundary (a thread-local "inside a call" flag and the hook that keeps
//!   the library's own panics silent); `setup`: what the first call does once;
//! - `host`: where the error functions find a host MPI library's, for the codes they pass on
//!   (`unsafe` inside: the dynamic loader's calls);
//! - `env`: the contents of `MPI_INFO_ENV` and `MPI_Info_create_env`;
//! - `nocancel`: thread cancellation held off in the calls that reach a cancellation point;
//! - `index`: key hash -> position for large objects, with the key hash and comparison it uses;
//! - `pair`: one (key, value) pair in one block behind a thin pointer (`unsafe` inside);
//! - `shared`: an object's pairs behind a counted pointer whose allocation can fail (`unsafe`);
//! - `sync`: the locks and atomics, swapped for loom's in the model-checked build (`make loom`);
//! - `cstr`: bounded reads of C strings, exact-length writes and the opening of a hints file
//!   (the `unsafe` helpers);
//! - `fstr`: the same for Fortran strings (declared length, blanks stripped and padded);
//! - `capi`: the exported `MPI_*`/`PMPI_*` functions and the header's constants, in
//!   `capi::handle` the C handle type (`int`, or with the `abi` feature the MPI-5.0 standard
//!   ABI's pointer: what `libmpi_info_abi` does differently; it also leaves out `MPI_Fint`,
//!   `MPI_Info_c2f`/`f2c` and the Fortran routines), in
//!   `capi::mpix` the `MPIX_*` toolkit, and in `capi::fortran` the old-style Fortran routines
//!   (`mpi_info_set_`, ...; not in the `abi` build);
//! - [`error`]: error classes and their messages; `failure`: the description of each thread's
//!   last failed call (`MPIX_Info_last_failure`);
//! - [`hints`]: the hint vocabulary (`data/hints.json`) and the checker over it;
//! - [`typed`], [`hinttext`], [`serial`]: the `MPIX_` toolkit's safe core (typed values, hint
//!   text, serialization); merge and equality are [`InfoMap`] methods.

#![deny(unsafe_op_in_unsafe_fn)]
// The model-checked build and a build without the `c-api` feature (a checking core linked
// into an MPI tool, which must not define the `MPI_Info_*` names) have no C API, so the C-string
// helpers go unused there.
#![cfg_attr(any(loom, not(feature = "c-api")), allow(dead_code))]

// The error classes first: cbindgen writes constants in the order it reads them, and so the
// header's begin with the names it shares with every mpi.h.
pub mod error;
#[cfg(all(not(loom), feature = "c-api"))]
mod capi;
mod cstr;
mod env;
mod failure;
#[cfg(not(feature = "abi"))]
mod fstr;
#[cfg(all(not(loom), feature = "c-api"))]
mod fork;
mod handles;
pub mod hints;
#[cfg(not(loom))]
mod host;
pub mod hinttext;
mod index;
pub mod info;
mod nocancel;
mod pair;
#[cfg(not(loom))]
mod panics;
pub mod serial;
#[cfg(all(not(loom), feature = "c-api"))]
mod setup;
mod shared;
mod sync;
pub mod typed;

pub use error::Error;
pub use info::InfoMap;

/// The pairs `MPI_INFO_ENV` would hold for a process started with `args` (`args[0]` is the
/// command), as `MPI_Info_create_env` builds them.
pub fn env_pairs(args: &[&[u8]]) -> Result<InfoMap, Error> {
    env::build(args)
}
