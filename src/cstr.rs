//! Raw-pointer access at the C boundary: C strings read with a bound, outputs written with
//! exact byte counts.
//!
//! These are crate-private and used only by `capi` on pointers received straight from a C
//! caller of an exported `extern "C"` function. The contract of those entry points (their doc
//! comments and the MPI standard) is what each SAFETY comment below relies on: a non-NULL input
//! string is readable up to its NUL or the bound, whichever comes first; a non-NULL output
//! pointer is writable for the bytes the standard says the call writes. The readers, which
//! return a slice whose lifetime the caller picks, are `unsafe fn`: their `# Safety` sections
//! say what the caller promises, and each call site says why it holds.

use std::ffi::{c_char, c_void, CStr};
use std::fs::File;
use std::os::fd::FromRawFd;
use std::ptr::NonNull;

use crate::error::Error;
use crate::failure::{failed, Detail};

/// The C string at `ptr`, reading at most `limit` bytes: the bytes before its NUL, or its first
/// `limit` bytes when none of them is a NUL. `None` for NULL.
///
/// # Safety
/// `ptr` is NULL, or readable up to its first NUL or for `limit` bytes, whichever comes first;
/// those bytes are not written while `'a` lasts.
pub(crate) unsafe fn read_bounded<'a>(ptr: *const c_char, limit: usize) -> Option<&'a [u8]> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-NULL, and by the caller's promise readable up to the NUL or `limit` bytes;
    // strnlen reads no further than that.
    let len = unsafe { libc::strnlen(ptr, limit) };
    // SAFETY: strnlen just read these `len` bytes, so they are readable, and by the caller's
    // promise they stay unchanged for `'a`.
    Some(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// An output argument of type `T`, known to be non-NULL.
pub(crate) struct Out<T>(NonNull<T>);

impl<T: Copy> Out<T> {
    /// `MPI_ERR_ARG` for NULL, noted as the argument `name` (`crate::failure`).
    pub(crate) fn new(ptr: *mut T, name: &'static str) -> Result<Self, Error> {
        NonNull::new(ptr).map(Out).ok_or_else(|| failed(Detail::Null(name)))
    }

    /// Reads the current value (for in-out arguments such as `MPI_Info_free`'s handle).
    pub(crate) fn get(&self) -> T {
        // SAFETY: non-NULL; the entry point's contract makes it a valid, aligned `T`.
        unsafe { self.0.as_ptr().read() }
    }

    pub(crate) fn put(self, value: T) {
        // SAFETY: non-NULL; the entry point's contract makes it valid for writing one `T`.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// An output character buffer, known to be non-NULL.
pub(crate) struct OutStr(NonNull<c_char>);

impl OutStr {
    /// `MPI_ERR_ARG` for NULL, noted as the argument `name`.
    pub(crate) fn new(ptr: *mut c_char, name: &'static str) -> Result<Self, Error> {
        NonNull::new(ptr).map(OutStr).ok_or_else(|| failed(Detail::Null(name)))
    }

    /// Writes the first `min(bytes.len(), room)` bytes and a NUL: that many plus one bytes, and
    /// not one more. `room` is what the caller said the buffer holds besides the NUL.
    #[inline(always)]
    pub(crate) fn put(self, bytes: &[u8], room: usize) {
        let n = bytes.len().min(room);
        let dst = self.0.as_ptr();
        // SAFETY: the caller's buffer holds at least `room + 1` bytes (entry point contract),
        // and `n + 1 <= room + 1`; `bytes` is our own memory, so the ranges do not overlap.
        unsafe {
            copy_short(bytes.as_ptr(), dst.cast::<u8>(), n);
            dst.add(n).write(0);
        }
    }
}

/// `copy_nonoverlapping` without a call to `memcpy` for up to [`INLINE_COPY`] bytes, which
/// covers every key: two loads and two stores of one width that cover the range, overlapping in
/// the middle when it is not a whole width; past 32 bytes, 16 at a time and a last 16 that ends
/// at `n`. For the short copies that are the common case (every key), calling `memcpy` costs
/// more than these few loads and stores.
///
/// # Safety
/// As for `copy_nonoverlapping`: `n` bytes readable at `src`, writable at `dst`, no overlap.
#[inline(always)]
unsafe fn copy_short(src: *const u8, dst: *mut u8, n: usize) {
    use std::ptr::{read_unaligned as load, write_unaligned as store};
    // SAFETY (every branch): each access lies in `[0, n)` of its range: the loop's because
    // `i + 16 < n`, and each last one because it ends at `n` and starts at `n - width >= 0`;
    // the caller makes those bytes valid.
    unsafe {
        if n < 16 {
            if n >= 8 {
                let (a, b) = (load(src.cast::<u64>()), load(src.add(n - 8).cast::<u64>()));
                store(dst.cast::<u64>(), a);
                store(dst.add(n - 8).cast::<u64>(), b);
            } else if n >= 4 {
                let (a, b) = (load(src.cast::<u32>()), load(src.add(n - 4).cast::<u32>()));
                store(dst.cast::<u32>(), a);
                store(dst.add(n - 4).cast::<u32>(), b);
            } else if n > 0 {
                // 1 to 3 bytes: the first, the middle and the last cover them all.
                let (a, b, c) = (*src, *src.add(n / 2), *src.add(n - 1));
                *dst = a;
                *dst.add(n / 2) = b;
                *dst.add(n - 1) = c;
            }
        } else if n <= 32 {
            let (a, b) = (load(src.cast::<u128>()), load(src.add(n - 16).cast::<u128>()));
            store(dst.cast::<u128>(), a);
            store(dst.add(n - 16).cast::<u128>(), b);
        } else if n <= INLINE_COPY {
            let mut i = 0;
            while i + 16 < n {
                store(dst.add(i).cast::<u128>(), load(src.add(i).cast::<u128>()));
                i += 16;
            }
            store(dst.add(n - 16).cast::<u128>(), load(src.add(n - 16).cast::<u128>()));
        } else {
            std::ptr::copy_nonoverlapping(src, dst, n);
        }
    }
}

/// Longest copy [`copy_short`] makes itself: at least the longest key, since `get_nthkey`
/// copies keys. Longer values go to `memcpy`, which moves them faster than 16 bytes at a time.
const INLINE_COPY: usize = 256;
const _: () = assert!(INLINE_COPY >= crate::info::MAX_KEY_LEN);

/// An output byte buffer of a given size (`MPIX_Info_serialize`), known to be non-NULL.
pub(crate) struct OutBytes {
    start: NonNull<u8>,
    size: usize,
}

impl OutBytes {
    /// `MPI_ERR_ARG` for NULL, noted as the argument `name`. `size` is what the caller said the
    /// buffer holds.
    pub(crate) fn new(ptr: *mut c_void, size: usize, name: &'static str) -> Result<Self, Error> {
        NonNull::new(ptr.cast::<u8>()).map(|start| OutBytes { start, size }).ok_or_else(|| failed(Detail::Null(name)))
    }

    /// Writes as much of `bytes` as fits at offset `at`: the bytes from `at` up to the end of
    /// `bytes` or of the buffer, whichever comes first, and no other byte.
    pub(crate) fn put_at(&mut self, at: usize, bytes: &[u8]) {
        let n = bytes.len().min(self.size.saturating_sub(at));
        if n > 0 {
            // SAFETY: the caller's buffer holds `size` writable bytes (entry point contract) and
            // `at + n <= size`; `bytes` is our own memory, so the ranges do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.start.as_ptr().add(at), n) }
        }
    }
}

/// Opens the file named `path` for reading (`MPIX_Info_set_from_file`): a regular file, a FIFO
/// or pipe, or the null device. Anything else is refused with `ErrorKind::InvalidInput`.
///
/// Not `std::fs::File::open`: for a path of 384 bytes or more it copies the path to the heap
/// with an allocation that aborts the process when memory runs out, and no C call may do that.
///
/// Why only those: a read of any other kind of file can wait for ever or never end. A terminal
/// waits for someone to type, a terminal master (`/dev/ptmx`) for a program that will never
/// write to its other side, a serial line for its modem, and a read of `/dev/zero` never ends.
/// The null device is the one device with a meaning here, "no hints", and is read as empty. A
/// directory fails at the first read anyway. The kind is looked at before the open (`stat`),
/// so that no device is opened in the first place (opening some has effects: a terminal
/// master makes a new terminal), and again on the opened file (`fstat`), which is what is
/// read, whatever happened to the path in between.
///
/// The open does not wait: opening a FIFO for reading waits for a writer, for ever if none
/// comes, so it is opened with `O_NONBLOCK`, which is then cleared. Reads then wait for the
/// data of a writer that has the FIFO open (as `ROMIO_HINTS=<(...)` has), and a FIFO with no
/// writer reads as empty. `O_NOCTTY`: a terminal opened by a session leader without a
/// controlling terminal would otherwise become its controlling terminal (and its hang-up would
/// kill the process later), in the moment before `fstat` refuses it.
pub(crate) fn open_for_reading(path: &CStr) -> std::io::Result<File> {
    // SAFETY: stat is plain old data; all-zero bytes are a valid value.
    let mut status: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a NUL-terminated string that lives for the call; stat reads it and
    // writes only `status`.
    if unsafe { libc::stat(path.as_ptr(), &mut status) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    readable_kind(&status)?;
    let flags = libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NONBLOCK | libc::O_NOCTTY;
    // SAFETY: as for stat; open reads the path only.
    let fd = unsafe { libc::open(path.as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened here and nothing else owns it; the File closes it.
    let file = unsafe { File::from_raw_fd(fd) };
    // SAFETY: `fd` is open (the File owns it until it is dropped); fstat writes only `status`.
    if unsafe { libc::fstat(fd, &mut status) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    readable_kind(&status)?;
    // SAFETY: `fd` is open (the File owns it until it is dropped); F_GETFL and F_SETFL change
    // only its status flags.
    let cleared = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
    };
    if !cleared {
        return Err(std::io::Error::last_os_error());
    }
    Ok(file)
}

/// Whether `open_for_reading` reads a file of this kind: a regular file, a FIFO or pipe, or
/// the null device (Linux's character device 1:3, `/dev/null`).
fn readable_kind(status: &libc::stat) -> std::io::Result<()> {
    let kind = status.st_mode & libc::S_IFMT;
    let null_device = kind == libc::S_IFCHR && status.st_rdev == libc::makedev(1, 3);
    if kind == libc::S_IFREG || kind == libc::S_IFIFO || null_device {
        Ok(())
    } else {
        Err(std::io::ErrorKind::InvalidInput.into())
    }
}

/// The first `len` elements of the C array at `ptr` (such as `argv`). `None` for NULL.
///
/// # Safety
/// `ptr` is NULL, or points to `len` initialised, aligned elements that are not written while
/// `'a` lasts.
pub(crate) unsafe fn read_array<'a, T>(ptr: *const T, len: usize) -> Option<&'a [T]> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-NULL, and by the caller's promise `len` initialised elements, unchanged
    // for `'a`.
    Some(unsafe { std::slice::from_raw_parts(ptr, len) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length a branch of `copy_short` handles, at every offset in a word: exactly `n`
    /// bytes and a NUL are written, whatever `room` cuts off, and nothing around them.
    #[test]
    fn put_writes_exactly_the_bytes_and_a_nul() {
        // Bytes 1..=200, never the fill byte 0xee.
        let src: Vec<u8> = (0..400).map(|i| (i % 200 + 1) as u8).collect();
        for n in (0..=70_usize).chain([255, 256, 257, 300]) {
            for room in [n, n.saturating_sub(1), n / 2, 0, n + 5] {
                for offset in 0..8 {
                    let mut buf = [0xee_u8; 320];
                    let dst = buf[8 + offset..].as_mut_ptr().cast::<c_char>();
                    OutStr::new(dst, "dst").unwrap().put(&src[..n], room);
                    let written = n.min(room);
                    let (before, rest) = buf.split_at(8 + offset);
                    assert!(before.iter().all(|&b| b == 0xee), "n {n} room {room}: wrote before");
                    assert_eq!(&rest[..written], &src[..written], "n {n} room {room}");
                    assert_eq!(rest[written], 0, "n {n} room {room}: no NUL");
                    assert!(rest[written + 1..].iter().all(|&b| b == 0xee), "n {n} room {room}: wrote after");
                }
            }
        }
    }
}
