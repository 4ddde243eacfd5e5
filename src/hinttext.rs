//! Hint text: the two plain-text syntaxes layered I/O libraries read hints from, parsed strictly
//! (`MPIX_Info_set_from_string`, `MPIX_Info_set_from_file`).
//!
//! - [`Format::Lines`], the `ROMIO_HINTS` file: one `key value` entry per line, the key and the
//!   value separated by blanks (spaces or tabs), blanks around them ignored. A line that is empty
//!   or all blanks is skipped, and so is a line whose first non-blank character is `#` (a
//!   comment). The value is one word: a line with a key and no value, or with more than two
//!   words, is malformed.
//! - [`Format::Pairs`], the `PNETCDF_HINTS` variable: `key=value` entries separated by `;` (or
//!   by line ends), blanks around keys and values ignored; the value is everything after the
//!   first `=` and may be empty. An entry that is empty or all blanks is skipped; an entry
//!   without `=` is malformed.
//!
//! In both, lines end at LF, and a CR just before a line end (or at the end of the text) is
//! dropped, so CRLF text reads as LF text. Keys and values are byte strings with the usual limits
//! (`info::check_key`, `info::check_value`): there is no other limit on the length of a line or
//! of the text.
//!
//! Where ROMIO and PnetCDF skip a malformed entry silently, here it is an error: the key's class
//! ([`Error::InfoKey`]: empty, too long, holding a NUL) or the value's ([`Error::InfoValue`]:
//! missing, more than one word in `Lines`, too long, holding a NUL), the key checked first, and
//! the first malformed entry in the text decides.

use crate::error::Error;
use crate::info::{check_key, check_value, InfoMap};
use crate::typed::{is_blank, strip};

/// The syntax of a hint text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `ROMIO_HINTS`: one `key value` per line, `#` comment lines.
    Lines,
    /// `PNETCDF_HINTS`: `key=value;key=value`.
    Pairs,
}

/// The entries of `text` as an object: each entry set in turn, so a key given twice keeps the
/// position of its first entry and the value of its last. Every entry is checked before this
/// returns; on error nothing is returned.
pub fn parse(text: &[u8], format: Format) -> Result<InfoMap, Error> {
    let mut map = InfoMap::new();
    for located in entries(text, format) {
        let (key, value) = located.entry?;
        map.set(key, value)?;
    }
    Ok(map)
}

/// One entry of a hint text and where it is: `line` counts from 1, `column` is the byte
/// offset of the entry's first non-blank byte in its line, from 1. `entry` is the key and
/// value, or the class of the entry's first defect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<'t> {
    pub line: usize,
    pub column: usize,
    /// The entry's text, blanks around it removed.
    pub text: &'t [u8],
    pub entry: Result<(&'t [u8], &'t [u8]), Error>,
}

/// Every entry of `text` in order, malformed ones included (skipped lines and empty entries
/// are not entries).
pub fn entries(text: &[u8], format: Format) -> impl Iterator<Item = Located<'_>> {
    text.split(|&b| b == b'\n').enumerate().flat_map(move |(n, line)| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // A `Lines` line is one piece; `Pairs` entries end at `;` too. One iterator type for
        // both, not a boxed one per line: the C calls must not allocate where they cannot fail.
        let mut start = 0;
        let pieces = line.split(move |&b| format == Format::Pairs && b == b';').map(move |piece| {
            let at = start;
            start += piece.len() + 1;
            (at, piece)
        });
        pieces.filter_map(move |(at, piece)| {
            let entry = match format {
                Format::Lines => line_entry(piece).transpose()?,
                Format::Pairs => pair_entry(piece).transpose()?,
            };
            let lead = piece.iter().take_while(|&&b| is_blank(b)).count();
            Some(Located { line: n + 1, column: at + lead + 1, text: strip(piece), entry })
        })
    })
}

/// A key and its value, checked.
type Entry<'a> = (&'a [u8], &'a [u8]);

/// One line of [`Format::Lines`]: `None` for a blank or comment line.
fn line_entry(line: &[u8]) -> Result<Option<Entry<'_>>, Error> {
    let line = strip(line);
    if line.is_empty() || line[0] == b'#' {
        return Ok(None);
    }
    let key_end = line.iter().position(|&b| is_blank(b)).unwrap_or(line.len());
    let (key, rest) = line.split_at(key_end);
    let value = strip(rest);
    check_key(key)?;
    if value.is_empty() || value.iter().any(|&b| is_blank(b)) {
        return Err(Error::InfoValue);
    }
    check_value(value)?;
    Ok(Some((key, value)))
}

/// One entry of [`Format::Pairs`]: `None` for an empty one.
fn pair_entry(entry: &[u8]) -> Result<Option<Entry<'_>>, Error> {
    if strip(entry).is_empty() {
        return Ok(None);
    }
    let equals = entry.iter().position(|&b| b == b'=').ok_or(Error::InfoValue)?;
    let key = strip(&entry[..equals]);
    let value = strip(&entry[equals + 1..]);
    check_key(key)?;
    check_value(value)?;
    Ok(Some((key, value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(map: &InfoMap) -> Vec<(String, String)> {
        map.iter()
            .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), String::from_utf8_lossy(v).into_owned()))
            .collect()
    }

    fn ok(text: &str, format: Format) -> Vec<(String, String)> {
        pairs(&parse(text.as_bytes(), format).expect(text))
    }

    fn kv(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn lines_with_comments_blanks_tabs_and_crlf() {
        let text = "# system hints\r\n\r\ncb_buffer_size 16777216\r\n  \t\n\tromio_cb_write\t\tenable  \n   # indented comment\nstriping_unit 65536";
        assert_eq!(
            ok(text, Format::Lines),
            kv(&[("cb_buffer_size", "16777216"), ("romio_cb_write", "enable"), ("striping_unit", "65536")])
        );
        assert_eq!(ok("", Format::Lines), kv(&[]));
        assert_eq!(ok("a 1\na 2\nb 3\n", Format::Lines), kv(&[("a", "2"), ("b", "3")]));
        // A CR elsewhere than before a line end is part of the word.
        assert_eq!(ok("a x\ry\r", Format::Lines), kv(&[("a", "x\ry")]));
    }

    #[test]
    fn pairs_with_blanks_empty_entries_and_line_ends() {
        assert_eq!(
            ok(" cb_nodes = 4 ;romio_ds_read=disable;; \t;empty=;eq=a=b\r\nnext=1\n", Format::Pairs),
            kv(&[("cb_nodes", "4"), ("romio_ds_read", "disable"), ("empty", ""), ("eq", "a=b"), ("next", "1")])
        );
        assert_eq!(
            ok("key with blanks = value with blanks", Format::Pairs),
            kv(&[("key with blanks", "value with blanks")])
        );
        assert_eq!(ok("", Format::Pairs), kv(&[]));
        assert_eq!(ok("# not a comment=1", Format::Pairs), kv(&[("# not a comment", "1")]));
    }

    #[test]
    fn malformed_entries() {
        let long_key = "k".repeat(256);
        let long_value = "v".repeat(1024);
        for (format, text, class) in [
            (Format::Lines, "a 1\nkey_without_value\nb 2\n".to_string(), Error::InfoValue),
            (Format::Lines, "a 1\nthree words here\n".to_string(), Error::InfoValue),
            (Format::Lines, "a 1 # trailing comment\n".to_string(), Error::InfoValue),
            (Format::Lines, format!("{long_key} v\n"), Error::InfoKey),
            (Format::Lines, format!("k {long_value}\n"), Error::InfoValue),
            // The key is checked first.
            (Format::Lines, format!("{long_key}\n"), Error::InfoKey),
            (Format::Lines, "k\0ey v".to_string(), Error::InfoKey),
            (Format::Lines, "key v\0".to_string(), Error::InfoValue),
            (Format::Pairs, "a=1;no_equals;b=2".to_string(), Error::InfoValue),
            (Format::Pairs, "a=1; =2".to_string(), Error::InfoKey),
            (Format::Pairs, "=".to_string(), Error::InfoKey),
            (Format::Pairs, format!("{long_key}=v"), Error::InfoKey),
            (Format::Pairs, format!("k={long_value}"), Error::InfoValue),
        ] {
            assert_eq!(parse(text.as_bytes(), format).err(), Some(class), "{format:?} {text:?}");
        }
        let longest = format!("{} {}", "k".repeat(255), "v".repeat(1023));
        assert!(parse(longest.as_bytes(), Format::Lines).is_ok());
    }
}
