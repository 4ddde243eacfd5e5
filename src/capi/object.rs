//! The info object functions (docs/reference.md, "Functions"): create, set, get, ... free,
//! create_env, each with its body, which the Fortran routines (`capi::fortran`) run too.
//!
//! Each exported function's doc comment is also its man page: tools/manpages.py reads it from
//! the header and describes the form it takes (summary, description, Parameters, Errors in
//! checking order, Notes, See also).
//!
//! The calls whose cost is measured per instruction (`get`, `get_valuelen`, `set`: BENCHMARKS.md)
//! pass `boundary` a `move` closure, which holds the arguments themselves rather than a pointer
//! to each.

use std::ffi::{c_char, c_int};

use super::handle::{self, MPI_Info, MPI_INFO_NULL};
use super::{boundary, count_arg, key_arg, to_c_int, value_arg};
use crate::cstr::{read_array, read_bounded, Out, OutStr};
use crate::error::Error;
use crate::failure::{failed, Detail};
use crate::handles::Writer;
use crate::info::{InfoMap, MAX_VALUE_LEN};
use crate::shared::SharedMap;

/// What differs between the two faces of an operation once its arguments are read: C's and
/// Fortran's (`capi::fortran`), which share every body below.
pub(super) struct Face {
    /// What a flag holds for "there".
    pub(super) truth: c_int,
    /// What a flag holds for "not there".
    pub(super) falsehood: c_int,
    /// What a returned string size counts besides the characters: C's NUL, or nothing, in
    /// Fortran, where strings have no terminator.
    pub(super) terminator: usize,
}

/// The C face: 1 and 0, and sizes that count the NUL.
pub(super) const C: Face = Face { truth: 1, falsehood: 0, terminator: 1 };

/// An output string: a C buffer (NUL-terminated) or a Fortran `CHARACTER` (blank-padded to its
/// declared length).
pub(super) trait TextOut {
    /// Writes the first `min(text.len(), room)` bytes of `text` in the face's form; `room` is
    /// the number of characters the caller offered.
    fn put_text(self, text: &[u8], room: usize);
}

impl TextOut for OutStr {
    #[inline(always)]
    fn put_text(self, text: &[u8], room: usize) {
        self.put(text, room);
    }
}

/// Creates a new, empty info object.
///
/// Stores the handle of a new object with no pairs in `*info`. The object lives until
/// `MPI_Info_free`.
///
/// Parameters:
/// - `info` (out): the new object's handle.
///
/// Errors, in checking order (on error `*info` is not written):
/// - `MPI_ERR_ARG`: `info` is NULL;
/// - `MPI_ERR_NO_MEM`: out of memory, or no handle is left (about a million objects are live).
///
/// See also: `MPI_Info_free`, `MPI_Info_set`, `MPI_Info_dup`, `MPI_Info_create_env`.
#[no_mangle]
pub extern "C" fn MPI_Info_create(info: *mut MPI_Info) -> c_int {
    PMPI_Info_create(info)
}

/// Profiling name of `MPI_Info_create`.
#[no_mangle]
pub extern "C" fn PMPI_Info_create(info: *mut MPI_Info) -> c_int {
    boundary("MPI_Info_create", || create(info))
}

/// The body of `MPI_Info_create` and `MPI_INFO_CREATE`.
pub(super) fn create(info: *mut MPI_Info) -> Result<(), Error> {
    let info = Out::new(info, "info")?;
    info.put(handle::create(None)?);
    Ok(())
}

/// Adds a key and its value to an info object, or replaces the value of the key.
///
/// Adds the pair (`key`, `value`) at the end of `info`'s pairs, or replaces the value of `key`
/// if it is already there; a replaced key keeps its position. Both are NUL-terminated byte
/// strings, kept exactly (case, spaces and all); the empty value is valid.
///
/// Parameters:
/// - `info` (in): the object (not `MPI_INFO_ENV`, which is read-only);
/// - `key` (in): the key, 1 to `MPI_MAX_INFO_KEY - 1` (255) characters;
/// - `value` (in): the value, 0 to `MPI_MAX_INFO_VAL - 1` (1023) characters.
///
/// Errors, in checking order (on error the object is unchanged):
/// - `MPI_ERR_INFO`: `info` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1` characters;
/// - `MPI_ERR_INFO_VALUE`: `value` is NULL or longer than `MPI_MAX_INFO_VAL - 1` characters;
/// - `MPI_ERR_NO_MEM`: out of memory.
///
/// Notes:
/// The longest key is 255 characters here and in MPICH, 35 in Open MPI; the longest value is
/// 1023 characters here, 1024 in MPICH and 255 in Open MPI.
///
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// In Fortran, leading and trailing blanks of `KEY` and `VALUE` are stripped first, as the
/// standard says; an all-blank key is `MPI_ERR_INFO_KEY`.
///
/// See also: `MPI_Info_get_string`, `MPI_Info_delete`, `MPI_Info_create`, `MPIX_Info_merge`.
#[no_mangle]
pub extern "C" fn MPI_Info_set(info: MPI_Info, key: *const c_char, value: *const c_char) -> c_int {
    PMPI_Info_set(info, key, value)
}

/// Profiling name of `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn PMPI_Info_set(info: MPI_Info, key: *const c_char, value: *const c_char) -> c_int {
    boundary("MPI_Info_set", move || {
        handle::write(info, |object| {
            // SAFETY: `key` and `value` come straight from the C caller, who promises C strings
            // that live, unchanged, for the call (the doc comment of `MPI_Info_set`).
            let key = unsafe { key_arg(key) }?;
            let value = unsafe { value_arg(value) }?;
            set(object, key, value)
        })
    })
}

/// The body of `MPI_Info_set` and `MPI_INFO_SET`, once every argument has passed.
pub(super) fn set(mut object: Writer<'_>, key: &[u8], value: &[u8]) -> Result<(), Error> {
    object.modify(|map| map.set_valid(key, value))
}

/// Removes a key and its value from an info object.
///
/// Removes `key` and its value from `info`; the keys after it move down by one position.
///
/// Parameters:
/// - `info` (in): the object (not `MPI_INFO_ENV`, which is read-only);
/// - `key` (in): the key, a NUL-terminated string.
///
/// Errors, in checking order (on error the object is unchanged):
/// - `MPI_ERR_INFO`: `info` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1` characters;
/// - `MPI_ERR_INFO_NOKEY`: `key` is not in `info`;
/// - `MPI_ERR_NO_MEM`: out of memory (the pairs were shared with a duplicate and are copied).
///
/// Notes:
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// See also: `MPI_Info_set`, `MPI_Info_get_nkeys`, `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn MPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    PMPI_Info_delete(info, key)
}

/// Profiling name of `MPI_Info_delete`.
#[no_mangle]
pub extern "C" fn PMPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    boundary("MPI_Info_delete", || {
        handle::write(info, |object| {
            // SAFETY: `key` comes straight from the C caller, who promises a C string that
            // lives, unchanged, for the call (the doc comment of `MPI_Info_delete`).
            let key = unsafe { key_arg(key) }?;
            delete(object, key)
        })
    })
}

/// The body of `MPI_Info_delete` and `MPI_INFO_DELETE`, once every argument has passed.
pub(super) fn delete(mut object: Writer<'_>, key: &[u8]) -> Result<(), Error> {
    // Checked before `modify`, which would first copy pairs shared with a duplicate.
    if object.map().get(key).is_none() {
        return Err(Error::InfoNoKey);
    }
    object.modify(|map| map.delete_valid(key))
}

/// Reads the value of a key, truncated to a given length.
///
/// If `key` is in `info`: `*flag = 1`, and the value's first `min(length, valuelen)` characters
/// and a NUL are written to `value`, so `value` must hold `valuelen + 1` bytes. A longer value
/// is truncated, which is not an error (`MPI_Info_get_valuelen` gives the length). No byte is
/// written beyond that NUL. If `key` is not there: `*flag = 0` and `value` is not touched.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `valuelen` (in): the most characters to write to `value`, the NUL not counted;
/// - `value` (out): the value (or its beginning) and a NUL;
/// - `flag` (out): 1 if the key is there, 0 if not.
///
/// Errors, in checking order (on error no output is written, and the class is the same
/// whether or not the key is there):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1` characters;
/// - `MPI_ERR_ARG`: `valuelen` is negative, `value` is NULL, or `flag` is NULL.
///
/// Notes:
/// MPI-4.0 deprecates this function in favour of `MPI_Info_get_string`, which also gives the
/// size the whole value needs.
///
/// A truncated value is a success here, as the standard says, and in Open MPI; MPICH returns
/// `MPI_ERR_INFO_VALUE`.
///
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// In Fortran, `VALUELEN` is the number of characters available in `VALUE`, which has no
/// terminator: the value's first `min(length, VALUELEN)` characters are written, blank-padded.
///
/// See also: `MPI_Info_get_string`, `MPI_Info_get_valuelen`, `MPI_Info_set`.
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
    boundary("MPI_Info_get", move || {
        handle::read(info, |pairs| {
            // SAFETY: `key` comes straight from the C caller, who promises a C string that
            // lives, unchanged, for the call (the doc comment of `MPI_Info_get`).
            let key = unsafe { key_arg(key) }?;
            let room = count_arg(valuelen, "valuelen")?;
            let value = OutStr::new(value, "value")?;
            let flag = Out::new(flag, "flag")?;
            get(&C, pairs, key, room, value, flag);
            Ok(())
        })
    })
}

/// The body of `MPI_Info_get` and `MPI_INFO_GET`, once every argument has passed: the value's
/// first `room` characters, if the key is there.
#[inline(always)]
pub(super) fn get(face: &Face, pairs: &InfoMap, key: &[u8], room: usize, value: impl TextOut, flag: Out<c_int>) {
    match pairs.get(key) {
        Some(found) => {
            value.put_text(found, room);
            flag.put(face.truth);
        }
        None => flag.put(face.falsehood),
    }
}

/// Gives the length of the value of a key.
///
/// If `key` is in `info`: `*flag = 1` and `*valuelen` is set to the length of its value in
/// characters, the NUL not counted. If not: `*flag = 0` and `*valuelen` is not touched.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `valuelen` (out): the value's length;
/// - `flag` (out): 1 if the key is there, 0 if not.
///
/// Errors, in checking order (on error no output is written, and the class is the same
/// whether or not the key is there):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1` characters;
/// - `MPI_ERR_ARG`: `valuelen` is NULL, or `flag` is NULL.
///
/// Notes:
/// MPI-4.0 deprecates this function in favour of `MPI_Info_get_string`, which gives the size
/// a value needs while reading it.
///
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// See also: `MPI_Info_get_string`, `MPI_Info_get`.
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
    boundary("MPI_Info_get_valuelen", move || {
        handle::read(info, |pairs| {
            // SAFETY: `key` comes straight from the C caller, who promises a C string that
            // lives, unchanged, for the call (the doc comment of `MPI_Info_get_valuelen`).
            let key = unsafe { key_arg(key) }?;
            let valuelen = Out::new(valuelen, "valuelen")?;
            let flag = Out::new(flag, "flag")?;
            get_valuelen(&C, pairs, key, valuelen, flag)
        })
    })
}

/// The body of `MPI_Info_get_valuelen` and `MPI_INFO_GET_VALUELEN`, once every argument has
/// passed.
#[inline(always)]
pub(super) fn get_valuelen(
    face: &Face,
    pairs: &InfoMap,
    key: &[u8],
    valuelen: Out<c_int>,
    flag: Out<c_int>,
) -> Result<(), Error> {
    match pairs.get(key) {
        Some(found) => {
            valuelen.put(to_c_int(found.len())?);
            flag.put(face.truth);
        }
        None => flag.put(face.falsehood),
    }
    Ok(())
}

/// Reads the value of a key and gives the buffer size it needs.
///
/// If `key` is in `info`: `*flag = 1`; if `*buflen > 0`, the value's first
/// `min(length, *buflen - 1)` characters and a NUL are written to `value`; then `*buflen` is set
/// to the length plus one, the buffer size the whole value needs. With `*buflen == 0` nothing is
/// written to `value`, which may then be NULL: a first call with `*buflen == 0` asks for the
/// size. If `key` is not there: `*flag = 0`, and `*buflen` and `value` are not touched.
/// New in MPI-4.0.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `buflen` (in/out): in, the size of `value` in bytes; out (only when the key is there), the
///   value's length plus one;
/// - `value` (out): the value (or its beginning) and a NUL, at most `*buflen` bytes;
/// - `flag` (out): 1 if the key is there, 0 if not.
///
/// Errors, in checking order (on error no output is written, and the class is the same
/// whether or not the key is there):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1` characters;
/// - `MPI_ERR_ARG`: `buflen` is NULL, `*buflen` is negative, `value` is NULL while
///   `*buflen > 0`, or `flag` is NULL.
///
/// Notes:
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// In Fortran, where a string has no terminator, `BUFLEN` is set to the value's length (not the
/// length plus one), and the value is blank-padded to `VALUE`'s declared length.
///
/// See also: `MPI_Info_get_nthkey`, `MPI_Info_set`, `MPI_Info_get`, `MPIX_Info_get_item`.
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
    boundary("MPI_Info_get_string", || {
        handle::read(info, |pairs| {
            // SAFETY: `key` comes straight from the C caller, who promises a C string that
            // lives, unchanged, for the call (the doc comment of `MPI_Info_get_string`).
            let key = unsafe { key_arg(key) }?;
            let buflen = Out::new(buflen, "buflen")?;
            let size = count_arg(buflen.get(), "*buflen")?;
            let value = if size > 0 { Some(OutStr::new(value, "value")?) } else { None };
            let flag = Out::new(flag, "flag")?;
            get_string(&C, pairs, key, size, buflen, value, flag)
        })
    })
}

/// The body of `MPI_Info_get_string` and `MPI_INFO_GET_STRING`, once every argument has
/// passed: `size` is the room offered, the face's terminator included, and `value` is there
/// only when `size` is not zero.
#[allow(clippy::too_many_arguments)]
pub(super) fn get_string(
    face: &Face,
    pairs: &InfoMap,
    key: &[u8],
    size: usize,
    buflen: Out<c_int>,
    value: Option<impl TextOut>,
    flag: Out<c_int>,
) -> Result<(), Error> {
    match pairs.get(key) {
        Some(found) => {
            let needed = to_c_int(found.len() + face.terminator)?;
            if let Some(value) = value {
                // `size` is not zero, so it holds the terminator of a face that has one.
                value.put_text(found, size - face.terminator);
            }
            buflen.put(needed);
            flag.put(face.truth);
        }
        None => flag.put(face.falsehood),
    }
    Ok(())
}

/// Gives the number of keys in an info object.
///
/// Stores the number of pairs in `info` in `*nkeys`.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `nkeys` (out): the number of pairs.
///
/// Errors, in checking order (on error `*nkeys` is not written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_ARG`: `nkeys` is NULL.
///
/// Notes:
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// See also: `MPI_Info_get_nthkey`, `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    PMPI_Info_get_nkeys(info, nkeys)
}

/// Profiling name of `MPI_Info_get_nkeys`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    boundary("MPI_Info_get_nkeys", || handle::read(info, |pairs| get_nkeys(pairs, nkeys)))
}

/// The body of `MPI_Info_get_nkeys` and `MPI_INFO_GET_NKEYS`, once the object is found.
pub(super) fn get_nkeys(pairs: &InfoMap, nkeys: *mut c_int) -> Result<(), Error> {
    let nkeys = Out::new(nkeys, "nkeys")?;
    nkeys.put(to_c_int(pairs.len())?);
    Ok(())
}

/// Gives the n-th key of an info object.
///
/// Copies the `n`-th key of `info` (0-based, in insertion order) and a NUL to `key`: its length
/// plus one bytes, at most `MPI_MAX_INFO_KEY`, so a buffer of `MPI_MAX_INFO_KEY` bytes holds
/// any key. Keys keep their position when their value is replaced; deleting a key moves the
/// later ones down by one.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `n` (in): the key's position, from 0 to the number of keys minus one;
/// - `key` (out): the key and a NUL.
///
/// Errors, in checking order (on error `key` is not written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_ARG`: `n` is negative, `key` is NULL, or `n` is not below the number of keys.
///
/// Notes:
/// A key of 255 characters comes back whole here; MPICH returns it cut to 254 characters, and
/// Open MPI takes no key longer than 35.
///
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// See also: `MPI_Info_get_nkeys`, `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
    PMPI_Info_get_nthkey(info, n, key)
}

/// Profiling name of `MPI_Info_get_nthkey`.
#[no_mangle]
pub extern "C" fn PMPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
    boundary("MPI_Info_get_nthkey", || {
        handle::read(info, |pairs| {
            let position = count_arg(n, "n")?;
            let key = OutStr::new(key, "key")?;
            get_nthkey(pairs, position, key)
        })
    })
}

/// The body of `MPI_Info_get_nthkey` and `MPI_INFO_GET_NTHKEY`, once every argument has
/// passed but the position, which only the pairs can check.
pub(super) fn get_nthkey(pairs: &InfoMap, position: usize, key: impl TextOut) -> Result<(), Error> {
    let found = pairs.nth_key(position).ok_or_else(|| failed(Detail::PastLastKey { position, keys: pairs.len() }))?;
    key.put_text(found, found.len());
    Ok(())
}

/// Duplicates an info object.
///
/// Creates a new object with the same pairs as `info`, in the same order, and stores its handle
/// in `*newinfo`. Duplicating `MPI_INFO_ENV` gives an ordinary, writable object. The pairs are
/// shared until either object changes, so a duplicate takes the same time whatever the size.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `newinfo` (out): the new object's handle.
///
/// Errors, in checking order (on error `*newinfo` is not written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_ARG`: `newinfo` is NULL;
/// - `MPI_ERR_NO_MEM`: out of memory, or no handle is left (about a million objects are live).
///
/// Notes:
/// MPICH copies every pair (time in proportion to the number of pairs), and Open MPI's
/// duplicate was measured to take time in proportion to its square.
///
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// See also: `MPI_Info_create`, `MPI_Info_free`, `MPIX_Info_merge`.
#[no_mangle]
pub extern "C" fn MPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    PMPI_Info_dup(info, newinfo)
}

/// Profiling name of `MPI_Info_dup`.
#[no_mangle]
pub extern "C" fn PMPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    boundary("MPI_Info_dup", || dup(info, newinfo))
}

/// The body of `MPI_Info_dup` and `MPI_INFO_DUP`.
pub(super) fn dup(info: MPI_Info, newinfo: *mut MPI_Info) -> Result<(), Error> {
    let pairs = handle::share(info)?;
    let newinfo = Out::new(newinfo, "newinfo")?;
    newinfo.put(handle::create(pairs)?);
    Ok(())
}

/// Frees an info object.
///
/// Frees the object `*info` and sets `*info` to `MPI_INFO_NULL`. The handle is dead from then
/// on: any later use of it is `MPI_ERR_INFO`. A duplicate of the object is not affected.
///
/// Parameters:
/// - `info` (in/out): in, the object's handle (not `MPI_INFO_ENV`); out, `MPI_INFO_NULL`.
///
/// Errors, in checking order (on error `*info` is not changed):
/// - `MPI_ERR_ARG`: `info` is NULL;
/// - `MPI_ERR_INFO`: `*info` is not a live object (`MPI_INFO_NULL`, a freed handle), or is
///   `MPI_INFO_ENV`.
///
/// Notes:
/// `MPI_INFO_NULL` is `MPI_ERR_INFO` here and in Open MPI, `MPI_ERR_ARG` in MPICH. A freed
/// handle is `MPI_ERR_INFO` here; MPICH does not detect it, nor does Open MPI unless a debug
/// option is on.
///
/// See also: `MPI_Info_create`, `MPI_Info_dup`.
#[no_mangle]
pub extern "C" fn MPI_Info_free(info: *mut MPI_Info) -> c_int {
    PMPI_Info_free(info)
}

/// Profiling name of `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn PMPI_Info_free(info: *mut MPI_Info) -> c_int {
    boundary("MPI_Info_free", || free(info))
}

/// The body of `MPI_Info_free` and `MPI_INFO_FREE`.
pub(super) fn free(info: *mut MPI_Info) -> Result<(), Error> {
    let info = Out::new(info, "info")?;
    handle::free(info.get())?;
    info.put(MPI_INFO_NULL);
    Ok(())
}

/// Creates an info object describing how a process was started.
///
/// Creates a new object holding what `MPI_INFO_ENV` would hold for a process started with this
/// `argc` and `argv`, in this order, each where its value is known: `command` (`argv[0]`),
/// `argv` (`argv[1]` to `argv[argc - 1]` joined with single spaces), `maxprocs` and `soft` (both
/// `1`), `host` (the host name), `arch` (the machine, as `uname -m` gives it), `wdir` (the
/// working directory now) and `thread_level` (`MPI_THREAD_MULTIPLE`). With
/// `argc == 0` there is no `command` and no `argv` key; with `argc == 1` no `argv` key. A value
/// longer than `MPI_MAX_INFO_VAL - 1` characters is left out, never cut. The new object is
/// ordinary and writable.
///
/// Parameters:
/// - `argc` (in): the number of arguments, 0 or more;
/// - `argv` (in): `argc` NUL-terminated strings (may be NULL when `argc` is 0);
/// - `info` (out): the new object's handle.
///
/// Errors, in checking order (on error `*info` is not written):
/// - `MPI_ERR_ARG`: `argc` is negative, `argv` is NULL while `argc > 0`, one of
///   `argv[0]` to `argv[argc - 1]` is NULL, or `info` is NULL;
/// - `MPI_ERR_NO_MEM`: out of memory, or no handle is left (about a million objects are live).
///
/// Notes:
/// In MPICH, `MPI_INFO_ENV` holds only `command` and `argv`; Open MPI fills in the other keys too,
/// as here.
///
/// In Fortran, `MPI_INFO_CREATE_ENV(INFO, IERROR)` takes no `argc` and `argv`: it builds the
/// object from the process's own command line, as `MPI_INFO_ENV` holds it.
///
/// See also: `MPI_Info_dup`, `MPI_Info_get_string`, `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn MPI_Info_create_env(argc: c_int, argv: *mut *mut c_char, info: *mut MPI_Info) -> c_int {
    PMPI_Info_create_env(argc, argv, info)
}

/// Profiling name of `MPI_Info_create_env`.
#[no_mangle]
pub extern "C" fn PMPI_Info_create_env(argc: c_int, argv: *mut *mut c_char, info: *mut MPI_Info) -> c_int {
    boundary("MPI_Info_create_env", || {
        let argc = count_arg(argc, "argc")?;
        // SAFETY: `argv` comes straight from the C caller, who promises `argc` readable
        // pointers that live, unchanged, for the call (the doc comment of
        // `MPI_Info_create_env`).
        let pointers: &[*mut c_char] =
            if argc == 0 { &[] } else { unsafe { read_array(argv, argc) }.ok_or(Error::Arg)? };
        if pointers.iter().any(|arg| arg.is_null()) {
            return Err(Error::Arg);
        }
        let out = Out::new(info, "info")?;
        // Every argument has been checked: only now can running out of memory be the answer.
        let mut args = Vec::new();
        args.try_reserve_exact(argc)?;
        for &arg in pointers {
            // One byte past the value limit is enough to know the argument is too long.
            // SAFETY: each of `argv`'s strings is, by the same promise, a C string that lives,
            // unchanged, for the call.
            args.push(unsafe { read_bounded(arg, MAX_VALUE_LEN + 1) }.ok_or(Error::Arg)?);
        }
        let pairs = crate::env::build(&args)?;
        out.put(handle::create(Some(SharedMap::try_new(pairs)?))?);
        Ok(())
    })
}
