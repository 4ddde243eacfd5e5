//! The handle table: integer `MPI_Info` handles to live info objects (docs/reference.md,
//! "Handles" and "Threads").
//!
//! A handle is `generation << 20 | slot`. Slots live in fixed segments that are created on first
//! use and never freed or moved, so finding a slot takes no table-wide lock: a call locks only its
//! own object's slot. That is what lets calls on different objects run side by side
//! (docs/reference.md, "Threads"); the one shared lock, the allocator's, is taken only by create,
//! dup and free.
//!
//! Why a handle is not reissued soon (docs/reference.md, "Handles": a freed value comes back no
//! sooner than the 8,382,463rd creation after its free):
//! a freed slot waits in a FIFO queue, and a creation takes the queue's oldest slot only while
//! the queue holds more than `QUARANTINE` (4096) slots; otherwise a slot never used. Each
//! reuse bumps the slot's 11-bit generation, which runs 1..=2047, so a freed value comes back
//! only when its slot has been taken again 2047 times. The first time can be the very next
//! creation (the slot at the head of a queue of 4097). But once any slot has been taken from
//! the queue it never again holds fewer than 4096, so every later time the slot, freed again,
//! goes in behind at least 4096 others, and at least 4097 creations take those and then it.
//! So the value is given out again no sooner than the [`REISSUE_DISTANCE`]th creation after
//! its free: 1 + 2046 × 4097 = 8,382,463, whatever the pattern of creations and frees (the
//! unit test `a_freed_value_comes_back_no_sooner_than_the_reissue_distance` runs the pattern
//! that reaches it). Until then every use of it is `MPI_ERR_INFO`. Capacity: 2^20 slots, of
//! which all but the quarantine can be live at once (1,044,480 ≥ the 1,000,000 of
//! docs/reference.md, "Limits").
//!
//! An object's pairs sit behind a [`SharedMap`] (a counted pointer), so `dup` shares them (O(1))
//! and the first change to either copy makes that copy its own (copy-on-write).

use std::collections::VecDeque;
use std::ffi::c_int;
use std::ptr::{null_mut, NonNull};

use crate::env;
use crate::error::Error;
use crate::failure::{self, Detail};
use crate::info::InfoMap;
use crate::shared::SharedMap;
use crate::sync::{AtomicPtr, Mutex, MutexGuard, Ordering, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The handle value of the predefined, read-only environment object (docs/reference.md, "Types
/// and constants").
pub const INFO_ENV: c_int = 305;
/// `MPI_INFO_NULL`'s value, which no object has.
pub(crate) const INFO_NULL: c_int = 304;

// The model-checked build (`--cfg loom`) uses a tiny table, so that its tests reach segment
// creation, slot reuse and generation checks within a few operations.
#[cfg(not(loom))]
const SLOT_BITS: u32 = 20;
#[cfg(not(loom))]
const SEGMENT_BITS: u32 = 12;
/// Freed slots wait until more than this many others were freed after them.
#[cfg(not(loom))]
const QUARANTINE: usize = 4096;
#[cfg(loom)]
const SLOT_BITS: u32 = 3;
#[cfg(loom)]
const SEGMENT_BITS: u32 = 1;
#[cfg(loom)]
const QUARANTINE: usize = 1;

/// The fewest creations after a free of which the last can give the freed value out again
/// (module comment): 8,382,463.
#[cfg(not(loom))]
const REISSUE_DISTANCE: usize = 1 + (MAX_GENERATION as usize - 1) * (QUARANTINE + 1);
#[cfg(not(loom))]
const _: () = assert!(REISSUE_DISTANCE == 8_382_463);

const SLOTS: usize = 1 << SLOT_BITS;
const SEGMENT_LEN: usize = 1 << SEGMENT_BITS;
const SEGMENTS: usize = SLOTS / SEGMENT_LEN;
/// Generations run 1..=MAX_GENERATION; 0 marks a slot never used, so no handle is below 2^20
/// (far above every predefined handle value, which are below 4096).
const MAX_GENERATION: u32 = (1 << (31 - SLOT_BITS)) - 1;

/// The pairs of one object. `None` is the empty object, which costs no allocation.
pub type Shared = Option<SharedMap>;

pub struct SlotState {
    /// The generation of the slot's object, plus [`FREED`] while it has none. A handle names
    /// the object exactly when the generation bits of the handle equal this: one comparison,
    /// which also turns away every handle no object ever had (see [`Table::decode`]).
    generation: u32,
    map: Shared,
}

/// Added to a slot's generation while it holds no object: above every generation bits a
/// handle can have, negative handles included (they are below 2^(32 - SLOT_BITS)).
const FREED: u32 = 1 << 31;
const _: () = assert!(SLOT_BITS >= 1 && MAX_GENERATION < FREED);

impl Default for SlotState {
    /// A slot never used: generation 0, freed.
    fn default() -> Self {
        SlotState { generation: FREED, map: None }
    }
}

/// One cache line per slot: every call stores to its object's lock word, and two objects
/// sharing a line would make threads working on different objects slow each other down
/// (docs/reference.md, "Threads").
#[derive(Default)]
#[repr(align(64))]
struct Slot(RwLock<SlotState>);
#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Slot>() == 64, "one slot per cache line");

/// All objects: segments of slots, each created on first use and then never moved or freed
/// while the table exists, and the allocator that hands out slots.
pub struct Table {
    /// Each entry is null or the first slot of a segment of `SEGMENT_LEN` slots. Published
    /// with Release under `allocator`'s lock, read with Acquire without any lock.
    segments: [AtomicPtr<Slot>; SEGMENTS],
    allocator: Mutex<Allocator>,
}

struct Allocator {
    /// Slots `fresh..` have never been used.
    fresh: usize,
    /// Freed slots, oldest first. Its capacity is kept ≥ `fresh`, so `free` never allocates.
    recycled: VecDeque<u32>,
}

/// The process's objects.
#[cfg(not(loom))]
static TABLE: Table = Table::new();

impl Table {
    #[cfg(not(loom))]
    const fn new() -> Table {
        Table {
            segments: [const { AtomicPtr::new(null_mut()) }; SEGMENTS],
            allocator: Mutex::new(Allocator { fresh: 0, recycled: VecDeque::new() }),
        }
    }

    #[cfg(loom)]
    pub fn new() -> Table {
        Table {
            segments: std::array::from_fn(|_| AtomicPtr::new(null_mut())),
            allocator: Mutex::new(Allocator { fresh: 0, recycled: VecDeque::new() }),
        }
    }

    /// A slot index for a new object (the caller holds the allocator's lock).
    fn take(&self, allocator: &mut Allocator) -> Result<usize, Error> {
        if allocator.recycled.len() > QUARANTINE {
            if let Some(slot) = allocator.recycled.pop_front() {
                return Ok(slot as usize);
            }
        }
        let slot = allocator.fresh;
        if slot == SLOTS {
            return Err(Error::NoMem);
        }
        if slot % SEGMENT_LEN == 0 {
            let mut segment = Vec::new();
            segment.try_reserve_exact(SEGMENT_LEN)?;
            segment.resize_with(SEGMENT_LEN, Slot::default);
            let first = Box::into_raw(segment.into_boxed_slice()).cast::<Slot>();
            // Release: a thread that finds the pointer finds the slots initialised.
            self.segments[slot / SEGMENT_LEN].store(first, Ordering::Release);
        }
        allocator.recycled.try_reserve((slot + 1).saturating_sub(allocator.recycled.len()))?;
        allocator.fresh += 1;
        Ok(slot)
    }

    #[inline(always)]
    fn slot(&self, index: usize) -> Option<&Slot> {
        let first = NonNull::new(self.segments[index >> SEGMENT_BITS].load(Ordering::Acquire))?;
        // SAFETY: a non-null entry points to a segment of SEGMENT_LEN initialised slots (see
        // `take`, whose Release store pairs with the Acquire load above), which lives as long
        // as the table; the offset is below SEGMENT_LEN.
        Some(unsafe { &*first.as_ptr().add(index & (SEGMENT_LEN - 1)) })
    }

    /// Splits a handle into its slot and generation bits; `None` where the slot's segment
    /// does not exist yet. Any other value gives a slot, and [`is_current`] then decides: a
    /// handle's generation bits equal the slot's generation only if the object is live. Values
    /// no object ever had never match: their generation bits are 0 (the predefined handles,
    /// `MPI_INFO_ENV` among them) or above `MAX_GENERATION` (negative values), and a slot's
    /// generation is neither.
    #[inline(always)]
    fn decode(&self, handle: c_int) -> Option<(&Slot, u32)> {
        let bits = handle as u32;
        Some((self.slot(bits as usize & (SLOTS - 1))?, bits >> SLOT_BITS))
    }

    /// The state of the live object `handle` names, locked for reading; [`Error::Info`] for
    /// every other value (`MPI_INFO_ENV` included: its generation bits are 0).
    #[inline(always)]
    fn read_live(&self, handle: c_int) -> Result<RwLockReadGuard<'_, SlotState>, Error> {
        let (slot, generation) = self.decode(handle).ok_or_else(|| not_live(handle))?;
        let state = slot.0.read();
        if !is_current(&state, generation) {
            return Err(not_live(handle));
        }
        Ok(state)
    }

    /// [`read_live`](Self::read_live), locked for writing.
    #[inline(always)]
    fn write_live(&self, handle: c_int) -> Result<RwLockWriteGuard<'_, SlotState>, Error> {
        let (slot, generation) = self.decode(handle).ok_or_else(|| not_live(handle))?;
        let state = slot.0.write();
        if !is_current(&state, generation) {
            return Err(not_live(handle));
        }
        Ok(state)
    }

    /// Runs `use_pairs` on the pairs of a live object, or of `MPI_INFO_ENV`; otherwise
    /// [`Error::Info`].
    ///
    /// `use_pairs` is called in one place, so that the compiler inlines it once rather than
    /// making it a function of its own, with a call, for two call sites.
    #[inline(always)]
    pub fn read<R>(&self, handle: c_int, use_pairs: impl FnOnce(&InfoMap) -> Result<R, Error>) -> Result<R, Error> {
        let state;
        let pairs = if handle == INFO_ENV {
            read_env()?
        } else {
            state = self.read_live(handle)?;
            state.map.as_deref().unwrap_or(&EMPTY)
        };
        use_pairs(pairs)
    }

    /// The pairs of a live object, or of `MPI_INFO_ENV`, shared rather than copied: what a new
    /// object needs for `dup`.
    pub fn share(&self, handle: c_int) -> Result<Shared, Error> {
        if handle == INFO_ENV {
            return env::shared_env().map(Some);
        }
        Ok(self.read_live(handle)?.map.clone())
    }

    /// Runs `change` on a live object; [`Error::Info`] for anything else, `MPI_INFO_ENV`
    /// included.
    #[inline(always)]
    pub fn write<R>(&self, handle: c_int, change: impl FnOnce(Writer<'_>) -> Result<R, Error>) -> Result<R, Error> {
        let mut state = self.write_live(handle)?;
        change(Writer(&mut state.map))
    }

    /// Creates an object holding `map` and returns its handle.
    pub fn create(&self, map: Shared) -> Result<c_int, Error> {
        let index = {
            let mut allocator = self.allocator.lock();
            self.take(&mut allocator)?
        };
        let slot = self.slot(index).ok_or(Error::Intern)?;
        let mut state = slot.0.write();
        debug_assert!(state.generation & FREED != 0, "a slot from the allocator holds no object");
        state.generation = (state.generation & !FREED) % MAX_GENERATION + 1;
        state.map = map;
        Ok(encode(index, state.generation))
    }

    /// Frees a live object. `MPI_INFO_ENV` and every other value: [`Error::Info`].
    pub fn free(&self, handle: c_int) -> Result<(), Error> {
        {
            let mut state = self.write_live(handle)?;
            state.generation |= FREED;
            // The pairs (if this was their last owner) are released while the object's lock is
            // held, which nobody needs any more: a fork, whose handler takes every lock first,
            // then never copies a thread half way through releasing them, whose memory the
            // child could never free (`crate::fork`).
            state.map = None;
        }
        let index = handle as u32 & (SLOTS as u32 - 1);
        // Never allocates: `take` reserved room for every slot that exists.
        self.allocator.lock().recycled.push_back(index);
        Ok(())
    }

    /// Takes every lock of the table, in the one order no call contradicts (no call holds
    /// one lock while it waits for another): the allocator's, then each slot's ever used, for
    /// writing. While the result lives no other thread is inside a call on any object, nor can
    /// enter one: what `fork` needs (see `crate::fork`). If there is no memory for the list of
    /// guards (16 bytes a slot), only the allocator is held.
    pub(crate) fn lock_all(&'static self) -> AllLocks {
        let allocator = self.allocator.lock();
        let mut slots = Vec::new();
        if slots.try_reserve_exact(allocator.fresh).is_ok() {
            slots.extend((0..allocator.fresh).filter_map(|index| self.slot(index)).map(|slot| slot.0.write()));
        }
        AllLocks { _slots: slots, _allocator: allocator }
    }
}

impl Drop for Table {
    /// Only tables made for model checking are dropped; the process's table is a static.
    fn drop(&mut self) {
        for entry in &self.segments {
            let first = entry.load(Ordering::Acquire);
            if !first.is_null() {
                // SAFETY: `take` made this pointer with Box::into_raw from a boxed slice of
                // SEGMENT_LEN slots, and nothing uses the table any more (`&mut self`).
                drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(first, SEGMENT_LEN)) });
            }
        }
    }
}

#[cold]
#[inline(never)]
fn read_env() -> Result<&'static InfoMap, Error> {
    env::info_env()
}

fn encode(index: usize, generation: u32) -> c_int {
    ((generation << SLOT_BITS) | index as u32) as c_int
}

/// Whether `generation`, a handle's generation bits, names the object in `state`'s slot.
fn is_current(state: &SlotState, generation: u32) -> bool {
    state.generation == generation
}

static EMPTY: InfoMap = InfoMap::new();

/// Write access to one object's pairs, for the duration of a call.
pub struct Writer<'s>(&'s mut Shared);

impl Writer<'_> {
    /// The pairs as they are now, for looking before changing.
    pub fn map(&self) -> &InfoMap {
        self.0.as_deref().unwrap_or(&EMPTY)
    }

    /// Applies `change` to this object's own copy of the pairs, making one first if the pairs
    /// are shared with a duplicate. `change` must leave the map unchanged when it fails; then
    /// the object is exactly as before.
    #[inline(always)]
    pub fn modify<R>(&mut self, change: impl FnOnce(&mut InfoMap) -> Result<R, Error>) -> Result<R, Error> {
        if let Some(own) = self.0.as_mut().and_then(SharedMap::get_mut) {
            return change(own);
        }
        self.modify_copy(change)
    }

    /// [`Writer::modify`] when the pairs are shared or there are none yet.
    #[cold]
    #[inline(never)]
    fn modify_copy<R>(&mut self, change: impl FnOnce(&mut InfoMap) -> Result<R, Error>) -> Result<R, Error> {
        let map = &mut *self.0;
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

/// [`Error::Info`] for a handle that names no live object, with why (`crate::failure`).
#[cold]
fn not_live(handle: c_int) -> Error {
    failure::failed(match handle {
        INFO_NULL => Detail::InfoNull,
        // Only a change is refused: every read of `MPI_INFO_ENV` is answered before a look-up.
        INFO_ENV => Detail::InfoEnvReadOnly,
        _ => Detail::DeadHandle(handle as u32 as usize),
    })
}

/// [`Table::read`] on the process's objects.
#[cfg(not(loom))]
#[inline(always)]
pub fn read<R>(handle: c_int, use_pairs: impl FnOnce(&InfoMap) -> Result<R, Error>) -> Result<R, Error> {
    TABLE.read(handle, use_pairs)
}

/// [`Table::share`] on the process's objects.
#[cfg(not(loom))]
pub fn share(handle: c_int) -> Result<Shared, Error> {
    TABLE.share(handle)
}

/// [`Table::write`] on the process's objects.
#[cfg(not(loom))]
#[inline(always)]
pub fn write<R>(handle: c_int, change: impl FnOnce(Writer<'_>) -> Result<R, Error>) -> Result<R, Error> {
    TABLE.write(handle, change)
}

/// [`Table::create`] on the process's objects.
#[cfg(not(loom))]
pub fn create(map: Shared) -> Result<c_int, Error> {
    TABLE.create(map)
}

/// [`Table::free`] on the process's objects.
#[cfg(not(loom))]
pub fn free(handle: c_int) -> Result<(), Error> {
    TABLE.free(handle)
}

/// Every lock of the table, held ([`Table::lock_all`]); released when dropped, the slots' first.
pub(crate) struct AllLocks {
    _slots: Vec<RwLockWriteGuard<'static, SlotState>>,
    _allocator: MutexGuard<'static, Allocator>,
}

/// [`Table::lock_all`] on the process's objects.
#[cfg(not(loom))]
pub(crate) fn lock_all() -> AllLocks {
    TABLE.lock_all()
}

/// Shorthands for the tests of this module.
#[cfg(test)]
impl Table {
    fn value(&self, handle: c_int, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        self.read(handle, |pairs| Ok(pairs.get(key).map(<[u8]>::to_vec)))
    }

    fn set(&self, handle: c_int, key: &[u8], value: &[u8]) -> Result<(), Error> {
        self.write(handle, |mut object| object.modify(|pairs| pairs.set(key, value)))
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn forged_values_are_rejected() {
        // A table of its own: in the process's table, 1 << 20 is the first object another test
        // running beside this one creates.
        let table = Table::new();
        for h in [0, -1, c_int::MIN, c_int::MAX, 304, 4095, 1 << 20, (2047 << 20) | 0xFFFFF] {
            assert_eq!(table.free(h), Err(Error::Info), "{h}");
            assert_eq!(table.set(h, b"k", b"v"), Err(Error::Info), "{h}");
        }
        assert!(table.value(INFO_ENV, b"k").is_ok());
        assert_eq!(table.set(INFO_ENV, b"k", b"v"), Err(Error::Info));
        assert_eq!(table.free(INFO_ENV), Err(Error::Info));
    }

    /// A value that names an existing slot is still no handle unless its generation bits are
    /// the object's: 0 (the predefined values), the next generation, the generation of a slot
    /// never used or freed, or a negative value with the same low bits.
    #[test]
    fn values_naming_a_slot_with_other_generation_bits_are_rejected() {
        let table = Table::new();
        let h = table.create(None).unwrap();
        let index = h & (SLOTS as c_int - 1);
        let next = ((h as u32 >> SLOT_BITS) % MAX_GENERATION + 1) << SLOT_BITS;
        let never_used = index + 1; // same segment, generation bits 0
        let forged = [index, index | next as c_int, (h as u32 | 1 << 31) as c_int, h | -(1 << 20), never_used];
        let check = |table: &Table| {
            for value in forged {
                assert_eq!(table.read(value, |_| Ok(())), Err(Error::Info), "{value:#x}");
                assert_eq!(table.write(value, |_| Ok(())), Err(Error::Info), "{value:#x}");
                assert_eq!(table.share(value).err(), Some(Error::Info), "{value:#x}");
                assert_eq!(table.free(value), Err(Error::Info), "{value:#x}");
            }
        };
        check(&table);
        assert_eq!(table.read(h, |_| Ok(())), Ok(()));
        table.free(h).unwrap();
        check(&table);
        assert_eq!(table.read(h, |_| Ok(())), Err(Error::Info), "freed");
    }

    #[test]
    fn freed_handles_are_dead_and_not_reissued_soon() {
        let h = create(None).unwrap();
        assert!(h >= 1 << 20);
        free(h).unwrap();
        assert_eq!(free(h), Err(Error::Info));
        assert_eq!(TABLE.value(h, b"k"), Err(Error::Info));
        for _ in 0..20_000 {
            let n = create(None).unwrap();
            assert_ne!(n, h);
            free(n).unwrap();
        }
    }

    /// The fastest way back to a freed value: its slot at the head of a queue of 4097 when it
    /// is freed, and after that each new object freed at once (which keeps the queue at 4097
    /// before every creation, so each creation takes the head). It comes back at exactly the
    /// REISSUE_DISTANCE-th creation, and is dead until then.
    #[test]
    fn a_freed_value_comes_back_no_sooner_than_the_reissue_distance() {
        let table = Table::new();
        let freed = table.create(None).unwrap();
        let others: Vec<c_int> = (0..QUARANTINE).map(|_| table.create(None).unwrap()).collect();
        table.free(freed).unwrap();
        for other in others {
            table.free(other).unwrap();
        }
        let slot = freed as u32 & (SLOTS as u32 - 1);
        let mut creations = 0;
        loop {
            let new = table.create(None).unwrap();
            creations += 1;
            if new == freed {
                break;
            }
            if new as u32 & (SLOTS as u32 - 1) == slot {
                // Its slot holds a newer object: the old value still names nothing.
                assert_eq!(table.value(freed, b"k"), Err(Error::Info));
            }
            assert!(creations < REISSUE_DISTANCE, "not given out again by the stated distance");
            table.free(new).unwrap();
        }
        assert_eq!(creations, REISSUE_DISTANCE);
    }

    #[test]
    fn dup_shares_until_changed() {
        let a = create(None).unwrap();
        TABLE.set(a, b"k", b"1").unwrap();
        let b = create(share(a).unwrap()).unwrap();
        TABLE.set(b, b"k", b"2").unwrap();
        assert_eq!(TABLE.value(a, b"k"), Ok(Some(b"1".to_vec())));
        assert_eq!(TABLE.value(b, b"k"), Ok(Some(b"2".to_vec())));
        free(a).unwrap();
        free(b).unwrap();
    }
}

/// Model-checked tests: `make loom` runs them with loom's locks and atomics, which try every
/// interleaving of the threads (up to loom's preemption bound) on a table of 8 slots in
/// segments of 2, with a quarantine of 1 slot.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::thread;

    fn map_with(key: &[u8], value: &[u8]) -> Shared {
        let mut map = InfoMap::new();
        map.set(key, value).unwrap();
        Some(SharedMap::try_new(map).unwrap())
    }

    /// A freed handle is dead for every thread: of two racing frees exactly one succeeds, a
    /// racing reader sees the object whole or gets `Error::Info`, and the slot's next object
    /// has another handle.
    #[test]
    fn free_races_with_use_of_the_handle() {
        loom::model(|| {
            let table = Arc::new(Table::new());
            let h = table.create(map_with(b"k", b"v")).unwrap();
            let freers: Vec<_> = (0..2)
                .map(|_| {
                    let table = Arc::clone(&table);
                    thread::spawn(move || table.free(h))
                })
                .collect();
            match table.value(h, b"k") {
                Ok(value) => assert_eq!(value.as_deref(), Some(&b"v"[..])),
                Err(e) => assert_eq!(e, Error::Info),
            }
            match table.set(h, b"k", b"w") {
                Ok(()) => {}
                Err(e) => assert_eq!(e, Error::Info),
            }
            let results: Vec<_> = freers.into_iter().map(|t| t.join().unwrap()).collect();
            assert!(results.contains(&Ok(())) && results.contains(&Err(Error::Info)), "{results:?}");
            assert_eq!(table.value(h, b"k"), Err(Error::Info));
            assert_eq!(table.free(h), Err(Error::Info));
            let next = table.create(None).unwrap();
            assert_ne!(next, h);
        });
    }

    /// dup of an object that another thread is changing: each copy ends with exactly its own
    /// changes, whichever thread went first.
    #[test]
    fn dup_races_with_change_of_the_original() {
        loom::model(|| {
            let table = Arc::new(Table::new());
            let a = table.create(map_with(b"k", b"1")).unwrap();
            let duplicator = {
                let table = Arc::clone(&table);
                thread::spawn(move || {
                    let shared = table.share(a).unwrap();
                    let seen = shared.as_deref().and_then(|m| m.get(b"k")).map(<[u8]>::to_vec);
                    let b = table.create(shared).unwrap();
                    table.set(b, b"other", b"x").unwrap();
                    (b, seen)
                })
            };
            table.set(a, b"k", b"2").unwrap();
            let (b, seen) = duplicator.join().unwrap();
            let seen = seen.unwrap();
            assert!(seen == b"1" || seen == b"2");
            assert_eq!(table.value(a, b"k"), Ok(Some(b"2".to_vec())));
            assert_eq!(table.value(a, b"other"), Ok(None));
            assert_eq!(table.value(b, b"k"), Ok(Some(seen)));
            assert_eq!(table.value(b, b"other"), Ok(Some(b"x".to_vec())));
        });
    }

    /// Two threads creating objects while a third looks up handles in the segment being
    /// made: every handle is distinct and usable from every thread, and a lookup never sees
    /// a half-made segment.
    #[test]
    fn creation_of_a_segment_races_with_lookups() {
        loom::model(|| {
            let table = Arc::new(Table::new());
            let first = table.create(None).unwrap();
            let second = table.create(None).unwrap(); // fills segment 0
            let makers: Vec<_> = (0..2)
                .map(|n| {
                    let table = Arc::clone(&table);
                    thread::spawn(move || {
                        let h = table.create(None).unwrap();
                        table.set(h, b"n", &[b'0' + n]).unwrap();
                        h
                    })
                })
                .collect();
            // Slot 2 with generation 1: the first object of segment 1, if made yet.
            let probe = encode(2, 1);
            if let Ok(len) = table.read(probe, |pairs| Ok(pairs.len())) {
                assert!(len <= 1);
            }
            let made: Vec<c_int> = makers.into_iter().map(|t| t.join().unwrap()).collect();
            let mut all = vec![first, second, made[0], made[1]];
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), 4);
            for (n, &h) in made.iter().enumerate() {
                assert_eq!(table.value(h, b"n"), Ok(Some(vec![b'0' + n as u8])));
            }
        });
    }

    /// The last of several owners of shared pairs, in whichever thread it is, frees them,
    /// and an owner may change the pairs in place only once it is the only one.
    #[test]
    fn shared_pairs_are_changed_in_place_only_by_a_sole_owner() {
        loom::model(|| {
            let mut mine = map_with(b"k", b"v").unwrap();
            let theirs = mine.clone();
            let other = thread::spawn(move || {
                assert_eq!(theirs.get(b"k"), Some(&b"v"[..]));
                drop(theirs);
            });
            if let Some(map) = mine.get_mut() {
                map.set(b"k", b"w").unwrap();
            }
            other.join().unwrap();
            assert!(mine.get_mut().is_some());
        });
    }
}
