//! `SharedMap`: an object's pairs, shared between an object and its duplicates (copy-on-write).
//!
//! This is `Arc<InfoMap>` with two differences that matter here. Creating one can fail: `Arc::new`
//! aborts the process when memory runs out, and `Arc::try_new` is not in stable Rust, while every
//! call of the C API must report `MPI_ERR_NO_MEM` instead; so the block is allocated with
//! `std::alloc::alloc`, which returns null on failure. And there are no weak references, so
//! `get_mut`, which every `set` and `delete` calls, is one atomic load, where `Arc::get_mut` needs
//! a compare-exchange on the weak count.

use crate::sync::{fence, AtomicUsize, Ordering};
use std::alloc::{alloc, dealloc, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

use crate::error::Error;
use crate::info::InfoMap;

struct Block {
    owners: AtomicUsize,
    map: InfoMap,
}

pub(crate) struct SharedMap(NonNull<Block>);

// SAFETY: the map is reached only through `&` while it has several owners (`get_mut` checks
// for a single owner), and `InfoMap` is itself Send and Sync; the count is atomic.
unsafe impl Send for SharedMap {}
// SAFETY: as above.
unsafe impl Sync for SharedMap {}

impl SharedMap {
    /// Moves `map` into a new block with one owner, or [`Error::NoMem`] (then `map` is dropped).
    pub(crate) fn try_new(map: InfoMap) -> Result<Self, Error> {
        let layout = Layout::new::<Block>();
        // SAFETY: `Block` is not zero-sized (it holds a counter), as `alloc` requires.
        let block = NonNull::new(unsafe { alloc(layout) }.cast::<Block>()).ok_or(Error::NoMem)?;
        // SAFETY: the block was just allocated with `Block`'s layout and nothing else sees it.
        unsafe { block.as_ptr().write(Block { owners: AtomicUsize::new(1), map }) };
        Ok(SharedMap(block))
    }

    fn block(&self) -> &Block {
        // SAFETY: the block lives while it has an owner, and `self` is one.
        unsafe { self.0.as_ref() }
    }

    /// The map for changing, if this is its only owner (no duplicate shares it).
    pub(crate) fn get_mut(&mut self) -> Option<&mut InfoMap> {
        // Acquire: a duplicate's last use of the map, before it dropped its share, happens
        // before this owner changes it.
        if self.block().owners.load(Ordering::Acquire) != 1 {
            return None;
        }
        // SAFETY: one owner, and it is borrowed mutably here; no other reference to the block
        // can exist or be made (cloning needs `&self`).
        Some(unsafe { &mut self.0.as_mut().map })
    }
}

impl Clone for SharedMap {
    fn clone(&self) -> Self {
        // Relaxed: as in `Arc`, a new owner comes from an existing one, which keeps the block
        // alive. At most one owner per handle plus `MPI_INFO_ENV`: far below overflow.
        self.block().owners.fetch_add(1, Ordering::Relaxed);
        SharedMap(self.0)
    }
}

impl Drop for SharedMap {
    fn drop(&mut self) {
        if self.block().owners.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Every other owner's uses of the map happen before it is freed here.
        fence(Ordering::Acquire);
        // SAFETY: this was the last owner, so nothing else refers to the block; it was
        // allocated in `try_new` with this layout and holds an initialised `Block`.
        unsafe {
            std::ptr::drop_in_place(self.0.as_ptr());
            dealloc(self.0.as_ptr().cast(), Layout::new::<Block>());
        }
    }
}

impl Deref for SharedMap {
    type Target = InfoMap;
    fn deref(&self) -> &InfoMap {
        &self.block().map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_until_one_owner_is_left() {
        let mut map = InfoMap::new();
        map.set(b"k", b"v").unwrap();
        let mut a = SharedMap::try_new(map).unwrap();
        assert!(a.get_mut().is_some());
        let b = a.clone();
        assert!(a.get_mut().is_none());
        assert_eq!(b.get(b"k"), Some(&b"v"[..]));
        drop(b);
        a.get_mut().unwrap().set(b"k", b"w").unwrap();
        assert_eq!(a.get(b"k"), Some(&b"w"[..]));
    }
}
