//! The key index of a large info object: key hash -> position in the object's pair vector,
//! and the key hash and key comparison it uses.
//!
//! Why not `hashbrown`: a general-purpose table spends most of a lookup on things this map does
//! not need. Here:
//! - the hash is made for short byte strings (MPI hint keys are 5–40 bytes): two loads that may
//!   overlap and two 64×64→128-bit multiplies, where a streaming `Hasher` writes a length
//!   prefix, buffers and finishes;
//! - keys are compared with the same overlapping loads (16-byte chunks past 32 bytes), inline,
//!   where `==` on slices calls `memcmp` for every candidate;
//! - a slot is one `u32` that holds both a position and a hash tag, so most candidates that are
//!   not the key are rejected without touching its pair; and a `u32` per slot, where hashbrown
//!   spends 5 bytes, keeps a pair within key + value + 48 bytes at a million pairs.
//!
//! The table is open addressing with linear probing and backward-shift deletion, so there are
//! no tombstones and a removal leaves the table as if the entry had never been inserted.
//! Capacity is `2^k` slots; a slot holds `tag | (position + 1)`: the low `k` bits are the
//! position plus one, the high `32 - k` bits are the tag, the high bits of the hash's upper
//! half. An empty slot is 0 (an entry's low bits are at least 1). A probe starts at
//! `hash & (2^k - 1)`, so the home slot and the tag come from different bits of the hash. At
//! most 3/4 of the slots are used, so every position is below `2^k - 1` and fits its bits, and
//! every probe ends at an empty slot. Why 3/4 rather than the 7/8 of a SwissTable: a miss under
//! linear probing takes about (1 + 1/(1 - load)^2) / 2 probes, 8.5 at 3/4 but 32.5 at 7/8, and
//! the memory saved is small: at a million pairs both give 2^21 slots, 8.4 bytes per pair; just
//! after a doubling, at worst 10.7 bytes per pair against 9.1.
//!
//! The index stores no keys and no hashes: callers pass a closure that answers "is the key at
//! this position the one sought" (`find`) or "what is the hash of the key at this position"
//! (growth and removal, which need the home slot of entries they move).

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::OnceLock;

use crate::error::Error;

/// Fewest slots an allocated table has: 6 entries at most.
const MIN_SLOTS: usize = 8;

/// Key hash -> position, for positions that are all distinct. Allocates nothing until the first
/// `reserve`.
pub(crate) struct Index {
    /// Empty, or a power of two (at least [`MIN_SLOTS`]) of slots.
    slots: Vec<u32>,
    /// Entries in use; at most [`max_entries`] of `slots.len()`.
    len: usize,
    /// The process's seeds once there is a table; [`NO_SEEDS`] before, when every find fails
    /// whatever the hash. A lookup reads them here rather than through the `OnceLock`, so it
    /// has no first-use branch that calls out, and can stay a leaf function.
    seeds: &'static [u64; 3],
}

impl Default for Index {
    fn default() -> Self {
        Index::new()
    }
}

/// The seeds of an index without a table: never used to place an entry.
const NO_SEEDS: &[u64; 3] = &[0, 0, 0];

/// Most entries a table of `slots` slots takes: 3/4 of it (see the module comment), which leaves
/// empty slots for every probe to stop at.
fn max_entries(slots: usize) -> usize {
    slots - slots / 4
}

/// Slots needed for `entries` entries with positions below `entries`, or `None` if no table can
/// hold them: positions (plus one) must fit in a `u32` beside the tag, so at most 2^32 slots.
fn slots_for(entries: usize) -> Option<usize> {
    let need = u64::try_from(entries).ok()?.checked_mul(4)?.div_ceil(3);
    let slots = need.max(MIN_SLOTS as u64).checked_next_power_of_two()?;
    if slots > 1 << 32 {
        return None;
    }
    usize::try_from(slots).ok()
}

impl Index {
    pub(crate) const fn new() -> Self {
        Index { slots: Vec::new(), len: 0, seeds: NO_SEEDS }
    }

    /// The hash of `key` for [`Index::find`]: [`hash_key`], once there is a table.
    #[inline(always)]
    pub(crate) fn hash(&self, key: &[u8]) -> u64 {
        hash_with(self.seeds, key)
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The low-bits mask: `slots - 1`. As a `u32` it is also the position field's mask (a table
    /// of 2^32 slots has no tag bits).
    fn mask(&self) -> usize {
        self.slots.len().wrapping_sub(1)
    }

    /// The tag of `hash` in a table with this position mask.
    fn tag(hash: u64, low: u32) -> u32 {
        (hash >> 32) as u32 & !low
    }

    /// The position whose entry has this hash's tag and for which `is_match` is true, if any.
    /// `is_match` is called only for entries whose tag matches.
    #[inline(always)]
    pub(crate) fn find(&self, hash: u64, mut is_match: impl FnMut(usize) -> bool) -> Option<usize> {
        let slots = &self.slots[..];
        if slots.is_empty() {
            return None;
        }
        let mask = slots.len() - 1;
        let low = mask as u32;
        let tag = Self::tag(hash, low);
        let mut i = hash as usize & mask;
        loop {
            let entry = slots[i];
            // An empty slot is all zeros (`put` never stores 0, `remove` writes 0), which saves
            // masking before the test.
            if entry == 0 {
                return None;
            }
            // Equal tags cancel, leaving the position plus one, which is at most `low`; any
            // other tag leaves a high bit set. One register fewer than masking both parts.
            let stored = entry ^ tag;
            if stored <= low && is_match(stored as usize - 1) {
                return Some(stored as usize - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for `entries` entries in all, with every position below `entries`, so that
    /// the `insert`s that follow cannot fail. A table that grows is rebuilt, and `hash_of(p)`
    /// must give the hash of the entry at position `p` (tags and home slots depend on the size).
    ///
    /// [`Error::NoMem`] if memory runs out or no table can hold that many; then nothing changed.
    pub(crate) fn reserve(&mut self, entries: usize, hash_of: impl Fn(usize) -> u64) -> Result<(), Error> {
        if !self.slots.is_empty() && entries <= max_entries(self.slots.len()) {
            return Ok(());
        }
        let slots = Self::zeroed(slots_for(entries).ok_or(Error::NoMem)?)?;
        let mut grown = Index { slots, len: 0, seeds: seeds() };
        let low = self.mask() as u32;
        for &entry in &self.slots {
            let stored = entry & low;
            if stored != 0 {
                let position = stored as usize - 1;
                grown.put(hash_of(position), position);
            }
        }
        debug_assert_eq!(grown.len, self.len);
        *self = grown;
        Ok(())
    }

    /// `n` empty slots, or [`Error::NoMem`].
    fn zeroed(n: usize) -> Result<Vec<u32>, Error> {
        let mut slots = Vec::new();
        slots.try_reserve_exact(n)?;
        // Within the capacity just reserved: this cannot allocate.
        slots.resize(n, 0);
        Ok(slots)
    }

    /// Adds an entry. The position must not be in the index yet, and [`Index::reserve`] must
    /// have made room for it (a position at or past the reserved count would not fit its bits).
    pub(crate) fn insert(&mut self, hash: u64, position: usize) {
        let room = max_entries(self.slots.len());
        assert!(self.len < room && position < room, "Index::insert without room reserved");
        self.put(hash, position);
    }

    /// `insert` without the checks: the caller knows there is room.
    fn put(&mut self, hash: u64, position: usize) {
        let mask = self.mask();
        let low = mask as u32;
        // Below 3/4 of 2^32 and nonzero: fits the position bits (see `max_entries`).
        let entry = Self::tag(hash, low) | (position as u32 + 1);
        let mut i = hash as usize & mask;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = entry;
        self.len += 1;
    }

    /// Removes the entry (`hash`, `position`), if it is there; `hash_of` as for
    /// [`Index::reserve`], for the entries that move back into the freed slot.
    pub(crate) fn remove(&mut self, hash: u64, position: usize, hash_of: impl Fn(usize) -> u64) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let mask = self.mask();
        let low = mask as u32;
        let Ok(stored) = u32::try_from(position + 1) else { return false };
        let wanted = Self::tag(hash, low) | stored;
        let mut hole = hash as usize & mask;
        loop {
            let entry = self.slots[hole];
            if entry == wanted {
                break;
            }
            if entry == 0 {
                return false;
            }
            hole = (hole + 1) & mask;
        }
        // Backward shift: later entries of the same run move back into the hole unless that
        // would put them before their home slot, so every entry stays reachable from its home
        // without crossing an empty slot, which is what `find` relies on.
        let mut i = (hole + 1) & mask;
        loop {
            let entry = self.slots[i];
            if entry == 0 {
                break;
            }
            let home = hash_of((entry & low) as usize - 1) as usize & mask;
            // The entry may fill the hole if the hole lies between its home and its slot
            // (cyclically): its distance from home is at least the hole's distance back.
            if i.wrapping_sub(home) & mask >= i.wrapping_sub(hole) & mask {
                self.slots[hole] = entry;
                hole = i;
            }
            i = (i + 1) & mask;
        }
        self.slots[hole] = 0;
        self.len -= 1;
        true
    }

    /// Every position greater than `at` goes down by one, in one pass over the slots; the
    /// caller has removed `at` itself. Tags and slots do not move.
    pub(crate) fn shift_down_after(&mut self, at: usize) {
        let low = self.mask() as u32;
        // Stored values are positions plus one; none can exceed u32::MAX.
        let Ok(at_stored) = u32::try_from(at + 1) else { return };
        // Branch-free, so the compiler can do several slots per instruction; empty slots
        // (stored 0) are never above `at_stored`.
        for slot in &mut self.slots {
            *slot -= u32::from(*slot & low > at_stored);
        }
    }

    /// Empties the index and frees its memory.
    pub(crate) fn clear(&mut self) {
        *self = Index::new();
    }

    /// A copy of the index, or [`Error::NoMem`]. A table larger than its entries need (after
    /// many removals) is rebuilt at the right size with `hash_of`, as in [`Index::reserve`].
    pub(crate) fn try_clone(&self, hash_of: impl Fn(usize) -> u64) -> Result<Self, Error> {
        if self.len == 0 {
            return Ok(Index::new());
        }
        let low = self.mask() as u32;
        // Positions need not be below `len` (the caller may leave gaps): size for the largest.
        let entries = self.slots.iter().map(|&entry| (entry & low) as usize).max().unwrap_or(0);
        let right_size = slots_for(entries).ok_or(Error::NoMem)?;
        if right_size == self.slots.len() {
            let mut slots = Vec::new();
            slots.try_reserve_exact(self.slots.len())?;
            slots.extend_from_slice(&self.slots);
            return Ok(Index { slots, len: self.len, seeds: self.seeds });
        }
        let mut copy = Index { slots: Self::zeroed(right_size)?, len: 0, seeds: self.seeds };
        for &entry in &self.slots {
            let stored = entry & low;
            if stored != 0 {
                let position = stored as usize - 1;
                copy.put(hash_of(position), position);
            }
        }
        Ok(copy)
    }

    #[cfg(test)]
    fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Test-only: every entry is found from its home slot before an empty slot, positions are
    /// distinct, and `len` counts the entries.
    #[cfg(test)]
    fn check(&self, hash_of: impl Fn(usize) -> u64) {
        if self.slots.is_empty() {
            assert_eq!(self.len, 0);
            return;
        }
        let mask = self.mask();
        let low = mask as u32;
        let mut seen = std::collections::HashSet::new();
        for (i, &entry) in self.slots.iter().enumerate() {
            let stored = entry & low;
            if stored == 0 {
                assert_eq!(entry, 0, "an empty slot holds nothing");
                continue;
            }
            let position = stored as usize - 1;
            assert!(seen.insert(position), "position {position} twice");
            let hash = hash_of(position);
            assert_eq!(entry & !low, Self::tag(hash, low), "tag of position {position}");
            let mut j = hash as usize & mask;
            while j != i {
                assert_ne!(self.slots[j] & low, 0, "position {position} cut off from its home");
                j = (j + 1) & mask;
            }
        }
        assert_eq!(seen.len(), self.len);
        assert!(self.len <= max_entries(self.slots.len()));
    }
}

/// The process's hash seeds: random, so nobody can choose keys that collide on purpose.
fn seeds() -> &'static [u64; 3] {
    static SEEDS: OnceLock<[u64; 3]> = OnceLock::new();
    SEEDS.get_or_init(|| {
        // RandomState's keys come from the operating system's random source.
        let state = RandomState::new();
        [0x243f_6a88_85a3_08d3_u64, 0x1319_8a2e_0370_7344, 0xa409_3822_299f_31d0].map(|c| state.hash_one(c))
    })
}

/// The 128-bit product's halves, xored: every bit of the result depends on every bit of both
/// inputs, which a 64-bit product alone would not give its low bits.
#[inline(always)]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    product as u64 ^ (product >> 64) as u64
}

#[inline(always)]
fn load_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

#[inline(always)]
fn load_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

#[inline(always)]
fn load_u128(bytes: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(bytes[at..at + 16].try_into().expect("16 bytes"))
}

/// The hash of a key, seeded per process; what [`Index::reserve`]'s `hash_of` must return.
pub(crate) fn hash_key(key: &[u8]) -> u64 {
    hash_with(seeds(), key)
}

/// The hash itself.
///
/// Up to 16 bytes (most hint keys): two loads that cover the key, overlapping when it is shorter
/// than two words, and one folded multiply with the seeds. Longer keys fold 16-byte chunks into
/// an accumulator, the last chunk ending at the key's end. The length rotates a seed rather than
/// being xored into the data, so keys of different lengths cannot be made to collide whatever
/// the seeds. A last multiply mixes the result: after one, a change in a key's last bytes (the
/// high bytes of its last word, where counters in keys such as `hint_000123` change) reaches
/// the low bits, which pick the home slot, only through a few bits of one seed, and for some
/// seeds such keys crowd into runs that linear probing pays for (a test checks the spread). No
/// call and no `memcpy`: inlined into a lookup, it leaves that a leaf function.
#[inline(always)]
fn hash_with(seeds: &[u64; 3], key: &[u8]) -> u64 {
    let [s0, s1, s2] = *seeds;
    let len = key.len();
    let first = s0.rotate_left(len as u32);
    let folded = if len <= 16 {
        let (a, b) = if len >= 8 {
            (load_u64(key, 0), load_u64(key, len - 8))
        } else if len >= 4 {
            (u64::from(load_u32(key, 0)), u64::from(load_u32(key, len - 4)))
        } else if len > 0 {
            // First, middle and last byte: all of a key of 1 to 3 bytes.
            (u64::from(key[0]), u64::from(key[len / 2]) << 8 | u64::from(key[len - 1]))
        } else {
            (0, 0)
        };
        folded_multiply(a ^ first, b ^ s1)
    } else {
        let mut acc = folded_multiply(load_u64(key, 0) ^ first, load_u64(key, 8) ^ s1);
        let mut at = 16;
        // The chunks between the first and the last.
        while at + 16 < len {
            acc = folded_multiply(load_u64(key, at) ^ s0, load_u64(key, at + 8) ^ acc);
            at += 16;
        }
        folded_multiply(load_u64(key, len - 16) ^ s0, load_u64(key, len - 8) ^ acc)
    };
    folded_multiply(folded, s2)
}

/// `a == b` without `memcmp`: lengths first, then, for a key up to 32 bytes, two loads from
/// each that cover it (overlapping when it is short); longer keys 16 bytes at a time. Inlined
/// into a lookup, it makes no call (the `memcmp` call alone cost as much as this whole compare)
/// and leaves that a leaf function.
#[inline(always)]
pub(crate) fn keys_equal(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    if len >= 8 {
        if len <= 16 {
            (load_u64(a, 0) ^ load_u64(b, 0)) | (load_u64(a, len - 8) ^ load_u64(b, len - 8)) == 0
        } else if len <= 32 {
            (load_u128(a, 0) ^ load_u128(b, 0)) | (load_u128(a, len - 16) ^ load_u128(b, len - 16)) == 0
        } else {
            // Whole chunks up to the last byte, then the last 16 bytes (which may overlap them).
            let mut whole = a[..len - 1].chunks_exact(16).zip(b[..len - 1].chunks_exact(16));
            whole.all(|(x, y)| load_u128(x, 0) == load_u128(y, 0)) && load_u128(a, len - 16) == load_u128(b, len - 16)
        }
    } else if len >= 4 {
        (load_u32(a, 0) ^ load_u32(b, 0)) | (load_u32(a, len - 4) ^ load_u32(b, len - 4)) == 0
    } else if len > 0 {
        a[0] == b[0] && a[len / 2] == b[len / 2] && a[len - 1] == b[len - 1]
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The model: position -> hash.
    type Model = HashMap<usize, u64>;

    fn insert(index: &mut Index, model: &mut Model, hash: u64, position: usize) {
        let need = (index.len() + 1).max(position + 1);
        index.reserve(need, |p| model[&p]).unwrap();
        index.insert(hash, position);
        assert!(model.insert(position, hash).is_none());
    }

    fn remove(index: &mut Index, model: &mut Model, position: usize) {
        let hash = model[&position];
        assert!(index.remove(hash, position, |p| model[&p]));
        model.remove(&position);
    }

    fn shift(index: &mut Index, model: &mut Model, at: usize) {
        assert!(!model.contains_key(&at));
        index.shift_down_after(at);
        *model = model.iter().map(|(&p, &h)| (if p > at { p - 1 } else { p }, h)).collect();
    }

    /// Everything in the model is found, the index's structure holds, and `is_match` is asked
    /// only about positions that exist.
    fn agrees(index: &Index, model: &Model) {
        index.check(|p| model[&p]);
        assert_eq!(index.len(), model.len());
        for (&position, &hash) in model {
            let found = index.find(hash, |p| {
                assert!(model.contains_key(&p), "asked about a position not in the index: {p}");
                p == position
            });
            assert_eq!(found, Some(position));
        }
    }

    #[test]
    fn new_allocates_nothing_and_finds_nothing() {
        static EMPTY: Index = Index::new();
        assert_eq!(EMPTY.capacity(), 0);
        assert_eq!(EMPTY.find(0, |_| true), None);
        let mut index = Index::new();
        assert!(!index.remove(5, 0, |_| 0));
        index.shift_down_after(3);
        index.clear();
        assert_eq!(index.capacity(), 0);
    }

    #[test]
    fn colliding_hashes_wrap_around_the_end() {
        let mut index = Index::new();
        let mut model = Model::new();
        // Capacity 8, every home slot the last one: the run wraps to slots 0..5. Distinct tags.
        for p in 0..6 {
            insert(&mut index, &mut model, (p as u64) << 40 | 7, p);
        }
        assert_eq!(index.capacity(), 8);
        let low = 7;
        let positions: Vec<u32> = index.slots.iter().map(|e| e & low).collect();
        assert_eq!(positions, vec![2, 3, 4, 5, 6, 0, 0, 1]);
        agrees(&index, &model);
        assert_eq!(index.find(0xdead_0000_0000_0007, |_| panic!("no tag matches")), None);
        // Remove from the middle of the wrapped run, then the head, then re-add.
        remove(&mut index, &mut model, 3);
        agrees(&index, &model);
        remove(&mut index, &mut model, 0);
        agrees(&index, &model);
        assert_eq!(index.slots.iter().map(|e| e & low).collect::<Vec<_>>(), vec![3, 5, 6, 0, 0, 0, 0, 2]);
        insert(&mut index, &mut model, 99 << 40 | 7, 0);
        insert(&mut index, &mut model, 98 << 40 | 6, 3);
        agrees(&index, &model);
        for p in [5, 1, 0, 3, 2, 4] {
            remove(&mut index, &mut model, p);
            agrees(&index, &model);
        }
        assert_eq!(index.len(), 0);
        assert!(index.slots.iter().all(|&e| e == 0));
    }

    #[test]
    fn identical_hashes_are_told_apart_by_the_caller() {
        let mut index = Index::new();
        let mut model = Model::new();
        for p in 0..100 {
            insert(&mut index, &mut model, 0x1234_5678_9abc_def0, p);
        }
        agrees(&index, &model);
        for p in (0..100).step_by(3) {
            remove(&mut index, &mut model, p);
        }
        agrees(&index, &model);
        let mut asked = 0;
        assert_eq!(
            index.find(0x1234_5678_9abc_def0, |_| {
                asked += 1;
                false
            }),
            None
        );
        assert_eq!(asked, model.len());
    }

    #[test]
    fn backward_shift_keeps_foreign_runs_in_place() {
        // Homes 2, 2, 3, 2, 6 at capacity 8: slots 2..=6 hold positions 0..=4. Removing
        // position 1 (slot 3) must move position 2 (home 3) and 3 (home 2) back one slot each,
        // but not position 4 into slot 5, before its home.
        let mut index = Index::new();
        let mut model = Model::new();
        for (p, home) in [2u64, 2, 3, 2, 6].into_iter().enumerate() {
            insert(&mut index, &mut model, (p as u64 + 1) << 36 | home, p);
        }
        assert_eq!(index.capacity(), 8);
        remove(&mut index, &mut model, 1);
        agrees(&index, &model);
        let low = 7;
        let positions: Vec<u32> = index.slots.iter().map(|e| e & low).collect();
        assert_eq!(positions, vec![0, 0, 1, 3, 4, 0, 5, 0]);
    }

    #[test]
    fn shift_moves_only_later_positions() {
        let mut index = Index::new();
        let mut model = Model::new();
        for p in 0..50 {
            insert(&mut index, &mut model, hash_key(format!("k{p}").as_bytes()), p);
        }
        for at in [0, 25, 47, 10] {
            remove(&mut index, &mut model, at);
            shift(&mut index, &mut model, at);
            agrees(&index, &model);
        }
        assert_eq!(index.len(), 46);
        let mut positions: Vec<usize> = model.keys().copied().collect();
        positions.sort();
        assert_eq!(positions, (0..46).collect::<Vec<_>>());
    }

    #[test]
    fn grows_through_many_doublings_and_clears() {
        let mut index = Index::new();
        let mut model = Model::new();
        let mut capacities = vec![];
        for p in 0..20_000 {
            insert(&mut index, &mut model, hash_key(&(p as u32).to_le_bytes()), p);
            if capacities.last() != Some(&index.capacity()) {
                capacities.push(index.capacity());
            }
            assert!(index.len() * 4 <= index.capacity() * 3);
        }
        agrees(&index, &model);
        assert_eq!(capacities, (3..=15).map(|k| 1usize << k).collect::<Vec<_>>());
        // Only low bits differ, and then only high bits: the home and the tag come from
        // different halves, so each kind still spreads.
        let mut index2 = Index::new();
        let mut model2 = Model::new();
        for p in 0..3000 {
            let hash = if p % 2 == 0 { p as u64 } else { (p as u64) << 40 };
            insert(&mut index2, &mut model2, hash, p);
        }
        agrees(&index2, &model2);
        index.clear();
        assert_eq!((index.len(), index.capacity()), (0, 0));
        assert_eq!(index.find(model[&7], |_| true), None);
    }

    #[test]
    fn reserve_that_cannot_be_met_changes_nothing() {
        let mut index = Index::new();
        let mut model = Model::new();
        for p in 0..10 {
            insert(&mut index, &mut model, hash_key(&[p as u8 + 1]), p);
        }
        let before = index.slots.clone();
        assert_eq!(index.reserve(usize::MAX, |_| unreachable!()), Err(Error::NoMem));
        // More positions than a u32 slot can hold, whatever the memory.
        assert_eq!(index.reserve(1 << 33, |_| unreachable!()), Err(Error::NoMem));
        assert_eq!(index.slots, before);
        agrees(&index, &model);
        assert_eq!(slots_for(0), Some(8));
        assert_eq!(slots_for(6), Some(8));
        assert_eq!(slots_for(7), Some(16));
        assert_eq!(slots_for(12), Some(16));
        assert_eq!(slots_for(13), Some(32));
        assert_eq!(slots_for(1_000_000), Some(1 << 21));
        assert_eq!(slots_for(3 << 30), Some(1 << 32));
        assert_eq!(slots_for((3 << 30) + 1), None);
    }

    #[test]
    fn clone_copies_or_rebuilds_at_the_right_size() {
        let mut index = Index::new();
        let mut model = Model::new();
        for p in 0..1000 {
            insert(&mut index, &mut model, hash_key(format!("key{p}").as_bytes()), p);
        }
        let copy = index.try_clone(|p| model[&p]).unwrap();
        assert_eq!(copy.slots, index.slots);
        for p in 20..1000 {
            remove(&mut index, &mut model, p);
        }
        let copy = index.try_clone(|p| model[&p]).unwrap();
        assert_eq!(copy.capacity(), 32);
        agrees(&copy, &model);
        assert_eq!(Index::new().try_clone(|_| 0).unwrap().capacity(), 0);
    }

    #[test]
    fn hash_reads_only_the_key_and_uses_every_byte() {
        let buffer: Vec<u8> = (0..600u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut seen = std::collections::HashSet::new();
        for len in 0..=255 {
            for start in [0, 1, 5, 300] {
                let key = &buffer[start..start + len];
                // The same bytes elsewhere in memory hash the same.
                let elsewhere = key.to_vec();
                assert_eq!(hash_key(key), hash_key(&elsewhere));
                seen.insert(hash_key(key));
                // Changing any one byte changes the hash.
                for at in 0..len {
                    let mut changed = key.to_vec();
                    changed[at] ^= 0x40;
                    assert_ne!(hash_key(&changed), hash_key(key), "len {len}, byte {at}");
                }
            }
        }
        assert_eq!(seen.len(), 256 * 4 - 3, "distinct except the three empty keys");
        // Same leading and trailing bytes, different lengths.
        assert_ne!(hash_key(b"ab"), hash_key(b"abb"));
        assert_ne!(hash_key(&[b'a'; 17]), hash_key(&[b'a'; 18]));
        assert_ne!(hash_key(&[b'a'; 9]), hash_key(&[b'a'; 10]));
    }

    /// Probes a table of these hashes takes: (mean for each key present, mean for a miss from
    /// each slot).
    fn probe_counts(hashes: &[u64]) -> (f64, f64) {
        let slots = slots_for(hashes.len()).unwrap();
        let mask = slots - 1;
        let mut used = vec![false; slots];
        let mut hits = 0;
        for &hash in hashes {
            let mut i = hash as usize & mask;
            hits += 1;
            while used[i] {
                i = (i + 1) & mask;
                hits += 1;
            }
            used[i] = true;
        }
        let mut misses = 0;
        for home in 0..slots {
            let mut i = home;
            misses += 1;
            while used[i] {
                i = (i + 1) & mask;
                misses += 1;
            }
        }
        (f64::from(hits) / hashes.len() as f64, f64::from(misses) / slots as f64)
    }

    #[test]
    fn hint_like_keys_spread_as_random_hashes_would() {
        // Keys that differ in a few digits are where a weak hash clusters, and linear probing
        // pays for clusters. Random hashes (SipHash measured the same, over 30 seeds) give at
        // most about 1.6 probes per hit and 2.7 per miss at load 1/2, 2.8 and 10.5 at 3/4.
        let kinds: [fn(usize) -> String; 3] =
            [|i| format!("hint_{i:06}"), |i| format!("{i:x}"), |i| format!("mpi_assert_key_{i}")];
        for (n, hit, miss) in [(4096, 1.8, 3.3), (6144, 3.3, 14.0)] {
            for key in kinds {
                for _ in 0..3 {
                    let state = RandomState::new();
                    let seeds = [1u8, 2, 3].map(|c| state.hash_one(c));
                    let hashes: Vec<u64> = (0..n).map(|i| hash_with(&seeds, key(i).as_bytes())).collect();
                    let (hits, misses) = probe_counts(&hashes);
                    assert!(hits < hit && misses < miss, "{n} keys: {hits:.2} per hit, {misses:.2} per miss");
                }
            }
        }
    }

    #[test]
    fn keys_equal_is_slice_equality() {
        let buffer: Vec<u8> = (0..300u32).map(|i| (i * 13 + 1) as u8).collect();
        for len in 0..=255 {
            let key = &buffer[1..1 + len];
            let elsewhere = key.to_vec();
            assert!(keys_equal(key, &elsewhere));
            assert!(!keys_equal(key, &buffer[1..2 + len]));
            for at in 0..len {
                for bit in [0x01, 0x80] {
                    let mut changed = key.to_vec();
                    changed[at] ^= bit;
                    assert!(!keys_equal(key, &changed), "len {len}, byte {at}");
                }
            }
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u64),
        /// Remove the n-th entry (mod len).
        Remove(usize),
        /// Remove the n-th entry and shift later positions down, as a delete does.
        Delete(usize),
        /// Shift down after a position no entry has.
        Shift(usize),
        Clone,
    }

    fn hash_strategy() -> impl Strategy<Value = u64> {
        prop_oneof![
            any::<u64>(),
            // Homes crowded into few slots, tags distinct.
            (0u64..4, any::<u32>()).prop_map(|(home, high)| u64::from(high) << 32 | home),
            // Few distinct hashes at all: equal tags, the caller decides.
            (0u64..3).prop_map(|h| h.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        ]
    }

    proptest! {
        #[test]
        fn behaves_like_a_map_of_positions(ops in proptest::collection::vec(
            prop_oneof![
                6 => hash_strategy().prop_map(Op::Insert),
                2 => any::<usize>().prop_map(Op::Remove),
                2 => any::<usize>().prop_map(Op::Delete),
                1 => any::<usize>().prop_map(Op::Shift),
                1 => Just(Op::Clone),
            ], 0..200)) {
            let mut index = Index::new();
            let mut model = Model::new();
            for op in ops {
                let mut positions: Vec<usize> = model.keys().copied().collect();
                positions.sort();
                match op {
                    Op::Insert(hash) => {
                        // The lowest free position, so positions stay small as in the map.
                        let free = (0..).find(|p| !model.contains_key(p)).unwrap();
                        insert(&mut index, &mut model, hash, free);
                    }
                    Op::Remove(n) | Op::Delete(n) if positions.is_empty() => {
                        let _ = n;
                        prop_assert!(!index.remove(1, 0, |_| 0));
                    }
                    Op::Remove(n) => remove(&mut index, &mut model, positions[n % positions.len()]),
                    Op::Delete(n) => {
                        let at = positions[n % positions.len()];
                        remove(&mut index, &mut model, at);
                        shift(&mut index, &mut model, at);
                    }
                    Op::Shift(n) => {
                        let at = n % (positions.len() + 2);
                        if !model.contains_key(&at) {
                            shift(&mut index, &mut model, at);
                        }
                    }
                    Op::Clone => index = index.try_clone(|p| model[&p]).unwrap(),
                }
                agrees(&index, &model);
            }
        }
    }
}
