//! Text helpers of the checker: messages formatted without allocating, strings copied with
//! allocations that can fail, user text quoted safely, and the edit distance behind "did you
//! mean".

use std::fmt;

use crate::error::Error;
use crate::info::MAX_VALUE_LEN;

/// A message being formatted, in a fixed buffer of `N` bytes: formatting allocates nothing,
/// and text past the buffer's end is dropped at a character boundary. Its size is the longest
/// value unless said otherwise, so any message fits a diagnostics object's value.
pub(crate) struct MessageBuf<const N: usize = MAX_VALUE_LEN> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> MessageBuf<N> {
    pub(crate) const fn new() -> Self {
        MessageBuf { bytes: [0; N], len: 0 }
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only whole characters of `&str`s are ever copied in.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl<const N: usize> fmt::Write for MessageBuf<N> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let room = self.bytes.len() - self.len;
        let mut take = text.len().min(room);
        while !text.is_char_boundary(take) {
            take -= 1;
        }
        self.bytes[self.len..self.len + take].copy_from_slice(&text.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// A copy of `text`, or `NoMem`.
pub(crate) fn try_string(text: &str) -> Result<String, Error> {
    let mut copy = String::new();
    copy.try_reserve_exact(text.len())?;
    copy.push_str(text);
    Ok(copy)
}

/// `text` as UTF-8, each invalid sequence replaced by U+FFFD (as `String::from_utf8_lossy`
/// does), or `NoMem`.
pub(crate) fn try_lossy(text: &[u8]) -> Result<String, Error> {
    let mut out = String::new();
    out.try_reserve(text.len())?;
    for chunk in text.utf8_chunks() {
        out.try_reserve(chunk.valid().len() + 3)?;
        out.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.push(char::REPLACEMENT_CHARACTER);
        }
    }
    Ok(out)
}

/// Formats into a new `String` through a [`MessageBuf`]: at most `MAX_VALUE_LEN` bytes.
pub(crate) fn try_format(args: fmt::Arguments<'_>) -> Result<String, Error> {
    let mut buf: MessageBuf = MessageBuf::new();
    let _ = fmt::Write::write_fmt(&mut buf, args);
    try_string(buf.as_str())
}

/// User text (a key or a value) shown in a message: escaped as [`Escaped`] escapes it, and cut
/// after [`Quoted::SHOWN`] characters with an ellipsis.
pub struct Quoted<'a>(pub &'a [u8]);

impl Quoted<'_> {
    const SHOWN: usize = 60;
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        escape(self.0, Some(Self::SHOWN), f)
    }
}

/// Text for a terminal, whole: a path, a name, a vocabulary's text. The one escaping rule of
/// every text output (docs/hints.md): each character [`shown_escaped`] as Rust escapes it
/// (`\n`, `\t`, `\r`, `\u{1b}`, `\u{202e}`), each byte that is not UTF-8 as `\xNN`; nothing
/// is cut.
pub struct Escaped<'a>(pub &'a [u8]);

/// The characters no text output writes raw: the controls (C0, DEL, C1), which move the cursor,
/// ring or start escape sequences; and the bidirectional formatting characters (U+061C,
/// U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which make a terminal show the text
/// around them in another order than it is, so that a key could look like another.
pub fn shown_escaped(ch: char) -> bool {
    ch.is_control()
        || matches!(ch, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        escape(self.0, None, f)
    }
}

/// Writes `text` escaped, cut with "..." after `limit` characters if one is given.
fn escape(text: &[u8], limit: Option<usize>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut shown = 0;
    let mut room = || {
        shown += 1;
        limit.map_or(true, |limit| shown <= limit)
    };
    for chunk in text.utf8_chunks() {
        let valid = chunk.valid();
        // Runs of printable characters are written whole.
        let mut start = 0;
        for (at, ch) in valid.char_indices() {
            if !room() {
                f.write_str(&valid[start..at])?;
                return f.write_str("...");
            }
            if shown_escaped(ch) {
                f.write_str(&valid[start..at])?;
                write!(f, "{}", ch.escape_default())?;
                start = at + ch.len_utf8();
            }
        }
        f.write_str(&valid[start..])?;
        for byte in chunk.invalid() {
            if !room() {
                return f.write_str("...");
            }
            write!(f, "\\x{byte:02x}")?;
        }
    }
    Ok(())
}

/// Text as a JSON string, quotes included: valid UTF-8 kept exactly (but for the escapes JSON
/// requires: `"`, `\\` and the C0 controls; DEL too), and each byte that is not UTF-8 written
/// as the lone surrogate `\udcNN` (NN the byte in hex, from 80 to ff), as Python's
/// `surrogateescape` does: `json.loads` then `os.fsencode` give the bytes back, and valid UTF-8
/// never reads as a lone surrogate, so nothing is ambiguous (docs/hints.md).
pub struct JsonText<'a>(pub &'a [u8]);

impl fmt::Display for JsonText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for chunk in self.0.utf8_chunks() {
            let valid = chunk.valid();
            let mut start = 0;
            for (at, byte) in valid.bytes().enumerate() {
                let escaped = match byte {
                    b'"' => "\\\"",
                    b'\\' => "\\\\",
                    b'\n' => "\\n",
                    b'\r' => "\\r",
                    b'\t' => "\\t",
                    0..=0x1f | 0x7f => "",
                    _ => continue,
                };
                f.write_str(&valid[start..at])?;
                if escaped.is_empty() {
                    write!(f, "\\u{byte:04x}")?;
                } else {
                    f.write_str(escaped)?;
                }
                start = at + 1;
            }
            f.write_str(&valid[start..])?;
            for byte in chunk.invalid() {
                write!(f, "\\udc{byte:02x}")?;
            }
        }
        f.write_str("\"")
    }
}

/// The edit distance between two byte strings without regard to ASCII case, counting an
/// insertion, a deletion, a substitution and a swap of two neighbours as one edit each (the
/// "optimal string alignment" distance), or `None` when it is above `limit`. Keys are at most
/// 255 bytes, so the three rows live on the stack.
pub(crate) fn distance(a: &[u8], b: &[u8], limit: usize) -> Option<usize> {
    const ROW: usize = crate::info::MAX_KEY_LEN + 1;
    if a.len() >= ROW || b.len() >= ROW || a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let same = |x: u8, y: u8| x.eq_ignore_ascii_case(&y);
    // Three rows of the table, used in turn: the one before the previous, the previous and
    // the current (row i - 2, i - 1 and i), each cell at most 255.
    let mut rows = [[0u8; ROW]; 3];
    for (j, cell) in rows[1].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j as u8;
    }
    let (mut before, mut previous, mut current) = (0, 1, 2);
    for i in 1..=a.len() {
        rows[current][0] = i as u8;
        let mut row_min = i;
        for j in 1..=b.len() {
            let cost = u8::from(!same(a[i - 1], b[j - 1]));
            let mut d = (rows[previous][j] + 1).min(rows[current][j - 1] + 1).min(rows[previous][j - 1] + cost);
            if i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) {
                d = d.min(rows[before][j - 2] + 1);
            }
            rows[current][j] = d;
            row_min = row_min.min(usize::from(d));
        }
        if row_min > limit {
            return None;
        }
        (before, previous, current) = (previous, current, before);
    }
    Some(usize::from(rows[previous][b.len()])).filter(|&d| d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    #[test]
    fn distances() {
        assert_eq!(distance(b"cb_buffer_size", b"cb_buffer_size", 3), Some(0));
        assert_eq!(distance(b"CB_BUFFER_SIZE", b"cb_buffer_size", 3), Some(0));
        assert_eq!(distance(b"cb_bufer_size", b"cb_buffer_size", 3), Some(1));
        assert_eq!(distance(b"cb_bfufer_size", b"cb_buffer_size", 3), Some(1), "a swap is one edit");
        assert_eq!(distance(b"striping_fator", b"striping_factor", 3), Some(1));
        assert_eq!(distance(b"romio_cb_wrte", b"romio_cb_write", 3), Some(1));
        assert_eq!(distance(b"abc", b"xyz", 3), Some(3));
        assert_eq!(distance(b"abc", b"xyz", 2), None);
        assert_eq!(distance(b"", b"abc", 3), Some(3));
        assert_eq!(distance(b"a", b"abcdef", 3), None);
    }

    #[test]
    fn messages_are_cut_at_a_character_boundary() {
        let mut buf: MessageBuf = MessageBuf::new();
        for _ in 0..2000 {
            buf.write_str("é").unwrap();
        }
        assert_eq!(buf.as_str().len(), MAX_VALUE_LEN - 1);
        assert!(buf.as_str().chars().all(|c| c == 'é'));
    }

    #[test]
    fn lossy_copies_replace_what_is_not_utf8() {
        for text in [&b"plain"[..], b"caf\xc3\xa9", b"a\xffb\xc3", b""] {
            assert_eq!(try_lossy(text).unwrap(), String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn quoting_escapes_and_cuts() {
        assert_eq!(Quoted(b"a\tb\xffc").to_string(), "a\\tb\\xffc");
        let long = "x".repeat(100);
        assert_eq!(Quoted(long.as_bytes()).to_string(), format!("{}...", "x".repeat(60)));
        let long = "\u{7}".repeat(100);
        assert_eq!(Quoted(long.as_bytes()).to_string(), format!("{}...", "\\u{7}".repeat(60)));
    }

    #[test]
    fn escaping_never_cuts_and_leaves_printable_text_alone() {
        let long = format!("/tmp/{}/h\u{1b}[31mints\n\u{9b}é", "d".repeat(300));
        let shown = Escaped(long.as_bytes()).to_string();
        assert_eq!(shown, format!("/tmp/{}/h\\u{{1b}}[31mints\\n\\u{{9b}}é", "d".repeat(300)));
        assert_eq!(Escaped(b"a\x07b\x7f\xff\xc3").to_string(), "a\\u{7}b\\u{7f}\\xff\\xc3");
        assert!(!Escaped(b"\x1b\x07\n\r\x9b").to_string().bytes().any(|b| b.is_ascii_control()));
        // A right-to-left override makes a terminal show what follows it reversed.
        assert_eq!(
            Escaped("a\u{202e}b\u{2066}c\u{200f}\u{61c}".as_bytes()).to_string(),
            "a\\u{202e}b\\u{2066}c\\u{200f}\\u{61c}"
        );
        assert_eq!(Quoted("\u{202d}x".as_bytes()).to_string(), "\\u{202d}x");
        // Neighbours of the ranges, and other scripts, are shown as they are.
        assert_eq!(
            Escaped("\u{2029}\u{2065}\u{206a}\u{200d}é".as_bytes()).to_string(),
            "\u{2029}\u{2065}\u{206a}\u{200d}é"
        );
    }

    #[test]
    fn json_text_keeps_utf8_and_escapes_bytes_as_surrogates() {
        assert_eq!(JsonText(b"plain \xc3\xa9").to_string(), "\"plain \u{e9}\"");
        assert_eq!(JsonText(b"q\"b\\n\n\x01\x7f").to_string(), "\"q\\\"b\\\\n\\n\\u0001\\u007f\"");
        assert_eq!(JsonText(b"a\xffb\xc3").to_string(), "\"a\\udcffb\\udcc3\"");
    }
}
