//! One (key, value) pair: a single heap block `[key length: u8][value length: u16 LE][key]
//! [value]`, owned through a thin (8-byte) pointer.
//!
//! Why not `Box<[u8]>`: its pointer is 16 bytes (address and length). An object keeps one
//! pointer per pair, so the thin pointer saves 8 bytes per pair, which is what keeps a pair
//! within key + value + 48 bytes of memory. The lengths the fat pointer
//! carried move into the block's 3-byte header. The block is allocated with the fallible
//! `std::alloc::alloc`, so running out of memory is an error, not an abort.

use std::alloc::{alloc, dealloc, Layout};
use std::ptr::NonNull;

use crate::error::Error;

const HEADER: usize = 3;

pub(crate) struct Pair(NonNull<u8>);

// SAFETY: a Pair owns its block exclusively, as a Box<[u8]> would; blocks are never shared, and
// `&Pair` gives only read access.
unsafe impl Send for Pair {}
// SAFETY: as above; no interior mutability.
unsafe impl Sync for Pair {}

impl Pair {
    /// `key` must be at most 255 bytes and `value` at most 65,535 (the map's limits are far
    /// below); otherwise `InfoKey` / `InfoValue`. Out of memory: `NoMem`.
    pub(crate) fn new(key: &[u8], value: &[u8]) -> Result<Self, Error> {
        let key_len = u8::try_from(key.len()).map_err(|_| Error::InfoKey)?;
        let value_len = u16::try_from(value.len()).map_err(|_| Error::InfoValue)?;
        let layout = Self::layout(key.len(), value.len());
        // SAFETY: the layout's size is at least HEADER, so not zero, as `alloc` requires.
        let block = NonNull::new(unsafe { alloc(layout) }).ok_or(Error::NoMem)?;
        let [v0, v1] = value_len.to_le_bytes();
        // SAFETY: the block is `layout.size()` = HEADER + key + value bytes, and these writes
        // fill exactly that range once; the sources are other allocations, so no overlap.
        unsafe {
            let p = block.as_ptr();
            p.cast::<[u8; HEADER]>().write([key_len, v0, v1]);
            std::ptr::copy_nonoverlapping(key.as_ptr(), p.add(HEADER), key.len());
            std::ptr::copy_nonoverlapping(value.as_ptr(), p.add(HEADER + key.len()), value.len());
        }
        Ok(Pair(block))
    }

    fn layout(key_len: usize, value_len: usize) -> Layout {
        // Alignment 1 and a size below 2^17 are always a valid layout.
        Layout::from_size_align(HEADER + key_len + value_len, 1).expect("pair sizes are small")
    }

    /// (key length, value length), from the header.
    fn lengths(&self) -> (usize, usize) {
        // SAFETY: every block starts with the HEADER bytes `new` wrote; alignment is 1.
        let [k, v0, v1] = unsafe { self.0.as_ptr().cast::<[u8; HEADER]>().read() };
        (usize::from(k), usize::from(u16::from_le_bytes([v0, v1])))
    }

    /// Key and value, as one slice after the header.
    fn text(&self) -> &[u8] {
        let (k, v) = self.lengths();
        // SAFETY: the block holds HEADER + k + v initialised bytes (written by `new`), owned by
        // `self`, and borrowed immutably for the lifetime of `&self`.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().add(HEADER), k + v) }
    }

    pub(crate) fn key(&self) -> &[u8] {
        let (k, _) = self.lengths();
        &self.text()[..k]
    }

    pub(crate) fn value(&self) -> &[u8] {
        let (k, _) = self.lengths();
        &self.text()[k..]
    }

    /// The value's bytes, to overwrite with a value of the same length.
    pub(crate) fn value_mut(&mut self) -> &mut [u8] {
        let (k, v) = self.lengths();
        // SAFETY: as in `text`, borrowed mutably for the lifetime of `&mut self`; the header is
        // outside the returned range, so the lengths cannot be changed through it.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_ptr().add(HEADER + k), v) }
    }

    pub(crate) fn try_clone(&self) -> Result<Self, Error> {
        Pair::new(self.key(), self.value())
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        let (k, v) = self.lengths();
        // SAFETY: the block was allocated by `new` with exactly this layout (the header's
        // lengths never change), and is freed only here, once.
        unsafe { dealloc(self.0.as_ptr(), Self::layout(k, v)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_key_and_value_exactly() {
        let long_value = vec![0xFFu8; 1023];
        for (key, value) in [(&b"k"[..], &b""[..]), (&[7u8; 255][..], &long_value[..]), (b"a b", b"\x80\x00x")] {
            let mut pair = Pair::new(key, value).unwrap();
            assert_eq!(pair.key(), key);
            assert_eq!(pair.value(), value);
            let copy = pair.try_clone().unwrap();
            pair.value_mut().fill(b'z');
            assert_eq!(pair.key(), key);
            assert!(pair.value().iter().all(|&b| b == b'z'));
            assert_eq!(copy.value(), value);
        }
        assert_eq!(std::mem::size_of::<Pair>(), std::mem::size_of::<usize>());
        assert_eq!(std::mem::size_of::<Option<Pair>>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn refuses_lengths_the_header_cannot_hold() {
        assert_eq!(Pair::new(&[1u8; 256], b"").err(), Some(Error::InfoKey));
        assert_eq!(Pair::new(b"k", &vec![1u8; 65536]).err(), Some(Error::InfoValue));
    }
}
