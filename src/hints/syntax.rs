//! The hint texts an implementation reads from the environment (a `ROMIO_HINTS` file,
//! `PNETCDF_HINTS`, `MPICH_MPIIO_HINTS`, `key=value` lines), split into entries with their
//! places the way each reader splits them. Every line is accounted for: an entry, a line every
//! reader skips (empty, a comment), or a malformed line, which is reported, never skipped in
//! silence. `mpi-info-lint` and `libmpi_info_hintcheck` read the environment with these
//! ([`super::textcheck`] checks what they find).

use crate::error::Error;
use crate::hinttext::{self, Format};

/// A syntax of hint text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// ROMIO_HINTS file: `key value` per line, `#` comments in the first column.
    Romio,
    /// `key=value` per line, `#` comment lines.
    Kv,
    /// PNETCDF_HINTS: `key=value;key=value`.
    Pnetcdf,
    /// MPICH_MPIIO_HINTS: `pattern:key=value:key=value`, groups separated by `,`.
    Cray,
}

impl Syntax {
    /// The name the vocabulary's `syntaxes` use.
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Romio => "romio",
            Syntax::Kv => "kv",
            Syntax::Pnetcdf => "pnetcdf",
            Syntax::Cray => "cray",
        }
    }
}

/// One entry or one malformed line.
#[derive(Debug, PartialEq, Eq)]
pub enum Item<'t> {
    /// `scope`: the entries a reader reads together (`MPICH_MPIIO_HINTS`: one pattern group, of
    /// which one applies to a file; every other syntax: the whole text).
    Pair {
        line: usize,
        column: usize,
        scope: usize,
        key: &'t [u8],
        value: &'t [u8],
    },
    Malformed {
        line: usize,
        column: usize,
        message: String,
    },
}

/// Every item of `text`, in order.
pub fn items(text: &[u8], syntax: Syntax) -> Vec<Item<'_>> {
    let mut items = Vec::new();
    match syntax {
        Syntax::Romio | Syntax::Pnetcdf | Syntax::Kv | Syntax::Cray if text.starts_with(BOM) => {
            items.push(Item::Malformed {
                line: 1,
                column: 1,
                message: "a UTF-8 byte-order mark: no reader of hints skips it, so it becomes part of the first key; save the file without it".into(),
            });
            // Columns count bytes from the line's start, the mark's three included.
            items.extend(self::items(&text[BOM.len()..], syntax).into_iter().map(|mut item| {
                match &mut item {
                    Item::Pair { line: 1, column, .. } | Item::Malformed { line: 1, column, .. } => {
                        *column += BOM.len();
                    }
                    _ => {}
                }
                item
            }));
            return items;
        }
        Syntax::Romio => {
            for located in hinttext::entries(text, Format::Lines) {
                items.push(from_located(located, syntax));
            }
            romio_extras(text, &mut items);
        }
        Syntax::Pnetcdf => {
            for located in hinttext::entries(text, Format::Pairs) {
                items.push(from_located(located, syntax));
            }
        }
        Syntax::Kv => {
            for (n, line) in lines(text) {
                let lead = line.iter().take_while(|b| is_blank(**b)).count();
                let body = trim(line);
                if body.is_empty() || body[0] == b'#' {
                    continue;
                }
                items.push(match body.iter().position(|&b| b == b'=') {
                    Some(eq) => pair_or_malformed(n, lead + 1, trim(&body[..eq]), trim(&body[eq + 1..]), syntax),
                    None => malformed(n, lead + 1, "no '=' between a key and a value", body, syntax),
                });
            }
        }
        Syntax::Cray => {
            let mut scope = 0;
            for (n, line) in lines(text) {
                let mut at = 0;
                for group in line.split(|&b| b == b',') {
                    scope += 1;
                    let first = items.len();
                    cray_group(n, at, group, &mut items);
                    for item in &mut items[first..] {
                        if let Item::Pair { scope: of, .. } = item {
                            *of = scope;
                        }
                    }
                    at += group.len() + 1;
                }
            }
        }
    }
    items.sort_by_key(|item| match item {
        Item::Pair { line, column, .. } | Item::Malformed { line, column, .. } => (*line, *column),
    });
    items
}

/// The UTF-8 encoding of U+FEFF, which some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The lines of a text, numbered from 1, without their line ends (LF, or CR LF).
fn lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    text.split(|&b| b == b'\n').enumerate().map(|(n, line)| (n + 1, line.strip_suffix(b"\r").unwrap_or(line)))
}

fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

fn trim(text: &[u8]) -> &[u8] {
    crate::typed::strip(text)
}

/// A `pattern:key=value:...` group of MPICH_MPIIO_HINTS starting at byte `at` of line `n`.
fn cray_group<'t>(n: usize, at: usize, group: &'t [u8], items: &mut Vec<Item<'t>>) {
    if trim(group).is_empty() {
        return;
    }
    let mut parts = group.split(|&b| b == b':');
    let pattern = parts.next().unwrap_or_default();
    let lead = group.iter().take_while(|b| is_blank(**b)).count();
    let mut column = at + pattern.len() + 2;
    if trim(pattern).is_empty() || !group.contains(&b':') {
        items.push(malformed(
            n,
            at + lead + 1,
            "a group without a file-name pattern before its first ':'",
            trim(group),
            Syntax::Cray,
        ));
        return;
    }
    for part in parts {
        let part_lead = part.iter().take_while(|b| is_blank(**b)).count();
        let body = trim(part);
        items.push(match body.iter().position(|&b| b == b'=') {
            Some(eq) => {
                pair_or_malformed(n, column + part_lead, trim(&body[..eq]), trim(&body[eq + 1..]), Syntax::Cray)
            }
            None => {
                malformed(n, column + part_lead, "a hint without '=' between its key and value", body, Syntax::Cray)
            }
        });
        column += part.len() + 1;
    }
}

fn pair_or_malformed<'t>(line: usize, column: usize, key: &'t [u8], value: &'t [u8], syntax: Syntax) -> Item<'t> {
    if key.is_empty() {
        return malformed(line, column, "an empty key", key, syntax);
    }
    if key.len() > crate::info::MAX_KEY_LEN {
        return malformed(line, column, "a key longer than 255 characters, which no MPI takes", key, syntax);
    }
    if value.len() > crate::info::MAX_VALUE_LEN {
        return malformed(line, column, "a value longer than 1023 characters", key, syntax);
    }
    Item::Pair { line, column, scope: 0, key, value }
}

/// A `Located` entry of the library's hint-text reader as an item, its error explained.
fn from_located(located: hinttext::Located<'_>, syntax: Syntax) -> Item<'_> {
    let (line, column, text) = (located.line, located.column, located.text);
    match located.entry {
        Ok((key, value)) if syntax == Syntax::Pnetcdf => match pnetcdf_defect(text, value) {
            Some(what) => {
                Item::Malformed { line, column, message: format!("malformed entry for --syntax pnetcdf: {what}") }
            }
            None => Item::Pair { line, column, scope: 0, key, value },
        },
        Ok((key, value)) => Item::Pair { line, column, scope: 0, key, value },
        Err(class) => {
            let words = text.split(|&b| is_blank(b)).filter(|w| !w.is_empty()).count();
            let what = match (syntax, class) {
                (_, Error::InfoKey) if text.starts_with(b"=") => "an empty key",
                (_, Error::InfoKey) => "a key longer than 255 characters",
                (Syntax::Romio, Error::InfoValue) if words == 1 => "a key without a value",
                (Syntax::Romio, Error::InfoValue) if text.contains(&b'#') => {
                    "a comment after the value: ROMIO reads '#' as a comment only at the start of a line"
                }
                (Syntax::Romio, Error::InfoValue) if words > 2 => "more than two words: a value is one word",
                (Syntax::Pnetcdf, Error::InfoValue) if !text.contains(&b'=') => "no '=' between a key and a value",
                _ => "a value longer than 1023 characters",
            };
            malformed(line, column, what, text, syntax)
        }
    }
}

/// What PnetCDF's reader of PNETCDF_HINTS does with an entry that a plain `key=value` reading
/// takes: it cuts the entry at its first blank, and skips one with a second `=` or no value.
fn pnetcdf_defect(entry: &[u8], value: &[u8]) -> Option<&'static str> {
    if entry.iter().any(|&b| is_blank(b)) {
        Some("a blank inside the entry: PnetCDF cuts it there, so 'a = 1' loses its '=' and is skipped, and 'a=1 2' reads as a=1")
    } else if value.contains(&b'=') {
        Some("a second '=' in the entry: PnetCDF skips it")
    } else if value.is_empty() {
        Some("an empty value: PnetCDF passes no value to MPI_Info_set, which fails")
    } else {
        None
    }
}

/// What ROMIO's own reader does differently from a plain `key value` reading: a `#` is a
/// comment only in the first column, and a CR before the line end stays in the value.
fn romio_extras<'t>(text: &'t [u8], items: &mut Vec<Item<'t>>) {
    for (n, raw) in text.split(|&b| b == b'\n').enumerate() {
        let lead = raw.iter().take_while(|b| is_blank(**b)).count();
        let body = trim(raw);
        if lead > 0 && body.first() == Some(&b'#') {
            items.push(Item::Malformed {
                line: n + 1,
                column: lead + 1,
                message: "an indented comment: ROMIO takes '#' as a comment only in the first column, and reads this line as a hint".into(),
            });
        } else if raw.ends_with(b"\r") && !body.is_empty() && body[0] != b'#' {
            // The entry itself is reported with its value; this says why ROMIO will not match it.
            items.push(Item::Malformed {
                line: n + 1,
                column: raw.len(),
                message: "a CR line end (a DOS file): ROMIO keeps the CR in the value, so 'enable\\r' is not 'enable'; convert the file with dos2unix".into(),
            });
        }
    }
}

fn malformed<'t>(line: usize, column: usize, what: &str, text: &[u8], syntax: Syntax) -> Item<'t> {
    let mut message = format!("malformed line for --syntax {}: {what}", syntax.name());
    if let Some(other) = looks_like(text).filter(|other| *other != syntax) {
        message.push_str(&format!("; it looks like {} (--syntax {})", describe(other), other.name()));
    }
    message.push_str(match syntax {
        Syntax::Romio => "; ROMIO skips such a line without a word",
        Syntax::Pnetcdf => "; PnetCDF skips such an entry",
        _ => "",
    });
    Item::Malformed { line, column, message }
}

/// The syntax a piece of text seems to be written in.
fn looks_like(text: &[u8]) -> Option<Syntax> {
    let equals = text.iter().position(|&b| b == b'=');
    let colon = text.iter().position(|&b| b == b':');
    match (equals, colon) {
        (Some(_), _) if text.contains(&b';') => Some(Syntax::Pnetcdf),
        (Some(eq), Some(colon)) if colon < eq => Some(Syntax::Cray),
        (Some(_), _) => Some(Syntax::Kv),
        (None, _) if text.split(|&b| is_blank(b)).filter(|w| !w.is_empty()).count() == 2 => Some(Syntax::Romio),
        _ => None,
    }
}

fn describe(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Romio => "ROMIO_HINTS's 'key value'",
        Syntax::Kv => "'key=value'",
        Syntax::Pnetcdf => "PNETCDF_HINTS's 'key=value;key=value'",
        Syntax::Cray => "MPICH_MPIIO_HINTS's 'pattern:key=value'",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[Item<'_>]) -> Vec<(usize, usize, String, String)> {
        items
            .iter()
            .filter_map(|item| match item {
                Item::Pair { line, column, key, value, .. } => Some((
                    *line,
                    *column,
                    String::from_utf8_lossy(key).into_owned(),
                    String::from_utf8_lossy(value).into_owned(),
                )),
                Item::Malformed { .. } => None,
            })
            .collect()
    }

    fn malformed_lines(items: &[Item<'_>]) -> Vec<(usize, usize)> {
        items
            .iter()
            .filter_map(|item| match item {
                Item::Malformed { line, column, .. } => Some((*line, *column)),
                Item::Pair { .. } => None,
            })
            .collect()
    }

    fn p(line: usize, column: usize, key: &str, value: &str) -> (usize, usize, String, String) {
        (line, column, key.into(), value.into())
    }

    #[test]
    fn romio_lines() {
        let text = b"# comment\ncb_nodes 4\n  striping_unit\t1048576\nlonely\na b c\n  # indented\n";
        let items = items(text, Syntax::Romio);
        assert_eq!(pairs(&items), [p(2, 1, "cb_nodes", "4"), p(3, 3, "striping_unit", "1048576")]);
        assert_eq!(malformed_lines(&items), [(4, 1), (5, 1), (6, 3)]);
    }

    #[test]
    fn kv_pnetcdf_and_cray() {
        let kv = items(b"a=1\n # c\n b = 2 \nnoequals\n", Syntax::Kv);
        assert_eq!(pairs(&kv), [p(1, 1, "a", "1"), p(3, 2, "b", "2")]);
        assert_eq!(malformed_lines(&kv), [(4, 1)]);
        let pnetcdf = items(b"nc_var_align_size=512; nc_header_align_size=1024;;bad;a = 1;b=c=d;e=", Syntax::Pnetcdf);
        assert_eq!(pairs(&pnetcdf), [p(1, 1, "nc_var_align_size", "512"), p(1, 24, "nc_header_align_size", "1024")]);
        assert_eq!(malformed_lines(&pnetcdf), [(1, 51), (1, 55), (1, 61), (1, 67)]);
        let cray = items(b"*:romio_cb_write=enable:striping_factor=8,/scratch/*:cb_nodes=4:oops", Syntax::Cray);
        assert_eq!(
            pairs(&cray),
            [p(1, 3, "romio_cb_write", "enable"), p(1, 25, "striping_factor", "8"), p(1, 54, "cb_nodes", "4")]
        );
        assert_eq!(malformed_lines(&cray), [(1, 65)]);
    }

    #[test]
    fn a_byte_order_mark_is_reported_and_the_rest_read() {
        let items = items(b"\xef\xbb\xbfcb_nodes 4\n", Syntax::Romio);
        assert_eq!(malformed_lines(&items), [(1, 1)]);
        assert_eq!(pairs(&items), [p(1, 4, "cb_nodes", "4")]);
    }

    #[test]
    fn columns_after_a_byte_order_mark_count_its_bytes() {
        let kv = items(b"\xef\xbb\xbf  a=1\nb=2\n", Syntax::Kv);
        assert_eq!(pairs(&kv), [p(1, 6, "a", "1"), p(2, 1, "b", "2")]);
        let pnetcdf = items(b"\xef\xbb\xbfa=1;b=2", Syntax::Pnetcdf);
        assert_eq!(pairs(&pnetcdf), [p(1, 4, "a", "1"), p(1, 8, "b", "2")]);
        let cray = items(b"\xef\xbb\xbf*:a=1,*:b=2", Syntax::Cray);
        assert_eq!(pairs(&cray), [p(1, 6, "a", "1"), p(1, 12, "b", "2")]);
        let romio = items(b"\xef\xbb\xbf  # indented\nlonely\n", Syntax::Romio);
        assert_eq!(malformed_lines(&romio), [(1, 1), (1, 6), (2, 1)]);
    }

    #[test]
    fn malformed_lines_say_which_syntax_they_look_like() {
        let romio = items(b"cb_nodes=4\n", Syntax::Romio);
        match &romio[0] {
            Item::Malformed { message, .. } => {
                assert!(message.contains("looks like 'key=value' (--syntax kv)"), "{message}");
                assert!(message.contains("ROMIO skips such a line"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let kv = items(b"cb_nodes 4\n", Syntax::Kv);
        match &kv[0] {
            Item::Malformed { message, .. } => assert!(message.contains("(--syntax romio)"), "{message}"),
            other => panic!("{other:?}"),
        }
    }
}
