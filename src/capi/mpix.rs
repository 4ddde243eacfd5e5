//! The `MPIX_` hint toolkit for layered libraries (docs/reference.md, "The MPIX_ toolkit", and
//! docs/mpix.md): typed reads and writes, merge, hint text, serialization and equality, each with
//! its `PMPIX_` twin. The rules themselves live in the safe core (`typed`, `hinttext`, `serial`,
//! `InfoMap::merge` and `InfoMap::equal`); this module checks the arguments, in order, and moves
//! the results across the boundary.
//!
//! Calls that involve two objects (merge, equal) take an O(1) snapshot of one with
//! `handle::share` first and then lock the other, so no call holds two objects' locks at once.
//! Calls that change an object build the complete result before changing it (`InfoMap::merge`),
//! so a failure, out of memory included, leaves every object as it was.
//!
//! Each exported function's doc comment is also its man page: tools/manpages.py reads it from
//! the header and describes the form it takes (summary, description, Parameters, Errors in
//! checking order, Notes, See also).

use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt::Write as _;
use std::io::{ErrorKind, Read};

use super::handle::{self, MPI_Info};
use super::object;
use super::{boundary, count_arg, key_arg, to_c_int};
use crate::cstr::{open_for_reading, read_array, read_bounded, Out, OutBytes, OutStr};
use crate::error::Error;
use crate::failure::{failed, failed_with, Detail};
use crate::hints;
use crate::hints::text::MessageBuf;
use crate::hinttext::{self, Format};
use crate::info::{InfoMap, MAX_VALUE_LEN};
use crate::nocancel::NoCancel;
use crate::serial;
use crate::shared::SharedMap;
use crate::typed::{self, IntText};

/// Hint text format for `MPIX_Info_set_from_string` and `MPIX_Info_set_from_file`: the
/// `ROMIO_HINTS` file syntax, one `key value` entry per line (blanks or tabs between key and
/// value, `#` comment lines, empty lines skipped).
pub const MPIX_INFO_FORMAT_LINES: c_int = 1;
/// Hint text format for `MPIX_Info_set_from_string` and `MPIX_Info_set_from_file`: the
/// `PNETCDF_HINTS` syntax, `key=value` entries separated by `;` (or line ends), blanks around
/// keys and values stripped.
pub const MPIX_INFO_FORMAT_PAIRS: c_int = 2;
/// The longest hint text `MPIX_Info_set_from_string` and `MPIX_Info_set_from_file` accept, in
/// bytes (1 MiB, the terminating NUL of a string not counted).
pub const MPIX_INFO_TEXT_MAX: c_int = 1048576;

/// The longest file path `MPIX_Info_set_from_file` accepts: Linux's `PATH_MAX` (4096) minus
/// the NUL.
const PATH_MAX_LEN: usize = 4095;

static EMPTY: InfoMap = InfoMap::new();

// ---------------------------------------------------------------- typed reads

/// The body of every typed read: `MPIX_Info_get_X(info, key, <args>, flag)`. Checks `info`,
/// `key`, the function's own arguments (`args`, left to right) and `flag`, all before the
/// lookup; then, if the key is there, `found` parses its value and writes the outputs, and
/// `*flag = 1`; if not, `*flag = 0` and nothing else is written. `found` writes nothing when
/// it fails.
fn typed_read<A>(
    function: &'static str,
    info: MPI_Info,
    key: *const c_char,
    args: impl FnOnce() -> Result<A, Error>,
    flag: *mut c_int,
    found: impl FnOnce(&[u8], A) -> Result<(), Error>,
) -> c_int {
    boundary(function, || {
        handle::read(info, |map| {
            // SAFETY: `key` comes straight from the C caller of the `MPIX_Info_get_` function
            // that called this, who promises a C string that lives, unchanged, for the call.
            let key = unsafe { key_arg(key) }?;
            let args = args()?;
            let flag = Out::new(flag, "flag")?;
            match map.get(key) {
                Some(value) => {
                    found(value, args)?;
                    flag.put(1);
                }
                None => flag.put(0),
            }
            Ok(())
        })
    })
}

/// A typed read of one number or boolean: `*value` is what `parse` makes of the key's value.
fn scalar_read<T: Copy>(
    function: &'static str,
    info: MPI_Info,
    key: *const c_char,
    value: *mut T,
    flag: *mut c_int,
    parse: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> c_int {
    typed_read(
        function,
        info,
        key,
        || Out::new(value, "value"),
        flag,
        |text, value| {
            value.put(parse(text)?);
            Ok(())
        },
    )
}

/// Reads the value of a key as a boolean.
///
/// The value of `key` is read as a boolean: `"true"` is 1, `"false"` is 0 (lowercase, blanks
/// around the value ignored, anything else is an error).
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `value` (out): 1 or 0; written only when the key is there and its value is a boolean;
/// - `flag` (out): 1 if the key is there, 0 if not (then `*value` is not touched).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_ARG`: `value` is NULL, or `flag` is NULL (whether or not the key is there);
/// - `MPI_ERR_INFO_VALUE`: the key is there and its value is neither `true` nor `false`.
///
/// See also: `MPIX_Info_set_bool`, `MPIX_Info_get_enum`, `MPIX_Info_get_int`,
/// `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_get_bool(info: MPI_Info, key: *const c_char, value: *mut c_int, flag: *mut c_int) -> c_int {
    PMPIX_Info_get_bool(info, key, value, flag)
}

/// Profiling name of `MPIX_Info_get_bool`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_get_bool(
    info: MPI_Info,
    key: *const c_char,
    value: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    scalar_read("MPIX_Info_get_bool", info, key, value, flag, |text| typed::parse_bool(text).map(c_int::from))
}

/// Reads the value of a key as an int.
///
/// The value of `key` is read as a C `int`: decimal digits with an optional `+` or `-` directly
/// before them, blanks around the value ignored. Nothing else is accepted (no blank after the
/// sign, no `0x`, no other digits than ASCII `0`-`9`, no empty value), and a number outside
/// `INT_MIN..INT_MAX` is an error, never wrapped or clamped.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `value` (out): the number; written only when the key is there and its value is valid;
/// - `flag` (out): 1 if the key is there, 0 if not (then `*value` is not touched).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_ARG`: `value` is NULL, or `flag` is NULL (whether or not the key is there);
/// - `MPI_ERR_INFO_VALUE`: the key is there and its value is not a decimal integer within the
///   range of `int`.
///
/// See also: `MPIX_Info_get_int64`, `MPIX_Info_set_int64`, `MPIX_Info_get_bool`,
/// `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_get_int(info: MPI_Info, key: *const c_char, value: *mut c_int, flag: *mut c_int) -> c_int {
    PMPIX_Info_get_int(info, key, value, flag)
}

/// Profiling name of `MPIX_Info_get_int`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_get_int(info: MPI_Info, key: *const c_char, value: *mut c_int, flag: *mut c_int) -> c_int {
    scalar_read("MPIX_Info_get_int", info, key, value, flag, typed::parse_i32)
}

/// Reads the value of a key as an int64_t.
///
/// The value of `key` is read as an `int64_t`, with the rules of `MPIX_Info_get_int` and the
/// range `INT64_MIN..INT64_MAX`.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `value` (out): the number; written only when the key is there and its value is valid;
/// - `flag` (out): 1 if the key is there, 0 if not (then `*value` is not touched).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_ARG`: `value` is NULL, or `flag` is NULL (whether or not the key is there);
/// - `MPI_ERR_INFO_VALUE`: the key is there and its value is not a decimal integer within the
///   range of `int64_t`.
///
/// See also: `MPIX_Info_get_int`, `MPIX_Info_set_int64`.
#[no_mangle]
pub extern "C" fn MPIX_Info_get_int64(info: MPI_Info, key: *const c_char, value: *mut i64, flag: *mut c_int) -> c_int {
    PMPIX_Info_get_int64(info, key, value, flag)
}

/// Profiling name of `MPIX_Info_get_int64`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_get_int64(info: MPI_Info, key: *const c_char, value: *mut i64, flag: *mut c_int) -> c_int {
    scalar_read("MPIX_Info_get_int64", info, key, value, flag, typed::parse_i64)
}

/// One of `MPIX_Info_get_enum`'s choices: NULL, or longer than a value can be, is
/// `MPI_ERR_ARG`. Never reads more than `MPI_MAX_INFO_VAL` bytes.
///
/// # Safety
/// As for `read_bounded`: `choice` is NULL or a C string, not written while `'a` lasts.
unsafe fn choice_arg<'a>(choice: *const c_char) -> Result<&'a [u8], Error> {
    // SAFETY: the caller's promise is `read_bounded`'s.
    match unsafe { read_bounded(choice, MAX_VALUE_LEN + 1) } {
        Some(text) if text.len() <= MAX_VALUE_LEN => Ok(text),
        _ => Err(Error::Arg),
    }
}

/// Reads the value of a key as one of a list of words.
///
/// The value of `key` is read as one of `nchoices` words: `*index` is the position (0-based) of
/// the first of `choices` equal to the value, with blanks around the value ignored and the
/// comparison exact and case-sensitive (for hints such as `"enable"` / `"disable"` /
/// `"automatic"`).
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `nchoices` (in): the number of choices, 0 or more;
/// - `choices` (in): `nchoices` NUL-terminated strings, each at most `MPI_MAX_INFO_VAL - 1`
///   characters (may be NULL when `nchoices` is 0);
/// - `index` (out): the position of the matching choice; written only when the key is there and
///   its value is one of the choices;
/// - `flag` (out): 1 if the key is there, 0 if not (then `*index` is not touched).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_ARG`: `nchoices` is negative; `choices` is NULL while `nchoices > 0`; one of
///   `choices[0..nchoices]` is NULL or longer than `MPI_MAX_INFO_VAL - 1`; `index` is NULL;
///   `flag` is NULL (all whether or not the key is there);
/// - `MPI_ERR_INFO_VALUE`: the key is there and its value equals none of the choices.
///
/// See also: `MPIX_Info_get_bool`, `MPIX_Info_get_int`, `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_get_enum(
    info: MPI_Info,
    key: *const c_char,
    nchoices: c_int,
    choices: *const *const c_char,
    index: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    PMPIX_Info_get_enum(info, key, nchoices, choices, index, flag)
}

/// Profiling name of `MPIX_Info_get_enum`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_get_enum(
    info: MPI_Info,
    key: *const c_char,
    nchoices: c_int,
    choices: *const *const c_char,
    index: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    let args = || {
        let n = count_arg(nchoices, "nchoices")?;
        // SAFETY: `choices` comes straight from the C caller, who promises `nchoices`
        // pointers, each NULL or a C string, that live, unchanged, for the call (the doc
        // comment of `MPIX_Info_get_enum`); so does each `choice` below.
        let choices = if n == 0 { &[] } else { unsafe { read_array(choices, n) }.ok_or(Error::Arg)? };
        for &choice in choices {
            unsafe { choice_arg(choice) }?;
        }
        Ok((choices, Out::new(index, "index")?))
    };
    typed_read("MPIX_Info_get_enum", info, key, args, flag, |text, (choices, index)| {
        // Every choice passed `choice_arg` above, so none is NULL or too long here.
        // SAFETY: as above, the caller's promise for each choice.
        let at =
            typed::parse_enum(text, choices.iter().map(|&choice| unsafe { choice_arg(choice) }.unwrap_or_default()))?;
        index.put(to_c_int(at)?);
        Ok(())
    })
}

/// Gives the number of elements of a comma-separated list value.
///
/// The value of `key` is read as a comma-separated list, and `*nitems` is the number of its
/// elements.
/// Blanks around the value and around each element are ignored; a value that is empty or all
/// blanks is the empty list (0 elements); an element that is empty or all blanks (`"a,,b"`,
/// `"a,"`, `",a"`) makes the whole value invalid.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `nitems` (out): the number of elements; written only when the key is there and its value is
///   a valid list;
/// - `flag` (out): 1 if the key is there, 0 if not (then `*nitems` is not touched).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_ARG`: `nitems` is NULL, or `flag` is NULL (whether or not the key is there);
/// - `MPI_ERR_INFO_VALUE`: the key is there and its value has an empty element.
///
/// See also: `MPIX_Info_get_item`, `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_get_nitems(
    info: MPI_Info,
    key: *const c_char,
    nitems: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    PMPIX_Info_get_nitems(info, key, nitems, flag)
}

/// Profiling name of `MPIX_Info_get_nitems`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_get_nitems(
    info: MPI_Info,
    key: *const c_char,
    nitems: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    scalar_read("MPIX_Info_get_nitems", info, key, nitems, flag, |text| to_c_int(typed::list_len(text)?))
}

/// Reads one element of a comma-separated list value.
///
/// Reads element `n` (0-based) of the comma-separated list that is the value of `key`, without
/// the blanks around it (list rules as in `MPIX_Info_get_nitems`). `buflen` is in/out exactly
/// as in `MPI_Info_get_string`: if `*buflen > 0`, the first `min(length, *buflen - 1)`
/// characters of the element and a NUL are written to `item`; then `*buflen` is set to the
/// element's length plus one, the size a buffer needs to hold all of it. With `*buflen == 0`
/// nothing is written to `item`, which may be NULL.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `key` (in): the key, a NUL-terminated string;
/// - `n` (in): the element's position, 0 or more;
/// - `buflen` (in/out): in, the size of `item` in bytes; out (only when the element is there), the
///   element's length plus one;
/// - `item` (out): the element and a NUL (at most `*buflen` bytes written, never more);
/// - `flag` (out): 1 if the key is there, 0 if not (then `*buflen` and `item` are not touched).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_ARG`: `n` is negative; `buflen` is NULL; `*buflen` is negative; `item` is NULL
///   while `*buflen > 0`; `flag` is NULL (all whether or not the key is there);
/// - `MPI_ERR_INFO_VALUE`: the key is there and its value has an empty element;
/// - `MPI_ERR_ARG`: the key is there, its value is a valid list, and it has no element `n`.
///
/// See also: `MPIX_Info_get_nitems`, `MPI_Info_get_string`.
#[no_mangle]
pub extern "C" fn MPIX_Info_get_item(
    info: MPI_Info,
    key: *const c_char,
    n: c_int,
    buflen: *mut c_int,
    item: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    PMPIX_Info_get_item(info, key, n, buflen, item, flag)
}

/// Profiling name of `MPIX_Info_get_item`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_get_item(
    info: MPI_Info,
    key: *const c_char,
    n: c_int,
    buflen: *mut c_int,
    item: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    let args = || {
        let n = count_arg(n, "n")?;
        let buflen = Out::new(buflen, "buflen")?;
        let size = count_arg(buflen.get(), "*buflen")?;
        let item = if size > 0 { Some(OutStr::new(item, "item")?) } else { None };
        Ok((n, buflen, size, item))
    };
    typed_read("MPIX_Info_get_item", info, key, args, flag, |text, (n, buflen, size, item)| {
        let element = typed::list_item(text, n)?.ok_or(Error::Arg)?;
        if let Some(item) = item {
            item.put(element, size - 1);
        }
        buflen.put(to_c_int(element.len() + 1)?);
        Ok(())
    })
}

// ---------------------------------------------------------------- typed writes

/// The body of the typed writes: sets `key` to `text` in `info`.
fn typed_write(function: &'static str, info: MPI_Info, key: *const c_char, text: &[u8]) -> c_int {
    boundary(function, || {
        handle::write(info, |object| {
            // SAFETY: `key` comes straight from the C caller of the `MPIX_Info_set_` function
            // that called this, who promises a C string that lives, unchanged, for the call.
            let key = unsafe { key_arg(key) }?;
            object::set(object, key, text)
        })
    })
}

/// Sets a key to a boolean.
///
/// Sets `key` to the canonical text of a boolean: `"true"` if `value` is not 0, `"false"` if it
/// is. As `MPI_Info_set` otherwise: a new key goes to the end, an existing one keeps its
/// position.
///
/// Parameters:
/// - `info` (in): the object (not `MPI_INFO_ENV`);
/// - `key` (in): the key, a NUL-terminated string;
/// - `value` (in): the boolean, any `int`.
///
/// Errors, in checking order (on error the object is unchanged):
/// - `MPI_ERR_INFO`: `info` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_NO_MEM`: out of memory.
///
/// See also: `MPIX_Info_get_bool`, `MPIX_Info_set_int64`, `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn MPIX_Info_set_bool(info: MPI_Info, key: *const c_char, value: c_int) -> c_int {
    PMPIX_Info_set_bool(info, key, value)
}

/// Profiling name of `MPIX_Info_set_bool`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_set_bool(info: MPI_Info, key: *const c_char, value: c_int) -> c_int {
    typed_write("MPIX_Info_set_bool", info, key, typed::bool_text(value != 0))
}

/// Sets a key to an integer.
///
/// Sets `key` to the canonical text of an integer: its decimal digits, with `-` before them
/// when it is negative, no `+` and no leading zeros (`"0"`, `"-42"`, `"-9223372036854775808"`).
/// As `MPI_Info_set` otherwise: a new key goes to the end, an existing one keeps its position.
/// Use it for `int` values too; `MPIX_Info_get_int` reads them back.
///
/// Parameters:
/// - `info` (in): the object (not `MPI_INFO_ENV`);
/// - `key` (in): the key, a NUL-terminated string;
/// - `value` (in): the integer, any `int64_t`.
///
/// Errors, in checking order (on error the object is unchanged):
/// - `MPI_ERR_INFO`: `info` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_INFO_KEY`: `key` is NULL, empty or longer than `MPI_MAX_INFO_KEY - 1`;
/// - `MPI_ERR_NO_MEM`: out of memory.
///
/// See also: `MPIX_Info_get_int`, `MPIX_Info_get_int64`, `MPIX_Info_set_bool`, `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn MPIX_Info_set_int64(info: MPI_Info, key: *const c_char, value: i64) -> c_int {
    PMPIX_Info_set_int64(info, key, value)
}

/// Profiling name of `MPIX_Info_set_int64`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_set_int64(info: MPI_Info, key: *const c_char, value: i64) -> c_int {
    typed_write("MPIX_Info_set_int64", info, key, IntText::new(value).as_bytes())
}

// ---------------------------------------------------------------- merge and hint text

/// A target of merge or hint text: a live object other than `MPI_INFO_ENV`, else
/// `MPI_ERR_INFO`. Checked first, as the leftmost argument, before the other arguments are read.
fn target_arg(info: MPI_Info) -> Result<(), Error> {
    handle::write(info, |_| Ok(()))
}

/// Sets the pairs of `pairs` in `info` with [`InfoMap::merge`]; the object does not change at
/// all when nothing would change (so its pairs stay shared with its duplicates).
fn merge_into(info: MPI_Info, pairs: &InfoMap, overwrite: bool) -> Result<(), Error> {
    handle::write(info, |mut object| {
        if !object.map().merge_changes(pairs, overwrite) {
            return Ok(());
        }
        object.modify(|map| map.merge(pairs, overwrite))
    })
}

/// Sets the pairs of one info object in another.
///
/// Sets every pair of `source` in `target`, the way `MPI_Win_set_info` applies hints (MPI-4.1
/// section 13.2.7): only the keys `source` names change. With `overwrite == 0` a key already in
/// `target` keeps its value (system defaults merged under user hints); otherwise it takes
/// `source`'s. Keys already in `target` keep their position; new keys are appended in
/// `source`'s order. `target == source` is valid (and changes nothing). `source` is not changed.
///
/// Parameters:
/// - `target` (in): the object that changes (not `MPI_INFO_ENV`);
/// - `source` (in): the object whose pairs are set (`MPI_INFO_ENV` allowed);
/// - `overwrite` (in): 0 to keep `target`'s values, anything else to replace them.
///
/// Errors, in checking order (on error no object changes):
/// - `MPI_ERR_INFO`: `target` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_INFO`: `source` is not a live object;
/// - `MPI_ERR_NO_MEM`: out of memory.
///
/// See also: `MPIX_Info_set_from_string`, `MPIX_Info_equal`, `MPI_Info_dup`, `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn MPIX_Info_merge(target: MPI_Info, source: MPI_Info, overwrite: c_int) -> c_int {
    PMPIX_Info_merge(target, source, overwrite)
}

/// Profiling name of `MPIX_Info_merge`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_merge(target: MPI_Info, source: MPI_Info, overwrite: c_int) -> c_int {
    boundary("MPIX_Info_merge", || {
        target_arg(target)?;
        let pairs = handle::share(source)?;
        if target == source {
            // An object merged into itself does not change. Merging the snapshot would write
            // back, over another thread's change made since, the value it replaced.
            return Ok(());
        }
        merge_into(target, pairs.as_deref().unwrap_or(&EMPTY), overwrite != 0)
    })
}

/// A hint text format: `MPI_ERR_ARG` for anything but the two constants.
fn format_arg(format: c_int) -> Result<Format, Error> {
    match format {
        MPIX_INFO_FORMAT_LINES => Ok(Format::Lines),
        MPIX_INFO_FORMAT_PAIRS => Ok(Format::Pairs),
        _ => Err(Error::Arg),
    }
}

/// The longest hint text, in bytes.
const TEXT_MAX: usize = MPIX_INFO_TEXT_MAX as usize;

/// Sets the hints written in a string (ROMIO_HINTS or PNETCDF_HINTS syntax).
///
/// Sets the hints written in `text`, in one of two formats, as if each entry were set in turn
/// in a new object that is then merged into `info` with `MPIX_Info_merge(info, that,
/// overwrite)`: a key given twice in the text keeps the position of its first entry and the
/// value of its last; with `overwrite == 0` a key already in `info` keeps its value.
///
/// `MPIX_INFO_FORMAT_LINES` (the `ROMIO_HINTS` file): one `key value` entry per line, key and
/// value separated by blanks (spaces or tabs), blanks around them ignored; the value is one word.
/// A line that is empty or all blanks, or whose first non-blank character is `#`, is skipped.
///
/// `MPIX_INFO_FORMAT_PAIRS` (the `PNETCDF_HINTS` variable): `key=value` entries separated by
/// `;` or line ends, blanks around keys and values ignored; the value is everything after the
/// first `=` and may be empty. An empty or all-blank entry is skipped.
///
/// In both formats lines end at LF, and a CR just before a line end or at the end of the text is
/// dropped (CRLF text reads as LF text). A malformed entry is an error and nothing is set: every
/// entry is checked before `info` changes, the key first, and the first malformed entry in the
/// text decides the class. The text has no limit on a line's length, only on the whole:
/// `MPIX_INFO_TEXT_MAX` bytes.
///
/// Parameters:
/// - `info` (in): the object that changes (not `MPI_INFO_ENV`);
/// - `text` (in): the hint text, a NUL-terminated string of at most `MPIX_INFO_TEXT_MAX` bytes;
/// - `format` (in): `MPIX_INFO_FORMAT_LINES` or `MPIX_INFO_FORMAT_PAIRS`;
/// - `overwrite` (in): 0 to keep the values of keys already in `info`, anything else to replace
///   them.
///
/// Errors, in checking order (on error `info` is unchanged):
/// - `MPI_ERR_INFO`: `info` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_ARG`: `text` is NULL or longer than `MPIX_INFO_TEXT_MAX` bytes (it is never read
///   further than one byte past that);
/// - `MPI_ERR_ARG`: `format` is neither format constant;
/// - `MPI_ERR_INFO_KEY`: an entry's key is empty, longer than `MPI_MAX_INFO_KEY - 1`, or holds a
///   NUL (only a file can hold one);
/// - `MPI_ERR_INFO_VALUE`: an entry has no value (a `LINES` line with one word, a `PAIRS` entry
///   without `=`), a `LINES` line has more than two words, or a value is longer than
///   `MPI_MAX_INFO_VAL - 1` or holds a NUL;
/// - `MPI_ERR_NO_MEM`: out of memory.
///
/// See also: `MPIX_Info_set_from_file`, `MPIX_Info_merge`, `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn MPIX_Info_set_from_string(
    info: MPI_Info,
    text: *const c_char,
    format: c_int,
    overwrite: c_int,
) -> c_int {
    PMPIX_Info_set_from_string(info, text, format, overwrite)
}

/// Profiling name of `MPIX_Info_set_from_string`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_set_from_string(
    info: MPI_Info,
    text: *const c_char,
    format: c_int,
    overwrite: c_int,
) -> c_int {
    boundary("MPIX_Info_set_from_string", || {
        target_arg(info)?;
        // SAFETY: `text` comes straight from the C caller, who promises a C string that lives,
        // unchanged, for the call (the doc comment of `MPIX_Info_set_from_string`).
        let text = match unsafe { read_bounded(text, TEXT_MAX + 1) } {
            Some(text) if text.len() <= TEXT_MAX => text,
            _ => return Err(Error::Arg),
        };
        let format = format_arg(format)?;
        let pairs = hinttext::parse(text, format)?;
        merge_into(info, &pairs, overwrite != 0)
    })
}

/// The whole of the file at `path`: `MPI_ERR_OTHER` if it cannot be opened or read,
/// `MPI_ERR_ARG` if it is longer than [`TEXT_MAX`] bytes (of which it reads one byte more
/// than that at most).
fn read_file(path: &CStr) -> Result<Vec<u8>, Error> {
    let mut file = open_for_reading(path).map_err(|_| Error::Other)?;
    let mut text = Vec::new();
    let mut len = 0;
    loop {
        if len == text.len() {
            if len > TEXT_MAX {
                return Err(Error::Arg);
            }
            // Room for the next read: doubling from 4 KiB, up to one byte past the limit,
            // which is how a file that is too long shows.
            let grow = len.max(4096).min(TEXT_MAX + 1 - len);
            text.try_reserve_exact(grow)?;
            text.resize(len + grow, 0);
        }
        match file.read(&mut text[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(_) => return Err(Error::Other),
        }
    }
    text.truncate(len);
    Ok(text)
}

/// Sets the hints written in a file (ROMIO_HINTS or PNETCDF_HINTS syntax).
///
/// `MPIX_Info_set_from_string` on the contents of a file: reads the whole file at `path` (at
/// most `MPIX_INFO_TEXT_MAX` bytes) and sets the hints written in it, with the same formats and
/// rules. Unlike a string, the file may hold NUL bytes; one in a key or a value makes that entry
/// malformed.
///
/// The file may be a regular file, a pipe or a FIFO, or `/dev/null` (read as empty); anything
/// else (a directory, a terminal, another device) is refused without being read, and a
/// terminal never becomes the caller's controlling terminal. A pipe or FIFO that a writer holds
/// open (as `ROMIO_HINTS=<(...)` gives) is read until the writer closes it; a FIFO with no
/// writer at the time of the call is read as empty, so the call returns at once, sets nothing
/// and succeeds. A thread cancelled (`pthread_cancel`) during the call is not ended inside it:
/// the cancel acts after the call returns.
///
/// Parameters:
/// - `info` (in): the object that changes (not `MPI_INFO_ENV`);
/// - `path` (in): the file's path, a NUL-terminated string of at most 4095 bytes (`PATH_MAX - 1`);
/// - `format` (in): `MPIX_INFO_FORMAT_LINES` or `MPIX_INFO_FORMAT_PAIRS`;
/// - `overwrite` (in): 0 to keep the values of keys already in `info`, anything else to replace
///   them.
///
/// Errors, in checking order (on error `info` is unchanged):
/// - `MPI_ERR_INFO`: `info` is not a live object, or is `MPI_INFO_ENV`;
/// - `MPI_ERR_ARG`: `path` is NULL or longer than 4095 bytes;
/// - `MPI_ERR_ARG`: `format` is neither format constant;
/// - `MPI_ERR_OTHER`: the file cannot be opened or read (it does not exist, is not readable, the
///   path is empty, ...), or is not a regular file, a pipe or FIFO, or `/dev/null` (a directory,
///   a terminal, `/dev/ptmx`, `/dev/zero`, ...);
/// - `MPI_ERR_ARG`: the file is longer than `MPIX_INFO_TEXT_MAX` bytes (no more than one byte past
///   that is read);
/// - `MPI_ERR_INFO_KEY`, `MPI_ERR_INFO_VALUE`: a malformed entry, as for
///   `MPIX_Info_set_from_string`;
/// - `MPI_ERR_NO_MEM`: out of memory.
///
/// See also: `MPIX_Info_set_from_string`, `MPIX_Info_merge`, `MPI_Info_set`.
#[no_mangle]
pub extern "C" fn MPIX_Info_set_from_file(
    info: MPI_Info,
    path: *const c_char,
    format: c_int,
    overwrite: c_int,
) -> c_int {
    PMPIX_Info_set_from_file(info, path, format, overwrite)
}

/// Profiling name of `MPIX_Info_set_from_file`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_set_from_file(
    info: MPI_Info,
    path: *const c_char,
    format: c_int,
    overwrite: c_int,
) -> c_int {
    boundary("MPIX_Info_set_from_file", || {
        // The open, the reads and the close are cancellation points (`crate::nocancel`).
        let _no_cancel = NoCancel::hold();
        target_arg(info)?;
        // With its NUL, which `read_bounded` found within the bound when the path is not too long.
        let mut path_buffer = [0u8; PATH_MAX_LEN + 1];
        // SAFETY: `path` comes straight from the C caller, who promises a C string that lives,
        // unchanged, for the call (the doc comment of `MPIX_Info_set_from_file`).
        let path = match unsafe { read_bounded(path, PATH_MAX_LEN + 1) } {
            Some(path) if path.len() <= PATH_MAX_LEN => path,
            _ => return Err(Error::Arg),
        };
        path_buffer[..path.len()].copy_from_slice(path);
        let path = CStr::from_bytes_until_nul(&path_buffer).map_err(|_| Error::Intern)?;
        let format = format_arg(format)?;
        // Read and parsed before the object is locked: a slow file system holds up no other call.
        let text = read_file(path)?;
        let pairs = hinttext::parse(&text, format)?;
        merge_into(info, &pairs, overwrite != 0)
    })
}

// ---------------------------------------------------------------- serialization

/// Serializes an info object into bytes.
///
/// Writes the serialized form of `info` (its pairs, in order) to `buf`. `buflen` is in/out
/// exactly as in `MPI_Info_get_string`: the first `min(size, *buflen)` bytes of the serialized
/// form are written to `buf` (the whole of it when `*buflen >= size`; a shorter buffer gets
/// only its beginning, which `MPIX_Info_deserialize` refuses); then `*buflen` is set to the size,
/// in bytes, so a first call with `*buflen == 0` (and `buf` NULL) asks for the size. No NUL is
/// added.
///
/// The format (version 1, documented byte by byte in docs/mpix.md) is independent of byte
/// order and word size, and the same pairs in the same order always give the same bytes:
/// the magic bytes `"MPII"`, then the version, the number of pairs, and for each pair its key's
/// length, the key, its value's length and the value, every number 4 bytes, big-endian.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `buflen` (in/out): in, the size of `buf` in bytes; out, the size of the serialized form;
/// - `buf` (out): the serialized form (at most `*buflen` bytes written, never more).
///
/// Errors, in checking order (on error no output is written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_ARG`: `buflen` is NULL, `*buflen` is negative, or `buf` is NULL while
///   `*buflen > 0`;
/// - `MPI_ERR_OTHER`: the serialized form would be larger than `INT_MAX` bytes.
///
/// See also: `MPIX_Info_deserialize`, `MPIX_Info_equal`.
#[no_mangle]
pub extern "C" fn MPIX_Info_serialize(info: MPI_Info, buflen: *mut c_int, buf: *mut c_void) -> c_int {
    PMPIX_Info_serialize(info, buflen, buf)
}

/// Profiling name of `MPIX_Info_serialize`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_serialize(info: MPI_Info, buflen: *mut c_int, buf: *mut c_void) -> c_int {
    boundary("MPIX_Info_serialize", || {
        handle::read(info, |map| {
            let buflen = Out::new(buflen, "buflen")?;
            let room = count_arg(buflen.get(), "*buflen")?;
            let buf = if room > 0 { Some(OutBytes::new(buf, room, "buf")?) } else { None };
            let size = c_int::try_from(serial::serialized_len(map)).map_err(|_| Error::Other)?;
            if let Some(mut buf) = buf {
                let mut at = 0;
                serial::emit_pieces(map, |piece| {
                    buf.put_at(at, piece);
                    at += piece.len();
                });
            }
            buflen.put(size);
            Ok(())
        })
    })
}

/// Creates an info object from its serialized form.
///
/// Creates a new object from the serialized form `MPIX_Info_serialize` wrote: the same pairs in
/// the same order. Every byte is checked, and anything but an exact serialized form is refused
/// without creating an object: a buffer cut short, bytes after the end, another magic or
/// version, a count or length that does not fit the buffer, a key or value breaking the limits
/// or holding a NUL, a key given twice. The order of the checks and the class of each are in
/// docs/mpix.md; the first defect in the bytes decides.
///
/// Parameters:
/// - `buf` (in): the serialized form;
/// - `buflen` (in): its size in bytes, exactly;
/// - `info` (out): the handle of the new object.
///
/// Errors, in checking order (on error no object is created and `*info` is not written):
/// - `MPI_ERR_ARG`: `buf` is NULL, `buflen` is negative, or `info` is NULL;
///
/// then the bytes, from the first to the last, the first defect deciding the class:
/// - `MPI_ERR_ARG`: the bytes are not a serialized form: shorter than the 12-byte header, another
///   magic, another version than 1, more pairs announced than the bytes can hold, a length
///   past the end, a key given twice, bytes left after the last pair;
/// - `MPI_ERR_INFO_KEY`: a key's length is 0 or above `MPI_MAX_INFO_KEY - 1`, or the key holds a
///   NUL;
/// - `MPI_ERR_INFO_VALUE`: a value's length is above `MPI_MAX_INFO_VAL - 1`, or the value holds a
///   NUL;
///
/// and, wherever memory runs out:
/// - `MPI_ERR_NO_MEM`: out of memory, or no handle is left (about a million objects are live).
///
/// See also: `MPIX_Info_serialize`, `MPIX_Info_equal`, `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn MPIX_Info_deserialize(buf: *const c_void, buflen: c_int, info: *mut MPI_Info) -> c_int {
    PMPIX_Info_deserialize(buf, buflen, info)
}

/// Profiling name of `MPIX_Info_deserialize`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_deserialize(buf: *const c_void, buflen: c_int, info: *mut MPI_Info) -> c_int {
    boundary("MPIX_Info_deserialize", || {
        if buf.is_null() {
            return Err(Error::Arg);
        }
        let buflen = count_arg(buflen, "buflen")?;
        // SAFETY: `buf` comes straight from the C caller, who promises `buflen` readable bytes
        // that live, unchanged, for the call (the doc comment of `MPIX_Info_deserialize`).
        let bytes = unsafe { read_array(buf.cast::<u8>(), buflen) }.ok_or(Error::Arg)?;
        let info = Out::new(info, "info")?;
        let map = serial::deserialize(bytes)?;
        info.put(handle::create(Some(SharedMap::try_new(map)?))?);
        Ok(())
    })
}

// ---------------------------------------------------------------- equality

/// Compares two info objects.
///
/// Compares two objects: `*equal = 1` if they hold the same pairs (keys and values byte for
/// byte), in the same order if `ordered` is not 0, in any order if it is 0; `*equal = 0`
/// otherwise. `a == b` is valid; either may be `MPI_INFO_ENV`.
///
/// Parameters:
/// - `a`, `b` (in): the objects;
/// - `ordered` (in): 0 to ignore the order of the pairs, anything else to compare it too;
/// - `equal` (out): 1 or 0.
///
/// Errors, in checking order (on error `*equal` is not written):
/// - `MPI_ERR_INFO`: `a` is not a live object;
/// - `MPI_ERR_INFO`: `b` is not a live object;
/// - `MPI_ERR_ARG`: `equal` is NULL.
///
/// See also: `MPIX_Info_merge`, `MPI_Info_dup`.
#[no_mangle]
pub extern "C" fn MPIX_Info_equal(a: MPI_Info, b: MPI_Info, ordered: c_int, equal: *mut c_int) -> c_int {
    PMPIX_Info_equal(a, b, ordered, equal)
}

/// Profiling name of `MPIX_Info_equal`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_equal(a: MPI_Info, b: MPI_Info, ordered: c_int, equal: *mut c_int) -> c_int {
    boundary("MPIX_Info_equal", || {
        let first = handle::share(a)?;
        let first = first.as_deref().unwrap_or(&EMPTY);
        handle::read(b, |second| {
            let equal = Out::new(equal, "equal")?;
            // An object is equal to itself. Its snapshot and its pairs now could differ by
            // another thread's change made in between, which is no difference of the object.
            let same = a == b || first.equal(second, ordered != 0);
            equal.put(c_int::from(same));
            Ok(())
        })
    })
}

// ---------------------------------------------------------------- checking hints

/// The longest `targets` list, in bytes.
const TARGETS_MAX: usize = MAX_VALUE_LEN;

/// The body of both checks: `vocabulary` is `None` for the built-in vocabulary alone.
fn check_hints(
    info: MPI_Info,
    vocabulary: Option<*const c_char>,
    targets: *const c_char,
    diagnostics: *mut MPI_Info,
) -> Result<(), Error> {
    let pairs = handle::share(info)?;
    let vocabulary = match vocabulary {
        None => None,
        Some(text) if text.is_null() => return Err(failed(Detail::Null("vocabulary"))),
        // SAFETY: `vocabulary` and `targets` come straight from the C caller of the check
        // function that called this, who promises C strings that live, unchanged, for the call.
        Some(text) => match unsafe { read_bounded(text, TEXT_MAX + 1) } {
            Some(text) if text.len() <= TEXT_MAX => Some(text),
            _ => return Err(failed_with(Error::Arg, format_args!("vocabulary is longer than {TEXT_MAX} bytes"))),
        },
    };
    let targets = match targets.is_null() {
        true => None,
        // SAFETY: as for `vocabulary` above.
        false => match unsafe { read_bounded(targets, TARGETS_MAX + 1) } {
            Some(list) if list.len() <= TARGETS_MAX => Some(std::str::from_utf8(list).map_err(|error| {
                let at = error.valid_up_to();
                failed_with(Error::Arg, format_args!("targets is not UTF-8 (byte {at}, 0x{:02x})", list[at]))
            })?),
            _ => return Err(failed_with(Error::Arg, format_args!("targets is longer than {TARGETS_MAX} bytes"))),
        },
    };
    let diagnostics = Out::new(diagnostics, "diagnostics")?;

    let builtin = hints::Vocabulary::builtin()?;
    let own = match vocabulary {
        None => None,
        Some(text) => Some(hints::Vocabulary::from_json(text, Some(builtin)).map_err(|error| match error {
            hints::VocabularyError::NoMem => Error::NoMem,
            hints::VocabularyError::Invalid(what) => {
                failed_with(Error::Arg, format_args!("vocabulary is not a vocabulary: {what}"))
            }
        })?),
    };
    let vocabulary = own.as_ref().unwrap_or(builtin);
    let targets = hints::Targets::parse(vocabulary, targets).map_err(|error| match error {
        hints::TargetError::NoMem => Error::NoMem,
        other => failed_with(Error::Arg, format_args!("targets: {other}")),
    })?;

    let map = pairs.as_deref().unwrap_or(&EMPTY);
    let mut list = Vec::new();
    list.try_reserve_exact(map.len())?;
    list.extend(map.iter());
    let findings = hints::check(vocabulary, &targets, &list)?;

    // One pair per key with an error or a warning: its first, as "code: message", cut to fit
    // a value. Notes (another layer's hint, an unusual spelling read as meant) are the Rust
    // API's and the lint's only.
    let mut found = InfoMap::new();
    for finding in findings.iter().filter(|finding| finding.severity != hints::Severity::Note) {
        let key = list[finding.pair].0;
        if found.get(key).is_some() {
            continue;
        }
        let mut value: MessageBuf = MessageBuf::new();
        let _ = write!(value, "{}: {}", finding.code, finding.message);
        found.set(key, value.as_str().as_bytes())?;
    }
    diagnostics.put(handle::create(Some(SharedMap::try_new(found)?))?);
    Ok(())
}

/// Checks the hints in an info object against the field's hint vocabulary.
///
/// Reads every pair of `info` the way each named target (an MPI implementation, the standard,
/// or an I/O library) reads it in the releases named, and creates a new object `*diagnostics`
/// holding one pair per key with an error or a warning: the key, mapped to a value that starts
/// with the finding's code, then `": "` and a one-line message that names the targets (and
/// releases) concerned. An empty object means nothing was found; notes (a hint another target
/// reads, a value read as meant in an unusual spelling) are left out. `info` is not changed.
///
/// The codes: `unknown-key` (no vocabulary knows the key; the message names the nearest known
/// keys when they are close), `bad-value` (read otherwise than meant, or not read: not a value
/// a target accepts, case included), `unit-suffix` (a number with a suffix where a target reads
/// plain integers; the message says what the target uses instead), `out-of-range`,
/// `not-read-by-target` (a known key a named target does not read in the releases named, or
/// takes without using),
/// `too-long-for-target` (a key or value past a target's length limit), `conflict` (a
/// combination a target documents as overriding or contradicting another, or a key and its
/// alias set to different values). A key with several findings gets its first, in that order
/// of checking: unknown or not read, length, value, conflict. docs/hints.md describes each
/// check and the vocabulary, whose sources are cited per entry (`mpi-info-lint --explain KEY`).
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `targets` (in): comma-separated targets, from `mpi` (the standard), `mpich`, `openmpi`,
///   `pnetcdf`, `cray-mpich`, each its newest release known, or with a release: `mpich@4.0.2`,
///   `openmpi@4.1` (every 4.1.x), `openmpi@main`; NULL for all;
/// - `diagnostics` (out): the handle of a new object with the findings, which the caller frees.
///
/// Errors, in checking order (on error no object is created and `*diagnostics` is not written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_ARG`: `targets` is longer than `MPI_MAX_INFO_VAL - 1` bytes or not UTF-8;
/// - `MPI_ERR_ARG`: `diagnostics` is NULL;
/// - `MPI_ERR_ARG`: `targets` names a target the vocabulary does not have, an empty one, or a
///   release that is not `main` or numbers (a release the vocabulary does not list is read as
///   the nearest it does);
///
/// and, wherever memory runs out (the first call of a process reads the built-in vocabulary
/// before it can judge `targets`):
/// - `MPI_ERR_NO_MEM`: out of memory, or no handle is left.
///
/// See also: `MPIX_Info_check_with_vocab`, `MPI_Info_get_nthkey`, `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn MPIX_Info_check(info: MPI_Info, targets: *const c_char, diagnostics: *mut MPI_Info) -> c_int {
    PMPIX_Info_check(info, targets, diagnostics)
}

/// Profiling name of `MPIX_Info_check`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_check(info: MPI_Info, targets: *const c_char, diagnostics: *mut MPI_Info) -> c_int {
    boundary("MPIX_Info_check", || check_hints(info, None, targets, diagnostics))
}

/// Checks the hints in an info object with a vocabulary of the caller's own.
///
/// `MPIX_Info_check` with a second vocabulary: `vocabulary` is a document in the form of the
/// built-in one (docs/hints.md), describing a layered library's own hints and naming its own
/// targets. Its keys and targets are added to the built-in ones (a key both describe is read
/// by the readers of both), so a library that declares its hints once gets every check for
/// them, and every check of the MPI hints it passes on.
///
/// Parameters:
/// - `info` (in): the object (`MPI_INFO_ENV` allowed);
/// - `vocabulary` (in): the vocabulary document, a NUL-terminated JSON text of at most
///   `MPIX_INFO_TEXT_MAX` bytes;
/// - `targets` (in): comma-separated target names, from the document's and the built-in ones;
///   NULL for all;
/// - `diagnostics` (out): the handle of a new object with the findings, which the caller frees.
///
/// Errors, in checking order (on error no object is created and `*diagnostics` is not written):
/// - `MPI_ERR_INFO`: `info` is not a live object;
/// - `MPI_ERR_ARG`: `vocabulary` is NULL or longer than `MPIX_INFO_TEXT_MAX` bytes;
/// - `MPI_ERR_ARG`: `targets` is longer than `MPI_MAX_INFO_VAL - 1` bytes or not UTF-8;
/// - `MPI_ERR_ARG`: `diagnostics` is NULL;
/// - `MPI_ERR_ARG`: `vocabulary` is not a vocabulary document (`mpi-info-lint --vocabulary FILE`
///   says what is wrong with it);
/// - `MPI_ERR_ARG`: `targets` names a target neither vocabulary has, an empty one, or a release
///   that is not `main` or numbers;
///
/// and, wherever memory runs out (the vocabularies are read before `vocabulary` and `targets`
/// can be judged):
/// - `MPI_ERR_NO_MEM`: out of memory, or no handle is left.
///
/// See also: `MPIX_Info_check`, `MPI_Info_free`.
#[no_mangle]
pub extern "C" fn MPIX_Info_check_with_vocab(
    info: MPI_Info,
    vocabulary: *const c_char,
    targets: *const c_char,
    diagnostics: *mut MPI_Info,
) -> c_int {
    PMPIX_Info_check_with_vocab(info, vocabulary, targets, diagnostics)
}

/// Profiling name of `MPIX_Info_check_with_vocab`.
#[no_mangle]
pub extern "C" fn PMPIX_Info_check_with_vocab(
    info: MPI_Info,
    vocabulary: *const c_char,
    targets: *const c_char,
    diagnostics: *mut MPI_Info,
) -> c_int {
    boundary("MPIX_Info_check_with_vocab", || check_hints(info, Some(vocabulary), targets, diagnostics))
}
