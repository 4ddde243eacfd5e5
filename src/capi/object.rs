//! The info object functions of SPEC §4: create, set, get, ... free, create_env.

use std::ffi::{c_char, c_int};

use super::{boundary, count_arg, key_arg, to_c_int, value_arg, MPI_Info, MPI_INFO_NULL};
use crate::cstr::{read_array, read_bounded, Out, OutStr};
use crate::error::Error;
use crate::handles;
use crate::info::{InfoMap, MAX_VALUE_LEN};
use crate::shared::SharedMap;

/// Creates a new info object with no pairs and stores its handle in `*info`.
///
/// Errors: `MPI_ERR_ARG` if `info` is NULL; `MPI_ERR_NO_MEM`.
#[no_mangle]
pub extern "C" fn MPI_Info_create(info: *mut MPI_Info) -> c_int {
    PMPI_Info_create(info)
}

/// Profiling name of `MPI_Info_create`.
#[no_mangle]
pub extern "C" fn PMPI_Info_create(info: *mut MPI_Info) -> c_int {
    boundary(|| {
        let info = Out::new(info)?;
        info.put(handles::create(None)?);
        Ok(())
    })
}

/// Adds the pair (`key`, `value`) to `info`, or replaces the value of `key` if it is already
/// there; a replaced key keeps its position. Both are NUL-terminated byte strings, kept
/// exactly (case, spaces and all). The empty value is valid.
///
/// Errors, checked in this order: `MPI_ERR_INFO` if `info` is not a live object or is
/// `MPI_INFO_ENV`; `MPI_ERR_INFO_KEY` if `key` is NULL, empty or longer than
/// `MPI_MAX_INFO_KEY - 1`; `MPI_ERR_INFO_VALUE` if `value` is NULL or longer than
/// `MPI_MAX_INFO_VAL - 1`; `MPI_ERR_NO_MEM`. On error the object is unchanged.
#[no_mangle]
pub extern "C" fn MPI_Info_set(info: MPI_Info, key: *const c_char, value: *const c_char) -> c_int {
    PMPI_Info_set(info, key, value)
}

/// Profiling name of `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn PMPI_Info_set(info: MPI_Info, key: *const c_char, value: *const c_char) -> c_int {
    boundary(|| {
        handles::write(info, |mut object| {
            let key = key_arg(key)?;
            let value = value_arg(value)?;
            object.modify(|map| map.set_valid(key, value))
        })
    })
}

/// Removes `key` and its value from `info`; the keys after it move down by one.
///
/// Errors: `MPI_ERR_INFO` (not a live object, or `MPI_INFO_ENV`); `MPI_ERR_INFO_KEY`;
/// `MPI_ERR_INFO_NOKEY` if `key` is not in `info`; `MPI_ERR_NO_MEM`.
#[no_mangle]
pub extern "C" fn MPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    PMPI_Info_delete(info, key)
}

/// Profiling name of `MPI_Info_delete`.
#[no_mangle]
pub extern "C" fn PMPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    boundary(|| {
        handles::write(info, |mut object| {
            let key = key_arg(key)?;
            // Checked before `modify`, which would first copy pairs shared with a duplicate.
            if object.map().get(key).is_none() {
                return Err(Error::InfoNoKey);
            }
            object.modify(|map| map.delete_valid(key))
        })
    })
}

/// Looks up `key`. If it is there: `*flag = 1`, and its first `min(length, valuelen)`
/// characters and a NUL are written to `value` (so `value` must hold `valuelen + 1` bytes; a
/// longer value is truncated, which is not an error). If not: `*flag = 0` and `value` is not
/// touched. Writes no byte beyond that NUL.
///
/// Errors, in order: `MPI_ERR_INFO`, `MPI_ERR_INFO_KEY`, `MPI_ERR_ARG` (negative `valuelen`,
/// NULL `value`, NULL `flag`), whether or not the key exists.
#[no_mangle]
pub extern "C" fn MPI_Info_get(
    info: MPI_Info,
    key: *const c_char,
    valuelen: c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    PMPI_Info_get(info, key, valuelen, value, flag)
}

/// Profiling name of `MPI_Info_get`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get(
    info: MPI_Info,
    key: *const c_char,
    valuelen: c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    boundary(|| handles::read(info, |pairs| get(pairs, key, valuelen, value, flag)))
}

/// The body of `MPI_Info_get`.
fn get(pairs: &InfoMap, key: *const c_char, valuelen: c_int, value: *mut c_char, flag: *mut c_int) -> Result<(), Error> {
    let key = key_arg(key)?;
    let room = count_arg(valuelen)?;
    let value = OutStr::new(value)?;
    let flag = Out::new(flag)?;
    match pairs.get(key) {
        Some(found) => {
            value.put(found, room);
            flag.put(1);
        }
        None => flag.put(0),
    }
    Ok(())
}

/// Looks up `key`. If it is there: `*flag = 1` and `*valuelen` = its length in characters,
/// without the NUL. If not: `*flag = 0` and `*valuelen` is not touched.
///
/// Errors, in order: `MPI_ERR_INFO`, `MPI_ERR_INFO_KEY`, `MPI_ERR_ARG` (NULL `valuelen` or
/// `flag`).
#[no_mangle]
pub extern "C" fn MPI_Info_get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    PMPI_Info_get_valuelen(info, key, valuelen, flag)
}

/// Profiling name of `MPI_Info_get_valuelen`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    boundary(|| handles::read(info, |pairs| get_valuelen(pairs, key, valuelen, flag)))
}

/// The body of `MPI_Info_get_valuelen`.
fn get_valuelen(pairs: &InfoMap, key: *const c_char, valuelen: *mut c_int, flag: *mut c_int) -> Result<(), Error> {
    let key = key_arg(key)?;
    let valuelen = Out::new(valuelen)?;
    let flag = Out::new(flag)?;
    match pairs.get(key) {
        Some(found) => {
            valuelen.put(to_c_int(found.len())?);
            flag.put(1);
        }
        None => flag.put(0),
    }
    Ok(())
}

/// Looks up `key` (MPI-4). If it is there: `*flag = 1`; if `*buflen > 0`, its first
/// `min(length, *buflen - 1)` characters and a NUL are written to `value`; then `*buflen` is
/// set to the length plus one, the buffer size the whole value needs. With `*buflen == 0`
/// nothing is written to `value`, which may be NULL. If the key is not there: `*flag = 0`, and
/// `*buflen` and `value` are not touched.
///
/// Errors, in order: `MPI_ERR_INFO`, `MPI_ERR_INFO_KEY`, `MPI_ERR_ARG` (NULL `buflen`,
/// negative `*buflen`, NULL `value` with `*buflen > 0`, NULL `flag`).
#[no_mangle]
pub extern "C" fn MPI_Info_get_string(
    info: MPI_Info,
    key: *const c_char,
    buflen: *mut c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    PMPI_Info_get_string(info, key, buflen, value, flag)
}

/// Profiling name of `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get_string(
    info: MPI_Info,
    key: *const c_char,
    buflen: *mut c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    boundary(|| handles::read(info, |pairs| get_string(pairs, key, buflen, value, flag)))
}

/// The body of `MPI_Info_get_string`.
fn get_string(pairs: &InfoMap, key: *const c_char, buflen: *mut c_int, value: *mut c_char, flag: *mut c_int) -> Result<(), Error> {
    let key = key_arg(key)?;
    let buflen = Out::new(buflen)?;
    let size = count_arg(buflen.get())?;
    let value = if size > 0 { Some(OutStr::new(value)?) } else { None };
    let flag = Out::new(flag)?;
    match pairs.get(key) {
        Some(found) => {
            if let Some(value) = value {
                value.put(found, size - 1);
            }
            buflen.put(to_c_int(found.len() + 1)?);
            flag.put(1);
        }
        None => flag.put(0),
    }
    Ok(())
}

/// Stores the number of pairs in `info` in `*nkeys`.
///
/// Errors: `MPI_ERR_INFO`; `MPI_ERR_ARG` if `nkeys` is NULL.
#[no_mangle]
pub extern "C" fn MPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    PMPI_Info_get_nkeys(info, nkeys)
}

/// Profiling name of `MPI_Info_get_nkeys`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    boundary(|| {
        handles::read(info, |pairs| {
            let nkeys = Out::new(nkeys)?;
            nkeys.put(to_c_int(pairs.len())?);
            Ok(())
        })
    })
}

/// Copies the `n`-th key of `info` (0-based, in insertion order) and a NUL to `key`: its
/// length plus one bytes, at most `MPI_MAX_INFO_KEY`.
///
/// Errors: `MPI_ERR_INFO`; `MPI_ERR_ARG` if `n` is negative, `key` is NULL, or `n` is not
/// below the number of keys.
#[no_mangle]
pub extern "C" fn MPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
    PMPI_Info_get_nthkey(info, n, key)
}

/// Profiling name of `MPI_Info_get_nthkey`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
    boundary(|| {
        handles::read(info, |pairs| {
            let position = count_arg(n)?;
            let out = OutStr::new(key)?;
            let found = pairs.nth_key(position).ok_or(Error::Arg)?;
            out.put(found, found.len());
            Ok(())
        })
    })
}

/// Creates a new object with the same pairs as `info`, in the same order, and stores its
/// handle in `*newinfo`. Duplicating `MPI_INFO_ENV` gives an ordinary, writable object.
/// Takes the same time whatever the size: the pairs are shared until either object changes.
///
/// Errors: `MPI_ERR_INFO`; `MPI_ERR_ARG` if `newinfo` is NULL; `MPI_ERR_NO_MEM`.
#[no_mangle]
pub extern "C" fn MPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    PMPI_Info_dup(info, newinfo)
}

/// Profiling name of `MPI_Info_dup`.
#[no_mangle]
pub extern "C" fn PMPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    boundary(|| {
        let pairs = handles::share(info)?;
        let newinfo = Out::new(newinfo)?;
        newinfo.put(handles::create(pairs)?);
        Ok(())
    })
}

/// Frees the object `*info` and sets `*info` to `MPI_INFO_NULL`. The handle is dead from then
/// on: any later use of it is `MPI_ERR_INFO`.
///
/// Errors: `MPI_ERR_ARG` if `info` is NULL; `MPI_ERR_INFO` if `*info` is not a live object
/// (`MPI_INFO_NULL`, a freed handle) or is `MPI_INFO_ENV`; then `*info` is not changed.
#[no_mangle]
pub extern "C" fn MPI_Info_free(info: *mut MPI_Info) -> c_int {
    PMPI_Info_free(info)
}

/// Profiling name of `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn PMPI_Info_free(info: *mut MPI_Info) -> c_int {
    boundary(|| {
        let info = Out::new(info)?;
        handles::free(info.get())?;
        info.put(MPI_INFO_NULL);
        Ok(())
    })
}

/// Creates a new object holding what `MPI_INFO_ENV` would hold for a process started with
/// this `argc` and `argv` (`command`, `argv`, `maxprocs`, `soft`, `host`, `arch`, `wdir`,
/// `thread_level`; `wdir` is the working directory now). With `argc == 0` there is no
/// `command` and no `argv` key. A value longer than `MPI_MAX_INFO_VAL - 1` is left out.
///
/// Errors, in order: `MPI_ERR_ARG` if `argc` is negative, `argv` is NULL while `argc > 0`, one
/// of `argv[0..argc]` is NULL, or `info` is NULL; `MPI_ERR_NO_MEM`.
#[no_mangle]
pub extern "C" fn MPI_Info_create_env(argc: c_int, argv: *mut *mut c_char, info: *mut MPI_Info) -> c_int {
    PMPI_Info_create_env(argc, argv, info)
}

/// Profiling name of `MPI_Info_create_env`.
#[no_mangle]
pub extern "C" fn PMPI_Info_create_env(argc: c_int, argv: *mut *mut c_char, info: *mut MPI_Info) -> c_int {
    boundary(|| {
        let argc = count_arg(argc)?;
        let pointers: &[*mut c_char] = if argc == 0 { &[] } else { read_array(argv, argc).ok_or(Error::Arg)? };
        let mut args = Vec::new();
        args.try_reserve_exact(argc)?;
        for &arg in pointers {
            // One byte past the value limit is enough to know the argument is too long.
            args.push(read_bounded(arg, MAX_VALUE_LEN + 1).ok_or(Error::Arg)?);
        }
        let info = Out::new(info)?;
        let pairs = crate::env::build(&args)?;
        info.put(handles::create(Some(SharedMap::try_new(pairs)?))?);
        Ok(())
    })
}
