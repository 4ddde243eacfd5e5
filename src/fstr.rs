//! Raw-pointer access at the Fortran boundary (docs/reference.md, "Fortran"): the counterpart of
//! `crate::cstr` for the old-style Fortran routines in `capi::fortran`.
//!
//! A Fortran `CHARACTER*(*)` argument arrives as a pointer and, after all other arguments, a
//! hidden length (`size_t`): its declared length. It has no NUL. Input strings are read within
//! that length and their leading and trailing blanks stripped, as the standard says ("In
//! Fortran, leading and trailing spaces are stripped"); output strings are written within it
//! and blank-padded to it, as a Fortran assignment would. Other arguments (`INTEGER`,
//! `LOGICAL`) are passed by reference.
//!
//! The contract each SAFETY comment relies on is that of a Fortran caller of those routines
//! (gfortran and flang on Linux): a string pointer with its hidden length `len` points to `len`
//! readable bytes (writable, for an output), and a pointer to an `INTEGER` or `LOGICAL` points
//! to one valid, aligned default-kind value (four bytes, a C `int`).

use std::ffi::{c_char, c_int};
use std::ptr::NonNull;

use crate::error::Error;
use crate::failure::{failed, Detail};

/// `.TRUE.` and `.FALSE.` of a default `LOGICAL`, as gfortran and flang represent them.
pub(crate) const TRUE: c_int = 1;
/// See [`TRUE`].
pub(crate) const FALSE: c_int = 0;

/// The blank the standard strips from input strings and pads output strings with.
const BLANK: u8 = b' ';

/// The Fortran string at `ptr` of declared length `len`, without its leading and trailing
/// blanks. Reads exactly `len` bytes, none beyond. `None` for a NULL pointer with `len > 0`
/// (a zero-length string is empty whatever its pointer).
///
/// # Safety
/// `len` is 0, or `ptr` is NULL or points to `len` readable bytes that are not written while
/// `'a` lasts.
pub(crate) unsafe fn read_stripped<'a>(ptr: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-NULL, and by the caller's promise `len` readable bytes, unchanged for `'a`.
    let all = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    Some(strip_blanks(all))
}

/// `text` without its leading and trailing blanks.
fn strip_blanks(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|&b| b != BLANK).unwrap_or(text.len());
    let end = text.iter().rposition(|&b| b != BLANK).map_or(start, |last| last + 1);
    &text[start..end]
}

/// A value passed by reference (an `INTEGER` input such as a handle or a length). `None` for
/// NULL, which no Fortran caller passes.
///
/// # Safety
/// `ptr` is NULL or points to one valid, aligned `T`.
pub(crate) unsafe fn read_in<T: Copy>(ptr: *const T) -> Option<T> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-NULL, and by the caller's promise one valid, aligned `T`.
    Some(unsafe { ptr.read() })
}

/// An output `CHARACTER*(*)` argument: its pointer and declared length.
pub(crate) struct FortranOut {
    ptr: NonNull<u8>,
    len: usize,
}

impl FortranOut {
    /// `MPI_ERR_ARG` for a NULL pointer with `len > 0`, noted as the argument `name`
    /// (`crate::failure`).
    pub(crate) fn new(ptr: *mut c_char, len: usize, name: &'static str) -> Result<Self, Error> {
        match NonNull::new(ptr.cast::<u8>()) {
            Some(ptr) => Ok(FortranOut { ptr, len }),
            None if len == 0 => Ok(FortranOut { ptr: NonNull::dangling(), len: 0 }),
            None => Err(failed(Detail::Null(name))),
        }
    }

    /// Writes the first `min(bytes.len(), room, declared length)` bytes, then blanks up to
    /// the declared length: exactly the declared length, never more. Returns how many bytes
    /// of `bytes` it wrote.
    pub(crate) fn put(self, bytes: &[u8], room: usize) -> usize {
        let n = bytes.len().min(room).min(self.len);
        // SAFETY: by the caller's contract `self.len` writable bytes at `ptr` (none when
        // `len` is 0, when nothing is written); `n <= self.len`, and `bytes` is our own memory,
        // so the ranges do not overlap.
        unsafe {
            let dst = self.ptr.as_ptr();
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, n);
            std::ptr::write_bytes(dst.add(n), BLANK, self.len - n);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_blanks_only_at_the_ends() {
        assert_eq!(strip_blanks(b"  key  "), b"key");
        assert_eq!(strip_blanks(b"key"), b"key");
        assert_eq!(strip_blanks(b" a b "), b"a b");
        assert_eq!(strip_blanks(b"    "), b"");
        assert_eq!(strip_blanks(b""), b"");
        // Only the blank: a tab is text.
        assert_eq!(strip_blanks(b"\tk\t "), b"\tk\t");
    }

    #[test]
    fn reads_within_the_declared_length() {
        let text = b" ab cd  xyz";
        // SAFETY: `text` holds 11 bytes, more than any length read, and is never written; a
        // NULL pointer is allowed.
        unsafe {
            assert_eq!(read_stripped(text.as_ptr().cast(), 8), Some(&b"ab cd"[..]));
            assert_eq!(read_stripped(text.as_ptr().cast(), 0), Some(&b""[..]));
            assert_eq!(read_stripped(std::ptr::null(), 0), Some(&b""[..]));
            assert_eq!(read_stripped(std::ptr::null(), 3), None);
        }
    }

    #[test]
    fn put_pads_to_the_declared_length_and_no_further() {
        for (room, declared, expect) in
            [(10, 6, &b"abcd  "[..]), (2, 6, b"ab    "), (10, 3, b"abc"), (0, 4, b"    "), (10, 0, b"")]
        {
            let mut buf = [b'#'; 12];
            let wrote = FortranOut::new(buf.as_mut_ptr().cast(), declared, "BUF").unwrap().put(b"abcd", room);
            assert_eq!(&buf[..declared], expect, "room {room} declared {declared}");
            assert_eq!(wrote, 4.min(room).min(declared));
            assert!(buf[declared..].iter().all(|&b| b == b'#'), "wrote past the declared length");
        }
        assert!(FortranOut::new(std::ptr::null_mut(), 0, "S").is_ok());
        assert!(matches!(FortranOut::new(std::ptr::null_mut(), 1, "S"), Err(Error::Arg)));
    }
}
