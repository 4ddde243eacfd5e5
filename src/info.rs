//! The info object itself: an insertion-ordered map from byte-string keys to byte-string values.
//!
//! This is the safe core the C layer calls. It knows the standard's limits and order rules
//! (docs/reference.md, "Rules every function follows", "Strings" and "Order") and nothing about
//! handles, pointers or threads.
//!
//! Layout, chosen for flat lookup cost and small memory per pair:
//! - `pairs` holds the pairs in insertion order, each one heap block behind an 8-byte pointer
//!   (`crate::pair`), so the n-th key is one index away and a pair costs one allocation;
//! - once there are more than `SCAN_LIMIT` pairs, `index` maps a key's hash to its position in
//!   `pairs` (`crate::index`: one `u32` per slot, a hash made for short keys). Below that a
//!   linear scan is faster than hashing.
//!
//! Every method that can fail leaves the map exactly as it was.

use crate::error::Error;
use crate::index::{hash_key, keys_equal, Index};
use crate::pair::Pair;

/// Longest key, in bytes (`MPI_MAX_INFO_KEY` minus the NUL).
pub const MAX_KEY_LEN: usize = 255;
/// Longest value, in bytes (`MPI_MAX_INFO_VAL` minus the NUL).
pub const MAX_VALUE_LEN: usize = 1023;
/// Most pairs one object holds: counts and indices must fit a C `int`.
pub const MAX_PAIRS: usize = i32::MAX as usize;
/// Up to this many pairs, lookups scan `pairs` and `index` stays empty.
const SCAN_LIMIT: usize = 8;
/// Keys up to this long take the lookup's short path ([`InfoMap::position`]). Most hint keys
/// are; a longer limit would put a wider compare on every lookup's path.
const SHORT_KEY: usize = 16;

/// Checks a key against the rules every function applies: not empty, at most
/// [`MAX_KEY_LEN`] bytes, no NUL (C could neither pass nor read it back).
pub fn check_key(key: &[u8]) -> Result<(), Error> {
    if key.is_empty() || key.len() > MAX_KEY_LEN || key.contains(&0) {
        return Err(Error::InfoKey);
    }
    Ok(())
}

/// Checks a value: at most [`MAX_VALUE_LEN`] bytes, no NUL. The empty value is valid.
pub fn check_value(value: &[u8]) -> Result<(), Error> {
    if value.len() > MAX_VALUE_LEN || value.contains(&0) {
        return Err(Error::InfoValue);
    }
    Ok(())
}

/// An MPI info object's contents: (key, value) pairs of byte strings in insertion order.
#[derive(Default)]
pub struct InfoMap {
    pairs: Vec<Pair>,
    /// Positions in `pairs`, by key hash. Empty (and unallocated) while
    /// `pairs.len() <= SCAN_LIMIT`; otherwise it holds exactly one entry per pair.
    index: Index,
}

impl InfoMap {
    /// An empty map. Allocates nothing.
    pub const fn new() -> Self {
        InfoMap { pairs: Vec::new(), index: Index::new() }
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    fn is_indexed(&self) -> bool {
        self.pairs.len() > SCAN_LIMIT
    }

    /// Where `key` is.
    ///
    /// How the lookup is compiled matters as much as the algorithm. The scan and the index
    /// lookup are each an out-of-line function whose body is compiled for keys of at most
    /// [`SHORT_KEY`] bytes: the hash and the key compare are then a few loads inline, nothing
    /// is called, and few registers are saved.
    /// Longer keys jump (a tail call, at no cost to the short path) to a copy compiled for any
    /// length, whose wider compare loop would otherwise make every lookup save more registers.
    #[inline(always)]
    fn position(&self, key: &[u8]) -> Option<usize> {
        if self.is_indexed() {
            self.lookup(key)
        } else {
            self.scan(key)
        }
    }

    #[inline(always)]
    fn scan(&self, key: &[u8]) -> Option<usize> {
        if key.len() > SHORT_KEY {
            return self.scan_long(key);
        }
        self.scan_any(key)
    }

    #[inline(never)]
    fn scan_long(&self, key: &[u8]) -> Option<usize> {
        self.scan_any(key)
    }

    #[inline(always)]
    fn scan_any(&self, key: &[u8]) -> Option<usize> {
        // A loop rather than `Iterator::position`, which is not always inlined.
        for (at, pair) in self.pairs.iter().enumerate() {
            if keys_equal(pair.key(), key) {
                return Some(at);
            }
        }
        None
    }

    #[inline(always)]
    fn lookup(&self, key: &[u8]) -> Option<usize> {
        if key.len() > SHORT_KEY {
            return self.lookup_long(key);
        }
        self.lookup_any(key)
    }

    #[inline(never)]
    fn lookup_long(&self, key: &[u8]) -> Option<usize> {
        self.lookup_any(key)
    }

    #[inline(always)]
    fn lookup_any(&self, key: &[u8]) -> Option<usize> {
        let pairs = &self.pairs;
        // Without the attribute the closure may stay a call, which costs more than it does.
        self.index.find(
            self.index.hash(key),
            #[inline(always)]
            |at| keys_equal(pairs[at].key(), key),
        )
    }

    /// The hash of the key at a position, for the index to rebuild or move entries.
    fn hash_at(pairs: &[Pair]) -> impl Fn(usize) -> u64 + '_ {
        |at| hash_key(pairs[at].key())
    }

    /// The value stored under `key`.
    #[inline(always)]
    pub fn get(&self, key: &[u8]) -> Option<&[u8]> {
        self.position(key).map(|at| self.pairs[at].value())
    }

    /// The `n`-th pair in insertion order (0-based): its key and value.
    pub fn nth_pair(&self, n: usize) -> Option<(&[u8], &[u8])> {
        self.pairs.get(n).map(|pair| (pair.key(), pair.value()))
    }

    /// The `n`-th key in insertion order (0-based).
    pub fn nth_key(&self, n: usize) -> Option<&[u8]> {
        self.pairs.get(n).map(Pair::key)
    }

    /// The pairs in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.pairs.iter().map(|p| (p.key(), p.value()))
    }

    /// Adds a pair at the end, or replaces the value of an existing key in place.
    ///
    /// Errors: [`Error::InfoKey`], [`Error::InfoValue`] (see [`check_key`], [`check_value`]),
    /// [`Error::NoMem`] (also past [`MAX_PAIRS`]). On error the map is unchanged.
    pub fn set(&mut self, key: &[u8], value: &[u8]) -> Result<(), Error> {
        check_key(key)?;
        check_value(value)?;
        self.set_valid(key, value)
    }

    /// [`InfoMap::set`] for a key and value already known to pass [`check_key`] and
    /// [`check_value`]: the C layer's argument checks establish exactly that, and a value
    /// need not be scanned twice on every call.
    ///
    /// Inlined into `MPI_Info_set`, whose common case, a value of the same length as the old
    /// one, is a lookup and a copy; the other cases are out of line.
    #[inline(always)]
    pub(crate) fn set_valid(&mut self, key: &[u8], value: &[u8]) -> Result<(), Error> {
        debug_assert!(check_key(key).is_ok() && check_value(value).is_ok());
        match self.position(key) {
            Some(at) if self.pairs[at].value().len() == value.len() => {
                // Same length: no allocation, nothing that can fail.
                self.pairs[at].value_mut().copy_from_slice(value);
                Ok(())
            }
            Some(at) => self.replace(at, key, value),
            None => self.insert(key, value),
        }
    }

    /// Gives the pair at `at` a value of another length.
    #[inline(never)]
    fn replace(&mut self, at: usize, key: &[u8], value: &[u8]) -> Result<(), Error> {
        self.pairs[at] = Pair::new(key, value)?;
        Ok(())
    }

    /// Adds a pair with a key that is not in the map.
    #[inline(never)]
    fn insert(&mut self, key: &[u8], value: &[u8]) -> Result<(), Error> {
        let pair = Pair::new(key, value)?;
        if self.pairs.len() == MAX_PAIRS {
            return Err(Error::NoMem);
        }
        // Reserve everything first, so that nothing can fail once the map starts to change.
        self.pairs.try_reserve(1)?;
        let new_len = self.pairs.len() + 1;
        if new_len > SCAN_LIMIT {
            self.index.reserve(new_len, Self::hash_at(&self.pairs))?;
        }
        self.pairs.push(pair);
        if new_len == SCAN_LIMIT + 1 {
            self.index_all();
        } else if new_len > SCAN_LIMIT {
            // Hashed again rather than kept from the lookup: this path allocates anyway, and the
            // lookup, shared with `get`, stays lean.
            self.index.insert(self.index.hash(key), new_len - 1);
        }
        debug_assert_eq!(self.index.len(), if self.is_indexed() { self.pairs.len() } else { 0 });
        Ok(())
    }

    /// Records every pair in the (empty) index. Room must already be reserved.
    fn index_all(&mut self) {
        for (at, pair) in self.pairs.iter().enumerate() {
            self.index.insert(hash_key(pair.key()), at);
        }
    }

    /// Removes the pair with this key; later keys move down by one.
    ///
    /// Errors: [`Error::InfoKey`] for an invalid key, [`Error::InfoNoKey`] when it is not there.
    pub fn delete(&mut self, key: &[u8]) -> Result<(), Error> {
        check_key(key)?;
        self.delete_valid(key)
    }

    /// [`InfoMap::delete`] for a key already known to pass [`check_key`].
    pub(crate) fn delete_valid(&mut self, key: &[u8]) -> Result<(), Error> {
        debug_assert!(check_key(key).is_ok());
        let at = self.position(key).ok_or(Error::InfoNoKey)?;
        if self.is_indexed() {
            let removed = self.index.remove(self.index.hash(key), at, Self::hash_at(&self.pairs));
            debug_assert!(removed);
            // The positions after `at` shift down by one: one pass over the index's slots.
            self.index.shift_down_after(at);
        }
        self.pairs.remove(at);
        if !self.is_indexed() {
            self.index.clear();
        }
        debug_assert_eq!(self.index.len(), if self.is_indexed() { self.pairs.len() } else { 0 });
        Ok(())
    }

    /// A deep copy, or [`Error::NoMem`].
    pub fn try_clone(&self) -> Result<Self, Error> {
        let mut pairs = Vec::new();
        pairs.try_reserve_exact(self.pairs.len())?;
        for p in &self.pairs {
            pairs.push(p.try_clone()?);
        }
        let index = self.index.try_clone(Self::hash_at(&self.pairs))?;
        Ok(InfoMap { pairs, index })
    }

    /// Whether `self` and `other` hold the same pairs (keys and values byte for byte): in the
    /// same order if `ordered`, in any order otherwise.
    pub fn equal(&self, other: &InfoMap, ordered: bool) -> bool {
        if self.len() != other.len() {
            return false;
        }
        if ordered {
            self.iter().eq(other.iter())
        } else {
            // Keys are unique and the counts equal, so each pair of `self` found in `other`
            // accounts for all of `other`.
            self.iter().all(|(key, value)| other.get(key) == Some(value))
        }
    }

    /// Sets every pair of `source` in `self`, as `MPI_Win_set_info` applies hints (seed 002):
    /// only the keys `source` names change. A key already in `self` keeps its position, and with
    /// `overwrite == false` also its value; new keys are appended in `source`'s order.
    ///
    /// Errors: [`Error::NoMem`]; then `self` is unchanged (the result is built in a copy, which
    /// replaces `self` only once it is complete).
    pub fn merge(&mut self, source: &InfoMap, overwrite: bool) -> Result<(), Error> {
        if !self.merge_changes(source, overwrite) {
            return Ok(());
        }
        let mut merged = self.try_clone()?;
        for (key, value) in source.iter() {
            if overwrite || merged.get(key).is_none() {
                merged.set_valid(key, value)?;
            }
        }
        *self = merged;
        Ok(())
    }

    /// Whether [`InfoMap::merge`] of `source` would change `self`.
    pub fn merge_changes(&self, source: &InfoMap, overwrite: bool) -> bool {
        source.iter().any(|(key, value)| match self.get(key) {
            None => true,
            Some(old) => overwrite && old != value,
        })
    }
}

impl std::fmt::Debug for InfoMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(k, v)| (String::from_utf8_lossy(k), String::from_utf8_lossy(v))))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn keys(m: &InfoMap) -> Vec<Vec<u8>> {
        (0..m.len()).map(|n| m.nth_key(n).unwrap().to_vec()).collect()
    }

    #[test]
    fn set_get_replace_keeps_position() {
        let mut m = InfoMap::new();
        m.set(b"a", b"1").unwrap();
        m.set(b"b", b"2").unwrap();
        m.set(b"a", b"3").unwrap();
        assert_eq!(m.get(b"a"), Some(&b"3"[..]));
        assert_eq!(keys(&m), vec![b"a".to_vec(), b"b".to_vec()]);
    }

    #[test]
    fn limits_are_exact() {
        let mut m = InfoMap::new();
        assert_eq!(m.set(&[b'k'; 255], b"v"), Ok(()));
        assert_eq!(m.set(&[b'k'; 256], b"v"), Err(Error::InfoKey));
        assert_eq!(m.set(b"", b"v"), Err(Error::InfoKey));
        assert_eq!(m.set(b"v", &[b'x'; 1023]), Ok(()));
        assert_eq!(m.set(b"v", &[b'x'; 1024]), Err(Error::InfoValue));
        assert_eq!(m.get(b"v").unwrap().len(), 1023);
        assert_eq!(m.set(b"e", b""), Ok(()));
        assert_eq!(m.get(b"e"), Some(&b""[..]));
        assert_eq!(m.set(b"a\0b", b"v"), Err(Error::InfoKey));
        assert_eq!(m.set(b"ab", b"v\0"), Err(Error::InfoValue));
        assert_eq!(m.len(), 3);
    }

    #[test]
    fn delete_shifts_and_reinsert_goes_last_across_the_index_threshold() {
        let mut m = InfoMap::new();
        let names: Vec<Vec<u8>> = (0..40).map(|i| format!("key{i}").into_bytes()).collect();
        for k in &names {
            m.set(k, k).unwrap();
        }
        assert_eq!(m.delete(b"key3"), Ok(()));
        assert_eq!(m.delete(b"key3"), Err(Error::InfoNoKey));
        assert_eq!(m.nth_key(3), Some(&b"key4"[..]));
        m.set(b"key3", b"again").unwrap();
        assert_eq!(m.nth_key(39), Some(&b"key3"[..]));
        for k in &names {
            assert!(m.get(k).is_some());
        }
        // Shrink below the scan limit and grow again: every key still found.
        for k in &names[10..] {
            m.delete(k).unwrap();
        }
        assert_eq!(m.len(), 10);
        for k in &names[10..20] {
            m.set(k, b"x").unwrap();
        }
        for k in &names[..20] {
            assert!(m.get(k).is_some(), "{}", String::from_utf8_lossy(k));
        }
    }

    #[test]
    fn thousands_of_keys_of_every_length() {
        // Lengths 1 to 255 and many keys of each short length, so the index grows through
        // several sizes and sees tags and home slots collide.
        let keys: Vec<Vec<u8>> = (0..5000u32)
            .map(|i| {
                let len = 1 + (i as usize * 7) % 255;
                let mut key = format!("{i:x}").into_bytes();
                key.resize(len.max(key.len()), b'.');
                key
            })
            .collect();
        let mut m = InfoMap::new();
        for (i, k) in keys.iter().enumerate() {
            m.set(k, i.to_string().as_bytes()).unwrap();
        }
        assert_eq!(m.len(), keys.len());
        for (i, k) in keys.iter().enumerate().step_by(3) {
            assert_eq!(m.delete(k), Ok(()), "{i}");
        }
        let kept: Vec<(usize, &Vec<u8>)> = keys.iter().enumerate().filter(|(i, _)| i % 3 != 0).collect();
        assert_eq!(m.len(), kept.len());
        for (n, (i, k)) in kept.iter().enumerate() {
            assert_eq!(m.nth_key(n), Some(&k[..]));
            assert_eq!(m.get(k), Some(i.to_string().as_bytes()));
        }
        for (i, k) in keys.iter().enumerate().step_by(3) {
            assert_eq!(m.get(k), None, "{i}");
            // The same bytes with one more or one less at the end are other keys.
            let mut longer = k.clone();
            longer.push(b'x');
            assert_eq!(m.get(&longer), None);
            if k.len() > 1 {
                let shorter = &k[..k.len() - 1];
                assert_eq!(m.get(shorter).is_some(), kept.iter().any(|(_, kept)| kept[..] == *shorter));
            }
        }
        let copy = m.try_clone().unwrap();
        for (i, k) in &kept {
            assert_eq!(copy.get(k), Some(i.to_string().as_bytes()));
        }
    }

    #[test]
    fn try_clone_is_deep() {
        let mut m = InfoMap::new();
        for i in 0..20 {
            m.set(format!("k{i}").as_bytes(), b"v").unwrap();
        }
        let mut c = m.try_clone().unwrap();
        c.set(b"k0", b"changed").unwrap();
        c.delete(b"k1").unwrap();
        assert_eq!(m.get(b"k0"), Some(&b"v"[..]));
        assert_eq!(m.len(), 20);
        assert_eq!(c.len(), 19);
        assert_eq!(c.get(b"k19"), Some(&b"v"[..]));
    }

    fn map_of(pairs: &[(&str, &str)]) -> InfoMap {
        let mut m = InfoMap::new();
        for (k, v) in pairs {
            m.set(k.as_bytes(), v.as_bytes()).unwrap();
        }
        m
    }

    #[test]
    fn merge_keeps_positions_and_appends_in_source_order() {
        let source = map_of(&[("c", "3"), ("a", "new"), ("d", "4")]);
        let mut keep = map_of(&[("a", "1"), ("b", "2")]);
        keep.merge(&source, false).unwrap();
        assert!(keep.equal(&map_of(&[("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")]), true));
        let mut replace = map_of(&[("a", "1"), ("b", "2")]);
        replace.merge(&source, true).unwrap();
        assert!(replace.equal(&map_of(&[("a", "new"), ("b", "2"), ("c", "3"), ("d", "4")]), true));
        // Across the index threshold, and with itself.
        let big: Vec<(String, String)> = (0..30).map(|i| (format!("k{i}"), format!("v{i}"))).collect();
        let big_refs: Vec<(&str, &str)> = big.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let mut grown = map_of(&big_refs[..5]);
        grown.merge(&map_of(&big_refs), true).unwrap();
        assert!(grown.equal(&map_of(&big_refs), true));
        let copy = grown.try_clone().unwrap();
        grown.merge(&copy, true).unwrap();
        assert!(grown.equal(&copy, true));
        assert!(!grown.merge_changes(&copy, true));
        assert!(grown.merge_changes(&map_of(&[("k0", "other")]), true));
        assert!(!grown.merge_changes(&map_of(&[("k0", "other")]), false));
    }

    #[test]
    fn equal_ordered_and_unordered() {
        let ab = map_of(&[("a", "1"), ("b", "2")]);
        let ba = map_of(&[("b", "2"), ("a", "1")]);
        assert!(ab.equal(&ba, false));
        assert!(!ab.equal(&ba, true));
        assert!(ab.equal(&ab, true));
        assert!(!ab.equal(&map_of(&[("a", "1"), ("b", "3")]), false));
        assert!(!ab.equal(&map_of(&[("a", "1")]), false));
        assert!(!ab.equal(&map_of(&[("a", "1"), ("c", "2")]), false));
        assert!(InfoMap::new().equal(&InfoMap::new(), true));
    }

    #[derive(Debug, Clone)]
    enum Op {
        Set(u8, Vec<u8>),
        Delete(u8),
        Clone,
    }

    fn key_of(k: u8) -> Vec<u8> {
        // A small key space, so sets replace and deletes hit; every class of key length the
        // hash and compare treat apart (1–3, 4–7, 8–16, 17–32, longer), up to the limit.
        if k % 7 == 0 {
            vec![b'L'; 250 + usize::from(k % 6)]
        } else if k % 5 == 0 {
            format!("mpi_assert_medium_{}", k % 40).into_bytes()
        } else if k % 11 == 0 {
            format!("{}", k % 30).into_bytes()
        } else if k % 13 == 0 {
            format!("{}_of_a_key_longer_than_thirty_two_bytes_{}", k % 20, k % 9).into_bytes()
        } else {
            format!("key{}", k % 40).into_bytes()
        }
    }

    proptest! {
        /// Random operation sequences against the simplest possible model: a Vec of pairs.
        #[test]
        fn behaves_like_a_vec_of_pairs(ops in proptest::collection::vec(
            prop_oneof![
                6 => (any::<u8>(), proptest::collection::vec(1u8..=255, 0..12)).prop_map(|(k, v)| Op::Set(k, v)),
                3 => any::<u8>().prop_map(Op::Delete),
                1 => Just(Op::Clone),
            ], 0..300)) {
            let mut m = InfoMap::new();
            let mut model: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            for op in ops {
                match op {
                    Op::Set(k, v) => {
                        let key = key_of(k);
                        m.set(&key, &v).unwrap();
                        match model.iter_mut().find(|(mk, _)| *mk == key) {
                            Some(p) => p.1 = v,
                            None => model.push((key, v)),
                        }
                    }
                    Op::Delete(k) => {
                        let key = key_of(k);
                        let expected = match model.iter().position(|(mk, _)| *mk == key) {
                            Some(at) => { model.remove(at); Ok(()) }
                            None => Err(Error::InfoNoKey),
                        };
                        prop_assert_eq!(m.delete(&key), expected);
                    }
                    Op::Clone => m = m.try_clone().unwrap(),
                }
                prop_assert_eq!(m.len(), model.len());
                for (n, (k, v)) in model.iter().enumerate() {
                    prop_assert_eq!(m.nth_key(n), Some(&k[..]));
                    prop_assert_eq!(m.get(k), Some(&v[..]));
                }
                prop_assert_eq!(m.nth_key(model.len()), None);
            }
            for k in 0..=255u8 {
                let key = key_of(k);
                let expected = model.iter().find(|(mk, _)| *mk == key).map(|(_, v)| &v[..]);
                prop_assert_eq!(m.get(&key), expected);
            }
        }
    }
}
