//! A small JSON reader for the hint vocabulary (`data/hints.json` and a layered library's own
//! vocabulary text). It reads what the vocabulary uses: objects, arrays, strings with every
//! escape, integers, `true`, `false` and `null`. Numbers with a fraction or an exponent are
//! refused: no vocabulary field is one.
//!
//! Why not a crate: the C library depends on libc alone, and every allocation a C call makes must
//! be able to fail with `MPI_ERR_NO_MEM` rather than abort; serde_json allocates infallibly.
//! Every allocation here goes through `try_reserve`. Nesting is limited to [`MAX_DEPTH`], so
//! hostile text cannot exhaust the stack.

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::BuildHasher;

/// Deepest nesting of arrays and objects accepted (the vocabulary needs 5).
pub const MAX_DEPTH: usize = 32;

/// A JSON value.
#[derive(Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Array(Vec<Value>),
    /// Members in the order of the text; a name given twice is refused by the reader.
    Object(Vec<(String, Value)>),
}

/// Why a text is not JSON of the kind this reader takes.
#[derive(Debug, PartialEq, Eq)]
pub enum JsonError {
    /// An allocation failed.
    NoMem,
    /// The text is malformed at a line and column (both from 1; the column counts bytes), which
    /// are at byte `offset` of the text (from 0).
    Syntax { line: usize, column: usize, offset: usize, what: &'static str },
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::NoMem => f.write_str("out of memory"),
            JsonError::Syntax { line, column, offset, what } => {
                write!(f, "line {line}, column {column} (byte {offset}): {what}")
            }
        }
    }
}

/// Pushes onto a vector, failing instead of aborting when memory runs out.
pub(crate) fn try_push<T>(vec: &mut Vec<T>, item: T) -> Result<(), JsonError> {
    vec.try_reserve(1).map_err(|_| JsonError::NoMem)?;
    vec.push(item);
    Ok(())
}

/// Parses a whole text: one value, blanks around it allowed, nothing after it.
pub fn parse(text: &[u8]) -> Result<Value, JsonError> {
    let mut reader = Reader { text, at: 0, hasher: RandomState::new(), comparisons: 0 };
    let value = reader.value(0)?;
    reader.skip_blanks();
    if reader.at != text.len() {
        return Err(reader.error("text after the end of the value"));
    }
    Ok(value)
}

struct Reader<'t> {
    text: &'t [u8],
    at: usize,
    /// Hashes member names (keyed, so a hostile text cannot make its names collide), for
    /// finding a name given twice.
    hasher: RandomState,
    /// Member names compared, for the test that the cost is linear.
    comparisons: usize,
}

impl Reader<'_> {
    fn error(&self, what: &'static str) -> JsonError {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
        JsonError::Syntax { line, column, offset: before.len(), what }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), JsonError> {
        self.skip_blanks();
        if self.peek() != Some(byte) {
            return Err(self.error(what));
        }
        self.at += 1;
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.skip_blanks();
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::Str),
            Some(b'-' | b'0'..=b'9') => self.integer(),
            Some(b't') => self.word(b"true", Value::Bool(true)),
            Some(b'f') => self.word(b"false", Value::Bool(false)),
            Some(b'n') => self.word(b"null", Value::Null),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("unexpected end of text")),
        }
    }

    fn word(&mut self, word: &[u8], value: Value) -> Result<Value, JsonError> {
        if !self.text[self.at..].starts_with(word) {
            return Err(self.error("expected a value"));
        }
        self.at += word.len();
        Ok(value)
    }

    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.at += 1;
        let mut members: Vec<(String, Value)> = Vec::new();
        // Each member's name's hash and where the name starts in the text, by member.
        let mut names: Vec<(u64, usize)> = Vec::new();
        self.skip_blanks();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_blanks();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name in quotes"));
            }
            let name_at = self.at;
            let name = self.string()?;
            try_push(&mut names, (self.hasher.hash_one(&name), name_at))?;
            self.expect(b':', "expected ':' after a member name")?;
            let value = self.value(depth)?;
            try_push(&mut members, (name, value))?;
            self.skip_blanks();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return match self.name_given_twice(&members, names)? {
                        Some(at) => {
                            self.at = at;
                            Err(self.error("member name given twice"))
                        }
                        None => Ok(Value::Object(members)),
                    };
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    /// Where the first member whose name an earlier member has starts, if one does. The members
    /// are sorted by the hashes of their names, so that only names of equal hashes are compared:
    /// comparing each name with every earlier one would cost the square of their number (a
    /// hostile object of many members).
    fn name_given_twice(
        &mut self,
        members: &[(String, Value)],
        names: Vec<(u64, usize)>,
    ) -> Result<Option<usize>, JsonError> {
        let mut by_hash: Vec<(u64, usize)> = Vec::new();
        by_hash.try_reserve_exact(names.len()).map_err(|_| JsonError::NoMem)?;
        by_hash.extend(names.iter().enumerate().map(|(n, &(hash, _))| (hash, n)));
        by_hash.sort_unstable();
        let mut first: Option<usize> = None;
        for group in by_hash.chunk_by(|a, b| a.0 == b.0).filter(|group| group.len() > 1) {
            // In member order within the group: the first later member equal to an earlier one.
            for (j, &(_, later)) in group.iter().enumerate().skip(1) {
                let twice = group[..j].iter().any(|&(_, earlier)| {
                    self.comparisons += 1;
                    members[earlier].0 == members[later].0
                });
                if twice {
                    first = Some(first.map_or(later, |seen| seen.min(later)));
                    break;
                }
            }
        }
        Ok(first.map(|member| names[member].1))
    }

    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_blanks();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            let item = self.value(depth)?;
            try_push(&mut items, item)?;
            self.skip_blanks();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    /// An integer: `-`? digits, no leading zero but `0` itself, no fraction or exponent.
    fn integer(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        let digits = &self.text[digits..self.at];
        if digits.is_empty() || (digits.len() > 1 && digits[0] == b'0') {
            self.at = start;
            return Err(self.error("malformed number"));
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return Err(self.error("only integers are read here"));
        }
        // ASCII digits and a sign, so the slice is UTF-8.
        let number = std::str::from_utf8(&self.text[start..self.at]).ok().and_then(|n| n.parse().ok());
        match number {
            Some(n) => Ok(Value::Int(n)),
            None => {
                self.at = start;
                Err(self.error("integer out of range"))
            }
        }
    }

    /// A string after its opening quote is at `self.at`: its text with every escape resolved.
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.try_reserve(self.at - start).map_err(|_| JsonError::NoMem)?;
            out.extend_from_slice(&self.text[start..self.at]);
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return String::from_utf8(out).map_err(|_| {
                        self.at = start;
                        self.error("string is not UTF-8")
                    });
                }
                Some(b'\\') => {
                    self.at += 1;
                    let ch = self.escape()?;
                    let mut utf8 = [0u8; 4];
                    let bytes = ch.encode_utf8(&mut utf8).as_bytes();
                    out.try_reserve(bytes.len()).map_err(|_| JsonError::NoMem)?;
                    out.extend_from_slice(bytes);
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("string not closed")),
            }
        }
    }

    /// The character an escape after its backslash stands for.
    fn escape(&mut self) -> Result<char, JsonError> {
        let Some(kind) = self.peek() else {
            return Err(self.error("string not closed"));
        };
        self.at += 1;
        Ok(match kind {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                if (0xD800..0xDC00).contains(&first) {
                    // A high surrogate must be followed by an escaped low one.
                    if !self.text[self.at..].starts_with(b"\\u") {
                        return Err(self.error("unpaired surrogate"));
                    }
                    self.at += 2;
                    let second = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return Err(self.error("unpaired surrogate"));
                    }
                    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    char::from_u32(code).ok_or_else(|| self.error("invalid escape"))?
                } else {
                    char::from_u32(first).ok_or_else(|| self.error("unpaired surrogate"))?
                }
            }
            _ => return Err(self.error("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.text.get(self.at..self.at + 4).ok_or_else(|| self.error("short \\u escape"))?;
        let mut code = 0;
        for &digit in digits {
            let value = (digit as char).to_digit(16).ok_or_else(|| self.error("invalid \\u escape"))?;
            code = code * 16 + value;
        }
        self.at += 4;
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::Str(text.to_string())
    }

    #[test]
    fn reads_every_kind_of_value() {
        let text =
            br#" {"a": [1, -20, true, false, null], "b": {"c": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}, "d": []} "#;
        let expected = Value::Object(vec![
            (
                "a".into(),
                Value::Array(vec![Value::Int(1), Value::Int(-20), Value::Bool(true), Value::Bool(false), Value::Null]),
            ),
            ("b".into(), Value::Object(vec![("c".into(), s("x\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F600}"))])),
            ("d".into(), Value::Array(vec![])),
        ]);
        assert_eq!(parse(text), Ok(expected));
        assert_eq!(parse(b"-9223372036854775808"), Ok(Value::Int(i64::MIN)));
        assert_eq!(parse(b"0"), Ok(Value::Int(0)));
    }

    #[test]
    fn refuses_what_is_not_json_or_not_taken_here() {
        for bad in [
            &b""[..],
            b"{",
            b"[1,]",
            b"{\"a\":1,}",
            b"01",
            b"1.5",
            b"1e3",
            b"-",
            b"tru",
            b"\"abc",
            b"\"a\x01\"",
            b"\"\\x\"",
            b"\"\\ud800\"",
            b"\"\\udc00\"",
            b"{\"a\":1,\"a\":2}",
            b"[1] 2",
            b"9223372036854775808",
            b"\"\xff\"",
            b"{1:2}",
        ] {
            assert!(matches!(parse(bad), Err(JsonError::Syntax { .. })), "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn reports_where_the_error_is() {
        assert_eq!(
            parse(b"{\n  \"a\": tru\n}"),
            Err(JsonError::Syntax { line: 2, column: 8, offset: 9, what: "expected a value" })
        );
    }

    /// The names compared to find a member given twice grow with the members, not with their
    /// square (counted, not timed): an object of 4 MiB, 358,000 members, once cost 669 s.
    #[test]
    fn finding_a_name_given_twice_is_linear() {
        let comparisons = |members: usize| {
            let mut text = String::from("{");
            for n in 0..members {
                text += &format!("{}\"m{n}\": {n}", if n > 0 { "," } else { "" });
            }
            text += "}";
            let mut reader = Reader { text: text.as_bytes(), at: 0, hasher: RandomState::new(), comparisons: 0 };
            assert!(matches!(reader.value(0), Ok(Value::Object(ref m)) if m.len() == members));
            reader.comparisons
        };
        for members in [1_000, 10_000, 40_000] {
            // Only names of equal 64-bit hashes are compared: with distinct names, next to none.
            assert!(comparisons(members) <= members / 100, "{members} members: {} comparisons", comparisons(members));
        }
        // A name given twice is still found, wherever it is.
        assert!(parse(b"{\"a\": 1, \"b\": 2, \"c\": 3, \"b\": 4}").is_err());
        assert_eq!(
            parse(b"{\"a\": 1, \"b\": 2, \"b\": 3}"),
            Err(JsonError::Syntax { line: 1, column: 18, offset: 17, what: "member name given twice" })
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert!(matches!(parse(deep.as_bytes()), Err(JsonError::Syntax { what: "nested too deeply", .. })));
        let fine = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(fine.as_bytes()).is_ok());
    }
}
