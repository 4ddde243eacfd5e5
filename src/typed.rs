//! Values with types: the standard's portable text for booleans, integers and lists
//! (docs/reference.md, "The MPIX_ toolkit"), read strictly and written canonically. Used by the
//! `MPIX_Info_get_*` and `MPIX_Info_set_*` functions; nothing here knows about handles or pointers.
//!
//! The rules, as the standard states them and as this module applies them:
//! - leading and trailing blanks (space and horizontal tab) around a value, and around each
//!   element of a list, are not part of it;
//! - a boolean is `true` or `false`, lowercase;
//! - an integer is decimal: an optional `+` or `-` directly before one or more ASCII digits,
//!   and nothing else (no blank after the sign, no `0x`, no other digits than `0`-`9`); a value
//!   outside the type's range is an error, never wrapped or clamped;
//! - a list is elements separated by commas; a value that is empty or all blanks is the empty
//!   list, and an element that is empty or all blanks (`a,,b`, `a,`, `,a`) is an error.
//!
//! Every error is [`Error::InfoValue`].

use crate::error::Error;

/// Whether `byte` is a blank: a space or a horizontal tab.
pub fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// `text` without its leading and trailing blanks.
pub fn strip(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|&b| !is_blank(b)).unwrap_or(text.len());
    let end = text.iter().rposition(|&b| !is_blank(b)).map_or(start, |last| last + 1);
    &text[start..end]
}

/// A boolean value: `true` or `false` (blanks around it ignored).
pub fn parse_bool(value: &[u8]) -> Result<bool, Error> {
    match strip(value) {
        b"true" => Ok(true),
        b"false" => Ok(false),
        _ => Err(Error::InfoValue),
    }
}

/// A decimal integer that fits an `i64` (blanks around it ignored).
pub fn parse_i64(value: &[u8]) -> Result<i64, Error> {
    let text = strip(value);
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Error::InfoValue);
    }
    let mut n: i64 = 0;
    for &digit in digits {
        let digit = i64::from(digit - b'0');
        // Accumulated towards the sign, so that i64::MIN, whose magnitude no i64 holds, parses.
        let next = n.checked_mul(10).and_then(|n| if negative { n.checked_sub(digit) } else { n.checked_add(digit) });
        n = next.ok_or(Error::InfoValue)?;
    }
    Ok(n)
}

/// A decimal integer that fits an `i32`, the C `int` (blanks around it ignored).
pub fn parse_i32(value: &[u8]) -> Result<i32, Error> {
    i32::try_from(parse_i64(value)?).map_err(|_| Error::InfoValue)
}

/// The position of the first of `choices` equal to the value (blanks around the value
/// ignored; the comparison is exact and case-sensitive). No choice equal: an error.
pub fn parse_enum<'c>(value: &[u8], choices: impl IntoIterator<Item = &'c [u8]>) -> Result<usize, Error> {
    let text = strip(value);
    choices.into_iter().position(|choice| choice == text).ok_or(Error::InfoValue)
}

/// The number of elements of a list value, once every element has been checked.
pub fn list_len(value: &[u8]) -> Result<usize, Error> {
    let text = strip(value);
    if text.is_empty() {
        return Ok(0);
    }
    let mut n = 0;
    for element in text.split(|&b| b == b',') {
        if strip(element).is_empty() {
            return Err(Error::InfoValue);
        }
        n += 1;
    }
    Ok(n)
}

/// The `n`-th element (0-based) of a list value, without its blanks; `None` when the list has
/// no more than `n` elements. The whole list is checked first, whatever `n` is.
pub fn list_item(value: &[u8], n: usize) -> Result<Option<&[u8]>, Error> {
    if n >= list_len(value)? {
        return Ok(None);
    }
    Ok(strip(value).split(|&b| b == b',').nth(n).map(strip))
}

/// The canonical text of a boolean.
pub fn bool_text(value: bool) -> &'static [u8] {
    if value {
        b"true"
    } else {
        b"false"
    }
}

/// The canonical text of an integer: its decimal digits, `-` first when it is negative, no
/// `+`, no leading zeros. At most 20 bytes (`-9223372036854775808`).
pub struct IntText {
    digits: [u8; 20],
    start: usize,
}

impl IntText {
    pub fn new(value: i64) -> Self {
        let mut text = IntText { digits: [0; 20], start: 20 };
        let mut magnitude = value.unsigned_abs();
        loop {
            text.start -= 1;
            text.digits[text.start] = b'0' + (magnitude % 10) as u8;
            magnitude /= 10;
            if magnitude == 0 {
                break;
            }
        }
        if value < 0 {
            text.start -= 1;
            text.digits[text.start] = b'-';
        }
        text
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.digits[self.start..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn strip_removes_spaces_and_tabs_only() {
        assert_eq!(strip(b" \t a b \t "), b"a b");
        assert_eq!(strip(b"   "), b"");
        assert_eq!(strip(b""), b"");
        assert_eq!(strip(b"\na\r"), b"\na\r");
    }

    #[test]
    fn booleans() {
        assert_eq!(parse_bool(b"true"), Ok(true));
        assert_eq!(parse_bool(b" false\t"), Ok(false));
        for bad in [&b"TRUE"[..], b"True", b"1", b"yes", b"", b"  ", b"t rue", b"true false", b"truex"] {
            assert_eq!(parse_bool(bad), Err(Error::InfoValue), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn integers_at_and_past_the_limits() {
        assert_eq!(parse_i64(b"9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_i64(b"-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_i64(b"9223372036854775808"), Err(Error::InfoValue));
        assert_eq!(parse_i64(b"-9223372036854775809"), Err(Error::InfoValue));
        assert_eq!(parse_i64(b"99999999999999999999999"), Err(Error::InfoValue));
        assert_eq!(parse_i32(b"2147483647"), Ok(i32::MAX));
        assert_eq!(parse_i32(b"-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_i32(b"2147483648"), Err(Error::InfoValue));
        assert_eq!(parse_i32(b"-2147483649"), Err(Error::InfoValue));
    }

    #[test]
    fn integer_syntax() {
        assert_eq!(parse_i64(b"+0"), Ok(0));
        assert_eq!(parse_i64(b"-0"), Ok(0));
        assert_eq!(parse_i64(b" 12 "), Ok(12));
        assert_eq!(parse_i64(b"\t-7"), Ok(-7));
        assert_eq!(parse_i64(b"007"), Ok(7));
        assert_eq!(parse_i64(b"0000000000000000000000000001"), Ok(1));
        let fullwidth_12 = "１２".as_bytes();
        for bad in
            [&b"+"[..], b"-", b"", b" ", b"1 2", b"0x10", b"- 1", b"+-1", b"--1", b"1.0", b"1e3", b"12a", fullwidth_12]
        {
            assert_eq!(parse_i64(bad), Err(Error::InfoValue), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn enums_are_exact_after_stripping_the_value() {
        let choices: [&[u8]; 3] = [b"enable", b"disable", b"automatic"];
        assert_eq!(parse_enum(b"disable", choices), Ok(1));
        assert_eq!(parse_enum(b" automatic ", choices), Ok(2));
        assert_eq!(parse_enum(b"Enable", choices), Err(Error::InfoValue));
        assert_eq!(parse_enum(b"enabled", choices), Err(Error::InfoValue));
        assert_eq!(parse_enum(b"x", [] as [&[u8]; 0]), Err(Error::InfoValue));
        // The first equal choice wins; an empty choice matches an empty value.
        assert_eq!(parse_enum(b"a", [&b"b"[..], b"a", b"a"]), Ok(1));
        assert_eq!(parse_enum(b"  ", [&b"x"[..], b""]), Ok(1));
    }

    #[test]
    fn lists() {
        assert_eq!(list_len(b"a, b ,c"), Ok(3));
        assert_eq!(list_item(b"a, b ,c", 1), Ok(Some(&b"b"[..])));
        assert_eq!(list_item(b" a b , c", 0), Ok(Some(&b"a b"[..])));
        assert_eq!(list_item(b"a,b", 2), Ok(None));
        assert_eq!(list_len(b""), Ok(0));
        assert_eq!(list_len(b"  "), Ok(0));
        assert_eq!(list_item(b"", 0), Ok(None));
        assert_eq!(list_len(b"single"), Ok(1));
        for bad in [&b"a,,b"[..], b"a,", b",a", b"a, ,b", b",", b" , "] {
            assert_eq!(list_len(bad), Err(Error::InfoValue), "{}", String::from_utf8_lossy(bad));
            assert_eq!(list_item(bad, 0), Err(Error::InfoValue));
        }
    }

    #[test]
    fn canonical_texts() {
        assert_eq!(bool_text(true), b"true");
        assert_eq!(bool_text(false), b"false");
        assert_eq!(IntText::new(0).as_bytes(), b"0");
        assert_eq!(IntText::new(-5).as_bytes(), b"-5");
        assert_eq!(IntText::new(i64::MAX).as_bytes(), b"9223372036854775807");
        assert_eq!(IntText::new(i64::MIN).as_bytes(), b"-9223372036854775808");
    }

    proptest! {
        #[test]
        fn integers_round_trip_and_match_the_standard_library(n in any::<i64>()) {
            let text = IntText::new(n);
            let expected = n.to_string();
            prop_assert_eq!(text.as_bytes(), expected.as_bytes());
            prop_assert_eq!(parse_i64(text.as_bytes()), Ok(n));
            prop_assert_eq!(parse_i32(text.as_bytes()).ok(), i32::try_from(n).ok());
        }

        #[test]
        fn integer_parsing_agrees_with_a_plain_model(text in "[ \t]{0,2}[+-]?[0-9]{0,21}[ \t]{0,2}") {
            let core = text.trim_matches(|c| c == ' ' || c == '\t');
            let digits = core.trim_start_matches(['+', '-']);
            let expected = if digits.is_empty() || core.len() - digits.len() > 1 { None } else { core.parse::<i64>().ok() };
            prop_assert_eq!(parse_i64(text.as_bytes()).ok(), expected);
        }
    }
}
