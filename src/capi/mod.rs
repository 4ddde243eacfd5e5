//! The C API: the exported `MPI_*` functions, their `PMPI_*` twins, and the constants and
//! types of `include/mpi_info.h`.
//!
//! Each function's body runs inside [`boundary`], which turns `Err` into its error class and a
//! panic into `MPI_ERR_INTERN`. Calls that read or change one object first run their body
//! without the object's lock and without `boundary`, and make the whole call only if that fails
//! (see [`quick_or_full`]). Arguments are checked left to right by the helpers below, one per
//! argument kind (SPEC §4's rules, written once); the first `?` that fails decides the class,
//! and no output is written before every argument has passed.
//!
//! The functions are safe to call in Rust's sense only because this module is private: C
//! callers promise what the MPI standard asks (a non-NULL string is NUL-terminated or at least
//! as long as the limit, a non-NULL output points to as many writable bytes as the call
//! writes); `crate::cstr` relies on exactly that and nothing more.
//!
//! Why the work is in `PMPI_*` and `MPI_*` only forwards: a profiling tool replaces `MPI_*`
//! and calls `PMPI_*` (SPEC §8). If `PMPI_*` called `MPI_*`, a tool linked statically would
//! call itself back through it.

#![allow(non_camel_case_types, non_snake_case)]

// Declared in the order the header lists them.
mod object;
mod conversion;
mod errors;
// The MPIX_ toolkit for layered libraries, last: its section closes the header.
mod mpix;

use std::ffi::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use crate::cstr::{is_c_string, read_bounded, read_bounded_short};
use crate::error::Error;
use crate::bias::ThreadMemo;
use crate::handles::{self, Writer};
use crate::info::{InfoMap, MAX_KEY_LEN, MAX_VALUE_LEN};

/// An info object handle.
pub type MPI_Info = c_int;
/// A Fortran `INTEGER`, as used for handles by the Fortran bindings.
pub type MPI_Fint = c_int;

/// The null handle: no object. A constant expression.
pub const MPI_INFO_NULL: MPI_Info = 304;
/// The predefined, read-only info object describing how the process was started.
pub const MPI_INFO_ENV: MPI_Info = 305;
/// Size of a buffer that holds the longest key and its terminating NUL (keys: 1..=255 chars).
pub const MPI_MAX_INFO_KEY: c_int = 256;
/// Size of a buffer that holds the longest value and its terminating NUL (values: 0..=1023 chars).
pub const MPI_MAX_INFO_VAL: c_int = 1024;
/// Size of a buffer that holds any error message and its terminating NUL.
pub const MPI_MAX_ERROR_STRING: c_int = 512;
/// The thread level this library supports: any function, from any thread, at any time.
pub const MPI_THREAD_MULTIPLE: c_int = 4096;

// The header's numbers are literals (plain `#define`s for C); these keep them in step with
// the limits the code enforces.
const _: () = assert!(MPI_MAX_INFO_KEY as usize == MAX_KEY_LEN + 1);
const _: () = assert!(MPI_MAX_INFO_VAL as usize == MAX_VALUE_LEN + 1);
const _: () = assert!(MPI_INFO_ENV == crate::handles::INFO_ENV);

/// Runs one C call: `Ok` is `MPI_SUCCESS`, `Err` its class, a panic `MPI_ERR_INTERN`.
/// Functions reach it through [`boundary_outlined`] or, when their first attempt fails, the
/// cold function [`quick_or_full`] makes.
#[inline(always)]
fn boundary(call: impl FnOnce() -> Result<(), Error>) -> c_int {
    silence_own_panics();
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(())) => crate::error::MPI_SUCCESS,
        Ok(Err(error)) => error.code(),
        Err(_) => crate::error::MPI_ERR_INTERN,
    }
}

/// The body of a C call that reads one object or changes one: the call tries the body first
/// where this thread can skip the object's lock without calling a function ([`quick_read`],
/// [`quick_write`]), and only where that fails makes the whole call ([`full_read`],
/// [`full_write`]) in a cold function with the same parameters:
///
/// ```ignore
/// pub extern "C" fn PMPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
///     quick_or_full!(read get_nthkey(info, n: c_int, key: *mut c_char))
/// }
/// ```
///
/// runs `get_nthkey(object, n, key)` on the object's [`Reading`] (for a write, its
/// [`Writer`]); the body writes its outputs last. The parameters are named
/// once more, with their types, because the whole call is a function of them: it receives them
/// in the registers they came in, so the first attempt ends in a jump to it. A first attempt
/// that calls nothing else then needs no stack frame and saves no register (`get_nthkey`);
/// every first attempt also skips the panic hook's check, the mapping of errors to classes and
/// the lock's fallback. `get_nthkey` at 16 keys went from 110 instructions to 88 with this
/// (a closure passed to the whole call had to be built on the stack).
///
/// The first attempt must change nothing when it fails: every body writes its outputs last.
/// Its errors are never reported: the whole call runs from the start and finds them itself. A
/// panic in it (a bug) also goes to the whole call, under [`boundary`]. A panic in the first
/// attempt prints nothing: it reaches the body only for a live object, and whatever made that
/// object ran [`boundary`], which installs the hook (unless that call was made while a Rust
/// panic unwound, which installs nothing).
macro_rules! quick_or_full {
    (read $body:ident($info:ident $(, $arg:ident: $type:ty)*)) => {
        quick_or_full!(@call quick_read, full_read, $body($info $(, $arg: $type)*))
    };
    (write $body:ident($info:ident $(, $arg:ident: $type:ty)*)) => {
        quick_or_full!(@call quick_write, full_write, $body($info $(, $arg: $type)*))
    };
    (@call $quick:ident, $full:ident, $body:ident($info:ident $(, $arg:ident: $type:ty)*)) => {{
        if $crate::capi::$quick($info, |object| $body(object $(, $arg)*)) {
            return $crate::error::MPI_SUCCESS;
        }
        // `extern "C"` because it cannot unwind (`boundary` stops every panic): a call to a
        // function that might would need a landing pad, and could not end in a jump. This took
        // 17 instructions off `get` at 16 keys, and 4 off `get_nthkey`.
        #[cold]
        #[inline(never)]
        extern "C" fn full($info: $crate::capi::MPI_Info $(, $arg: $type)*) -> ::std::ffi::c_int {
            $crate::capi::$full($info, |object| $body(object $(, $arg)*))
        }
        full($info $(, $arg)*)
    }};
}
use quick_or_full;

/// The first attempt of a call that reads one object (see [`quick_or_full`]): whether `body`
/// ran on its pairs and succeeded.
#[inline(always)]
fn quick_read(info: MPI_Info, body: impl FnOnce(Reading<'_>) -> Result<(), Error>) -> bool {
    let read = || handles::read_quick(info, |pairs, memo| body(Reading { pairs, memo: Some(memo) }));
    matches!(catch_unwind(AssertUnwindSafe(read)), Ok(Ok(())))
}

/// The whole call that reads one object, under [`boundary`].
#[inline(always)]
fn full_read(info: MPI_Info, body: impl FnOnce(Reading<'_>) -> Result<(), Error>) -> c_int {
    boundary(|| handles::read(info, |pairs| body(Reading { pairs, memo: None })))
}

/// What a call that reads one object reads: its pairs, and the memo of the thread's indicator
/// when the call skipped the object's lock (its first attempt).
///
/// The memo holds where the thread's last `get_nthkey` wrote a key, and that key's position.
/// A program that lists an object's pairs calls `get_nthkey` and then looks the key up in the
/// same buffer (`get_valuelen`, `get`), and [`Reading::key`] then goes straight to the pair.
/// Why: hashing the key reads it in words, and a word across two of `get_nthkey`'s stores,
/// still pending in the processor, waits for them (about 6 ns of a 20 ns pair of calls at 16
/// keys); comparing it with one pair's key reads it a byte at a time, which does not wait, and
/// needs no hash or index. Only first attempts have a memo: the whole call neither reads nor
/// writes it.
struct Reading<'a> {
    pairs: &'a InfoMap,
    memo: Option<&'static ThreadMemo>,
}

impl<'a> Reading<'a> {
    /// The input key `key`, checked as [`key_arg`] checks it; or, where it is the key of the
    /// pair the memo names, that pair's value. A string equal to that pair's key is that key,
    /// so the answer does not depend on the memo being right: a wrong guess costs a byte
    /// compare up to the first difference.
    #[inline(always)]
    fn key(&self, key: *const c_char) -> Result<Key<'a>, Error> {
        if let Some(memo) = self.memo {
            let (place, position) = memo.get();
            if place == key as usize {
                if let Some((stored, value)) = self.pairs.nth_pair(position) {
                    if is_c_string(key, stored) {
                        return Ok(Key::Found(value));
                    }
                }
            }
        }
        Ok(Key::Given(key_arg(key)?))
    }

    /// The value of `key`, if the object has it.
    #[inline(always)]
    fn value(&self, key: Key<'a>) -> Option<&'a [u8]> {
        match key {
            Key::Found(value) => Some(value),
            Key::Given(key) => self.pairs.get(key),
        }
    }

    /// Notes in the memo that `get_nthkey` wrote the key at `position` to `place`.
    #[inline(always)]
    fn wrote_key(&self, place: *mut c_char, position: usize) {
        if let Some(memo) = self.memo {
            memo.set(place as usize, position);
        }
    }
}

/// An input key after [`Reading::key`].
enum Key<'a> {
    /// The key of a pair the memo named, and this is that pair's value.
    Found(&'a [u8]),
    /// A valid key, not yet looked up.
    Given(&'a [u8]),
}

impl std::ops::Deref for Reading<'_> {
    type Target = InfoMap;
    fn deref(&self) -> &InfoMap {
        self.pairs
    }
}

/// [`quick_read`] for a call that changes one object.
#[inline(always)]
fn quick_write(info: MPI_Info, body: impl FnOnce(Writer<'_>) -> Result<(), Error>) -> bool {
    matches!(catch_unwind(AssertUnwindSafe(|| handles::write_quick(info, body))), Ok(Ok(())))
}

/// [`full_read`] for a call that changes one object.
#[inline(always)]
fn full_write(info: MPI_Info, body: impl FnOnce(Writer<'_>) -> Result<(), Error>) -> c_int {
    boundary(|| handles::write(info, body))
}

/// [`boundary`] for the calls without a first attempt (create, delete, dup, free, ...), in a
/// function of its own: inlined into `MPI_Info_set` (before it had one), it once made a set of
/// an existing key at 16 keys take 37 ns instead of 22, with the same instruction count.
#[inline(never)]
fn boundary_outlined(call: impl FnOnce() -> Result<(), Error>) -> c_int {
    boundary(call)
}

/// A library called from C must not print (SPEC §4), not even for its own bug, which the caller
/// sees as `MPI_ERR_INTERN`. The hook keeps quiet about panics raised in this crate's source and
/// passes every other panic to the hook that was there before.
///
/// The hook captures nothing, so boxing it allocates nothing: installing it cannot run out of
/// memory (the previous hook's box already exists and is only moved into `PREVIOUS_HOOK`).
fn silence_own_panics() {
    static INSTALL: Once = Once::new();
    // `set_hook` panics on a thread that is unwinding (a call from a destructor during a Rust
    // panic); such a call installs nothing, and a later one will.
    if INSTALL.is_completed() || std::thread::panicking() {
        return;
    }
    INSTALL.call_once(|| {
        let _ = PREVIOUS_HOOK.set(std::panic::take_hook());
        std::panic::set_hook(Box::new(|info| {
            let this_file = file!();
            let source_dir = &this_file[..this_file.len() - "capi/mod.rs".len()];
            let ours = info.location().is_some_and(|at| at.file().starts_with(source_dir));
            if !ours {
                if let Some(previous) = PREVIOUS_HOOK.get() {
                    previous(info);
                }
            }
        }));
    });
}

type PanicHook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;
static PREVIOUS_HOOK: OnceLock<PanicHook> = OnceLock::new();

/// An input key: NULL, empty or longer than 255 characters is `MPI_ERR_INFO_KEY`.
/// Never reads more than `MPI_MAX_INFO_KEY` bytes. What it returns passes `info::check_key`
/// (a C string holds no NUL), so the map need not check it again.
#[inline(always)]
fn key_arg<'a>(key: *const c_char) -> Result<&'a [u8], Error> {
    match read_bounded_short(key, MAX_KEY_LEN + 1) {
        Some(key) if !key.is_empty() && key.len() <= MAX_KEY_LEN => Ok(key),
        _ => Err(Error::InfoKey),
    }
}

/// An input value: NULL or longer than 1023 characters is `MPI_ERR_INFO_VALUE`.
/// Never reads more than `MPI_MAX_INFO_VAL` bytes. What it returns passes `info::check_value`.
fn value_arg<'a>(value: *const c_char) -> Result<&'a [u8], Error> {
    match read_bounded(value, MAX_VALUE_LEN + 1) {
        Some(value) if value.len() <= MAX_VALUE_LEN => Ok(value),
        _ => Err(Error::InfoValue),
    }
}

/// A length or index: negative is `MPI_ERR_ARG`.
fn count_arg(n: c_int) -> Result<usize, Error> {
    usize::try_from(n).map_err(|_| Error::Arg)
}

/// A count that goes back to C. Every count here is bounded far below `c_int::MAX`
/// (lengths by the value limit, key counts by `info::MAX_PAIRS`).
fn to_c_int(n: usize) -> Result<c_int, Error> {
    c_int::try_from(n).map_err(|_| Error::Intern)
}
