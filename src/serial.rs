//! The serialized form of an info object (`MPIX_Info_serialize`, `MPIX_Info_deserialize`), for
//! broadcasting a hint set or handing it to a spawned process.
//!
//! Version 1, byte by byte (every integer is an unsigned 32-bit big-endian number, so the bytes
//! do not depend on the machine's byte order or word size):
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 4 | the magic bytes `M` `P` `I` `I` (0x4D 0x50 0x49 0x49) |
//! | 4 | 4 | the format version, 1 |
//! | 8 | 4 | the number of pairs, `n` |
//! | 12 | ... | `n` pairs in the object's order, each: key length `k` (4 bytes), the `k` key bytes, value length `v` (4 bytes), the `v` value bytes |
//!
//! No NUL is stored, nothing else and no padding: the same pairs in the same order always give
//! the same bytes, and the size is 12 + the sum over the pairs of 8 + `k` + `v`.
//!
//! [`deserialize`] accepts exactly these bytes and nothing else. It checks, in this order, the
//! first failed check deciding the error: at least 12 bytes, the magic, the version, `n` no more
//! than the bytes left divided by 9 (the smallest pair); then each pair in turn: its key length
//! field present, the key length at most 255, the key bytes present, the key valid (not empty,
//! no NUL), not a key seen before, its value length field present, the value length at most 1023,
//! the value bytes present, no NUL in the value; finally, no byte left over. A key that breaks
//! the key rules is [`Error::InfoKey`], a value that breaks the value rules [`Error::InfoValue`],
//! everything else (too short, wrong magic or version, a length past the end, a duplicate key,
//! trailing bytes) [`Error::Arg`].

use crate::error::Error;
use crate::info::{check_key, check_value, InfoMap, MAX_KEY_LEN, MAX_VALUE_LEN};

/// The first four bytes.
pub const MAGIC: [u8; 4] = *b"MPII";
/// The format version this library writes and reads.
pub const VERSION: u32 = 1;
/// Magic, version and pair count.
const HEADER_LEN: usize = 12;
/// The smallest pair: two length fields and a one-byte key.
const MIN_PAIR_LEN: usize = 9;

/// The size of the serialization of `map`, in bytes.
pub fn serialized_len(map: &InfoMap) -> usize {
    HEADER_LEN + map.iter().map(|(key, value)| 8 + key.len() + value.len()).sum::<usize>()
}

/// Gives the serialization of `map` to `emit`, piece by piece, in order.
pub fn emit_pieces(map: &InfoMap, mut emit: impl FnMut(&[u8])) {
    emit(&MAGIC);
    emit(&VERSION.to_be_bytes());
    emit(&length(map.len()));
    for (key, value) in map.iter() {
        emit(&length(key.len()));
        emit(key);
        emit(&length(value.len()));
        emit(value);
    }
}

/// A count or length as its 4 bytes. Every one fits: lengths are at most 1023 and an object
/// holds at most `i32::MAX` pairs (`info::MAX_PAIRS`).
fn length(n: usize) -> [u8; 4] {
    debug_assert!(u32::try_from(n).is_ok());
    (n as u32).to_be_bytes()
}

/// The serialization of `map`, or [`Error::NoMem`].
pub fn serialize(map: &InfoMap) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    out.try_reserve_exact(serialized_len(map))?;
    emit_pieces(map, |piece| out.extend_from_slice(piece));
    Ok(out)
}

/// The object `bytes` is the serialization of; every byte is checked (see the module's
/// documentation for the order and the error classes). Out of memory: [`Error::NoMem`].
pub fn deserialize(bytes: &[u8]) -> Result<InfoMap, Error> {
    let mut input = Input(bytes);
    let header = input.take(HEADER_LEN).ok_or(Error::Arg)?;
    if header[..4] != MAGIC || be32(&header[4..8]) != VERSION {
        return Err(Error::Arg);
    }
    let count = be32(&header[8..12]) as usize;
    if count > input.0.len() / MIN_PAIR_LEN {
        return Err(Error::Arg);
    }
    let mut map = InfoMap::new();
    for _ in 0..count {
        let key = input.field(MAX_KEY_LEN, Error::InfoKey)?;
        check_key(key)?;
        if map.get(key).is_some() {
            return Err(Error::Arg);
        }
        let value = input.field(MAX_VALUE_LEN, Error::InfoValue)?;
        check_value(value)?;
        map.set(key, value)?;
    }
    if !input.0.is_empty() {
        return Err(Error::Arg);
    }
    Ok(map)
}

fn be32(bytes: &[u8]) -> u32 {
    u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// The bytes not yet read.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    /// The next `n` bytes, if there are that many.
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(taken)
    }

    /// A length field and the bytes it counts: [`Error::Arg`] when either is cut short,
    /// `too_long` when the length is above `limit`.
    fn field(&mut self, limit: usize, too_long: Error) -> Result<&'a [u8], Error> {
        let len = be32(self.take(4).ok_or(Error::Arg)?) as usize;
        if len > limit {
            return Err(too_long);
        }
        self.take(len).ok_or(Error::Arg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn map_of(pairs: &[(&[u8], &[u8])]) -> InfoMap {
        let mut map = InfoMap::new();
        for (k, v) in pairs {
            map.set(k, v).unwrap();
        }
        map
    }

    #[test]
    fn the_bytes_of_a_small_object() {
        let map = map_of(&[(b"ab", b"xyz"), (b"k", b"")]);
        let bytes = serialize(&map).unwrap();
        let expected: Vec<u8> = [
            &b"MPII"[..],
            &[0, 0, 0, 1],
            &[0, 0, 0, 2],
            &[0, 0, 0, 2],
            b"ab",
            &[0, 0, 0, 3],
            b"xyz",
            &[0, 0, 0, 1],
            b"k",
            &[0, 0, 0, 0],
        ]
        .concat();
        assert_eq!(bytes, expected);
        assert_eq!(serialized_len(&map), expected.len());
        assert_eq!(serialize(&InfoMap::new()).unwrap(), b"MPII\0\0\0\x01\0\0\0\0");
        let back = deserialize(&bytes).unwrap();
        assert!(back.equal(&map, true));
    }

    #[test]
    fn every_defect_has_its_class() {
        let good = serialize(&map_of(&[(b"ab", b"xyz")])).unwrap();
        let with = |at: usize, bytes: &[u8]| {
            let mut b = good.clone();
            b[at..at + bytes.len()].copy_from_slice(bytes);
            b
        };
        let cases: Vec<(Vec<u8>, Error)> = vec![
            (vec![], Error::Arg),
            (good[..11].to_vec(), Error::Arg),
            (with(0, b"MPIX"), Error::Arg),
            (with(4, &[0, 0, 0, 2]), Error::Arg),
            (with(4, &[1, 0, 0, 1]), Error::Arg),
            // One pair announced, but the bytes left could not hold two.
            (with(8, &[0, 0, 0, 2]), Error::Arg),
            (with(8, &[0xff, 0xff, 0xff, 0xff]), Error::Arg),
            (with(12, &[0, 0, 1, 0]), Error::InfoKey), // key length 256
            (with(12, &[0, 0, 0, 0]), Error::InfoKey), // empty key
            (with(12, &[0, 0, 0, 0xff]), Error::Arg),  // past the end
            (with(16, b"\0"), Error::InfoKey),
            (with(18, &[0, 0, 4, 0]), Error::InfoValue), // value length 1024
            (with(18, &[0, 0, 0, 4]), Error::Arg),
            (with(23, b"\0"), Error::InfoValue),
            ([&good[..], b"x"].concat(), Error::Arg),
            (good[..good.len() - 1].to_vec(), Error::Arg),
        ];
        for (bytes, class) in cases {
            assert_eq!(deserialize(&bytes).err(), Some(class), "{bytes:?}");
        }
        assert!(deserialize(&good).is_ok());
        // A duplicate key, with the pair count and lengths all right.
        let mut dup = good.clone();
        dup[11] = 2;
        dup.extend_from_slice(&good[12..]);
        assert_eq!(deserialize(&dup).err(), Some(Error::Arg));
    }

    #[test]
    fn limits_are_exact() {
        let long_key = vec![b'k'; 255];
        let long_value = vec![0xffu8; 1023];
        let map = map_of(&[(&long_key, &long_value)]);
        let bytes = serialize(&map).unwrap();
        assert_eq!(bytes.len(), 12 + 8 + 255 + 1023);
        assert!(deserialize(&bytes).unwrap().equal(&map, true));
    }

    fn pairs_strategy() -> impl Strategy<Value = Vec<(Vec<u8>, Vec<u8>)>> {
        let key =
            prop_oneof![proptest::collection::vec(1u8..=255, 1..8), proptest::collection::vec(1u8..=255, 250..=255),];
        let value = prop_oneof![
            proptest::collection::vec(1u8..=255, 0..12),
            proptest::collection::vec(1u8..=255, 1020..=1023),
        ];
        proptest::collection::vec((key, value), 0..40)
    }

    proptest! {
        /// serialize -> deserialize gives the same pairs in the same order, and serializing
        /// that again the same bytes; equal objects give equal bytes.
        #[test]
        fn round_trip(pairs in pairs_strategy()) {
            let mut map = InfoMap::new();
            for (k, v) in &pairs {
                map.set(k, v).unwrap();
            }
            let bytes = serialize(&map).unwrap();
            prop_assert_eq!(bytes.len(), serialized_len(&map));
            let back = deserialize(&bytes).unwrap();
            prop_assert!(back.equal(&map, true));
            prop_assert_eq!(back.iter().collect::<Vec<_>>(), map.iter().collect::<Vec<_>>());
            prop_assert_eq!(serialize(&back).unwrap(), bytes.clone());
            prop_assert_eq!(serialize(&map.try_clone().unwrap()).unwrap(), bytes.clone());
            // Every strict prefix is refused.
            for cut in [0, 1, 11, bytes.len() / 2, bytes.len() - 1] {
                if cut < bytes.len() {
                    prop_assert!(deserialize(&bytes[..cut]).is_err());
                }
            }
        }

        /// Whatever the bytes, deserialize never panics, and what it accepts serializes back to
        /// exactly those bytes.
        #[test]
        fn hostile_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64), magic in any::<bool>()) {
            let mut bytes = bytes;
            if magic && bytes.len() >= 8 {
                bytes[..8].copy_from_slice(b"MPII\0\0\0\x01");
            }
            if let Ok(map) = deserialize(&bytes) {
                prop_assert_eq!(serialize(&map).unwrap(), bytes);
            }
        }
    }
}
