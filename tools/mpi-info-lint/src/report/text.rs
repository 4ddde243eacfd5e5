//! A report as text for a terminal: the totals, the job's stack, hint variables and notes, then
//! one block per distinct call with a table of its keys, its disagreements and notes. Every
//! piece that comes from the report goes through [`Escaped`]; colour (status and severity) only
//! when asked for.

use std::io::{self, Write};

use mpi_info::hints::Escaped;

use super::{
    compact, counted, found, overridden_lines, place_words, ranks, rows, source_words, variable_words, Entry, Lenient,
    Report, Row, Text,
};

/// What stands for a piece the report does not have.
const ABSENT: &str = "-";

/// Report text, escaped; an empty string shown as `""`, so that it is not taken for nothing.
fn shown(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "\"\"".to_string();
    }
    Escaped(bytes).to_string()
}

/// An optional piece: escaped, or `-`.
fn optional(bytes: Option<&[u8]>) -> String {
    bytes.map_or_else(|| ABSENT.to_string(), shown)
}

/// The SGR colour of a status or a severity, if it is one known here.
fn colour_of(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"kept" => "32",
        b"changed" => "33",
        b"dropped" => "31",
        b"misread" => "1;31",
        b"added" => "36",
        b"error" => "1;31",
        b"warning" => "1;35",
        b"note" => "1;36",
        _ => return None,
    })
}

struct Painter {
    colour: bool,
}

impl Painter {
    /// `text` in the colour of `word` (a status or a severity), when colouring.
    fn paint(&self, word: &[u8], text: &str) -> String {
        match colour_of(word) {
            Some(sgr) if self.colour => format!("\x1b[{sgr}m{text}\x1b[0m"),
            _ => text.to_string(),
        }
    }

    fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// Writes `report`, read from the file named `file`, as text.
pub fn write(out: &mut impl Write, file: &[u8], report: &Report, colour: bool) -> io::Result<()> {
    let painter = Painter { colour };
    let mpi = match (&report.implementation_name, &report.implementation_version) {
        (Some(name), Some(version)) => format!("{} {}", shown(name.bytes()), shown(version.bytes())),
        (Some(name), None) => shown(name.bytes()),
        _ => shown(report.implementation.bytes()),
    };
    writeln!(
        out,
        "{}",
        painter.bold(&format!(
            "{}: {} {} report",
            Escaped(file),
            shown(report.tool.bytes()),
            shown(report.version.bytes())
        ))
    )?;
    let findings = counted(report.findings, "finding", "findings") + &found(report);
    writeln!(
        out,
        "totals: {} ({} distinct), {}, {} on which processes disagreed",
        counted(report.checked_calls, "checked call", "checked calls"),
        report.calls.len(),
        findings,
        counted(report.mismatches, "hint", "hints")
    )?;
    writeln!(
        out,
        "job: {mpi}, target {}, rank {} of {}, {}",
        shown(report.target.bytes()),
        report.rank,
        report.world_size,
        if report.finalized { "finalized" } else { "not finalized (the job ended or was still running)" }
    )?;
    stack(out, report, &painter)?;
    environment(out, report, &painter)?;
    notes(out, &report.notes, "")?;
    for entry in &report.calls {
        writeln!(out)?;
        call(out, entry, &painter)?;
    }
    Ok(())
}

/// `notes: -`, or `notes:` and one line per note, indented.
fn notes(out: &mut impl Write, notes: &[Text], indent: &str) -> io::Result<()> {
    if notes.is_empty() {
        return writeln!(out, "{indent}notes: {ABSENT}");
    }
    writeln!(out, "{indent}notes:")?;
    for note in notes {
        writeln!(out, "{indent}  {}", shown(note.bytes()))?;
    }
    Ok(())
}

fn stack(out: &mut impl Write, report: &Report, painter: &Painter) -> io::Result<()> {
    match &report.stack {
        None => writeln!(out, "stack: {ABSENT}"),
        Some(Lenient::Unknown(raw)) => writeln!(out, "stack: {}", shown(&compact(raw))),
        Some(Lenient::Known(layers)) if layers.is_empty() => writeln!(out, "stack: {ABSENT}"),
        Some(Lenient::Known(layers)) => {
            let lines: Vec<Line<'_>> = layers
                .iter()
                .map(|layer| {
                    let piece = |text: &Option<Text>| optional(text.as_ref().map(Text::bytes));
                    Line {
                        cells: vec![piece(&layer.layer), piece(&layer.name), piece(&layer.version)],
                        last: vec![piece(&layer.target)],
                        colour: None,
                    }
                })
                .collect();
            writeln!(out, "stack:")?;
            table(out, painter, "  ", &["layer", "name", "version", "target"], &lines)
        }
    }
}

fn environment(out: &mut impl Write, report: &Report, painter: &Painter) -> io::Result<()> {
    match &report.environment {
        None => writeln!(out, "environment: {ABSENT}"),
        Some(Lenient::Unknown(raw)) => writeln!(out, "environment: {}", shown(&compact(raw))),
        Some(Lenient::Known(variables)) if variables.is_empty() => writeln!(out, "environment: no hint variable"),
        Some(Lenient::Known(variables)) => {
            writeln!(out, "environment:")?;
            for variable in variables {
                let nothing = variable.findings.is_empty() && variable.notes.is_empty();
                let found = if nothing { ": nothing found" } else { "" };
                writeln!(out, "  {}{found}", shown(&variable_words(variable)))?;
                for note in &variable.notes {
                    writeln!(out, "    {}", shown(note.bytes()))?;
                }
                for finding in &variable.findings {
                    let words = finding_words(
                        painter,
                        finding.severity.as_ref(),
                        finding.message.as_ref(),
                        finding.code.as_ref(),
                    );
                    writeln!(out, "    {}: {words}", shown(&place_words(variable, finding)))?;
                }
            }
            Ok(())
        }
    }
}

/// A finding as the lint prints one: `SEVERITY: MESSAGE [CODE]`, with what is given.
fn finding_words(painter: &Painter, severity: Option<&Text>, message: Option<&Text>, code: Option<&Text>) -> String {
    let mut words = String::new();
    if let Some(severity) = severity {
        words += &painter.paint(severity.bytes(), &format!("{}:", shown(severity.bytes())));
        words.push(' ');
    }
    words += &optional(message.map(Text::bytes));
    if let Some(code) = code {
        words += &format!(" [{}]", shown(code.bytes()));
    }
    words
}

/// One call's block: its heading, its file names, the table of its keys, its disagreements
/// and notes.
fn call(out: &mut impl Write, entry: &Entry, painter: &Painter) -> io::Result<()> {
    // The library above the MPI that made the call, and its call the hints came through.
    let by = match (&entry.caller, &entry.through) {
        (Some(caller), Some(through)) => format!(" (by {}, through {})", shown(caller.bytes()), shown(through.bytes())),
        (Some(caller), None) => format!(" (by {})", shown(caller.bytes())),
        (None, _) => String::new(),
    };
    writeln!(
        out,
        "{}{by}: {}, {}, target {}",
        painter.bold(&shown(entry.call.bytes())),
        counted(entry.count, "call", "calls"),
        counted(u64::try_from(entry.comm_size).unwrap_or(0), "process", "processes"),
        shown(entry.target.bytes())
    )?;
    if let Some(names) = &entry.filenames {
        let mut files = names.iter().map(|name| shown(name.bytes())).collect::<Vec<_>>().join(", ");
        if let Some(others @ 1..) = entry.calls_on_other_files {
            files += &format!(" (and {} on other files)", counted(others, "call", "calls"));
        }
        writeln!(out, "  files: {files}")?;
    }
    let rows = rows(entry);
    if rows.is_empty() {
        writeln!(out, "  hints: {ABSENT}")?;
    } else {
        let lines: Vec<Line<'_>> = rows.iter().map(|row| line(row, painter)).collect();
        table(out, painter, "  ", &["key", "requested", "effective", "status", "source", "finding"], &lines)?;
        let lost: Vec<Vec<u8>> =
            rows.iter().flat_map(|row| row.source.map(|s| overridden_lines(row.key, s)).unwrap_or_default()).collect();
        if !lost.is_empty() {
            writeln!(out, "  overridden:")?;
            for line in lost {
                writeln!(out, "    {}", shown(&line))?;
            }
        }
    }
    if !entry.mismatches.is_empty() {
        writeln!(out, "  disagreements:")?;
        for mismatch in &entry.mismatches {
            let values: Vec<String> = mismatch
                .values
                .iter()
                .map(|group| {
                    let value = match &group.value {
                        Some(value) => format!("\"{}\"", Escaped(value.bytes())),
                        None => "not passed".to_string(),
                    };
                    let noun = if group.ranks.len() == 1 { "rank" } else { "ranks" };
                    format!("{value} on {noun} {}", ranks(&group.ranks))
                })
                .collect();
            writeln!(out, "    {}: {}", shown(mismatch.key.bytes()), values.join("; "))?;
        }
    }
    if !entry.notes.is_empty() {
        notes(out, &entry.notes, "  ")?;
    }
    Ok(())
}

/// A line of a table: its cells but the last, padded to the column's width; the last
/// column's lines (one at least; more come under the first, the other cells blank); the column
/// to colour, with the word (a status) that says how.
struct Line<'a> {
    cells: Vec<String>,
    last: Vec<String>,
    colour: Option<(usize, &'a [u8])>,
}

/// The table's lines, `indent`ed: the heading, then each line, the columns two blanks apart.
fn table(
    out: &mut impl Write,
    painter: &Painter,
    indent: &str,
    heading: &[&str],
    lines: &[Line<'_>],
) -> io::Result<()> {
    let (last_heading, first_headings) = heading.split_last().unwrap_or((&"", &[]));
    let mut widths: Vec<usize> = first_headings.iter().map(|h| h.chars().count()).collect();
    for line in lines {
        for (width, cell) in widths.iter_mut().zip(&line.cells) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let padding = |text: &str, width: usize| " ".repeat(width.saturating_sub(text.chars().count()));
    let mut head = String::from(indent);
    for (h, width) in first_headings.iter().zip(&widths) {
        head += &format!("{h}{}  ", padding(h, *width));
    }
    writeln!(out, "{head}{last_heading}")?;
    for line in lines {
        let mut text = String::from(indent);
        for (column, (cell, width)) in line.cells.iter().zip(&widths).enumerate() {
            let shown = match line.colour {
                // The colour around the text only, so that the padding keeps the widths right.
                Some((coloured, word)) if coloured == column => painter.paint(word, cell),
                _ => cell.clone(),
            };
            text += &format!("{shown}{}  ", padding(cell, *width));
        }
        let (first, more) = line.last.split_first().map_or((ABSENT, &[][..]), |(f, m)| (f.as_str(), m));
        writeln!(out, "{text}{first}")?;
        let blank: String = widths.iter().map(|width| " ".repeat(width + 2)).collect();
        for more in more {
            writeln!(out, "{indent}{blank}{more}")?;
        }
    }
    Ok(())
}

/// A row of a call's table, the findings last.
fn line<'a>(row: &Row<'a>, painter: &Painter) -> Line<'a> {
    let source = row.source.map(source_words);
    Line {
        cells: vec![
            shown(row.key),
            optional(row.requested),
            optional(row.effective),
            optional(row.status),
            optional(source.as_deref()),
        ],
        last: row
            .findings
            .iter()
            .map(|d| finding_words(painter, d.severity.as_ref(), Some(&d.message), Some(&d.code)))
            .collect(),
        colour: row.status.map(|status| (3, status)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"{"tool": "libmpi_info_hintcheck", "version": "0.1.0", "implementation": "X",
        "implementation_name": null, "implementation_version": null, "target": "mpich", "rank": 0,
        "world_size": 2, "finalized": false, "checked_calls": 1, "findings": 1, "mismatches": 0,
        "notes": [], "calls": [{"count": 1, "call": "MPI_File_open", "filenames": ["a\u001b.dat"],
        "calls_on_other_files": 0, "comm_size": 2, "target": "mpich",
        "hints": [{"key": "k\udcff", "value": ""}],
        "diagnostics": [{"key": "k\udcff", "value": "", "code": "unknown-key", "severity": "warning", "message": "m1"},
                        {"key": "other", "value": "v", "code": "conflict", "severity": "note", "message": "m2"}],
        "mismatches": [], "effective": [{"key": "k\udcff", "requested": "", "effective": null, "status": "dropped"}],
        "notes": []}]}"#;

    fn render(colour: bool) -> String {
        let report = super::super::parse(REPORT.as_bytes()).unwrap();
        let mut out = Vec::new();
        write(&mut out, b"r.json", &report, colour).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_text_without_colour() {
        assert_eq!(
            render(false),
            "r.json: libmpi_info_hintcheck 0.1.0 report\n\
             totals: 1 checked call (1 distinct), 1 finding (found: 0 errors, 1 warning, 1 note, each once), 0 hints on which processes disagreed\n\
             job: X, target mpich, rank 0 of 2, not finalized (the job ended or was still running)\n\
             stack: -\nenvironment: -\nnotes: -\n\n\
             MPI_File_open: 1 call, 2 processes, target mpich\n  \
               files: a\\u{1b}.dat\n  \
               key    requested  effective  status   source  finding\n  \
               k\\xff  \"\"         -          dropped  -       warning: m1 [unknown-key]\n  \
               other  v          -          -        -       note: m2 [conflict]\n"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let text = render(true);
        assert!(text.contains("\x1b[31mdropped\x1b[0m  "), "{text}");
        assert!(text.contains("\x1b[1;35mwarning:\x1b[0m m1"), "{text}");
        assert!(!render(false).contains('\x1b'));
    }
}
