//! A report as one HTML page, whole in itself: its style inline, no script, no other file, the
//! same tables as the text ([`super::text`]) with a colour per status and severity. Every piece
//! that comes from the report is written by [`Html`]: `&`, `<`, `>`, `"` and `'` as character
//! references, and each control or bidirectional formatting character and byte that is not UTF-8
//! as [`Escaped`] shows it (`\u{1b}`, `\u{202e}`, `\xff`), marked, never raw.

use std::fmt;
use std::io::{self, Write};

use mpi_info::hints::{shown_escaped, Escaped};

use super::{
    compact, counted, found, overridden_lines, place_words, ranks, rows, source_words, variable_words, Entry, Lenient,
    Report, Row, Text,
};

/// Bytes as HTML text (in an element or an attribute value).
pub struct Html<'a>(pub &'a [u8]);

impl fmt::Display for Html<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.utf8_chunks() {
            for ch in chunk.valid().chars() {
                match ch {
                    '&' => f.write_str("&amp;")?,
                    '<' => f.write_str("&lt;")?,
                    '>' => f.write_str("&gt;")?,
                    '"' => f.write_str("&quot;")?,
                    '\'' => f.write_str("&#39;")?,
                    ch if shown_escaped(ch) => {
                        let escaped = Escaped(ch.encode_utf8(&mut [0; 4]).as_bytes()).to_string();
                        write!(f, "<span class=\"esc\">{escaped}</span>")?;
                    }
                    ch => write!(f, "{ch}")?,
                }
            }
            for byte in chunk.invalid() {
                write!(f, "<span class=\"esc\">{}</span>", Escaped(&[*byte]))?;
            }
        }
        Ok(())
    }
}

/// Report text in HTML; an empty string shown as `""`, so that it is not taken for nothing.
fn shown(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "\"\"".to_string();
    }
    Html(bytes).to_string()
}

/// An optional piece: in HTML, or nothing (an empty cell).
fn optional(bytes: Option<&[u8]>) -> String {
    bytes.map(shown).unwrap_or_default()
}

/// The classes of a status known here (the page's style colours each); none for a word of a
/// newer report.
fn status_class(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"kept" => "status kept",
        b"changed" => "status changed",
        b"dropped" => "status dropped",
        b"misread" => "status misread",
        b"added" => "status added",
        _ => return None,
    })
}

/// The classes of a severity known here.
fn severity_class(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"error" => "severity error",
        b"warning" => "severity warning",
        b"note" => "severity note",
        _ => return None,
    })
}

const STYLE: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 1.5em; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.4em; }
h2 { font-size: 1.15em; margin: 2em 0 0.5em; font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; }
h3 { font-size: 1em; margin: 1em 0 0.3em; }
table { border-collapse: collapse; margin: 0.3em 0 1em; }
th, td { border: 1px solid #c9c9c9; padding: 0.2em 0.5em; text-align: left; vertical-align: top; unicode-bidi: isolate; }
th { background: #eef0f3; }
td { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
table.about td { font-family: inherit; }
.esc { color: #7a2e00; background: #ffe8cc; border-radius: 2px; }
td.kept { background: #e3f4e6; }
td.changed { background: #fff1b8; }
td.dropped { background: #fcdada; }
td.misread { background: #f5b5b5; font-weight: bold; }
td.added { background: #dde9fb; }
.error { color: #b3001b; font-weight: bold; }
.warning { color: #7b2cbf; font-weight: bold; }
.note { color: #005f73; }
.finding { margin: 0.1em 0; }
summary { cursor: pointer; }
";

/// Writes `report`, read from the file named `file`, as an HTML page.
pub fn write(out: &mut impl Write, file: &[u8], report: &Report) -> io::Result<()> {
    let title = format!("{}: {} report", Html(file), Html(report.tool.bytes()));
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    )?;
    about(out, report)?;
    stack(out, report)?;
    environment(out, report)?;
    notes(out, "Notes", &report.notes)?;
    for entry in &report.calls {
        call(out, entry)?;
    }
    out.write_all(b"</body>\n</html>\n")
}

/// A two-column table of names and values (values already HTML).
fn about_table(out: &mut impl Write, rows: &[(&str, String)]) -> io::Result<()> {
    out.write_all(b"<table class=\"about\">\n")?;
    for (name, value) in rows {
        writeln!(out, "<tr><th>{name}</th><td>{value}</td></tr>")?;
    }
    out.write_all(b"</table>\n")
}

/// The totals first, then the job.
fn about(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let findings = report.findings.to_string() + &found(report);
    let text = |t: &Option<Text>| optional(t.as_ref().map(Text::bytes));
    about_table(
        out,
        &[
            ("checked calls", format!("{} ({} distinct)", report.checked_calls, report.calls.len())),
            ("findings", findings),
            ("hints on which processes disagreed", report.mismatches.to_string()),
            ("tool", format!("{} {}", shown(report.tool.bytes()), shown(report.version.bytes()))),
            (
                "MPI",
                [text(&report.implementation_name), text(&report.implementation_version)].join(" ").trim().to_string(),
            ),
            (
                "implementation",
                format!(
                    "<details><summary>MPI_Get_library_version</summary>{}</details>",
                    shown(report.implementation.bytes())
                ),
            ),
            ("target", shown(report.target.bytes())),
            ("rank", format!("{} of {}", report.rank, report.world_size)),
            ("finalized", if report.finalized { "yes" } else { "no: the job ended or was still running" }.to_string()),
        ],
    )
}

/// A table with a heading; each row's cells already HTML, with the class of each cell.
fn table(out: &mut impl Write, class: &str, heading: &[&str], rows: &[Vec<(String, Option<&str>)>]) -> io::Result<()> {
    writeln!(out, "<table class=\"{class}\">\n<thead><tr>")?;
    for h in heading {
        write!(out, "<th>{h}</th>")?;
    }
    out.write_all(b"</tr></thead>\n<tbody>\n")?;
    for row in rows {
        out.write_all(b"<tr>")?;
        for (cell, class) in row {
            match class {
                Some(class) => write!(out, "<td class=\"{class}\">{cell}</td>")?,
                None => write!(out, "<td>{cell}</td>")?,
            }
        }
        out.write_all(b"</tr>\n")?;
    }
    out.write_all(b"</tbody>\n</table>\n")
}

/// The software stack: a table, with no row when the report has none.
fn stack(out: &mut impl Write, report: &Report) -> io::Result<()> {
    out.write_all(b"<h3>Stack</h3>\n")?;
    match &report.stack {
        Some(Lenient::Unknown(raw)) => writeln!(out, "<p><code>{}</code></p>", Html(&compact(raw))),
        None => table(out, "stack", &["layer", "name", "version", "target"], &[]),
        Some(Lenient::Known(layers)) => {
            let rows: Vec<Vec<(String, Option<&str>)>> = layers
                .iter()
                .map(|layer| {
                    [&layer.layer, &layer.name, &layer.version, &layer.target]
                        .into_iter()
                        .map(|piece| (optional(piece.as_ref().map(Text::bytes)), None))
                        .collect()
                })
                .collect();
            table(out, "stack", &["layer", "name", "version", "target"], &rows)
        }
    }
}

/// The hint variables checked at MPI_Init and their findings: a table, with no row when the
/// report has none, and the variables' notes.
fn environment(out: &mut impl Write, report: &Report) -> io::Result<()> {
    const HEADING: [&str; 7] = ["variable", "place", "key", "value", "severity", "code", "finding"];
    out.write_all(b"<h3>Hint variables</h3>\n")?;
    match &report.environment {
        Some(Lenient::Unknown(raw)) => writeln!(out, "<p><code>{}</code></p>", Html(&compact(raw))),
        None => table(out, "environment", &HEADING, &[]),
        Some(Lenient::Known(variables)) => {
            let text = |t: &Option<Text>| optional(t.as_ref().map(Text::bytes));
            let mut rows: Vec<Vec<(String, Option<&str>)>> = Vec::new();
            let mut variable_notes: Vec<Text> = Vec::new();
            for variable in variables {
                let name = shown_or_empty(&variable_words(variable));
                if variable.findings.is_empty() {
                    rows.push(vec![(name.clone(), None), ("nothing found".into(), None)]);
                }
                for finding in &variable.findings {
                    let severity = finding.severity.as_ref().and_then(|s| severity_class(s.bytes()));
                    rows.push(vec![
                        (name.clone(), None),
                        (shown_or_empty(&place_words(variable, finding)), None),
                        (text(&finding.key), None),
                        (text(&finding.value), None),
                        (text(&finding.severity), severity),
                        (text(&finding.code), None),
                        (text(&finding.message), None),
                    ]);
                }
                variable_notes.extend(variable.notes.iter().cloned());
            }
            table(out, "environment", &HEADING, &rows)?;
            if variable_notes.is_empty() {
                return Ok(());
            }
            notes(out, "Notes on the hint variables", &variable_notes)
        }
    }
}

/// Words made here from the report's pieces: in HTML, nothing if there are none.
fn shown_or_empty(bytes: &[u8]) -> String {
    Html(bytes).to_string()
}

fn notes(out: &mut impl Write, heading: &str, notes: &[Text]) -> io::Result<()> {
    if notes.is_empty() {
        return Ok(());
    }
    writeln!(out, "<h3>{heading}</h3>\n<ul class=\"notes\">")?;
    for note in notes {
        writeln!(out, "<li>{}</li>", shown(note.bytes()))?;
    }
    out.write_all(b"</ul>\n")
}

/// One call's section: its heading, what it was, the table of its keys, its disagreements and
/// notes.
fn call(out: &mut impl Write, entry: &Entry) -> io::Result<()> {
    writeln!(out, "<section class=\"call\">\n<h2>{}</h2>", shown(entry.call.bytes()))?;
    let mut about = vec![
        ("calls", entry.count.to_string()),
        ("processes", entry.comm_size.to_string()),
        ("target", shown(entry.target.bytes())),
    ];
    if let Some(caller) = &entry.caller {
        about.push(("made by", shown(caller.bytes())));
    }
    if let Some(through) = &entry.through {
        about.push(("hints through", shown(through.bytes())));
    }
    if let Some(names) = &entry.filenames {
        let mut files = names.iter().map(|name| shown(name.bytes())).collect::<Vec<_>>().join("<br>");
        if let Some(others @ 1..) = entry.calls_on_other_files {
            files += &format!("<br>(and {} on other files)", counted(others, "call", "calls"));
        }
        about.push(("files", files));
    }
    about_table(out, &about)?;
    let entry_rows = rows(entry);
    let rows: Vec<Vec<(String, Option<&str>)>> = entry_rows.iter().map(row_cells).collect();
    table(out, "hints", &["key", "requested", "effective", "status", "source", "finding"], &rows)?;
    let lost: Vec<Vec<u8>> = entry_rows
        .iter()
        .flat_map(|row| row.source.map(|s| overridden_lines(row.key, s)).unwrap_or_default())
        .collect();
    if !lost.is_empty() {
        out.write_all(b"<h3>Overridden</h3>\n<ul>\n")?;
        for line in lost {
            writeln!(out, "<li>{}</li>", shown_or_empty(&line))?;
        }
        out.write_all(b"</ul>\n")?;
    }
    if !entry.mismatches.is_empty() {
        out.write_all(b"<h3>Disagreements</h3>\n")?;
        let mut rows = Vec::new();
        for mismatch in &entry.mismatches {
            for group in &mismatch.values {
                let value = match &group.value {
                    Some(value) => shown(value.bytes()),
                    None => "(not passed)".to_string(),
                };
                rows.push(vec![(shown(mismatch.key.bytes()), None), (value, None), (ranks(&group.ranks), None)]);
            }
        }
        table(out, "disagreements", &["key", "value", "ranks"], &rows)?;
    }
    notes(out, "Notes", &entry.notes)?;
    out.write_all(b"</section>\n")
}

fn row_cells<'a>(row: &Row<'a>) -> Vec<(String, Option<&'static str>)> {
    let findings: String = row
        .findings
        .iter()
        .map(|d| {
            let label = match d.severity.as_ref().map(Text::bytes) {
                Some(severity) => {
                    let class = severity_class(severity).unwrap_or("severity");
                    format!("<span class=\"{class}\">{}:</span> ", shown(severity))
                }
                None => String::new(),
            };
            format!("<div class=\"finding\">{label}{} [{}]</div>", shown(d.message.bytes()), shown(d.code.bytes()))
        })
        .collect();
    let source = row.source.map(source_words);
    vec![
        (shown(row.key), None),
        (optional(row.requested), None),
        (optional(row.effective), None),
        (optional(row.status), row.status.and_then(status_class)),
        (optional(source.as_deref()), None),
        (findings, None),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_control_bytes_are_text() {
        assert_eq!(
            Html(b"<a href='x'>&\"\x1b[31m\x07\n\xff").to_string(),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;<span class=\"esc\">\\u{1b}</span>[31m\
             <span class=\"esc\">\\u{7}</span><span class=\"esc\">\\n</span><span class=\"esc\">\\xff</span>"
        );
        assert_eq!(Html("é, 😀".as_bytes()).to_string(), "é, 😀");
        assert_eq!(Html("a\u{202e}b".as_bytes()).to_string(), "a<span class=\"esc\">\\u{202e}</span>b");
    }

    #[test]
    fn a_status_of_a_newer_report_has_no_class() {
        assert_eq!(status_class(b"misread"), Some("status misread"));
        assert_eq!(status_class(b"\" onmouseover=\"x"), None);
        assert_eq!(severity_class(b"note"), Some("severity note"));
    }
}
