//! One input checked: its items, the library's checker on the pairs a reader would use, and
//! the command's own findings (malformed lines, keys given twice, content a reader never sees).

use std::collections::HashMap;

use mpi_info::hints::{check, Quoted, Targets, Vocabulary};

use crate::output::{Report, Severity};
use crate::syntax::{items, Item, Syntax};

/// The findings for one input, by line and column; `Err` if it is not a hint text at all.
pub fn lint<'t>(
    text: &'t [u8],
    syntax: Syntax,
    vocabulary: &Vocabulary,
    targets: &Targets,
) -> Result<Vec<Report<'t>>, String> {
    if let Some(line) = crate::input::nul_line(text) {
        return Err(format!("binary data (a NUL byte on line {line}), not a hint text"));
    }
    let reader = vocabulary.syntaxes().find(|s| s.name == syntax.name());
    let keeps_first = reader.is_some_and(|r| r.keeps_first);
    let report = |line, column, code, severity, message: String| Report {
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
            reports.push(Report {
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
