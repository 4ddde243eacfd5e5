//! The handle table: integer `MPI_Info` handles to live info objects (SPEC §3, §9).
//!
//! A handle is `generation << 20 | slot`. Slots live in fixed segments that are created on
//! first use and never freed or moved, so finding a slot takes no table-wide lock: a call
//! locks only its own object's slot. That is what lets calls on different objects run side by
//! side (SPEC §9); the one shared lock, `ALLOCATOR`, is taken only by create, dup and free.
//!
//! Why a handle is not reissued soon (SPEC §3: not within the next 1,000,000 creations):
//! a freed slot waits in a FIFO queue until more than `QUARANTINE` other slots have been freed
//! after it, and each reuse bumps the slot's 11-bit generation (1..=2047). The same value can
//! therefore come back only after 2047 × 4096 ≈ 8.4 million frees from that slot's queue; at
//! most about 1.05 million of those can free objects that already existed, so at least ~7.3
//! million creations come first. Capacity: 2^20 slots, of which all but the quarantine can be
//! live at once (1,044,480 ≥ the 1,000,000 SPEC §3 asks for).
//!
//! An object's pairs sit behind a [`SharedMap`] (a counted pointer), so `dup` shares them (O(1))
//! and the first change to either copy makes that copy its own (copy-on-write).

use std::collections::VecDeque;
use std::ffi::c_int;
use std::ops::Deref;
use std::sync::OnceLock;

use parking_lot::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::env;
use crate::error::Error;
use crate::info::InfoMap;
use crate::shared::SharedMap;

/// The handle value of the predefined, read-only environment object (SPEC §2).
pub const INFO_ENV: c_int = 305;

const SLOT_BITS: u32 = 20;
const SLOTS: usize = 1 << SLOT_BITS;
const SEGMENT_BITS: u32 = 12;
const SEGMENT_LEN: usize = 1 << SEGMENT_BITS;
const SEGMENTS: usize = SLOTS / SEGMENT_LEN;
/// Generations run 1..=MAX_GENERATION; 0 marks a slot never used, so no handle is below 2^20
/// (far above every predefined handle value, which are below 4096).
const MAX_GENERATION: u16 = (1 << (31 - SLOT_BITS)) - 1;
/// Freed slots wait until more than this many others were freed after them.
const QUARANTINE: usize = 4096;

/// The pairs of one object. `None` is the empty object, which costs no allocation.
pub type Shared = Option<SharedMap>;

#[derive(Default)]
pub struct SlotState {
    generation: u16,
    live: bool,
    map: Shared,
}

/// One cache line per slot: every call writes its slot's lock word, and two objects sharing a
/// line would make threads working on different objects slow each other down (SPEC §9).
#[derive(Default)]
#[repr(align(64))]
struct Slot(RwLock<SlotState>);

static SEGMENT_TABLE: [OnceLock<Box<[Slot]>>; SEGMENTS] = [const { OnceLock::new() }; SEGMENTS];

struct Allocator {
    /// Slots `fresh..` have never been used.
    fresh: usize,
    /// Freed slots, oldest first. Its capacity is kept ≥ `fresh`, so `free` never allocates.
    recycled: VecDeque<u32>,
}

static ALLOCATOR: Mutex<Allocator> = Mutex::new(Allocator { fresh: 0, recycled: VecDeque::new() });

impl Allocator {
    fn take(&mut self) -> Result<usize, Error> {
        if self.recycled.len() > QUARANTINE {
            if let Some(slot) = self.recycled.pop_front() {
                return Ok(slot as usize);
            }
        }
        let slot = self.fresh;
        if slot == SLOTS {
            return Err(Error::NoMem);
        }
        if slot % SEGMENT_LEN == 0 {
            let mut segment = Vec::new();
            segment.try_reserve_exact(SEGMENT_LEN)?;
            segment.resize_with(SEGMENT_LEN, Slot::default);
            // Only this thread (holding ALLOCATOR) creates segments, so `set` cannot find it taken.
            let _ = SEGMENT_TABLE[slot / SEGMENT_LEN].set(segment.into_boxed_slice());
        }
        self.recycled.try_reserve((slot + 1).saturating_sub(self.recycled.len()))?;
        self.fresh += 1;
        Ok(slot)
    }
}

fn slot(index: usize) -> Option<&'static Slot> {
    SEGMENT_TABLE[index >> SEGMENT_BITS].get().map(|segment| &segment[index & (SEGMENT_LEN - 1)])
}

/// Splits a handle into its slot and generation; `None` for values no object ever had.
fn decode(handle: c_int) -> Option<(&'static Slot, u16)> {
    let bits = u32::try_from(handle).ok()?;
    let generation = (bits >> SLOT_BITS) as u16;
    if generation == 0 {
        return None;
    }
    Some((slot(bits as usize & (SLOTS - 1))?, generation))
}

fn encode(index: usize, generation: u16) -> c_int {
    (c_int::from(generation) << SLOT_BITS) | index as c_int
}

fn is_current(state: &SlotState, generation: u16) -> bool {
    state.live && state.generation == generation
}

/// Read access to one object, for the duration of a call.
pub enum Reader {
    Env(&'static InfoMap),
    Object(RwLockReadGuard<'static, SlotState>),
}

static EMPTY: InfoMap = InfoMap::new();

impl Deref for Reader {
    type Target = InfoMap;
    fn deref(&self) -> &InfoMap {
        match self {
            Reader::Env(map) => map,
            Reader::Object(state) => state.map.as_deref().unwrap_or(&EMPTY),
        }
    }
}

impl Reader {
    /// The object's pairs, shared rather than copied: what a new object needs for `dup`.
    pub fn share(&self) -> Result<Shared, Error> {
        match self {
            Reader::Env(_) => env::shared_env().map(Some),
            Reader::Object(state) => Ok(state.map.clone()),
        }
    }
}

/// Looks up a live object, or `MPI_INFO_ENV`, for reading: otherwise [`Error::Info`].
pub fn read(handle: c_int) -> Result<Reader, Error> {
    if handle == INFO_ENV {
        return env::info_env().map(Reader::Env);
    }
    let (slot, generation) = decode(handle).ok_or(Error::Info)?;
    let state = slot.0.read();
    if is_current(&state, generation) {
        Ok(Reader::Object(state))
    } else {
        Err(Error::Info)
    }
}

/// Write access to one object, for the duration of a call.
pub struct Writer(RwLockWriteGuard<'static, SlotState>);

impl Writer {
    /// The pairs as they are now, for looking before changing.
    pub fn map(&self) -> &InfoMap {
        self.0.map.as_deref().unwrap_or(&EMPTY)
    }

    /// Applies `change` to this object's own copy of the pairs, making one first if the pairs
    /// are shared with a duplicate. `change` must leave the map unchanged when it fails; then
    /// the object is exactly as before.
    pub fn modify<R>(&mut self, change: impl FnOnce(&mut InfoMap) -> Result<R, Error>) -> Result<R, Error> {
        let map = &mut self.0.map;
        if let Some(own) = map.as_mut().and_then(SharedMap::get_mut) {
            return change(own);
        }
        // Everything that can run out of memory comes before the change: the copy and its
        // block. If the change then fails, dropping the copy leaves the object as it was.
        let copy = match map {
            Some(shared) => shared.try_clone()?,
            None => InfoMap::new(),
        };
        let mut own = SharedMap::try_new(copy)?;
        let result = change(own.get_mut().ok_or(Error::Intern)?)?;
        *map = Some(own);
        Ok(result)
    }
}

/// Looks up a live object for changing it: [`Error::Info`] for anything else, `MPI_INFO_ENV`
/// included.
pub fn write(handle: c_int) -> Result<Writer, Error> {
    let (slot, generation) = decode(handle).ok_or(Error::Info)?;
    let state = slot.0.write();
    if is_current(&state, generation) {
        Ok(Writer(state))
    } else {
        Err(Error::Info)
    }
}

/// Creates an object holding `map` and returns its handle.
pub fn create(map: Shared) -> Result<c_int, Error> {
    let index = ALLOCATOR.lock().take()?;
    let slot = slot(index).ok_or(Error::Intern)?;
    let mut state = slot.0.write();
    state.generation = state.generation % MAX_GENERATION + 1;
    state.live = true;
    state.map = map;
    Ok(encode(index, state.generation))
}

/// Frees a live object. `MPI_INFO_ENV` and every other value: [`Error::Info`].
pub fn free(handle: c_int) -> Result<(), Error> {
    let (slot, generation) = decode(handle).ok_or(Error::Info)?;
    let pairs = {
        let mut state = slot.0.write();
        if !is_current(&state, generation) {
            return Err(Error::Info);
        }
        state.live = false;
        state.map.take()
    };
    let index = (handle as u32 & (SLOTS as u32 - 1)) as u32;
    ALLOCATOR.lock().recycled.push_back(index);
    // The pairs, if this was their last owner, are released here, outside every lock.
    drop(pairs);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn forged_values_are_rejected() {
        for h in [0, -1, c_int::MIN, c_int::MAX, 304, 4095, 1 << 20, (2047 << 20) | 0xFFFFF] {
            assert_eq!(free(h), Err(Error::Info), "{h}");
            assert!(write(h).is_err(), "{h}");
        }
        assert!(read(INFO_ENV).is_ok());
        assert_eq!(free(INFO_ENV), Err(Error::Info));
    }

    #[test]
    fn freed_handles_are_dead_and_not_reissued_soon() {
        let h = create(None).unwrap();
        assert!(h >= 1 << 20);
        free(h).unwrap();
        assert_eq!(free(h), Err(Error::Info));
        assert!(read(h).is_err());
        for _ in 0..20_000 {
            let n = create(None).unwrap();
            assert_ne!(n, h);
            free(n).unwrap();
        }
    }

    #[test]
    fn dup_shares_until_changed() {
        let a = create(None).unwrap();
        write(a).unwrap().modify(|m| m.set(b"k", b"1")).unwrap();
        let b = create(read(a).unwrap().share().unwrap()).unwrap();
        write(b).unwrap().modify(|m| m.set(b"k", b"2")).unwrap();
        assert_eq!(read(a).unwrap().get(b"k"), Some(&b"1"[..]));
        assert_eq!(read(b).unwrap().get(b"k"), Some(&b"2"[..]));
        free(a).unwrap();
        free(b).unwrap();
    }
}
