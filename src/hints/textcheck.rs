//! A hint text checked as its reader reads it: its entries ([`super::syntax`]), the checker on
//! the pairs the reader would use, and what only a reader of text can see (malformed lines,
//! keys given twice, content a reader never sees), each finding at its line and column.

use std::collections::HashMap;

use super::check::check;
use super::finding::Severity;
use super::syntax::{items, Item, Syntax};
use super::targets::Targets;
use super::text::Quoted;
use super::vocab::Vocabulary;

/// One finding in a hint text, at a place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFinding<'t> {
    /// Line and column (from 1; the column counts bytes from the line's start).
    pub line: usize,
    pub column: usize,
    /// The entry's key and value, as written, when the finding is about an entry.
    pub key: Option<&'t [u8]>,
    pub value: Option<&'t [u8]>,
    /// The checker's code (`unit-suffix`) or the text's own (`malformed-line`,
    /// `duplicate-key`, `truncated-input`).
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub suggestion: Option<String>,
}

/// The findings for one text, by line and column; `Err` if it is not a hint text at all.
pub fn check_text<'t>(
    text: &'t [u8],
    syntax: Syntax,
    vocabulary: &Vocabulary,
    targets: &Targets,
) -> Result<Vec<TextFinding<'t>>, String> {
    if let Some(line) = nul_line(text) {
        return Err(format!("binary data (a NUL byte on line {line}), not a hint text"));
    }
    let reader = vocabulary.syntaxes().find(|s| s.name == syntax.name());
    let keeps_first = reader.is_some_and(|r| r.keeps_first);
    let report = |line, column, code, severity, message: String| TextFinding {
        line,
        column,
        key: None,
        value: None,
        code,
        severity,
        message,
        suggestion: None,
    };
    let mut reports = Vec::new();

    if let Some((max, reader)) = reader.and_then(|r| r.read_max.map(|max| (max, r))) {
        let who = reader.variable.as_deref().unwrap_or(&reader.name);
        if text.len() > max {
            let (line, column) = place(text, max);
            reports.push(report(
                line,
                column,
                "truncated-input",
                Severity::Error,
                format!(
                    "the reader of {who} reads only the first {max} bytes; from here on nothing is read ({} bytes)",
                    text.len() - max
                ),
            ));
        } else if text.len() == max {
            // ROMIO's reader fills its buffer of this size and then looks for the text's end
            // past it.
            let (line, column) = place(text, max - 1);
            reports.push(report(
                line,
                column,
                "truncated-input",
                Severity::Error,
                format!("the reader of {who} reads at most {max} bytes into a buffer of that size, and a text that fills it has no end there; keep it under {max} bytes"),
            ));
        }
    }

    let items = items(text, syntax);
    // The occurrence of each key (in its scope) that the reader uses, by item: the first, or
    // the last when the reader keeps the last; every later occurrence is reported against the
    // first.
    let mut first_seen: HashMap<(usize, &[u8]), usize> = HashMap::new();
    let mut used: HashMap<(usize, &[u8]), usize> = HashMap::new();
    for (n, item) in items.iter().enumerate() {
        match item {
            Item::Malformed { line, column, message } => {
                reports.push(report(*line, *column, "malformed-line", Severity::Error, message.clone()));
            }
            Item::Pair { line, column, scope, key, .. } => {
                let Some(&first) = first_seen.get(&(*scope, *key)) else {
                    first_seen.insert((*scope, key), n);
                    used.insert((*scope, key), n);
                    continue;
                };
                let Item::Pair { line: first_line, .. } = items[first] else { continue };
                let which = if keeps_first { "the first" } else { "this one, the last" };
                let mut duplicate = report(
                    *line,
                    *column,
                    "duplicate-key",
                    Severity::Warning,
                    format!("'{}' is given again (first on line {first_line}); the reader uses {which}", Quoted(key)),
                );
                duplicate.key = Some(key);
                reports.push(duplicate);
                if !keeps_first {
                    used.insert((*scope, key), n);
                }
            }
        }
    }

    // Each scope is checked on its own (a conflict needs its keys in one scope), its pairs in
    // the order of the text.
    let mut used: Vec<(usize, usize)> = used.into_iter().map(|((scope, _), n)| (scope, n)).collect();
    used.sort_unstable();
    for scope in used.chunk_by(|a, b| a.0 == b.0) {
        let pairs: Vec<(&[u8], &[u8])> = scope
            .iter()
            .filter_map(|&(_, n)| match items[n] {
                Item::Pair { key, value, .. } => Some((key, value)),
                Item::Malformed { .. } => None,
            })
            .collect();
        let findings =
            check(vocabulary, targets, &pairs).map_err(|error| format!("out of memory while checking ({error})"))?;
        for finding in findings {
            let Item::Pair { line, column, key, value, .. } = items[scope[finding.pair].1] else { continue };
            reports.push(TextFinding {
                line,
                column,
                key: Some(key),
                value: Some(value),
                code: finding.code.as_str(),
                severity: finding.severity,
                message: finding.message,
                suggestion: finding.suggestion,
            });
        }
    }
    reports.sort_by_key(|r| (r.line, r.column));
    Ok(reports)
}

/// Line and column (from 1) of byte `offset`.
fn place(text: &[u8], offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
    (line, column)
}

/// The line of the first NUL byte, if the text holds one (then it is not a hint text).
fn nul_line(bytes: &[u8]) -> Option<usize> {
    Some(place(bytes, bytes.iter().position(|&b| b == 0)?).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nul_bytes() {
        assert_eq!(nul_line(b"a 1\nb 2\n"), None);
        assert_eq!(nul_line(b"a 1\nb\0 2\n"), Some(2));
    }
}
